package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// MaxTradesPerYear bounds the annualisation factor of AnalyzeRiskAdjusted.
const MaxTradesPerYear = 1_000_000

// RiskAdjustedOptions configures AnalyzeRiskAdjusted.
type RiskAdjustedOptions struct {
	// TargetR is the minimum acceptable return (MAR) of the Sortino ratio,
	// in R per trade; 0 by default.
	TargetR float64
	// TradesPerYear, when given, annualises the ratios: > 0 and at most
	// 1,000,000; nil means per trade only.
	TradesPerYear *float64
}

// RiskAdjustedConventions states how each ratio was computed.
type RiskAdjustedConventions struct {
	Sharpe        string `json:"sharpe"`
	Sortino       string `json:"sortino"`
	Calmar        string `json:"calmar"`
	Drawdown      string `json:"drawdown"`
	Annualization string `json:"annualization"`
}

// RiskAdjustedResult is the answer of AnalyzeRiskAdjusted.
type RiskAdjustedResult struct {
	TradeCount int           `json:"trade_count"`
	MeanR      toolkit.Float `json:"mean_r"`
	// StdDevR is the sample standard deviation (ddof 1).
	StdDevR toolkit.Float `json:"stdev_r"`
	TargetR toolkit.Float `json:"target_r"`
	// DownsideDeviation = √(mean over all n of min(R - target, 0)²).
	DownsideDeviation toolkit.Float `json:"downside_deviation"`
	TotalR            toolkit.Float `json:"total_r"`
	// MaxDrawdownR is the largest fall of the cumulative R curve from a
	// running peak; the curve starts at 0, which counts as a peak.
	MaxDrawdownR toolkit.Float `json:"max_drawdown_r"`
	// SharpeRatio = mean(R)/stdev(R), per trade; null when stdev is 0.
	SharpeRatio *toolkit.Float `json:"sharpe_ratio"`
	// SortinoRatio = (mean(R) - target)/downside deviation, per trade;
	// null when there is no downside.
	SortinoRatio *toolkit.Float `json:"sortino_ratio"`
	// CalmarRatio = total R / max drawdown R; null without a drawdown.
	CalmarRatio *toolkit.Float `json:"calmar_ratio"`
	// TradesPerYear echoes the annualisation factor (null when not given).
	TradesPerYear *toolkit.Float `json:"trades_per_year"`
	// SharpeAnnualized = SharpeRatio·√TradesPerYear.
	SharpeAnnualized *toolkit.Float `json:"sharpe_annualized"`
	// SortinoAnnualized = SortinoRatio·√TradesPerYear.
	SortinoAnnualized *toolkit.Float `json:"sortino_annualized"`
	// CalmarAnnualized = mean(R)·TradesPerYear / max drawdown R.
	CalmarAnnualized *toolkit.Float          `json:"calmar_annualized"`
	Conventions      RiskAdjustedConventions `json:"conventions"`
	Warnings         []string                `json:"warnings"`
}

// AnalyzeRiskAdjusted computes Sharpe, Sortino and Calmar ratios of an R
// series.
//
//   - Sharpe = mean(R)/sd(R), sd with ddof 1, per trade (the risk-free
//     rate is 0 in R units); = SQN/√n.
//   - Sortino = (mean(R) - target)/DD with the full downside deviation
//     DD = √(Σ_all min(R - target, 0)²/n) (Sortino & Price 1994, as
//     empyrical), not the sd of the losses only.
//   - Calmar on the cumulative R curve (starting at 0, which counts as a
//     peak): total R / max drawdown in R. Trade lists carry no calendar,
//     so the CAGR of the classic ratio is replaced by the total R earned;
//     with TradesPerYear the annualised form is mean(R)·TradesPerYear /
//     max drawdown R.
//
// Undefined ratios are null with a warning. It needs at least 2 values.
func AnalyzeRiskAdjusted(r []float64, opt RiskAdjustedOptions) (*RiskAdjustedResult, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return nil, err
	}
	if math.IsNaN(opt.TargetR) || math.IsInf(opt.TargetR, 0) {
		return nil, invalid("target_r", "must be a finite number")
	}
	if tpy := opt.TradesPerYear; tpy != nil && !(*tpy > 0 && *tpy <= MaxTradesPerYear) {
		return nil, invalid("trades_per_year", "must be greater than 0 and at most %d, got %v", MaxTradesPerYear, *tpy)
	}
	n := len(r)
	mean, sd := meanStd(r)
	var down, total, peak, maxDD float64
	for _, x := range r {
		if d := x - opt.TargetR; d < 0 {
			down += d * d
		}
		total += x
		peak = math.Max(peak, total)
		maxDD = math.Max(maxDD, peak-total)
	}
	dd := math.Sqrt(down / float64(n))
	res := &RiskAdjustedResult{
		TradeCount:        n,
		MeanR:             toolkit.Float(mean),
		StdDevR:           toolkit.Float(sd),
		TargetR:           toolkit.Float(opt.TargetR),
		DownsideDeviation: toolkit.Float(dd),
		TotalR:            toolkit.Float(total),
		MaxDrawdownR:      toolkit.Float(maxDD),
		SharpeRatio:       ratioOrNil(mean, sd),
		SortinoRatio:      ratioOrNil(mean-opt.TargetR, dd),
		CalmarRatio:       ratioOrNil(total, maxDD),
		Conventions: RiskAdjustedConventions{
			Sharpe:        "mean(R)/stdev(R) per trade, stdev with ddof 1, risk-free rate 0 (R is already risk-normalised)",
			Sortino:       "(mean(R) - target_r)/downside_deviation, downside_deviation = sqrt(sum over all n trades of min(R - target_r, 0)^2 / n)",
			Calmar:        "total R / max_drawdown_r on the cumulative R curve (no calendar: total R replaces CAGR); calmar_annualized = mean(R)·trades_per_year / max_drawdown_r",
			Drawdown:      "cumulative R curve starting at 0; the start counts as a peak; drawdown = running peak - current, in R",
			Annualization: "annualised only when trades_per_year is given: Sharpe and Sortino × sqrt(trades_per_year), i.i.d. assumption",
		},
		Warnings: []string{},
	}
	if res.SharpeRatio == nil {
		res.Warnings = append(res.Warnings, "sharpe_ratio is null: all R values are equal (zero standard deviation)")
	}
	if res.SortinoRatio == nil {
		res.Warnings = append(res.Warnings, "sortino_ratio is null: no trade fell below target_r (zero downside deviation)")
	}
	if res.CalmarRatio == nil {
		res.Warnings = append(res.Warnings, "calmar_ratio is null: the cumulative R curve never fell below a peak")
	}
	if opt.TradesPerYear != nil {
		tpy := *opt.TradesPerYear
		root := math.Sqrt(tpy)
		res.TradesPerYear = finiteOrNil(tpy)
		if res.SharpeRatio != nil {
			res.SharpeAnnualized = finiteOrNil(float64(*res.SharpeRatio) * root)
		}
		if res.SortinoRatio != nil {
			res.SortinoAnnualized = finiteOrNil(float64(*res.SortinoRatio) * root)
		}
		res.CalmarAnnualized = ratioOrNil(mean*tpy, maxDD)
	}
	if n < 30 {
		res.Warnings = append(res.Warnings, "fewer than 30 trades: the ratios are unreliable")
	}
	return res, nil
}
