package performance

import "github.com/agentfinance/toolkit"

// Recovery is the result of AnalyzeRecovery. Points follow the drawdown
// convention (0 = initial equity, i = after trade i).
type Recovery struct {
	InitialEquity toolkit.Float `json:"initial_equity"`
	FinalEquity   toolkit.Float `json:"final_equity"`
	RiskPerTrade  toolkit.Float `json:"risk_per_trade"`
	// Drawdowns lists every episode with its recovery trades.
	Drawdowns      []DrawdownPeriod `json:"drawdowns"`
	DrawdownCount  int              `json:"drawdown_count"`
	RecoveredCount int              `json:"recovered_count"`
	// AverageRecoveryTrades is the mean valley-to-recovery length of the
	// recovered episodes; null when none recovered.
	AverageRecoveryTrades *toolkit.Float `json:"average_recovery_trades"`
	// LongestRecoveryTrades is the longest valley-to-recovery length among
	// recovered episodes (0 when none recovered).
	LongestRecoveryTrades int `json:"longest_recovery_trades"`
	// AverageDrawdownDuration is the mean peak-to-recovery length of the
	// recovered episodes; null when none recovered.
	AverageDrawdownDuration *toolkit.Float `json:"average_drawdown_duration"`
	// CurrentlyInDrawdown is true when the last episode is still open.
	CurrentlyInDrawdown bool `json:"currently_in_drawdown"`
	// CurrentGainToRecoverPct is the gain still needed to regain the peak
	// ((peak/current − 1) × 100; 0 at a peak; null at equity 0).
	CurrentGainToRecoverPct *toolkit.Float `json:"current_gain_to_recover_pct"`
	MaxDrawdownPct          toolkit.Float  `json:"max_drawdown_pct"`
	MaxDrawdownUSD          toolkit.Float  `json:"max_drawdown_usd"`
	NetProfit               toolkit.Float  `json:"net_profit"`
	// RecoveryFactor = net profit / max drawdown in equity units; null
	// without a drawdown.
	RecoveryFactor *toolkit.Float `json:"recovery_factor"`
}

// AnalyzeRecovery compounds r (at least 1 trade) from initialEquity
// (> 0; nil = default 100000) at riskPerTrade per 1R (a fraction; nil =
// default 0.01) and measures how long each drawdown took to recover.
func AnalyzeRecovery(r []float64, initialEquity, riskPerTrade *float64) (Recovery, error) {
	initial := orDefault(initialEquity, DefaultInitialEquity)
	risk := orDefault(riskPerTrade, DefaultRiskPerTrade)
	points, err := equityPoints(r, initial, risk)
	if err != nil {
		if te, ok := err.(*toolkit.Error); ok && te.Kind == toolkit.Invalid {
			te.Msg = replaceField(te.Msg, "starting_equity", "initial_equity")
		}
		return Recovery{}, err
	}
	dd := drawdownOfPoints(points, nil)
	out := Recovery{
		InitialEquity: toolkit.Float(initial), FinalEquity: dd.FinalEquity, RiskPerTrade: toolkit.Float(risk),
		Drawdowns: dd.DrawdownPeriods, DrawdownCount: dd.DrawdownCount,
		MaxDrawdownPct: dd.MaxDrawdownPct, MaxDrawdownUSD: dd.MaxDrawdownUSD,
		NetProfit: dd.NetProfit, RecoveryFactor: dd.RecoveryFactor,
	}
	var sumRec, sumDur int
	for _, ep := range dd.DrawdownPeriods {
		if !ep.Recovered {
			out.CurrentlyInDrawdown = true
			continue
		}
		out.RecoveredCount++
		sumRec += *ep.RecoveryTrades
		sumDur += ep.Duration
		out.LongestRecoveryTrades = max(out.LongestRecoveryTrades, *ep.RecoveryTrades)
	}
	if out.RecoveredCount > 0 {
		out.AverageRecoveryTrades = ptr(float64(sumRec) / float64(out.RecoveredCount))
		out.AverageDrawdownDuration = ptr(float64(sumDur) / float64(out.RecoveredCount))
	}
	cur := points[len(points)-1]
	peak := points[0]
	for _, e := range points {
		peak = max(peak, e)
	}
	if cur > 0 {
		out.CurrentGainToRecoverPct = ptr((peak/cur - 1) * 100)
	}
	return out, nil
}

// replaceField renames the field prefix of a validation message.
func replaceField(msg, from, to string) string {
	if len(msg) >= len(from) && msg[:len(from)] == from {
		return to + msg[len(from):]
	}
	return msg
}
