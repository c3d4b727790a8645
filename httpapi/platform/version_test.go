package platform

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionFromTheBuild(t *testing.T) {
	old := version
	t.Cleanup(func() { version = old })
	version = "0.3.0"
	assert.Equal(t, "0.3.0", Version(), "-ldflags -X wins")
	version = ""
	assert.NotEmpty(t, Version(), "else what Go recorded, else devel")
}

// TestVersionFlagOfTheReferenceServer builds the reference server with the
// version set the way the CHANGELOG says and runs it with -version.
func TestVersionFlagOfTheReferenceServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the reference server")
	}
	bin := filepath.Join(t.TempDir(), "server")
	build := exec.Command("go", "build", "-o", bin, "-ldflags", "-X "+modulePath+"/httpapi/platform.version=9.8.7", "../../examples/server")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = exec.Command(bin, "-version").Output()
	require.NoError(t, err)
	assert.Equal(t, "agent-finance-toolkit 9.8.7", strings.TrimSpace(string(out)))
	_ = os.Remove(bin)
}
