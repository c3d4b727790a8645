package derivatives

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenTolerance is the relative tolerance for numbers in golden files
// (float results may differ in the last bits across architectures).
const goldenTolerance = 1e-9

// checkGolden compares the JSON of got with testdata/name, comparing
// numbers (and decimal strings) within goldenTolerance. With -update it
// rewrites the file instead.
func checkGolden(t *testing.T, name string, got any) {
	t.Helper()
	path := filepath.Join("testdata", name)
	b, err := json.MarshalIndent(got, "", "  ")
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile(path, append(b, '\n'), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test -update")
	var w, g any
	require.NoError(t, json.Unmarshal(want, &w))
	require.NoError(t, json.Unmarshal(b, &g))
	if diffs := goldenDiff("", w, g, nil); len(diffs) > 0 {
		t.Errorf("%s differs from the golden file:\n%v", name, diffs)
	}
}

// goldenDiff lists the paths where want and got differ.
func goldenDiff(path string, want, got any, out []string) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return append(out, fmt.Sprintf("%s: object %v vs %v", path, w, got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = goldenDiff(path+"."+k, w[k], g[k], out)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return append(out, fmt.Sprintf("%s: array length differs", path))
		}
		for i := range w {
			out = goldenDiff(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], out)
		}
	case string:
		g, ok := got.(string)
		if !ok {
			return append(out, fmt.Sprintf("%s: %q vs %v", path, w, got))
		}
		wf, err1 := strconv.ParseFloat(w, 64)
		gf, err2 := strconv.ParseFloat(g, 64)
		if err1 == nil && err2 == nil {
			if math.Abs(wf-gf) > goldenTolerance*math.Max(1, math.Abs(wf)) {
				out = append(out, fmt.Sprintf("%s: %s vs %s", path, w, g))
			}
		} else if w != g {
			out = append(out, fmt.Sprintf("%s: %q vs %q", path, w, g))
		}
	default:
		if fmt.Sprint(want) != fmt.Sprint(got) {
			out = append(out, fmt.Sprintf("%s: %v vs %v", path, want, got))
		}
	}
	return out
}
