package finance

import (
	"bytes"
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

var update = flag.Bool("update", false, "rewrite the testdata golden files from the current results")

// goldenCase is one vector of a golden file: an input (the tool's JSON
// arguments) and the expected output (the result's JSON).
type goldenCase struct {
	Name   string          `json:"name"`
	Limits json.RawMessage `json:"limits,omitempty"`
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output"`
}

// runGolden runs every case of testdata/file through run and compares the
// JSON result with the stored output: strings holding numbers compare
// within 1e-9 relative, everything else exactly. With -update it rewrites
// the outputs instead. check, when non-nil, verifies each case against an
// independent computation, so the file never simply vouches for itself.
func runGolden[In any](t *testing.T, file string, run func(In, AgentLimits) (any, error), check func(t *testing.T, in In, out any)) {
	t.Helper()
	path := filepath.Join("testdata", file)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var cases []goldenCase
	require.NoError(t, json.Unmarshal(raw, &cases))
	require.NotEmpty(t, cases)
	for i, c := range cases {
		var in In
		dec := json.NewDecoder(bytes.NewReader(c.Input))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&in), c.Name)
		var limits AgentLimits
		if len(c.Limits) > 0 {
			require.NoError(t, json.Unmarshal(c.Limits, &limits), c.Name)
		}
		out, err := run(in, limits)
		require.NoError(t, err, c.Name)
		if check != nil {
			check(t, in, out)
		}
		got, err := json.Marshal(out)
		require.NoError(t, err)
		if *update {
			cases[i].Output = got
			continue
		}
		var want, have any
		require.NoError(t, json.Unmarshal(c.Output, &want), c.Name)
		require.NoError(t, json.Unmarshal(got, &have))
		assertJSONClose(t, want, have, c.Name)
	}
	if *update {
		b, err := json.MarshalIndent(cases, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, append(b, '\n'), 0o644))
	}
}

// assertJSONClose compares decoded JSON values, allowing 1e-9 relative
// error on numeric strings (float statistics may differ in the last bits
// across architectures).
func assertJSONClose(t *testing.T, want, have any, where string) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !assert.True(t, ok, "%s: want an object", where) {
			return
		}
		assert.Len(t, h, len(w), "%s: keys", where)
		for k, v := range w {
			assertJSONClose(t, v, h[k], where+"."+k)
		}
	case []any:
		h, ok := have.([]any)
		if !assert.True(t, ok, "%s: want an array", where) || !assert.Len(t, h, len(w), where) {
			return
		}
		for i := range w {
			assertJSONClose(t, w[i], h[i], where+"["+strconv.Itoa(i)+"]")
		}
	case string:
		h, ok := have.(string)
		if ok && h != w {
			a, errA := strconv.ParseFloat(w, 64)
			b, errB := strconv.ParseFloat(h, 64)
			if errA == nil && errB == nil && math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(a)) {
				return
			}
		}
		assert.Equal(t, w, have, where)
	default:
		assert.Equal(t, want, have, where)
	}
}
