package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawPost posts body with the agent's key and returns the status and the
// answer's bytes as sent.
func (e *env) rawPost(t *testing.T, path, k, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", e.srv.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", k)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, raw
}

// TestSamplingToolsAnswerTheSameEverywhere: the tools that sample
// (run_monte_carlo, assess_trading_system) called without a seed answer
// byte for byte the same on every call and on every surface — the REST
// shortcut, POST /v1/tools/call and MCP — because the seed is derived from
// the canonical arguments, and the answer says so.
func TestSamplingToolsAnswerTheSameEverywhere(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	_, k := e.register("same-answer")
	e.fund(k, "50")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	cases := []struct {
		tool, shortcut, args string
	}{
		{"run_monte_carlo", "", `{"r_multiples":["1.5","-1","2","-0.5","0.8","-1","3"],"starting_equity":"10000","num_simulations":200}`},
		{"assess_trading_system", "/v1/compound/assess-system", `{"r_multiples":["1.5","-1","2","-0.5","0.8","-1","3"]}`},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			var answers [][]byte
			for range 2 {
				status, raw := e.rawPost(t, "/v1/tools/call", k, `{"tool_name":"`+c.tool+`","arguments":`+c.args+`}`)
				require.Equal(t, http.StatusOK, status, "%s", raw)
				var call struct {
					Result json.RawMessage `json:"result"`
				}
				require.NoError(t, json.Unmarshal(raw, &call))
				answers = append(answers, call.Result)

				if c.shortcut != "" {
					status, raw = e.rawPost(t, c.shortcut, k, c.args)
					require.Equal(t, http.StatusOK, status, "%s", raw)
					answers = append(answers, bytes.TrimSuffix(raw, []byte("\n"))) // the body's final newline is framing
				}

				var args map[string]any
				require.NoError(t, json.Unmarshal([]byte(c.args), &args))
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: args})
				require.NoError(t, err)
				require.False(t, res.IsError)
				require.Len(t, res.Content, 1)
				answers = append(answers, []byte(res.Content[0].(*mcp.TextContent).Text))
			}
			for i, a := range answers[1:] {
				assert.True(t, bytes.Equal(answers[0], a), "answer %d differs from the first %s", i+1, firstDifference(answers[0], a))
			}
			assert.Contains(t, string(answers[0]), `"seed_from":"derived"`)
		})
	}
}

// firstDifference shows where two answers part.
func firstDifference(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-40)
	return fmt.Sprintf("at byte %d of %d/%d: %q vs %q", i, len(a), len(b), a[lo:min(len(a), i+40)], b[lo:min(len(b), i+40)])
}
