package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// Drawdown conventions shared by analyze_drawdown, detect_peak_valley,
// analyze_recovery and calculate_equity_curve.
//
// The curve has points 0..n: point 0 is the starting equity and point i
// (1 <= i <= n) is the equity after trade i (equity_values[i-1]). The
// starting equity counts as a peak. The drawdown at point i is
// (peak_i − E_i)/peak_i with peak_i the running maximum of points 0..i. A
// drawdown episode starts at the first point below the running peak and
// ends (recovers) at the first later point whose equity is >= that peak.

// DrawdownPeriod is one drawdown episode.
type DrawdownPeriod struct {
	PeakIndex    int           `json:"peak_index"`   // point of the peak before the episode
	PeakEquity   toolkit.Float `json:"peak_equity"`  // equity at the peak
	ValleyIndex  int           `json:"valley_index"` // point of the lowest equity (first one on ties)
	ValleyEquity toolkit.Float `json:"valley_equity"`
	DepthPct     toolkit.Float `json:"depth_pct"` // (peak − valley)/peak × 100
	DepthUSD     toolkit.Float `json:"depth_usd"` // peak − valley, in equity units
	// RecoveryIndex is the point where equity first got back to the peak;
	// null while the episode is open.
	RecoveryIndex *int `json:"recovery_index"`
	Recovered     bool `json:"recovered"`
	// Duration is the number of trades from the peak to the recovery (or
	// to the last point when still open).
	Duration int `json:"duration"`
	// RecoveryTrades is the number of trades from the valley to the
	// recovery; null while the episode is open.
	RecoveryTrades *int `json:"recovery_trades"`
	// GainToRecoverPct is the gain needed from the valley to get back to
	// the peak: d/(1 − d) × 100 for depth d (null for a valley at 0).
	GainToRecoverPct *toolkit.Float `json:"gain_to_recover_pct"`
}

// episode is the scan state of one drawdown episode.
type episode struct {
	peakIdx, valleyIdx, recoveryIdx int // recoveryIdx −1 while open
	peak, valley                    float64
}

// drawdownEpisodes scans points (points[0] is the starting equity, > 0)
// and returns every episode in order. Pointer fields share two slabs, so
// the cost is a handful of allocations whatever the episode count.
func drawdownEpisodes(points []float64) []DrawdownPeriod {
	var eps []episode
	peak, peakIdx := points[0], 0
	open := false
	for i := 1; i < len(points); i++ {
		e := points[i]
		if e >= peak {
			if open {
				eps[len(eps)-1].recoveryIdx = i
				open = false
			}
			peak, peakIdx = e, i
			continue
		}
		if !open {
			eps = append(eps, episode{peakIdx: peakIdx, valleyIdx: i, recoveryIdx: -1, peak: peak, valley: e})
			open = true
		} else if ep := &eps[len(eps)-1]; e < ep.valley {
			ep.valleyIdx, ep.valley = i, e
		}
	}
	out := make([]DrawdownPeriod, len(eps))
	ints := make([]int, 2*len(eps))
	floats := make([]toolkit.Float, len(eps))
	last := len(points) - 1
	for k, ep := range eps {
		d := (ep.peak - ep.valley) / ep.peak
		p := DrawdownPeriod{PeakIndex: ep.peakIdx, PeakEquity: toolkit.Float(ep.peak),
			ValleyIndex: ep.valleyIdx, ValleyEquity: toolkit.Float(ep.valley),
			DepthPct: toolkit.Float(d * 100), DepthUSD: toolkit.Float(ep.peak - ep.valley),
			Duration: last - ep.peakIdx}
		if ep.recoveryIdx >= 0 {
			ints[2*k], ints[2*k+1] = ep.recoveryIdx, ep.recoveryIdx-ep.valleyIdx
			p.RecoveryIndex, p.RecoveryTrades, p.Recovered = &ints[2*k], &ints[2*k+1], true
			p.Duration = ep.recoveryIdx - ep.peakIdx
		}
		if d < 1 {
			floats[k] = toolkit.Float(d / (1 - d) * 100)
			p.GainToRecoverPct = &floats[k]
		}
		out[k] = p
	}
	return out
}

// Drawdown is the result of AnalyzeDrawdown. Fields ending in _pct are
// percent points (12.5 = 12.5 %); current_drawdown, avg_drawdown and
// time_in_drawdown are fractions (0.125 = 12.5 %); *_usd fields are in
// equity units.
type Drawdown struct {
	MaxDrawdownPct toolkit.Float `json:"max_drawdown_pct"` // deepest (peak − E)/peak × 100
	// MaxDrawdownUSD is the largest peak − E in equity units; on a growing
	// account it may come from a different episode than max_drawdown_pct.
	MaxDrawdownUSD     toolkit.Float `json:"max_drawdown_usd"`
	CurrentDrawdown    toolkit.Float `json:"current_drawdown"`     // (peak − last equity)/peak, a fraction
	CurrentDrawdownUSD toolkit.Float `json:"current_drawdown_usd"` // peak − last equity
	AvgDrawdown        toolkit.Float `json:"avg_drawdown"`         // mean depth of the episodes, a fraction (0 without any)
	DrawdownCount      int           `json:"drawdown_count"`       // episodes, including an open one
	LongestDuration    int           `json:"longest_duration"`     // longest episode in trades (peak to recovery or to the end)
	// TimeInDrawdown is the fraction of points 1..n below the running peak.
	TimeInDrawdown toolkit.Float `json:"time_in_drawdown"`
	// RecoveryFactor = net_profit / max_drawdown_usd; null when there is no
	// drawdown. net_profit defaults to last equity − starting equity.
	RecoveryFactor *toolkit.Float `json:"recovery_factor"`
	NetProfit      toolkit.Float  `json:"net_profit"`
	// UlcerIndex = sqrt(mean over points 1..n of drawdown_pct²) (Martin
	// 1987), in percent points as Martin defines it.
	UlcerIndex toolkit.Float `json:"ulcer_index"`
	// RecoveryTrades is the number of trades from the valley of the
	// deepest episode (by percent; the first on ties) to its recovery;
	// null when that episode is still open or there is no drawdown.
	RecoveryTrades  *int             `json:"recovery_trades"`
	DrawdownPeriods []DrawdownPeriod `json:"drawdown_periods"`
	StartingEquity  toolkit.Float    `json:"starting_equity"`
	FinalEquity     toolkit.Float    `json:"final_equity"`
}

// AnalyzeDrawdown analyses an equity curve: equity holds the equity after
// each trade (at least 1 value, each >= 0), starting the starting equity
// (> 0). netProfit, when not nil, replaces last − start in the recovery
// factor.
func AnalyzeDrawdown(equity []float64, startingEquity float64, netProfit *float64) (Drawdown, error) {
	points, err := curvePoints(equity, startingEquity)
	if err != nil {
		return Drawdown{}, err
	}
	if netProfit != nil && (math.IsNaN(*netProfit) || math.IsInf(*netProfit, 0)) {
		return Drawdown{}, invalid("net_profit", "must be a finite number")
	}
	return drawdownOfPoints(points, netProfit), nil
}

// curvePoints validates an equity curve given as equity_values (at least
// 1 value, each >= 0) and starting_equity (> 0) and returns its points
// 0..n, starting equity first.
func curvePoints(equity []float64, startingEquity float64) ([]float64, error) {
	if err := ValidateSeries("equity_values", equity, 1); err != nil {
		return nil, err
	}
	if err := validatePositive("starting_equity", startingEquity); err != nil {
		return nil, err
	}
	for i, e := range equity {
		if e < 0 {
			return nil, invalid("equity_values", "item %d must be >= 0, got %v", i, e)
		}
	}
	points := make([]float64, len(equity)+1)
	points[0] = startingEquity
	copy(points[1:], equity)
	return points, nil
}

// AnalyzeDrawdownR builds the compounded equity curve of r (see
// EquityFromR) at riskPerTrade per 1R (a fraction; nil = default 0.01) and
// analyses it like AnalyzeDrawdown.
func AnalyzeDrawdownR(r []float64, startingEquity float64, riskPerTrade, netProfit *float64) (Drawdown, error) {
	points, err := equityPoints(r, startingEquity, orDefault(riskPerTrade, DefaultRiskPerTrade))
	if err != nil {
		return Drawdown{}, err
	}
	if netProfit != nil && (math.IsNaN(*netProfit) || math.IsInf(*netProfit, 0)) {
		return Drawdown{}, invalid("net_profit", "must be a finite number")
	}
	return drawdownOfPoints(points, netProfit), nil
}

// drawdownOfPoints computes the Drawdown of a validated curve.
func drawdownOfPoints(points []float64, netProfit *float64) Drawdown {
	n := len(points) - 1
	out := Drawdown{StartingEquity: toolkit.Float(points[0]), FinalEquity: toolkit.Float(points[n])}
	peak := points[0]
	var maxPct, maxUSD, sumSq float64
	under := 0
	for _, e := range points[1:] {
		peak = max(peak, e)
		usd := peak - e
		pct := usd / peak * 100
		if usd > 0 {
			under++
		}
		maxPct, maxUSD = max(maxPct, pct), max(maxUSD, usd)
		sumSq += pct * pct
	}
	out.MaxDrawdownPct, out.MaxDrawdownUSD = toolkit.Float(maxPct), toolkit.Float(maxUSD)
	out.CurrentDrawdownUSD = toolkit.Float(peak - points[n])
	out.CurrentDrawdown = toolkit.Float((peak - points[n]) / peak)
	out.TimeInDrawdown = toolkit.Float(float64(under) / float64(n))
	out.UlcerIndex = toolkit.Float(math.Sqrt(sumSq / float64(n)))
	np := points[n] - points[0]
	if netProfit != nil {
		np = *netProfit
	}
	out.NetProfit = toolkit.Float(np)
	if maxUSD > 0 {
		out.RecoveryFactor = ptr(np / maxUSD)
	}
	out.DrawdownPeriods = drawdownEpisodes(points)
	out.DrawdownCount = len(out.DrawdownPeriods)
	var sumDepth float64
	deepest := -1
	for k, ep := range out.DrawdownPeriods {
		sumDepth += float64(ep.DepthPct)
		out.LongestDuration = max(out.LongestDuration, ep.Duration)
		if deepest < 0 || ep.DepthPct > out.DrawdownPeriods[deepest].DepthPct {
			deepest = k
		}
	}
	if out.DrawdownCount > 0 {
		out.AvgDrawdown = toolkit.Float(sumDepth / float64(out.DrawdownCount) / 100) // depth_pct is in percent points
		out.RecoveryTrades = out.DrawdownPeriods[deepest].RecoveryTrades
	}
	return out
}

// EquityFromR returns the compounded equity after each trade of r:
// E_i = E_{i−1}·(1 + f·R_i) from E_0 = startingEquity, with f the risk per
// trade (fraction of equity per 1R, 0 < f < 1). A trade with 1 + f·R <= 0
// ruins the account: equity becomes 0 and stays 0.
func EquityFromR(r []float64, startingEquity, riskPerTrade float64) ([]float64, error) {
	points, err := equityPoints(r, startingEquity, riskPerTrade)
	if err != nil {
		return nil, err
	}
	return points[1:], nil
}

// equityPoints returns points 0..n of the compounded curve of r.
func equityPoints(r []float64, startingEquity, riskPerTrade float64) ([]float64, error) {
	if err := ValidateSeries("r_multiples", r, 1); err != nil {
		return nil, err
	}
	if err := validatePositive("starting_equity", startingEquity); err != nil {
		return nil, err
	}
	if err := validateRiskFraction("risk_per_trade", riskPerTrade); err != nil {
		return nil, err
	}
	points := make([]float64, len(r)+1)
	e := startingEquity
	points[0] = e
	for i, x := range r {
		e *= max(1+riskPerTrade*x, 0)
		points[i+1] = e
	}
	return points, nil
}
