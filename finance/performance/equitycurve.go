package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// EquityCurve is the result of CalculateEquityCurve.
type EquityCurve struct {
	StartingEquity toolkit.Float `json:"starting_equity"`
	FinalEquity    toolkit.Float `json:"final_equity"`
	// TotalReturn is final/start − 1 as a fraction (0.25 = +25 %).
	TotalReturn    toolkit.Float `json:"total_return"`
	TotalReturnPct toolkit.Float `json:"total_return_pct"` // the same in percent
	MaxDrawdownPct toolkit.Float `json:"max_drawdown_pct"` // percent, starting equity counted as a peak
	MaxDrawdownUSD toolkit.Float `json:"max_drawdown_usd"`
	PeakEquity     toolkit.Float `json:"peak_equity"`
	TotalR         toolkit.Float `json:"total_r"` // sum of R (the additive curve's end)
	// CAGR is (final/start)^(trades_per_year/n) − 1, a fraction; null
	// unless trades_per_year is given (trades carry no dates).
	CAGR         *toolkit.Float `json:"cagr"`
	RiskPerTrade toolkit.Float  `json:"risk_per_trade"`
	TradeCount   int            `json:"trade_count"`
	// EquityCurve has n+1 points: the starting equity then the equity after
	// each trade, compounding E·(1 + risk_per_trade·R), floored at 0.
	EquityCurve toolkit.Floats `json:"equity_curve"`
	// CumulativeR has n+1 points: 0 then the running sum of R.
	CumulativeR toolkit.Floats `json:"cumulative_r"`
}

// CalculateEquityCurve builds the compounded equity curve of r (at least 1
// trade) from startingEquity (> 0; nil = default 100000) at riskPerTrade
// per 1R (a fraction; nil = default 0.01). tradesPerYear (> 0) adds a CAGR;
// nil leaves it null.
func CalculateEquityCurve(r []float64, startingEquity, riskPerTrade, tradesPerYear *float64) (EquityCurve, error) {
	start := orDefault(startingEquity, DefaultInitialEquity)
	risk := orDefault(riskPerTrade, DefaultRiskPerTrade)
	points, err := equityPoints(r, start, risk)
	if err != nil {
		return EquityCurve{}, err
	}
	if tradesPerYear != nil {
		if err := validatePositive("trades_per_year", *tradesPerYear); err != nil {
			return EquityCurve{}, err
		}
	}
	n := len(r)
	final := points[n]
	out := EquityCurve{
		StartingEquity: toolkit.Float(start),
		FinalEquity:    toolkit.Float(final),
		TotalReturn:    toolkit.Float(final/start - 1),
		TotalReturnPct: toolkit.Float((final/start - 1) * 100),
		RiskPerTrade:   toolkit.Float(risk),
		TradeCount:     n,
		EquityCurve:    toolkit.Floats(points),
	}
	cum := make([]float64, n+1)
	peak := start
	var maxPct, maxUSD, s float64
	for i, x := range r {
		s += x
		cum[i+1] = s
		e := points[i+1]
		peak = max(peak, e)
		maxPct = max(maxPct, (peak-e)/peak*100)
		maxUSD = max(maxUSD, peak-e)
	}
	out.CumulativeR, out.TotalR = toolkit.Floats(cum), toolkit.Float(s)
	out.MaxDrawdownPct, out.MaxDrawdownUSD, out.PeakEquity = toolkit.Float(maxPct), toolkit.Float(maxUSD), toolkit.Float(peak)
	if tradesPerYear != nil {
		out.CAGR = ptr(math.Pow(final/start, *tradesPerYear/float64(n)) - 1)
	}
	return out, nil
}
