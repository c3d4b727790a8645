// Package golden compares results with the golden files of the finance
// tests and rewrites the files when the test binary runs with -update.
//
// Decimal strings (how the toolkit writes float results) compare as
// numbers within a relative Tolerance (1e-10), so results may differ in the last
// bits across architectures (FMA on arm64); everything else, JSON numbers
// (counts, indices, seeds) included, compares exactly. Import it from tests only: it registers the -update flag.
package golden

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// Tolerance is the relative tolerance of numbers: |got − want| ≤
// Tolerance·|want|, or ≤ AbsoluteFloor for values that should be 0 but
// carry float64 noise (1e-19 against 0).
const Tolerance = 1e-10

// AbsoluteFloor is the absolute difference always accepted.
const AbsoluteFloor = 1e-15

// Update reports whether the test binary runs with -update.
func Update() bool { return *update }

// Check compares got, as indented JSON, with the golden file at path
// (relative to the test's package, e.g. "testdata/x.json"). With -update it
// writes the file first, creating its directory.
func Check(t testing.TB, path string, got any) {
	t.Helper()
	b, err := json.MarshalIndent(got, "", "  ")
	require.NoError(t, err)
	if Update() {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, append(b, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	AssertJSON(t, want, b, path)
}

// AssertJSON asserts that two JSON documents hold the same values, strings
// holding numbers within Tolerance. where names the document
// in failure messages, which give the path of each difference.
func AssertJSON(t testing.TB, want, got []byte, where string) {
	t.Helper()
	var w, g any
	require.NoError(t, json.Unmarshal(want, &w), "%s: golden JSON", where)
	require.NoError(t, json.Unmarshal(got, &g), "%s: result JSON", where)
	assertClose(t, w, g, where)
}

// assertClose compares decoded JSON values and recurses into objects and
// arrays.
func assertClose(t testing.TB, want, got any, path string) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !assert.True(t, ok, "%s: want an object, got %v", path, got) {
			return
		}
		assert.Len(t, g, len(w), "%s: keys", path)
		for k, v := range w {
			gv, ok := g[k]
			if assert.True(t, ok, "%s: missing key %q", path, k) {
				assertClose(t, v, gv, path+"."+k)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !assert.True(t, ok, "%s: want an array, got %v", path, got) || !assert.Len(t, g, len(w), "%s: length", path) {
			return
		}
		for i := range w {
			assertClose(t, w[i], g[i], path+"["+strconv.Itoa(i)+"]")
		}
	case string:
		if g, ok := got.(string); ok && g != w {
			wf, errW := strconv.ParseFloat(w, 64)
			gf, errG := strconv.ParseFloat(g, 64)
			if errW == nil && errG == nil {
				assert.InDelta(t, wf, gf, math.Max(AbsoluteFloor, Tolerance*math.Abs(wf)), path)
				return
			}
		}
		assert.Equal(t, want, got, path)
	default:
		assert.Equal(t, want, got, path)
	}
}
