package main

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// workspaceSteps store a memory, record a trade and connect the demo
// broker with a secret in every text field, and read each back through
// the API, so the scenario proves the values were stored (and open again).
// One memory term is a secret on its own: the search index must hold
// only keyed hashes of terms.
func workspaceSteps() []scenarioStep {
	return []scenarioStep{
		{name: "memory content, category, metadata and index terms", run: func(t *testing.T, s *scenario) {
			_, key := s.agent()
			fund(t, s, key)
			term := "zq" + marker()
			s.secrets = append(s.secrets, term)
			content, category, meta := s.secret("memory content")+" "+term, s.secret("memory category"), s.secret("memory metadata")
			status, m := s.call("POST", "/v1/tools/call", key, `{"tool_name":"store_memory","arguments":{"content":"`+content+
				`","category":"`+category+`","metadata":{"note":"`+meta+`"}}}`)
			require.Equal(t, http.StatusOK, status, m)
			status, m = s.call("POST", "/v1/tools/call", key, `{"tool_name":"search_memory","arguments":{"query":"`+term+`"}}`)
			require.Equal(t, http.StatusOK, status, m)
			hits := m["result"].(map[string]any)["memories"].([]any)
			require.Len(t, hits, 1)
			hit := hits[0].(map[string]any)
			assert.Equal(t, content, hit["content"])
			assert.Equal(t, category, hit["category"])
			assert.Equal(t, map[string]any{"note": meta}, hit["metadata"])
		}},
		{name: "journal trade notes and labels", run: func(t *testing.T, s *scenario) {
			_, key := s.agent()
			fund(t, s, key)
			symbol, strategy, setup, tag, notes := s.secret("sym"), s.secret("strategy"), s.secret("setup"), s.secret("tag"), s.secret("trade notes")
			status, m := s.call("POST", "/v1/journal/record", key, `{"symbol":"`+symbol+`","direction":"long","entry_price":"100",
				"exit_price":"110","stop_price":"95","quantity":"10","strategy":"`+strategy+`","setup":"`+setup+`","tags":["`+tag+`"],
				"notes":"`+notes+`"}`)
			require.Equal(t, http.StatusOK, status, m)
			status, m = s.call("GET", "/v1/journal/trades?symbol="+symbol, key, "")
			require.Equal(t, http.StatusOK, status, m)
			require.EqualValues(t, 1, m["count"])
			trade := m["trades"].([]any)[0].(map[string]any)
			assert.Equal(t, notes, trade["notes"])
			assert.Equal(t, strategy, trade["strategy"])
			assert.Equal(t, []any{tag}, trade["tags"])
		}},
		{name: "broker connection parameters", run: func(t *testing.T, s *scenario) {
			_, key := s.agent()
			label := s.secret("account label")
			status, m := s.call("POST", "/v1/broker/connect", key, `{"broker_type":"demo","connection_params":{"account_label":"`+label+`"}}`)
			require.Equal(t, http.StatusOK, status, m)
			status, m = s.call("GET", "/v1/broker/account", key, "")
			require.Equal(t, http.StatusOK, status, m)
			assert.Equal(t, label, m["label"])
		}},
	}
}

// fund self-credits a sandbox agent for the priced workspace tools.
func fund(t *testing.T, s *scenario, key string) {
	t.Helper()
	status, m := s.call("POST", "/v1/billing/deposit", key, `{"amount":"1.00","funding_path":"direct_transfer"}`)
	require.Equal(t, http.StatusOK, status, m)
}
