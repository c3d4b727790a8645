package finance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentfinance/toolkit/finance/internal/golden"
	"github.com/stretchr/testify/require"
)

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
// within golden.Tolerance (1e-10 relative), everything else exactly. With -update it rewrites
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
		if golden.Update() {
			cases[i].Output = got
			continue
		}
		golden.AssertJSON(t, c.Output, got, c.Name)
	}
	if golden.Update() {
		b, err := json.MarshalIndent(cases, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, append(b, '\n'), 0o644))
	}
}
