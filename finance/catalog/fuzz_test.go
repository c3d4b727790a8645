package catalog

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfinance/toolkit"
)

// FuzzToolArguments: arbitrary arguments never panic a tool, and every
// failure is a classified client error (400 or 413), never a 500.
func FuzzToolArguments(f *testing.F) {
	seeds := []string{
		`{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`,
		`{"equity":"1","entry_price":"1","stop_price":"1","direction":"short"}`,
		`{"r_multiples":["1","-1","2"],"tier":"full","window_size":2}`,
		`{"r_multiples":["1e9","-1"],"starting_equity":"0.000001"}`,
		`{"mode":"spread","equity":"1000","risk_pct":"0.5","spread_width":"5","credit_received":"6"}`,
		`[]`, `null`, `{"equity":{}}`, `{"r_multiples":[]}`,
	}
	tools := []string{"calculate_position_size", "evaluate_performance", "run_monte_carlo", "size_options_position", "calculate_kelly"}
	for i, s := range seeds {
		f.Add(tools[i%len(tools)], s)
	}
	c := Default()
	f.Fuzz(func(t *testing.T, tool, args string) {
		if _, ok := c.Lookup(tool); !ok {
			return
		}
		out, err := runTool(c, context.Background(), tool, Call{AgentID: "agt_fuzz", Arguments: json.RawMessage(args)})
		if err != nil {
			if k := toolkit.KindOf(err); k != toolkit.Invalid && k != toolkit.TooLarge {
				t.Fatalf("%s(%s): %v (kind %v)", tool, args, err, k)
			}
			return
		}
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("%s(%s): result does not encode: %v", tool, args, err)
		}
	})
}
