package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// metaOf is a tools/call whose _meta holds n bytes of padding.
func metaOf(n int) string {
	return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"calculate_pnl","arguments":{},` +
		`"_meta":{"pad":"` + strings.Repeat("x", n-len(`{"pad":""}`)) + `"}}}`
}

func TestEnvelopeRefusals(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":` + strings.Repeat(`{"a":`, 30) + `1` + strings.Repeat("}", 30) + `}}`
	var sb strings.Builder
	sb.WriteString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"k0":1`)
	for i := range 200_000 {
		fmt.Fprintf(&sb, `,"k%d":1`, i+1)
	}
	sb.WriteString(`}}}`)
	manyKeys := sb.String()
	cases := []struct {
		name, body string
		code       int64
		message    string
		id         string
	}{
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not accepted", "null"},
		{"empty", "  ", jsonrpc.CodeInvalidRequest, "the body is empty", "null"},
		{"not JSON", `{"jsonrpc":"2.0",`, jsonrpc.CodeParseError, "invalid JSON", "null"},
		{"duplicate method", `{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"initialize"}`, jsonrpc.CodeInvalidRequest, "method: appears twice", "null"},
		// Keys twice in params: the envelope checks the first _meta, the
		// SDK would decode both.
		{"duplicate _meta", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{},"_meta":{},"_meta":{}}}`,
			jsonrpc.CodeInvalidRequest, "_meta: appears twice", "1"},
		{"unknown member", `{"jsonrpc":"2.0","id":1,"Method":"initialize"}`, jsonrpc.CodeInvalidRequest, "Unknown member: Method", "null"},
		{"version", `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, `jsonrpc: must be "2.0"`, "null"},
		{"long id", `{"jsonrpc":"2.0","id":"` + strings.Repeat("i", 257) + `","method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "id: must be at most 256 characters", "null"},
		{"meta over 4 KiB", metaOf(4<<10 + 1), jsonrpc.CodeInvalidParams, "params._meta is over 4096 bytes", "7"},
		{"200,000 keys in _meta", manyKeys, jsonrpc.CodeInvalidRequest, "params._meta: an object holds more than 1000 members", "null"},
		{"deep arguments", deep, jsonrpc.CodeInvalidRequest, "nested deeper than 24 levels", "null"},
		{"inputResponses of tools/call", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x","arguments":{},` +
			`"inputResponses":{"r":{"action":"accept","content":{"pad":[` + strings.Repeat(`{"k":"v"},`, 7000) + `{}]}}}}}`,
			jsonrpc.CodeInvalidParams, `params of "tools/call" other than arguments are over 65536 bytes`, "5"},
		{"params of tools/list", `{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"cursor":"` + strings.Repeat("c", 70_000) + `"}}`,
			jsonrpc.CodeInvalidParams, `params of "tools/list" are over 65536 bytes`, `"a"`},
		{"initialize over 16 KiB", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
			`"capabilities":{"experimental":{"x":"` + strings.Repeat("c", 16<<10) + `"}},"clientInfo":{"name":"c","version":"1"}}}`,
			jsonrpc.CodeInvalidParams, "initialize params are over 16384 bytes", "0"},
		{"long client name", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
			`"capabilities":{},"clientInfo":{"name":"` + strings.Repeat("n", 257) + `","version":"1"}}}`,
			jsonrpc.CodeInvalidParams, "clientInfo.name is over 256 characters", "0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, e := checkEnvelope([]byte(tc.body), EnvelopeLimits{})
			require.NotNil(t, e)
			assert.Equal(t, tc.code, int64(e.code))
			assert.Contains(t, e.message, tc.message)
			var resp struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   jsonrpc.Error   `json:"error"`
			}
			require.NoError(t, json.Unmarshal(e.response(), &resp))
			assert.Equal(t, "2.0", resp.JSONRPC)
			assert.JSONEq(t, tc.id, string(resp.ID))
			assert.Equal(t, tc.code, resp.Error.Code)
		})
	}
}

func TestEnvelopeAccepts(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"analyze_greeks","arguments":{"chain":[` +
		strings.TrimSuffix(strings.Repeat(`{"strike":"100"},`, 50_000), ",") + `]}}}`
	for name, body := range map[string]string{
		"meta of 4 KiB":  metaOf(4 << 10),
		"large call":     big,
		"notification":   `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		"response":       `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
		"no params":      `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		"custom limits":  metaOf(100),
		"tools/list":     `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"abc","_meta":{"progressToken":1}}}`,
		"spaces outside": " \n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
		// The values' own rules are the tool's (a tool error the model can
		// act on), not the envelope's.
		"values for the tool to judge": `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x",` +
			`"arguments":{"note":"a\u0000\b","quantity":999999999999999999999,"big":1e300},"_meta":{"idempotency_key":"a\u0007"}}}`,
		"arguments with a key twice": `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"x",` +
			`"arguments":{"equity":1,"equity":2,"bars":[{"open":1,"open":1}]}}}`,
	} {
		env, e := checkEnvelope([]byte(body), EnvelopeLimits{})
		require.Nil(t, e, "%s: %v", name, e)
		assert.Equal(t, body, string(env.body), "%s is handed over as sent", name)
		_, err := jsonrpc.DecodeMessage(env.body)
		assert.NoError(t, err, name)
	}
	_, e := checkEnvelope([]byte(metaOf(100)), EnvelopeLimits{MaxMetaBytes: 50})
	require.NotNil(t, e, "the limits are configurable")
	assert.Contains(t, e.message, "over 50 bytes")
}

// A session keeps only the protocol version and the client's name and
// version of its initialize: the capabilities never reach the SDK.
func TestInitializeKeepsOnlyWhatASessionNeeds(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
		`"capabilities":{"roots":{"listChanged":true},"experimental":{"big":"` + strings.Repeat("c", 10<<10) + `"}},` +
		`"clientInfo":{"name":"inspector","version":"0.16.2","title":"MCP Inspector"},"_meta":{"x":1}}}`
	env, e := checkEnvelope([]byte(body), EnvelopeLimits{})
	require.Nil(t, e)
	assert.Equal(t, "initialize", env.method)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",`+
		`"capabilities":{},"clientInfo":{"name":"inspector","version":"0.16.2"}}}`, string(env.body))
	msg, err := jsonrpc.DecodeMessage(env.body)
	require.NoError(t, err)
	assert.Equal(t, "initialize", msg.(*jsonrpc.Request).Method)
}

// FuzzCheckEnvelope: any body is refused with a JSON-RPC error or handed
// over as one JSON object whose _meta and initialize params are within
// the limits; nothing panics.
func FuzzCheckEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `[{"jsonrpc":"2.0"}]`, metaOf(200),
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"x","capabilities":{"a":[1]},"clientInfo":{"name":"n","version":"v"}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"_meta":{"a":{"b":[1,2]}},"arguments":{"k":"v"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`, `{`, `{"id":1e5}`, `{"params":[]}`,
	} {
		f.Add([]byte(s))
	}
	lim := EnvelopeLimits{MaxMetaBytes: 64, MaxInitializeBytes: 256, MaxParamsBytes: 512}
	f.Fuzz(func(t *testing.T, body []byte) {
		env, e := checkEnvelope(body, lim)
		if e != nil {
			if !json.Valid(e.response()) {
				t.Fatalf("%q: invalid error response %s", body, e.response())
			}
			return
		}
		// Keys are matched exactly, as the SDK's decoder does (encoding/json
		// would take "_metA" for "_meta").
		var msg, params map[string]json.RawMessage
		if err := json.Unmarshal(env.body, &msg); err != nil {
			t.Fatalf("%q: handed over %q, not one JSON object: %v", body, env.body, err)
		}
		var method string
		_ = json.Unmarshal(msg["method"], &method)
		if msg["params"] != nil && json.Unmarshal(msg["params"], &params) != nil {
			t.Fatalf("%q: params handed over are no object", body)
		}
		if len(params["_meta"]) > lim.MaxMetaBytes && method != "initialize" {
			t.Fatalf("%q: _meta of %d bytes handed over", body, len(params["_meta"]))
		}
		if method == "tools/call" && len(msg["params"])-len(params["arguments"]) > lim.MaxParamsBytes {
			t.Fatalf("%q: tools/call params of %d bytes besides its arguments handed over", body, len(msg["params"])-len(params["arguments"]))
		}
		if c := params["capabilities"]; method == "initialize" && len(c) > 0 && string(c) != "{}" {
			t.Fatalf("%q: initialize capabilities handed over", body)
		}
	})
}

func BenchmarkCheckEnvelope(b *testing.B) {
	big := []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"calculate_indicators","arguments":{"bars":[` +
		strings.TrimSuffix(strings.Repeat(`{"open":"1.5","high":"2","low":"1","close":"1.75","volume":"1000"},`, 100_000), ",") + `]}}}`)
	b.SetBytes(int64(len(big)))
	for b.Loop() {
		if _, e := checkEnvelope(big, EnvelopeLimits{}); e != nil {
			b.Fatal(e)
		}
	}
}
