package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An MCP tool error lists every violation as the REST 400 does: errors in
// _meta and in the JSON text, the same list as REST's (at most 50), its
// first being the detail. A key sent twice in the arguments is the tool's
// error too, not a refused message that would end the client's session:
// the cases after it run on the same session.
func TestMCPToolErrorsListEveryViolation(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	_, k := e.register("acme")
	e.fund(k, "1")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	cases := []struct {
		tool, arguments string
		want            int
	}{
		{"calculate_position_size", `{"equity":"25000","equity":"25000","entry_price":"10.30","stop_price":"10.20","direction":"long"}`, 1},
		{"calculate_position_size", `{"equity":"abc","entry_price":"10.30","stop_price":"x","direction":"up"}`, 3},
		{"analyze_drawdown", `{"starting_equity":"100000","r_multiples":["` + strings.Repeat(`x","`, 59) + `x"]}`, toolkit.MaxFieldErrors},
	}
	for _, tc := range cases {
		status, rest := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"`+tc.tool+`","arguments":`+tc.arguments+`}`)
		require.Equal(t, http.StatusBadRequest, status, rest)
		require.Len(t, rest["errors"], tc.want, tc.tool)

		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(tc.arguments)})
		require.NoError(t, err)
		body := errorBody(t, res)
		assert.Equal(t, rest["errors"], res.Meta["errors"], "%s: _meta.errors is REST's list", tc.tool)
		assert.Equal(t, rest["errors"], body["errors"], "%s: so is the text's", tc.tool)
		assert.Equal(t, rest["detail"], body["detail"], tc.tool)
		first := body["errors"].([]any)[0].(map[string]any)
		assert.Equal(t, body["detail"], first["message"], "%s: the detail is the first violation", tc.tool)
		assert.ElementsMatch(t, []string{"field", "rule", "message"}, keysOf(first), tc.tool)
	}
	assert.Equal(t, "1.00", e.balance(k), "nothing was charged")

	_, unfunded := e.register("other")
	cs, err = e.mcpConnect(t, "streamable", unfunded)
	require.NoError(t, err)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "calculate_position_size",
		Arguments: map[string]any{"equity": "25000", "entry_price": "10.30", "stop_price": "10.20", "direction": "long"}})
	require.NoError(t, err)
	assert.Equal(t, "insufficient_credits", errorBody(t, res)["code"])
	assert.NotContains(t, res.Meta, "errors", "a refusal that is no validation lists nothing")
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// fullBillingStore refuses every charge: its disk is full.
type fullBillingStore struct{ billing.Store }

func (fullBillingStore) Charge(context.Context, billing.ChargeRequest) (billing.Transaction, error) {
	return billing.Transaction{}, &toolkit.Error{Kind: toolkit.Unavailable, Op: "bunstore.Charge", Err: diskFull{},
		Msg: "the database's disk is full; writes are refused until space is freed, retry later", RetryAfter: 30 * time.Second}
}

// A storage fault inside an MCP tool call is reported as on REST: a tool
// error unavailable with retry_after, one log line naming the cause and a
// disk_full guardian event.
func TestMCPStorageFaultIsLoggedAndRecorded(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c), func(c *envConfig) {
		c.billingStore = func(s billing.Store) billing.Store { return fullBillingStore{s} }
	})
	_, k := e.register("acme")
	e.fund(k, "1")
	cs, err := e.mcpConnect(t, "streamable", k)
	require.NoError(t, err)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "demo_double", Arguments: map[string]any{"value": "2"}})
	require.NoError(t, err)
	body := errorBody(t, res)
	assert.Equal(t, "unavailable", body["code"])
	assert.EqualValues(t, 30, res.Meta["retry_after"])
	assert.Contains(t, body["detail"], "disk is full")
	assert.NotContains(t, body["detail"], "(13)", "the driver's text stays in the logs")
	assert.Equal(t, 1, strings.Count(e.logs.String(), "database or disk is full (13)"), "one log line names the cause")

	c.Advance(2 * time.Minute) // the event's window closes
	events := e.eventsOf(guardian.TypeDiskFull)
	require.Len(t, events, 1)
	assert.Equal(t, "critical", events[0]["severity"])
}

// listTool is a priced tool answering count decimal strings.
func listTool() catalog.Tool {
	type input struct {
		Count int `json:"count"`
	}
	return catalog.NewTool(catalog.Spec{Name: "demo_list", Description: "Lists count values.", Category: "demo", Operation: "position_sizing"},
		func(_ context.Context, _ catalog.Call, in input) (any, error) {
			values := make([]string, in.Count)
			for i := range values {
				values[i] = "1.5"
			}
			return map[string]any{"values": values}, nil
		}, nil)
}

// An MCP answer carries the result twice (text and structuredContent)
// only while both fit the response cap; past it, once: in
// structuredContent with a pointer as text for a client that reads it,
// as text for an older one; over the cap even once is a too_large tool
// error, not charged.
func TestMCPAnswerCarriesTheResultOnceOverTheCap(t *testing.T) {
	const maxBytes = 4000 // 200 values: 1,212 bytes, 1,616 as text; 400: 2,412 and 3,216; 600: 3,612 and 4,816
	e := newEnv(t, func(c *envConfig) {
		c.maxResponseBytes = maxBytes
		cat, err := catalog.New(listTool())
		require.NoError(t, err)
		c.catalog = cat
	})
	_, k := e.register("acme")
	e.fund(k, "1")
	sessions := map[string]map[string]string{"2025-06-18": e.rawSession(t, k, "2025-06-18"), "2025-03-26": e.rawSession(t, k, "2025-03-26")}
	cases := []struct {
		version          string
		count            int
		text, structured bool // the text is the result; structuredContent is present
		tooLarge         bool
	}{
		{"2025-06-18", 200, true, true, false},
		{"2025-03-26", 200, true, true, false},
		{"2025-06-18", 400, false, true, false},
		{"2025-03-26", 400, true, false, false},
		{"2025-06-18", 600, false, true, false},
		{"2025-03-26", 600, false, false, true},
	}
	balance := mustAmount(e.balance(k))
	for _, tc := range cases {
		name := tc.version + " " + strconv.Itoa(tc.count)
		status, _, answer := e.rawMCP(t, e.srv.URL+"/mcp", k, sessions[tc.version], `{"jsonrpc":"2.0","id":1,"method":"tools/call",`+
			`"params":{"name":"demo_list","arguments":{"count":`+strconv.Itoa(tc.count)+`}}}`)
		require.Equal(t, http.StatusOK, status, answer)
		var msg struct {
			Result struct {
				IsError           bool                       `json:"isError"`
				Meta              map[string]any             `json:"_meta"`
				Content           []mcp.TextContent          `json:"content"`
				StructuredContent *struct{ Values []string } `json:"structuredContent"`
			} `json:"result"`
		}
		require.NoError(t, json.Unmarshal([]byte(answer), &msg), name)
		res := msg.Result
		require.Len(t, res.Content, 1, name)
		if tc.tooLarge {
			assert.True(t, res.IsError, name)
			assert.Equal(t, "too_large", res.Meta["code"], name)
			assert.Contains(t, res.Content[0].Text, "would be 4816 bytes, more than the 4000 allowed", name)
			continue
		}
		require.False(t, res.IsError, name)
		balance = balance.Sub(mustAmount("0.003"))
		assert.Equal(t, "0.003", res.Meta["charged"], name)
		if tc.text {
			var values struct{ Values []string }
			require.NoError(t, json.Unmarshal([]byte(res.Content[0].Text), &values), name)
			assert.Len(t, values.Values, tc.count, name)
		} else {
			text := res.Content[0].Text
			assert.Contains(t, text[:min(len(text), 300)], "is in structuredContent only", name)
		}
		if assert.Equal(t, tc.structured, res.StructuredContent != nil, name) && tc.structured {
			assert.Len(t, res.StructuredContent.Values, tc.count, name)
		}
		assert.LessOrEqual(t, len(answer), maxBytes+500, "%s: the answer is the cap and its envelope", name)
	}
	assert.Equal(t, balance.String(), e.balance(k), "charged for each answer, not for the one over the cap")
}
