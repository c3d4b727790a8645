package catalog_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/finance/catalog/resultjson"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repeated is a JSON array of n items, item(0) to item(n-1).
func repeated(item func(i int) string, n int) string {
	var sb strings.Builder
	sb.Grow(n * (len(item(0)) + 1))
	sb.WriteByte('[')
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(item(i))
	}
	sb.WriteByte(']')
	return sb.String()
}

// cycle is the item function cycling through items.
func cycle(items ...string) func(int) string {
	return func(i int) string { return items[i%len(items)] }
}

// longSymbol is the longest symbol a capped tool accepts, each character
// escaped in the answer.
var longSymbol = strings.Repeat("<", 32)

// rs alternate wins and losses of long fractions: a drawdown, a peak and
// a recovery every few trades.
var rs = []string{`"1.23456789"`, `"-0.98765432"`, `"-1.0123456"`, `"2.3456789"`, `"-0.5"`}

// zigzag are bars alternating around 1, so every indicator value is a
// long fraction.
var zigzag = []string{
	`{"open":"1.00000001","high":"1.23456789","low":"0.87654321","close":"1.13579246","volume":"99999999999"}`,
	`{"open":"1.13579246","high":"1.2","low":"0.8","close":"0.91357913","volume":"1"}`,
	`{"open":"0.91357913","high":"1.1","low":"0.9","close":"1.02468013","volume":"12345"}`,
}

// growingTools are the tools whose answer grows with an input array:
// each with its largest accepted array of the longest-answering item.
var growingTools = []struct {
	tool, array string
	item        func(i int) string
	rest        string
}{
	{"analyze_greeks", "chain", cycle(
		`{"symbol":"` + longSymbol + `","underlying_symbol":"` + longSymbol + `","strike":"99999999.999999",` +
			`"expiration":"2099-12-31","option_type":"CALL","bid":"99999999.999999","ask":"99999999.999999","last":"99999999.999999",` +
			`"volume":999999999999,"open_interest":999999999999,"implied_volatility":"9.999999","quantity":"-9999999.999999"}`),
		`"underlying_price":"99999999.123457","as_of":"2000-01-01"`},
	{"analyze_greeks", "chain", cycle( // no volatility: a note instead of the greeks
		`{"symbol":"` + longSymbol + `","underlying_symbol":"` + longSymbol + `","strike":"0.000001",` +
			`"expiration":"2099-12-31","option_type":"PUT","bid":"99999999.999998","ask":"99999999.999999",` +
			`"volume":999999999999,"open_interest":999999999999,"quantity":"-9999999.999999"}`),
		`"underlying_price":"99999999.123457","as_of":"2000-01-01"`},
	// R-multiple tools answering a point per trade or per window.
	{"calculate_equity_curve", "r_multiples", cycle(rs...), `"starting_equity":"999999999.999999","risk_per_trade":"0.0123456789"`},
	{"calculate_rolling_g", "r_multiples", cycle(rs...), `"window_size":2`},
	{"detect_peak_valley", "equity_values", cycle(`"1000.123456"`, `"999.987654"`, `"1000.5"`, `"998.1"`), `"starting_equity":"1000"`},
	{"analyze_recovery", "r_multiples", cycle(rs...), ``},
	{"analyze_recovery", "r_multiples", cycle(`"1.23456789"`, `"-0.98765432"`), ``}, // a drawdown every second trade
	{"analyze_drawdown", "r_multiples", cycle(`"1.23456789"`, `"-0.98765432"`), `"starting_equity":"99999999.999999"`},
	{"evaluate_performance", "r_multiples", cycle(rs...), `"tier":"comprehensive"`},
	{"assess_trading_system", "r_multiples", cycle(`"1.23456789"`, `"-0.98765432"`), ``},
	// Positions and contracts answering a line each.
	{"calculate_margin", "positions", cycle(`{"symbol":"` + longSymbol + `","quantity":"-99999999.999999","price":"99999999.999999",` +
		`"multiplier":"999999","margin_rate":"0.999999","maintenance_margin_rate":"0.999998"}`), `"account_equity":"1"`},
	{"check_compliance", "positions", func(i int) string {
		return fmt.Sprintf(`{"symbol":"%s%08d","quantity":"-99999999.999999","price":"99999999.999999","multiplier":"999999"}`, longSymbol[8:], i)
	}, `"equity":"1"`},
	{"analyze_futures_curve", "contracts", func(i int) string {
		return fmt.Sprintf(`{"symbol":"%s","expiry":"%s","price":"%d.123457"}`, longSymbol,
			time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(time.DateOnly), 99999999-i)
	}, `"spot":"99999999.999999","as_of":"2000-01-01"`},
	// Three series per bar are the most an indicator answers.
	{"calculate_indicators", "bars", cycle(zigzag...), `"indicator":"macd","fast_period":2,"slow_period":3,"signal_period":2`},
	{"calculate_indicators", "bars", cycle(zigzag...), `"indicator":"bb","period":2`},
}

// Regression (issue 23, finding 8): the largest input each of these
// tools accepts answers within the response cap, and one item more is
// refused at decode (413) before any work.
func TestLargestInputsFitTheResponseCap(t *testing.T) {
	c := catalog.Default()
	for _, g := range growingTools {
		tool, ok := c.Lookup(g.tool)
		require.True(t, ok, g.tool)
		maxItems := *tool.InputSchema.Properties[g.array].MaxItems
		args := func(n int) []byte {
			rest := g.rest
			if rest != "" {
				rest = "," + rest
			}
			return []byte(`{"` + g.array + `":` + repeated(g.item, n) + rest + `}`)
		}
		res, err := tool.Run(context.Background(), catalog.Call{Arguments: args(maxItems)})
		require.NoError(t, err, g.tool)
		b, err := resultjson.Marshal(res)
		require.NoError(t, err, g.tool)
		t.Logf("%s: %d items answer %d bytes (%d per item; cap %d)", g.tool, maxItems, len(b), len(b)/maxItems, catalog.MaxResultBytes)
		assert.LessOrEqual(t, len(b), catalog.MaxResultBytes, g.tool)

		_, err = tool.Prepare(catalog.Call{Arguments: args(maxItems + 1)})
		assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err), g.tool)
	}
}
