package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	sizingBody = `{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`
	riskBody   = `{"symbol":"AAPL","direction":"long","entry_price":"185.50","stop_price":"180.00","quantity":"100","equity":"100000"}`
	gateBody   = `{"symbol":"AAPL","direction":"long","entry_price":"185.50","stop_price":"180.00","equity":"100000","r_multiples":["1.5","-1","2.3","-0.5","1.8","-1","3.2","0.8"]}`
	rBody      = `{"r_multiples":["1.5","-1.0","2.3","-0.5","1.8","-1.0","3.2","0.8","1.1","-0.7","2.0","-1.0"]}`
)

// TestRESTShortcutsChargeTheirPrice walks the seven finance endpoints on a
// fresh API with the real catalog and checks each charge exactly.
func TestRESTShortcutsChargeTheirPrice(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	_, k := e.register("acme")
	e.fund(k, "10")
	cases := []struct {
		path, body, price, field string
	}{
		{"/v1/sizing/calculate", sizingBody, "0.003", "shares"},
		{"/v1/risk/check", riskBody, "0.004", "approved"},
		{"/v1/eval/basic", rBody, "0.10", "verdict"},
		{"/v1/eval/full", rBody, "0.50", "rolling_g"},
		{"/v1/eval/comprehensive", rBody, "1.00", "impact"},
		{"/v1/compound/pre-trade-gate", gateBody, "0.01", "gate_passed"},
		{"/v1/compound/assess-system", rBody, "2.00", "verdict"},
	}
	for _, c := range cases {
		status, m := e.do("POST", c.path, key(k), c.body)
		require.Equal(t, http.StatusOK, status, "%s: %v", c.path, m)
		assert.Contains(t, m, c.field, c.path)
		assert.NotContains(t, m, "tool_name", "shortcuts return the bare result")
	}
	assert.Equal(t, "6.383", e.balance(k), "10 - (0.003+0.004+0.10+0.50+1.00+0.01+2.00)")

	status, m := e.do("POST", "/v1/sizing/calculate", key(k), sizingBody)
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 363, m["shares"])

	status, u := e.do("GET", "/v1/billing/usage", key(k), "")
	require.Equal(t, http.StatusOK, status)
	ops := u["operations"].(map[string]any)
	for _, op := range []string{"position_sizing", "risk_check", "basic_eval", "full_eval", "comprehensive_eval", "pre_trade_gate", "assess_trading_system"} {
		assert.Contains(t, ops, op)
	}
}

func TestShortcutsAndToolsCallChargeIdentically(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	_, k := e.register("acme")
	e.fund(k, "1")
	status, viaREST := e.do("POST", "/v1/sizing/calculate", key(k), sizingBody)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "0.997", e.balance(k))
	status, viaTool := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"calculate_position_size","arguments":`+sizingBody+`}`)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "0.994", e.balance(k))
	assert.Equal(t, viaREST, viaTool["result"])

	status, _ = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"evaluate_performance","arguments":{"r_multiples":["1","-1","2"],"tier":"full"}}`)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "0.494", e.balance(k), "the full tier costs 0.50 through tools/call too")
	status, _ = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"calculate_options_size","arguments":{"mode":"premium","equity":"10000","risk_pct":"0.01","entry_premium":"2.5"}}`)
	assert.Equal(t, http.StatusOK, status, "published aliases resolve")
}

func TestShortcutsPaymentRequiredAndNoChargeOnBadInput(t *testing.T) {
	e := newEnv(t, withDefaultCatalog)
	_, k := e.register("acme")
	for path, body := range map[string]string{"/v1/sizing/calculate": sizingBody, "/v1/risk/check": riskBody,
		"/v1/eval/basic": rBody, "/v1/compound/pre-trade-gate": gateBody, "/v1/compound/assess-system": rBody} {
		status, m := e.do("POST", path, key(k), body)
		assert.Equal(t, http.StatusPaymentRequired, status, path)
		assert.Contains(t, m["detail"], "Insufficient balance. Required: $", path)
	}
	status, m := e.do("POST", "/v1/sizing/calculate", key(k), `{"equity":"x"}`)
	assert.Equal(t, http.StatusBadRequest, status, "bad input is a 400 even on an empty balance")
	assert.Contains(t, m["detail"], "equity")
	e.fund(k, "5")
	bad := map[string]string{
		"/v1/sizing/calculate":        `{"equity":"100000","entry_price":"185.50","stop_price":"190","direction":"long"}`,
		"/v1/risk/check":              `{"symbol":"AAPL","direction":"up","entry_price":"1","stop_price":"0.5","quantity":"1","equity":"10"}`,
		"/v1/eval/basic":              `{"r_multiples":["1"]}`,
		"/v1/eval/full":               `{"r_multiples":["1","2"],"tier":"basic"}`,
		"/v1/compound/pre-trade-gate": `{"symbol":"AAPL"}`,
		"/v1/compound/assess-system":  `{"r_multiples":["1","2","3","4"]}`,
		"/v1/eval/comprehensive":      `{"r_multiples":["1","x"]}`,
	}
	for path, body := range bad {
		status, m := e.do("POST", path, key(k), body)
		assert.Equal(t, http.StatusBadRequest, status, "%s: %v", path, m)
	}
	assert.Equal(t, "5.00", e.balance(k), "no charge on 400")
}
