package derivatives

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// extremes are valid decimal inputs at the edges of the input range
// (magnitude below 1e18, at most 16 decimal places).
var extremes = []string{"0." + strings.Repeat("0", 15) + "1", "0.000001", "1", "123456.789",
	"1" + strings.Repeat("0", 17), strings.Repeat("9", 18) + "." + strings.Repeat("9", 16)}

// checkExtreme asserts that a call either succeeds with a JSON-encodable
// result or fails as Invalid: never a panic, never Internal.
func checkExtreme(t *testing.T, name string, run func() (any, error)) {
	t.Helper()
	require.NotPanics(t, func() {
		out, err := run()
		if err != nil {
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), "%s: %v", name, err)
			return
		}
		_, err = json.Marshal(out)
		assert.NoError(t, err, name)
	}, name)
}

func TestExtremeDecimalsNeverPanic(t *testing.T) {
	for _, a := range extremes {
		for _, b := range extremes {
			checkExtreme(t, "options "+a+" "+b, func() (any, error) {
				return SizeOptions(OptionsSizingInput{Mode: OptionsDeltaAdjusted, Equity: amt(a), RiskPct: amt("1"),
					Delta: pa("1"), UnderlyingEntry: pa(b), UnderlyingStop: pa(extremes[0])})
			})
			checkExtreme(t, "futures "+a+" "+b, func() (any, error) {
				return SizeFutures(FuturesSizingInput{Mode: FuturesTickValue, Equity: pa(a), RiskPct: pa("1"),
					EntryPrice: pa(b), StopPrice: pa("0.5"), TickSize: pa(extremes[0]), TickValue: pa(a),
					AvailableMargin: pa(b), InitialMarginPerContract: pa(a)})
			})
			checkExtreme(t, "margin "+a+" "+b, func() (any, error) {
				return CalculateMargin(MarginInput{AccountEquity: amt(a), Positions: []MarginPosition{
					{Symbol: "X", Quantity: amt(b), Price: amt(b), Multiplier: pa(b), MarginRate: pa("1")}}})
			})
			checkExtreme(t, "compliance "+a+" "+b, func() (any, error) {
				return CheckCompliance(ComplianceInput{Equity: amt(a), MaxPositionWeight: pa("0.1"), Positions: []Holding{
					{Symbol: "X", Quantity: amt(b), Price: amt(b)}, {Symbol: "Y", Quantity: amt(a), Price: amt(a)}}},
					finance.AgentLimits{MaxPositionSizePct: pa("5")})
			})
			checkExtreme(t, "curve "+a+" "+b, func() (any, error) {
				return AnalyzeFuturesCurve(CurveInput{Spot: pa(a), AsOf: ptr(Date("2024-01-01")), Contracts: []CurveContract{
					{Expiry: "2024-01-02", Price: amt(a)}, {Expiry: "2099-12-31", Price: amt(b)}}})
			})
			checkExtreme(t, "greeks "+a+" "+b, func() (any, error) {
				return AnalyzeGreeks(context.Background(), GreeksInput{UnderlyingPrice: amt(a), AsOf: "2024-01-01", Chain: []OptionRecord{
					{Symbol: "C", Strike: amt(b), Expiration: "2024-01-02", OptionType: Call, Last: pa(a), Quantity: pa(b)},
					{Symbol: "P", Strike: amt(b), Expiration: "2099-01-02", OptionType: Put, ImpliedVolatility: pa("10"), Quantity: pa(a)}}})
			})
		}
	}
}

func TestFloorCountVerifiesTheBudget(t *testing.T) {
	// budget/per = 1e18 − 3.3e-16 rounds to 1e18 at 34 digits; the exact
	// check keeps 1e18 − 1.
	per := amt("0.3")
	budget := amt("299999999999999999.9999999999999999")
	n, err := floorCount("contracts", budget, per)
	require.NoError(t, err)
	assert.Equal(t, int64(999_999_999_999_999_999), n)
}
