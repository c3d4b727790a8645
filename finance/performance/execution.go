package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// ExecutionInput is the input of AnalyzeExecutionQuality. The optional
// arrays are nil when absent; when present they are parallel to
// RMultiples.
type ExecutionInput struct {
	// RMultiples are the realised R of each trade.
	RMultiples []float64
	// MAE are maximum adverse excursions in R (distance from entry to the
	// worst price, divided by the risk per unit). The sign is ignored: a
	// value of -0.6 and 0.6 both mean 0.6R against the trade.
	MAE []float64
	// MFE are maximum favourable excursions in R; the sign is ignored.
	MFE []float64
	// HoldTimesHours are holding times in hours (>= 0).
	HoldTimesHours []float64
}

// ExcursionStats summarises MAE, MFE or holding times.
type ExcursionStats struct {
	Mean   toolkit.Float `json:"mean"`
	Median toolkit.Float `json:"median"`
	P90    toolkit.Float `json:"p90"`
	Max    toolkit.Float `json:"max"`
	// WinnersMean is the mean over trades with R > 0 (null if none).
	WinnersMean *toolkit.Float `json:"winners_mean"`
	// LosersMean is the mean over trades with R < 0 (null if none).
	LosersMean *toolkit.Float `json:"losers_mean"`
}

// ExecutionQualityResult is the answer of AnalyzeExecutionQuality.
type ExecutionQualityResult struct {
	TradeCount int `json:"trade_count"`
	// EdgeRatio = mean(MFE)/mean(MAE); needs both arrays.
	EdgeRatio *toolkit.Float `json:"edge_ratio"`
	// CaptureEfficiency = ΣR / ΣMFE over all trades; needs MFE.
	CaptureEfficiency *toolkit.Float `json:"capture_efficiency"`
	// WinnerCaptureEfficiency = ΣR / ΣMFE over trades with R > 0.
	WinnerCaptureEfficiency *toolkit.Float `json:"winner_capture_efficiency"`
	// AverageExitEfficiency = mean of R/MFE over trades with MFE > 0.
	AverageExitEfficiency *toolkit.Float `json:"average_exit_efficiency"`
	// AverageGiveBackR = mean of MFE - R over trades with R > 0: the open
	// profit winners gave back before the exit.
	AverageGiveBackR *toolkit.Float `json:"average_give_back_r"`
	// StopBreachShare is the share of trades whose MAE exceeded 1R.
	StopBreachShare *toolkit.Float `json:"stop_breach_share"`
	// LossBeyondOneRShare is the share of trades with R < -1 (losses past
	// the planned stop: slippage or late exits). Needs only R.
	LossBeyondOneRShare toolkit.Float   `json:"loss_beyond_one_r_share"`
	MAE                 *ExcursionStats `json:"mae"`
	MFE                 *ExcursionStats `json:"mfe"`
	HoldTimeHours       *ExcursionStats `json:"hold_time_hours"`
	Warnings            []string        `json:"warnings"`
	Conventions         []string        `json:"conventions"`
}

// AnalyzeExecutionQuality measures how well trades were executed from
// their maximum adverse and favourable excursions (Sweeney 1997; Tomasini
// & Jaekle), in R units. MAE and MFE are taken as magnitudes (|value|).
// Edge ratio = mean MFE / mean MAE (normalised by 1R instead of ATR);
// capture efficiency = ΣR/ΣMFE; exit efficiency per trade = R/MFE. Every
// figure needing an absent array is null. Medians and p90 are type-7
// quantiles. It needs at least 2 R values.
func AnalyzeExecutionQuality(in ExecutionInput) (*ExecutionQualityResult, error) {
	r := in.RMultiples
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return nil, err
	}
	n := len(r)
	for _, opt := range []struct {
		name string
		xs   []float64
	}{{"mae_values", in.MAE}, {"mfe_values", in.MFE}, {"hold_times_hours", in.HoldTimesHours}} {
		if opt.xs == nil {
			continue
		}
		if err := validateParallel(opt.name, len(opt.xs), n); err != nil {
			return nil, err
		}
		if err := ValidateSeries(opt.name, opt.xs, n); err != nil {
			return nil, err
		}
	}
	for i, h := range in.HoldTimesHours {
		if h < 0 {
			return nil, invalid("hold_times_hours", "item %d must not be negative", i)
		}
	}
	res := &ExecutionQualityResult{
		TradeCount: n,
		Warnings:   []string{},
		Conventions: []string{
			"MAE and MFE are in R (excursion / risk per unit) and taken as magnitudes: the sign is ignored",
			"winner: R > 0; loser: R < 0; breakevens are in neither group",
			"edge_ratio = mean(MFE)/mean(MAE) over all trades (normalised by 1R rather than ATR)",
			"capture_efficiency = sum(R)/sum(MFE); winner_capture_efficiency uses winners only",
			"average_exit_efficiency = mean of R/MFE over trades with MFE > 0",
			"average_give_back_r = mean of MFE - R over winners",
			"stop_breach_share = share of trades with MAE > 1R; loss_beyond_one_r_share = share with R < -1",
			"median and p90: Hyndman–Fan type-7 quantiles",
		},
	}
	beyond := 0
	for _, x := range r {
		if x < -1 {
			beyond++
		}
	}
	res.LossBeyondOneRShare = toolkit.Float(float64(beyond) / float64(n))
	scratch := make([]float64, n)
	var mae, mfe []float64
	if in.MAE != nil {
		mae = absValues(in.MAE)
		res.MAE = excursionStats(mae, r, scratch)
		breach := 0
		for _, v := range mae {
			if v > 1 {
				breach++
			}
		}
		res.StopBreachShare = finiteOrNil(float64(breach) / float64(n))
	}
	if in.MFE != nil {
		mfe = absValues(in.MFE)
		res.MFE = excursionStats(mfe, r, scratch)
		fillCapture(res, r, mfe)
	}
	if in.HoldTimesHours != nil {
		res.HoldTimeHours = excursionStats(in.HoldTimesHours, r, scratch)
	}
	if mae != nil && mfe != nil {
		res.EdgeRatio = ratioOrNil(float64(res.MFE.Mean), float64(res.MAE.Mean))
	}
	if in.MAE == nil || in.MFE == nil {
		res.Warnings = append(res.Warnings, "mae_values and mfe_values are needed for the edge ratio and the excursion figures")
	}
	return res, nil
}

// fillCapture fills the MFE-based efficiency figures.
func fillCapture(res *ExecutionQualityResult, r, mfe []float64) {
	var sumR, sumMFE, winR, winMFE, exitEff, giveBack float64
	effN, winN := 0, 0
	for i, x := range r {
		sumR += x
		sumMFE += mfe[i]
		if mfe[i] > 0 {
			exitEff += x / mfe[i]
			effN++
		}
		if x > 0 {
			winR += x
			winMFE += mfe[i]
			giveBack += mfe[i] - x
			winN++
		}
	}
	res.CaptureEfficiency = ratioOrNil(sumR, sumMFE)
	res.WinnerCaptureEfficiency = ratioOrNil(winR, winMFE)
	res.AverageExitEfficiency = ratioOrNil(exitEff, float64(effN))
	res.AverageGiveBackR = ratioOrNil(giveBack, float64(winN))
}

// absValues returns |x| element-wise in a new slice.
func absValues(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Abs(x)
	}
	return out
}

// excursionStats summarises xs, split by the sign of the parallel r.
// scratch must have len(xs) items; it is overwritten.
func excursionStats(xs, r, scratch []float64) *ExcursionStats {
	var sum, mx, winSum, lossSum float64
	winN, lossN := 0, 0
	mx = xs[0]
	for i, x := range xs {
		sum += x
		mx = math.Max(mx, x)
		switch {
		case r[i] > 0:
			winSum += x
			winN++
		case r[i] < 0:
			lossSum += x
			lossN++
		}
	}
	copy(scratch, xs)
	st := &ExcursionStats{
		Mean:        toolkit.Float(sum / float64(len(xs))),
		Median:      toolkit.Float(selectQuantile(scratch, 0.5)),
		Max:         toolkit.Float(mx),
		WinnersMean: ratioOrNil(winSum, float64(winN)),
		LosersMean:  ratioOrNil(lossSum, float64(lossN)),
	}
	st.P90 = toolkit.Float(selectQuantile(scratch, 0.9))
	return st
}
