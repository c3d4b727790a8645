package toolkit

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/agentfinance/toolkit"

// domainRoots are the packages that must stay pure (DESIGN.md).
var domainRoots = []string{"finance", "agents", "billing", "support", "guardian", "cryptovault"}

// forbiddenInDomain are import prefixes a domain package must never use.
var forbiddenInDomain = []string{
	"github.com/uptrace/bun", "database/sql", "github.com/gagliardetto/solana-go", "github.com/tink-crypto/",
	"net/http", module + "/adapters", module + "/httpapi", module + "/examples",
}

// TestImportDirection enforces the dependency rules: domain packages
// import no technology and no adapter; httpapi imports no adapter.
func TestImportDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	require.NoError(t, err, "go list")
	checked := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		pkg, imports := fields[0], fields[1:]
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
		var forbidden []string
		switch {
		case rel == "" || isDomain(rel):
			forbidden = forbiddenInDomain
		case rel == "httpapi" || strings.HasPrefix(rel, "httpapi/"):
			forbidden = []string{module + "/adapters", module + "/examples"}
		default:
			continue
		}
		checked++
		for _, imp := range imports {
			for _, f := range forbidden {
				assert.False(t, imp == f || strings.HasPrefix(imp, f+"/") || (strings.HasSuffix(f, "/") && strings.HasPrefix(imp, f)),
					"%s must not import %s", pkg, imp)
			}
		}
	}
	assert.GreaterOrEqual(t, checked, 4, "the rule saw the domain packages")
}

func isDomain(rel string) bool {
	for _, d := range domainRoots {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}
