package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/agentfinance/toolkit/httpapi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPricedAnswersSayWhatTheyCost: every priced answer carries what it
// debited and the balance after it; a replay is marked and debits
// nothing; a free tool carries no charge headers.
func TestPricedAnswersSayWhatTheyCost(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("charges")
	e.fund(k, "1.00")
	call := `{"tool_name":"demo_double","arguments":{"value":"2"}}`
	for _, c := range []struct {
		name, path, body string
	}{
		{"tools/call", "/v1/tools/call", call},
	} {
		status, h, m := e.exchange("POST", c.path, key(k), c.body)
		require.Equal(t, http.StatusOK, status, m)
		assert.Equal(t, "0.003", h.Get("X-Charged"), c.name)
		assert.Equal(t, "0.997", h.Get("X-Balance"), c.name)
		assert.Empty(t, h.Get("Idempotent-Replayed"), c.name)
	}

	idem := map[string]string{"X-API-Key": k, "Idempotency-Key": "order-1"}
	status, h, first := e.exchange("POST", "/v1/tools/call", idem, call)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "0.003", h.Get("X-Charged"))
	assert.Equal(t, "0.994", h.Get("X-Balance"))
	status, h, again := e.exchange("POST", "/v1/tools/call", idem, call)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, first, again, "a replay answers as the first call did")
	assert.Equal(t, "true", h.Get("Idempotent-Replayed"))
	assert.Equal(t, "0", h.Get("X-Charged"), "a replay debits nothing")
	assert.Empty(t, h.Get("X-Balance"), "no debit, no balance after it")
	assert.Equal(t, "0.994", e.balance(k))

	status, h, _ = e.exchange("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_free","arguments":{"value":"2"}}`)
	require.Equal(t, http.StatusOK, status)
	assert.Empty(t, h.Get("X-Charged"), "free tools carry no charge")
	assert.Empty(t, h.Get("X-Balance"))
}

// TestPaymentRequiredSaysByHowMuch: the 402 keeps the published detail and
// adds the two amounts as decimals.
func TestPaymentRequiredSaysByHowMuch(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("short")
	e.fund(k, "0.001")
	status, m := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_double","arguments":{"value":"2"}}`)
	require.Equal(t, http.StatusPaymentRequired, status, m)
	assert.Equal(t, map[string]any{"detail": "Insufficient balance. Required: $0.003, Available: $0.001",
		"code": "insufficient_credits", "required": "0.003", "available": "0.001"}, m)
	assert.Zero(t, e.runs)
}

// TestRequestIDsTravelBothWays: a client's X-Request-Id comes back; without
// one the server makes one.
func TestRequestIDsTravelBothWays(t *testing.T) {
	e := newEnv(t)
	_, h, _ := e.exchange("GET", "/v1/billing/pricing", map[string]string{"X-Request-Id": "trace-42"}, "")
	assert.Equal(t, "trace-42", h.Get("X-Request-Id"))
	_, h, _ = e.exchange("GET", "/v1/billing/pricing", nil, "")
	assert.Regexp(t, `^[0-9a-f]{16}$`, h.Get("X-Request-Id"))
	status, h, m := e.exchange("GET", "/v1/agents/me", map[string]string{"X-Request-Id": "trace-43"}, "")
	require.Equal(t, http.StatusUnauthorized, status, m)
	assert.Equal(t, "trace-43", h.Get("X-Request-Id"), "errors carry it too")
}

// TestLedgerPagesThroughEveryRow pages through 2,500 rows, 1,000 at a
// time, while other calls add rows: every row exactly once, newest first.
func TestLedgerPagesThroughEveryRow(t *testing.T) {
	e := newEnv(t, func(c *envConfig) { c.billing.SandboxCreditCap = mustAmount("1000000") },
		withRateLimits(httpapi.RateLimits{Disabled: true}))
	_, k := e.register("ledger")
	const rows = 2500
	for i := range rows {
		require.NoError(t, e.fundQuietly(k, fmt.Sprintf("0.%06d", i+1)))
	}
	var seen []string
	cursor := ""
	for page := 0; ; page++ {
		require.Less(t, page, 10)
		path := "/v1/billing/transactions?limit=1000"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		status, m := e.do("GET", path, key(k), "")
		require.Equal(t, http.StatusOK, status, m)
		for _, tx := range m["transactions"].([]any) {
			seen = append(seen, tx.(map[string]any)["amount"].(string))
		}
		assert.EqualValues(t, len(m["transactions"].([]any)), m["count"])
		require.NoError(t, e.fundQuietly(k, "5"), "rows keep arriving while the client pages")
		if m["has_more"] == false {
			assert.Nil(t, m["next_cursor"], "the last page has no cursor")
			break
		}
		cursor = m["next_cursor"].(string)
	}
	require.Len(t, seen, rows)
	for i, amount := range seen {
		want := fmt.Sprintf("0.%06d", rows-i)
		require.Zero(t, mustAmount(want).Cmp(mustAmount(amount)), "row %d is %s, want %s", i, amount, want)
	}
}

// TestLedgerQueryIsChecked: unknown or repeated parameters and bad
// cursors are 400s naming them.
func TestLedgerQueryIsChecked(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("ledgerq")
	for query, want := range map[string]string{
		"?page=2":              "Unknown query parameter: \"page\" (allowed: limit, cursor)",
		"?limit=0":             "limit: must be an integer between 1 and 1000",
		"?limit=1&limit=2":     "limit: appears twice",
		"?cursor=bogus":        "cursor: must be the next_cursor of a previous answer",
		"?cursor=bDEuMi5hYmM":  "cursor: must be the next_cursor of a previous answer",
		"?limit=5&offset=1000": "Unknown query parameter: \"offset\"",
	} {
		status, m := e.do("GET", "/v1/billing/transactions"+query, key(k), "")
		require.Equal(t, http.StatusBadRequest, status, query)
		assert.Contains(t, m["detail"], want, query)
	}
	status, m := e.do("GET", "/v1/agents/me?verbose=1", key(k), "")
	require.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, m["detail"], "Unknown query parameter: \"verbose\" (allowed: none)")
}
