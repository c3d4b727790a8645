package performance

// Behavioural biases of a trader, read from a chronological list of closed
// trades. Every bias is a statistic with a documented threshold and a
// one-sided hypothesis test at BiasAlpha; a bias is reported only when its
// statistic passes the threshold AND the test rejects "no bias". Checks
// that lack the data they need say so instead of guessing.
//
//	disposition_effect  losers held longer than winners
//	                    hold_time_ratio = median hold of losers / median hold of winners
//	                    Mann–Whitney U (losers' holds > winners'), ratio >= 1.25
//	recency_bias        size chases the last result
//	                    size_ratio_after_wins_vs_losses = exp(mean Δln size after a win − after a loss)
//	                    Mann–Whitney U (Δln size after wins > after losses), ratio >= 1.2
//	overtrading         busier days, worse results
//	                    spearman_rho of (trades that day, mean R that day) over days
//	                    Spearman, t approximation (rho < 0), rho <= −0.3
//	loss_aversion       winners cut early against their favourable excursion
//	                    median_mfe_capture = median of R / MFE_R over winners
//	                    exact sign test (median capture < 0.5), capture < 0.5
//	revenge_trading     bigger or faster after a loss (either test)
//	                    size_ratio_after_losses = exp(mean Δln size after a loss)
//	                      one-sample t (mean Δln size after losses > 0), ratio >= 1.2
//	                    gap_ratio = median gap after losses / median gap after wins
//	                      Mann–Whitney U (gaps after wins > after losses), ratio <= 0.5
//
// Severity bands (statistic past the threshold and p < 0.05):
// ratios >= 1.25/1.2 LOW, >= 1.5 MEDIUM, >= 2 HIGH; rho <= −0.3 LOW,
// <= −0.5 MEDIUM, <= −0.7 HIGH; capture < 0.5 LOW, < 0.35 MEDIUM,
// < 0.2 HIGH; gap ratio <= 0.5 LOW, <= 0.35 MEDIUM, <= 0.2 HIGH.
// Every group compared needs at least MinBiasGroup values; overtrading
// needs MinBiasDays trading days.

import (
	"math"
	"slices"
	"time"

	"github.com/agentfinance/toolkit"
)

// Bias analysis constants.
const (
	// BiasAlpha is the significance level of every bias test.
	BiasAlpha = 0.05
	// MinBiasGroup is the smallest group (winners, losers, transitions
	// after wins, ...) a test compares.
	MinBiasGroup = 5
	// MinBiasDays is the number of distinct trading days overtrading needs.
	MinBiasDays = 8
	// MaxBiasTrades bounds the trades of one analysis.
	MaxBiasTrades = 100_000
)

// Bias types, in the order of BiasReport.Checks.
const (
	BiasDisposition = "disposition_effect"
	BiasRecency     = "recency_bias"
	BiasOvertrading = "overtrading"
	BiasLossAverse  = "loss_aversion"
	BiasRevenge     = "revenge_trading"
)

// Severities of a detected bias, and the statuses of a check.
const (
	SeverityLow      = "LOW"
	SeverityMedium   = "MEDIUM"
	SeverityHigh     = "HIGH"
	CheckAnalyzed    = "analyzed"
	CheckNoData      = "insufficient_data"
	severityRankNone = 0
)

// BiasTrade is one closed trade. Only RMultiple is required; each check
// uses the optional fields it needs and reports insufficient_data when
// too few trades carry them.
type BiasTrade struct {
	RMultiple float64
	// HoldTimeHours, when nil, is ExitTime − EntryTime if both are set.
	HoldTimeHours *float64
	// Size is the position size (notional or money at risk, one convention
	// for all trades), > 0.
	Size *float64
	// EntryTime and ExitTime place the trade in time (overtrading groups
	// by the UTC day of EntryTime, else ExitTime).
	EntryTime *time.Time
	ExitTime  *time.Time
	// MFER is the maximum favourable excursion in R (>= 0).
	MFER *float64
}

// BiasReport is the result of AnalyzeBiases.
type BiasReport struct {
	TradeCount int           `json:"trade_count"`
	Alpha      toolkit.Float `json:"alpha"`
	// Biases lists the detected biases, most severe first.
	Biases []Bias `json:"biases"`
	// Checks holds every bias check, detected or not, in a fixed order.
	Checks []BiasCheck `json:"checks"`
}

// Bias is a detected bias (the published shape plus its key figures).
type Bias struct {
	BiasType       string        `json:"bias_type"`
	Severity       string        `json:"severity"`
	Evidence       string        `json:"evidence"`
	Recommendation string        `json:"recommendation"`
	Statistic      string        `json:"statistic"`
	Value          toolkit.Float `json:"value"`
	PValue         toolkit.Float `json:"p_value"`
}

// BiasCheck is the full result of one bias check.
type BiasCheck struct {
	BiasType string `json:"bias_type"`
	// Status is "analyzed" or "insufficient_data" (Reason says what is
	// missing).
	Status   string  `json:"status"`
	Detected bool    `json:"detected"`
	Severity *string `json:"severity"` // null unless detected
	Evidence string  `json:"evidence"`
	Reason   string  `json:"reason,omitempty"`
	// Tests are the statistics and tests of the check (revenge_trading has
	// two; a bias is detected when any test meets its threshold).
	Tests []BiasTest `json:"tests"`
}

// BiasTest is one statistic, its threshold and its hypothesis test.
type BiasTest struct {
	Statistic   string         `json:"statistic"`
	Value       toolkit.Float  `json:"value"`
	Test        string         `json:"test"`
	PValue      toolkit.Float  `json:"p_value"`
	Threshold   string         `json:"threshold"`
	Met         bool           `json:"met"`
	SampleSizes map[string]int `json:"sample_sizes"`
	severity    string
}

// AnalyzeBiases checks trades (oldest first) for the five biases.
func AnalyzeBiases(trades []BiasTrade) (*BiasReport, error) {
	if len(trades) > MaxBiasTrades {
		return nil, toolkit.Errorf(toolkit.TooLarge, "trades: at most %d trades are accepted, got %d", MaxBiasTrades, len(trades))
	}
	if len(trades) < 2 {
		return nil, invalid("trades", "needs at least 2 trades, got %d", len(trades))
	}
	for i, t := range trades {
		if err := t.validate(i); err != nil {
			return nil, err
		}
	}
	rep := &BiasReport{TradeCount: len(trades), Alpha: BiasAlpha, Biases: []Bias{}}
	rep.Checks = []BiasCheck{
		dispositionCheck(trades),
		recencyCheck(trades),
		overtradingCheck(trades),
		lossAversionCheck(trades),
		revengeCheck(trades),
	}
	for i := range rep.Checks {
		c := &rep.Checks[i]
		c.finish()
		if c.Detected {
			best := c.strongest()
			rep.Biases = append(rep.Biases, Bias{BiasType: c.BiasType, Severity: *c.Severity, Evidence: c.Evidence,
				Recommendation: recommendations[c.BiasType], Statistic: best.Statistic, Value: best.Value, PValue: best.PValue})
		}
	}
	slices.SortStableFunc(rep.Biases, func(a, b Bias) int { return severityRank(b.Severity) - severityRank(a.Severity) })
	return rep, nil
}

func (t BiasTrade) validate(i int) error {
	finite := func(name string, p *float64, min float64) error {
		if p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0) || *p < min) {
			return invalid("trades", "item %d: %s must be a finite number >= %g", i, name, min)
		}
		return nil
	}
	if math.IsNaN(t.RMultiple) || math.IsInf(t.RMultiple, 0) {
		return invalid("trades", "item %d: r_multiple must be a finite number", i)
	}
	if t.Size != nil && !(*t.Size > 0) {
		return invalid("trades", "item %d: size must be > 0", i)
	}
	if err := finite("hold_time_hours", t.HoldTimeHours, 0); err != nil {
		return err
	}
	if err := finite("mfe_r", t.MFER, 0); err != nil {
		return err
	}
	if t.EntryTime != nil && t.ExitTime != nil && t.ExitTime.Before(*t.EntryTime) {
		return invalid("trades", "item %d: exit_time must not be before entry_time", i)
	}
	return nil
}

// holdHours is the trade's holding time in hours, if known.
func (t BiasTrade) holdHours() (float64, bool) {
	if t.HoldTimeHours != nil {
		return *t.HoldTimeHours, true
	}
	if t.EntryTime != nil && t.ExitTime != nil {
		return t.ExitTime.Sub(*t.EntryTime).Hours(), true
	}
	return 0, false
}

// finish sets the check's detection and severity from its tests.
func (c *BiasCheck) finish() {
	if c.Tests == nil {
		c.Tests = []BiasTest{}
	}
	if c.Status == "" {
		c.Status = CheckAnalyzed
	}
	for _, t := range c.Tests {
		if t.Met {
			c.Detected = true
		}
	}
	if c.Detected {
		s := c.strongest().severity
		c.Severity = &s
	}
}

// strongest returns the met test of highest severity (the first test when
// none is met).
func (c *BiasCheck) strongest() BiasTest {
	best := c.Tests[0]
	for _, t := range c.Tests {
		if t.Met && (!best.Met || severityRank(t.severity) > severityRank(best.severity)) {
			best = t
		}
	}
	return best
}

func severityRank(s string) int {
	switch s {
	case SeverityLow:
		return 1
	case SeverityMedium:
		return 2
	case SeverityHigh:
		return 3
	}
	return severityRankNone
}

// bandAbove grades a statistic that signals the bias when large:
// >= high HIGH, >= medium MEDIUM, else LOW.
func bandAbove(v, medium, high float64) string {
	switch {
	case v >= high:
		return SeverityHigh
	case v >= medium:
		return SeverityMedium
	}
	return SeverityLow
}

// bandBelow grades a statistic that signals the bias when small:
// <= high HIGH, <= medium MEDIUM, else LOW.
func bandBelow(v, medium, high float64) string {
	switch {
	case v <= high:
		return SeverityHigh
	case v <= medium:
		return SeverityMedium
	}
	return SeverityLow
}

// recommendations are the fixed advice per bias.
var recommendations = map[string]string{
	BiasDisposition: "Decide the exit before entry and let the stop close losers; review any loser held past the typical winner's holding time.",
	BiasRecency:     "Size every trade from the same fixed-fractional rule (equity × risk fraction ÷ stop distance), whatever the last result was.",
	BiasOvertrading: "Set a daily trade limit near your average and stop for the day once it is reached; review the extra trades of busy days.",
	BiasLossAverse:  "Use a trailing or target exit planned before entry instead of closing winners by feel; compare exits with the trade's best excursion.",
	BiasRevenge:     "After a loss, wait a fixed cool-down and keep the next trade's size at or below your normal size.",
}
