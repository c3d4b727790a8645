package finance

import (
	"context"
	"fmt"
	"math"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/agentfinance/toolkit/finance/internal/money"
	"github.com/agentfinance/toolkit/finance/performance"
)

// System verdicts of AssessSystem.
const (
	VerdictStrongSystem   = "STRONG_SYSTEM"
	VerdictViableSystem   = "VIABLE_SYSTEM"
	VerdictMarginalSystem = "MARGINAL_SYSTEM"
	VerdictFailingSystem  = "FAILING_SYSTEM"
)

// Assessment parameters and verdict thresholds.
const (
	// MinAssessTrades is the minimum number of R-multiples.
	MinAssessTrades = 5
	// AssessRiskPerTrade is the risk fraction per 1R of the Monte Carlo,
	// the compounded drawdown curve and the growth check (the published
	// Monte Carlo default).
	AssessRiskPerTrade = 0.01
	// AssessSimulations and AssessTradesPerSimulation size the Monte Carlo.
	AssessSimulations         = 1000
	AssessTradesPerSimulation = 100
	// StrongSQN, ViableSQN: capped-SQN bands (Tharp: >= 2.5 good, 1.6 the
	// low end of tradeable).
	StrongSQN = 2.5
	ViableSQN = 1.6
	// StrongMinTrades: a STRONG verdict needs at least this many trades.
	StrongMinTrades = 30
	// StrongMaxP20DD: STRONG needs P(max drawdown >= 20 %) <= 10 %.
	StrongMaxP20DD = 0.10
	// ViableMaxP50DD: VIABLE needs P(max drawdown >= 50 %) <= 5 %.
	ViableMaxP50DD = 0.05
	// FailingP50DD: P(max drawdown >= 50 %) above 25 % fails the system.
	FailingP50DD = 0.25
)

// DefaultStartingEquity is the assessment's starting equity when none is
// given (100000).
var DefaultStartingEquity = toolkit.AmountFromInt(100000)

// AssessVerdictRule documents how AssessSystem decides its verdict.
const AssessVerdictRule = "sqn = SQN with N capped at 100 (+inf/-inf when every R is equal); growth = mean ln(1+0.01R); " +
	"p20/p50 = Monte Carlo P(max drawdown >= 20 %/50 %) at 1 % risk per trade over 100 trades. " +
	"FAILING_SYSTEM if mean R <= 0, growth <= 0 or p50 > 0.25; else STRONG_SYSTEM if sqn >= 2.5, trade_count >= 30 and p20 <= 0.10; " +
	"else VIABLE_SYSTEM if sqn >= 1.6 and p50 <= 0.05; else MARGINAL_SYSTEM"

// AssessInput is the input of AssessSystem and of the
// assess_trading_system tool.
type AssessInput struct {
	// RMultiples are the trade results in R, oldest first; at least 5.
	RMultiples toolkit.Floats `json:"r_multiples"`
	// StartingEquity is the account size for the Monte Carlo and the
	// drawdown curve; nil means 100000.
	StartingEquity *toolkit.Amount `json:"starting_equity,omitempty"`
	// PnLValues are optional absolute P&L values parallel to RMultiples;
	// they add money figures to win_loss and make the drawdown curve
	// starting_equity + cumulative P&L.
	PnLValues []toolkit.Amount `json:"pnl_values,omitempty"`
	// Seed seeds the Monte Carlo; nil derives it from the canonical
	// arguments of the Monte Carlo (performance.MonteCarloSeedRule), so
	// equal inputs give equal output.
	Seed *uint64 `json:"seed,omitempty"`
}

// Assessment is the result of AssessSystem.
type Assessment struct {
	Verdict string `json:"verdict"`
	// VerdictReasons states each criterion with its value.
	VerdictReasons []string `json:"verdict_reasons"`
	VerdictRule    string   `json:"verdict_rule"`

	GMetrics        GMetrics                    `json:"g_metrics"`
	WinLoss         performance.WinLoss         `json:"win_loss"`
	Kelly           KellySection                `json:"kelly"`
	MonteCarlo      performance.MonteCarlo      `json:"monte_carlo"`
	Drawdown        DrawdownSection             `json:"drawdown"`
	WhatIf          performance.WhatIf          `json:"what_if"`
	VarianceKillers performance.VarianceKillers `json:"variance_killers"`
	SystemRScore    performance.SystemScore     `json:"system_r_score"`

	StartingEquity toolkit.Amount `json:"starting_equity"`
	RiskPerTrade   toolkit.Float  `json:"risk_per_trade"` // 0.01
	Seed           uint64         `json:"seed"`           // the Monte Carlo seed used
	Warnings       []string       `json:"warnings"`
}

// GMetrics are the G figures of the assessment.
type GMetrics struct {
	G           toolkit.Float  `json:"g"`          // mean − popvar/2
	ExpectedR   toolkit.Float  `json:"expected_r"` // mean R
	TradeCount  int            `json:"trade_count"`
	EdgeVerdict string         `json:"edge_verdict"` // the evaluation verdict (VerdictRule)
	SQN         *toolkit.Float `json:"sqn"`          // null when every R is equal
	SQNCapped   *toolkit.Float `json:"sqn_capped"`
	WinRate     toolkit.Float  `json:"win_rate"`
	// GrowthAtRisk is mean ln(1 + 0.01·R); null when a trade of −100R or
	// worse would ruin the account at that risk.
	GrowthAtRisk *toolkit.Float `json:"growth_at_risk"`
	// OptimalF is the Kelly optimum of the log growth (null: see kelly.note).
	OptimalF *toolkit.Float `json:"optimal_f"`
}

// KellySection is the assessment's Kelly summary.
type KellySection struct {
	// KellyFraction is f* = argmax mean ln(1 + f·R); null, with Note
	// saying why (performance.NoKellyReason, as in calculate_kelly and
	// evaluate_performance), when mean R <= 0 (no positive optimum: do not
	// trade) or when there is no losing trade (the optimum is unbounded).
	// HalfKelly and QuarterKelly follow.
	KellyFraction *toolkit.Float `json:"kelly_fraction"`
	HalfKelly     *toolkit.Float `json:"half_kelly"`
	QuarterKelly  *toolkit.Float `json:"quarter_kelly"`
	Note          string         `json:"note,omitempty"`
	// Detail is the calculate_kelly result at 1 % risk per trade; null
	// when 1 % is at or past the ruin bound.
	Detail *performance.Kelly `json:"detail"`
}

// DrawdownSection is the drawdown analysis with the curve it used.
type DrawdownSection struct {
	// Basis is "pnl_values" (starting_equity + cumulative P&L) or
	// "r_multiples" (compounded at 1 % risk per trade).
	Basis string `json:"basis"`
	performance.Drawdown
}

// AssessSystem chains the G evaluation, win/loss, Kelly, Monte Carlo,
// drawdown, what-if and variance-killer analyses of r and gives a verdict
// by AssessVerdictRule. Errors: fewer than 5 R values, non-finite values,
// starting_equity <= 0, pnl_values of another length (Invalid); more than
// 100,000 values (TooLarge). The Monte Carlo stops with ctx.Err() once
// ctx is done.
func AssessSystem(ctx context.Context, in AssessInput) (Assessment, error) {
	r := []float64(in.RMultiples)
	if err := performance.ValidateSeries("r_multiples", r, MinAssessTrades); err != nil {
		return Assessment{}, err
	}
	if len(in.PnLValues) > limits.MaxItems {
		return Assessment{}, toolkit.Errorf(toolkit.TooLarge, "pnl_values: at most %d values are accepted, got %d", limits.MaxItems, len(in.PnLValues))
	}
	start := DefaultStartingEquity
	if in.StartingEquity != nil {
		start = *in.StartingEquity
	}
	if err := requirePositive("starting_equity", start); err != nil {
		return Assessment{}, err
	}
	out := Assessment{StartingEquity: money.Canonical(start), RiskPerTrade: AssessRiskPerTrade, VerdictRule: AssessVerdictRule}
	var err error
	var pnl []toolkit.Amount
	if in.PnLValues != nil {
		pnl = in.PnLValues
	}
	if out.WinLoss, err = performance.AnalyzeWinLoss(r, pnl); err != nil {
		return Assessment{}, err
	}
	basic, err := EvaluateBasic(r)
	if err != nil {
		return Assessment{}, err
	}
	out.GMetrics = GMetrics{G: basic.G, ExpectedR: basic.ExpectedR, TradeCount: basic.TradeCount, EdgeVerdict: basic.Verdict,
		SQN: basic.SQN, SQNCapped: basic.SQNCapped, WinRate: basic.WinRate, OptimalF: basic.LogGrowth.OptimalF}
	if g, err := performance.LogGrowth(r, AssessRiskPerTrade); err == nil {
		out.GMetrics.GrowthAtRisk = floatPtr(g)
	}
	out.Kelly = kellySection(r)
	startF := start.Float64()
	if out.MonteCarlo, err = performance.RunMonteCarlo(ctx, r, performance.MonteCarloOptions{
		StartingEquity: startF, NumSimulations: ref(AssessSimulations), TradesPerSimulation: ref(AssessTradesPerSimulation),
		RiskPerTrade: ref(AssessRiskPerTrade), Seed: in.Seed,
	}); err != nil {
		return Assessment{}, err
	}
	out.Seed = out.MonteCarlo.Seed
	if out.Drawdown, err = drawdownSection(r, pnl, start); err != nil {
		return Assessment{}, err
	}
	if out.WhatIf, err = performance.RunWhatIf(r, performance.WhatIfOptions{}); err != nil {
		return Assessment{}, err
	}
	if out.VarianceKillers, err = performance.FindVarianceKillers(r, performance.KillerOptions{}); err != nil {
		return Assessment{}, err
	}
	if out.SystemRScore, err = performance.CalculateSystemScore(r); err != nil {
		return Assessment{}, err
	}
	out.Verdict, out.VerdictReasons = systemVerdict(out)
	out.Warnings = basic.Warnings
	return out, nil
}

// systemVerdict applies AssessVerdictRule and explains it.
func systemVerdict(a Assessment) (string, []string) {
	mean := float64(a.GMetrics.ExpectedR)
	sqn := math.Inf(1)
	switch {
	case a.GMetrics.SQNCapped != nil:
		sqn = float64(*a.GMetrics.SQNCapped)
	case mean < 0:
		sqn = math.Inf(-1)
	case mean == 0:
		sqn = 0
	}
	growth := math.Inf(-1)
	if a.GMetrics.GrowthAtRisk != nil {
		growth = float64(*a.GMetrics.GrowthAtRisk)
	}
	p20 := float64(a.MonteCarlo.Probability20pctDrawdown)
	p50 := float64(a.MonteCarlo.Probability50pctDrawdown)
	n := a.GMetrics.TradeCount
	reasons := []string{
		fmt.Sprintf("mean R %s (must be > 0)", toolkit.Float(mean)),
		fmt.Sprintf("log growth at 1 %% risk %s (must be > 0)", toolkit.Float(growth)),
		fmt.Sprintf("capped SQN %s (STRONG >= 2.5, VIABLE >= 1.6)", toolkit.Float(sqn)),
		fmt.Sprintf("trade count %d (STRONG needs >= 30)", n),
		fmt.Sprintf("P(20 %% drawdown) %s (STRONG needs <= 0.10)", toolkit.Float(p20)),
		fmt.Sprintf("P(50 %% drawdown) %s (VIABLE needs <= 0.05; above 0.25 fails)", toolkit.Float(p50)),
	}
	switch {
	case mean <= 0 || growth <= 0 || p50 > FailingP50DD:
		return VerdictFailingSystem, reasons
	case sqn >= StrongSQN && n >= StrongMinTrades && p20 <= StrongMaxP20DD:
		return VerdictStrongSystem, reasons
	case sqn >= ViableSQN && p50 <= ViableMaxP50DD:
		return VerdictViableSystem, reasons
	}
	return VerdictMarginalSystem, reasons
}

// kellySection summarises the Kelly fractions (see KellySection).
func kellySection(r []float64) KellySection {
	k, err := performance.CalculateKelly(r, performance.KellyOptions{RiskPerTrade: ref(AssessRiskPerTrade)})
	if err == nil {
		return KellySection{KellyFraction: k.KellyFraction, HalfKelly: k.HalfKelly, QuarterKelly: k.QuarterKelly,
			Note: k.Note, Detail: &k}
	}
	// 1 % risk at or past the ruin bound: report f* alone
	if why := performance.NoKellyReason(r); why != "" {
		return KellySection{Note: why}
	}
	f, ferr := performance.OptimalF(r)
	if ferr != nil {
		return KellySection{Note: toolkit.MessageOf(ferr)}
	}
	return KellySection{KellyFraction: floatPtr(f), HalfKelly: floatPtr(f / 2), QuarterKelly: floatPtr(f / 4),
		Note: toolkit.MessageOf(err)}
}

// drawdownSection analyses the P&L curve when pnl is given, else the R
// curve compounded at AssessRiskPerTrade.
func drawdownSection(r []float64, pnl []toolkit.Amount, start toolkit.Amount) (DrawdownSection, error) {
	if pnl == nil {
		d, err := performance.AnalyzeDrawdownR(r, start.Float64(), ref(AssessRiskPerTrade), nil)
		return DrawdownSection{Basis: "r_multiples", Drawdown: d}, err
	}
	equity := make([]float64, len(pnl))
	e := start
	for i, p := range pnl {
		e = e.Add(p)
		if e.Sign() < 0 {
			return DrawdownSection{}, invalid("pnl_values", "starting_equity plus the cumulative P&L falls below 0 at item %d (%s)", i, e)
		}
		equity[i] = e.Float64()
	}
	d, err := performance.AnalyzeDrawdown(equity, start.Float64(), nil)
	return DrawdownSection{Basis: "pnl_values", Drawdown: d}, err
}

func slicesMin(r []float64) float64 {
	m := r[0]
	for _, x := range r[1:] {
		m = math.Min(m, x)
	}
	return m
}
