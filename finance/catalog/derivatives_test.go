package catalog

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callJSON runs a tool of the default catalog and returns its JSON result
// decoded into a map.
// derivCallJSON is callJSON with the derivatives tests' argument order.
func derivCallJSON(t *testing.T, name, args string, limits finance.AgentLimits) (map[string]any, error) {
	t.Helper()
	return callJSON(t, name, limits, args)
}

func TestDerivativesToolsRegistered(t *testing.T) {
	c := Default()
	for _, name := range []string{"size_options_position", "size_futures_position", "analyze_greeks",
		"analyze_futures_curve", "calculate_margin", "check_compliance"} {
		tool, ok := c.Lookup(name)
		require.True(t, ok, name)
		assert.Equal(t, name, tool.Operation)
		assert.NotEmpty(t, tool.Description)
		assert.Equal(t, "object", tool.InputSchema.Type)
	}
}

func TestDerivativesToolsJSON(t *testing.T) {
	cases := []struct {
		tool, args string
		limits     finance.AgentLimits
		want       map[string]any
	}{
		{"size_options_position", `{"mode":"equity_risk","equity":"100000","risk_pct":"0.02","entry_premium":"5.35"}`, finance.AgentLimits{},
			map[string]any{"contracts": 3.0, "risk_per_contract": "535.00", "total_risk": "1605.00", "contract_multiplier": 100.0,
				"budget": "2000.00", "actual_risk_fraction": "0.01605", "binding_constraint": "risk_budget", "credit_collected": nil}},
		{"size_options_position", `{"mode":"spread","equity":25000,"risk_pct":0.02,"spread_width":5,"credit_received":"1.50"}`, finance.AgentLimits{},
			map[string]any{"contracts": 1.0, "risk_per_contract": "350.00", "credit_collected": "150.00", "max_profit_per_contract": "150.00"}},
		{"size_futures_position", `{"mode":"tick_value","equity":"100000","risk_pct":"0.01","entry_price":"5000.00","stop_price":"4990.00","tick_size":"0.25","tick_value":"12.50"}`,
			finance.AgentLimits{}, map[string]any{"contracts": 2.0, "ticks_at_risk": 40.0, "risk_per_contract": "500.00",
				"point_value": "50.00", "binding_constraint": "risk", "max_margin_usage_pct": "0.50", "margin_used": nil}},
		{"size_futures_position", `{"mode":"margin_based","available_margin":"100000","initial_margin_per_contract":"12000"}`,
			finance.AgentLimits{}, map[string]any{"contracts": 4.0, "margin_used": "48000.00", "margin_usage_fraction": "0.48"}},
		{"analyze_futures_curve", `{"contracts":[{"symbol":"CLG5","expiry":"2025-02-20","price":"75.50"},{"symbol":"CLF5","expiry":"2025-01-20","price":75}],"spot":"74.60"}`,
			finance.AgentLimits{}, map[string]any{"structure": "contango", "flat_tolerance": "0.005", "basis": "-0.40", "spot_roll_yield": nil}},
		{"calculate_margin", `{"account_equity":"30000","positions":[{"symbol":"ESH5","quantity":-2,"price":"5000","multiplier":"50","initial_margin_per_contract":"12650","maintenance_margin_per_contract":"11500"}]}`,
			finance.AgentLimits{}, map[string]any{"total_initial_margin": "25300.00", "total_maintenance_margin": "23000.00",
				"free_margin": "4700.00", "margin_call": false, "status": "OK", "margin_usage_fraction": "0.84333333"}},
		{"check_compliance", `{"equity":"100000","positions":[{"symbol":"AAPL","quantity":"100","price":"185.50"}],"proposed_trade":{"symbol":"tsla","quantity":"10","price":"200"}}`,
			finance.AgentLimits{AuthorizedInstruments: []string{"aapl"}, MaxPositionSizePct: ptrAmount("20")},
			map[string]any{"compliant": false, "max_position_weight": "0.2", "max_position_source": "agent", "gross_exposure": "20550.00"}},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			got, err := derivCallJSON(t, c.tool, c.args, c.limits)
			require.NoError(t, err)
			for k, v := range c.want {
				assert.Equal(t, v, got[k], "%s.%s", c.tool, k)
			}
		})
	}
}

func ptrAmount(s string) *toolkit.Amount {
	a := toolkit.MustParseAmount(s)
	return &a
}

func TestAnalyzeGreeksToolJSON(t *testing.T) {
	args := `{"underlying_price":"185.50","as_of":"2024-02-15","chain":[
	  {"symbol":"AAPL240315C00185000","underlying_symbol":"AAPL","strike":"185","expiration":"2024-03-15",
	   "option_type":"CALL","bid":"5.20","ask":"5.50","last":"5.35","volume":1000,"open_interest":5000,"implied_volatility":"0.25"}]}`
	got, err := derivCallJSON(t, "analyze_greeks", args, finance.AgentLimits{})
	require.NoError(t, err)
	assert.Equal(t, "0.05", got["risk_free_rate"])
	opts := got["options"].([]any)
	require.Len(t, opts, 1)
	o := opts[0].(map[string]any)
	assert.Equal(t, "ok", o["status"])
	assert.Equal(t, 29.0, o["days_to_expiry"])
	assert.Regexp(t, `^0\.5516813256`, o["delta"])
	totals := got["totals"].(map[string]any)
	assert.Regexp(t, `^55\.16813256`, totals["net_delta"])
	assert.Equal(t, "0", totals["put_call_open_interest_ratio"])
}

// TestDerivativesToolsBadInput: every rule answers Invalid with a message
// naming the field.
func TestDerivativesToolsBadInput(t *testing.T) {
	cases := []struct{ tool, args, want string }{
		{"size_options_position", `{"equity":"1","risk_pct":"0.01"}`, "Missing required argument: mode"},
		{"size_options_position", `{"mode":"straddle","equity":"1","risk_pct":"0.01"}`, "mode: must be one of"},
		{"size_options_position", `{"mode":"premium","equity":"1","risk_pct":"0.01"}`, "entry_premium is required in mode premium"},
		{"size_options_position", `{"mode":"premium","equity":"1","risk_pct":"2","entry_premium":"1"}`, `risk_pct: must be at most 1, got "2"`},
		{"size_options_position", `{"mode":"premium","equity":"1","risk_pct":2,"entry_premium":"1"}`, "risk_pct: must be at most"},
		{"size_options_position", `{"mode":"delta_adjusted","equity":"1","risk_pct":"0.01","delta":1.5}`, "delta: must be at most"},
		{"size_options_position", `{"mode":"delta_adjusted","equity":"1","risk_pct":"0.01","delta":"-1.5"}`, `delta: must be at least -1, got "-1.5"`},
		{"size_options_position", `{"mode":"spread","equity":"1","risk_pct":"0.01","spread_width":"5","credit_received":"6"}`, "credit_received: must be less than spread_width"},
		{"size_options_position", `{"mode":"premium","equity":"1","risk_pct":"0.01","entry_premium":"1","contract_multiplier":0}`, "contract_multiplier: must be at least"},
		{"size_options_position", `{"mode":"premium","equity":"1","risk_pct":"0.01","entry_premium":"1","contract_multiplier":"100"}`, "contract_multiplier: expected"},
		{"size_options_position", `{"mode":"premium","equity":"1","risk_pct":"0.01","entry_premium":"1","fees":"1"}`, "Unknown argument: fees"},
		{"size_futures_position", `{"mode":"tick_value","equity":"1","risk_pct":"0.01"}`, "entry_price is required in mode tick_value"},
		{"size_futures_position", `{"mode":"margin_based","available_margin":"1000"}`, "initial_margin_per_contract is required in mode margin_based"},
		{"size_futures_position", `{"mode":"notional","max_notional":"1000","contract_price":"5"}`, "contract_multiplier (or tick_size and tick_value) is required in mode notional"},
		{"size_futures_position", `{"mode":"margin_based","available_margin":"1000","initial_margin_per_contract":"10","max_margin_usage_pct":"50"}`, `max_margin_usage_pct: must be at most 1, got "50"`},
		{"size_futures_position", `{"mode":"margin_based","available_margin":"-1000","initial_margin_per_contract":"10"}`, "available_margin: must be greater than 0"},
		{"analyze_greeks", `{"underlying_price":"185","chain":[{"symbol":"X","strike":"1","expiration":"2024-03-15","option_type":"CALL"}]}`, "Missing required argument: as_of"},
		{"analyze_greeks", `{"underlying_price":"185","as_of":"2024-02-15","chain":[]}`, "chain: at least"},
		{"analyze_greeks", `{"underlying_price":"185","as_of":"2024-02-15","chain":[{"symbol":"X","strike":"1","expiration":"2024-03-15","option_type":"call"}]}`, "chain[0].option_type: must be one of"},
		{"analyze_greeks", `{"underlying_price":"185","as_of":"15 Feb 2024","chain":[{"symbol":"X","strike":"1","expiration":"2024-03-15","option_type":"CALL"}]}`, `as_of: must be a date like "2024-03-15", got "15 Feb 2024"`},
		{"analyze_greeks", `{"underlying_price":"185","as_of":"2024-02-30","chain":[{"symbol":"X","strike":"1","expiration":"2024-03-15","option_type":"CALL"}]}`, "as_of: must be a date"},
		{"analyze_greeks", `{"underlying_price":"185","as_of":"2024-02-15","chain":[{"symbol":"X","strike":"1","expiration":"2024-03-15","option_type":"CALL","implied_volatility":"25"}]}`, `chain[0].implied_volatility: must be at most 10, got "25"`},
		{"analyze_greeks", `{"underlying_price":"185","as_of":"2024-02-15","risk_free_rate":"5","chain":[{"symbol":"X","strike":"1","expiration":"2024-03-15","option_type":"CALL"}]}`, `risk_free_rate: must be at most 1, got "5"`},
		{"analyze_greeks", `{"underlying_price":"185","as_of":"2024-02-15","chain":[{"strike":"1","expiration":"2024-03-15","option_type":"CALL"}]}`, "Missing required argument: chain[0].symbol"},
		{"analyze_futures_curve", `{"contracts":[{"expiry":"2025-01-20","price":"75"}]}`, "contracts: at least"},
		{"analyze_futures_curve", `{"contracts":[{"expiry":"2025-01-20","price":"75"},{"expiry":"2025-01-20","price":"76"}]}`, "contracts[1].expiry: 2025-01-20 repeats the expiry of contracts[0]"},
		{"analyze_futures_curve", `{"contracts":[{"expiry":"2025-01-20","price":"75"},{"expiry":"2025-02-20","price":"0"}]}`, "contracts[1].price: must be greater than 0"},
		{"calculate_margin", `{"account_equity":"1000","positions":[]}`, "positions: at least"},
		{"calculate_margin", `{"account_equity":"1000","positions":[{"symbol":"A","quantity":"1","price":"10"}]}`, "positions[0].margin_rate or positions[0].initial_margin_per_contract is required"},
		{"calculate_margin", `{"account_equity":"1000","positions":[{"symbol":"A","quantity":"1","price":"10","margin_rate":"50"}]}`, `positions[0].margin_rate: must be at most 1, got "50"`},
		{"check_compliance", `{"equity":"1000"}`, "positions or proposed_trade is required"},
		{"check_compliance", `{"equity":"1000","max_position_weight":"5","positions":[{"symbol":"A","quantity":"1","price":"10"}]}`, `max_position_weight: must be at most 1, got "5"`},
		{"check_compliance", `{"equity":"1000","positions":[{"symbol":"A","quantity":"1","price":"10"},{"symbol":"a","quantity":"1","price":"10"}]}`, "positions[1].symbol: a appears twice"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			_, err := derivCallJSON(t, c.tool, c.args, finance.AgentLimits{})
			require.Error(t, err, c.args)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), c.args)
			assert.Contains(t, toolkit.MessageOf(err), c.want, c.args)
		})
	}
}

// BenchmarkDerivativesToolsCall measures each tool through the catalog:
// schema validation, strict decoding, the computation and JSON encoding.
func BenchmarkDerivativesToolsCall(b *testing.B) {
	c := Default()
	calls := []struct{ tool, args string }{
		{"size_options_position", `{"mode":"equity_risk","equity":"100000","risk_pct":"0.02","entry_premium":"5.35","stop_premium":"2.675"}`},
		{"size_futures_position", `{"mode":"tick_value","equity":"100000","risk_pct":"0.01","entry_price":"5000","stop_price":"4990","tick_size":"0.25","tick_value":"12.50","available_margin":"50000","initial_margin_per_contract":"12650"}`},
		{"analyze_greeks", `{"underlying_price":"185.50","as_of":"2024-02-15","chain":[{"symbol":"C","strike":"185","expiration":"2024-03-15","option_type":"CALL","bid":"5.20","ask":"5.50","implied_volatility":"0.25"},{"symbol":"P","strike":"185","expiration":"2024-03-15","option_type":"PUT","bid":"4.10","ask":"4.40"}]}`},
		{"analyze_futures_curve", `{"contracts":[{"expiry":"2025-01-20","price":"75"},{"expiry":"2025-02-20","price":"75.5"},{"expiry":"2025-03-20","price":"76.2"}],"spot":"74.6","as_of":"2024-12-20"}`},
		{"calculate_margin", `{"account_equity":"100000","positions":[{"symbol":"AAPL","quantity":"200","price":"185.50","margin_rate":"0.5","maintenance_margin_rate":"0.25"},{"symbol":"ES","quantity":"-2","price":"5000","multiplier":"50","initial_margin_per_contract":"12650"}]}`},
		{"check_compliance", `{"equity":"100000","max_position_weight":"0.2","positions":[{"symbol":"AAPL","quantity":"100","price":"185.50"},{"symbol":"MSFT","quantity":"50","price":"400"}],"proposed_trade":{"symbol":"AAPL","quantity":"10","price":"186"}}`},
	}
	for _, cl := range calls {
		b.Run(cl.tool, func(b *testing.B) {
			call := Call{Limits: finance.AgentLimits{AuthorizedInstruments: []string{"AAPL", "MSFT"}}, Arguments: json.RawMessage(cl.args)}
			b.ReportAllocs()
			for b.Loop() {
				out, err := runTool(c, context.Background(), cl.tool, call)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
