package performance

import (
	"math"
	"slices"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/money"
)

// SQNCap is the trade count at which the capped SQN ("SQN score") stops
// growing with the sample size.
const SQNCap = 100

// SQN returns Van Tharp's System Quality Number of r:
// raw = sqrt(N)·mean(R)/sd(R) and capped = sqrt(min(N, 100))·mean(R)/sd(R),
// with the sample standard deviation (ddof 1). ok is false, and both
// values 0, when SQN is undefined: fewer than two trades or sd = 0.
func SQN(r []float64) (raw, capped float64, ok bool) {
	n := len(r)
	if n < 2 {
		return 0, 0, false
	}
	mean, m2 := meanM2(r)
	if m2 <= 0 {
		return 0, 0, false
	}
	sd := math.Sqrt(m2 / float64(n-1))
	perTrade := mean / sd
	return math.Sqrt(float64(n)) * perTrade, math.Sqrt(float64(min(n, SQNCap))) * perTrade, true
}

// WinRate returns #(R > 0)/N, the share of winning trades among all
// trades; breakevens (R = 0) count in N but not as wins. It is 0 for an
// empty slice.
func WinRate(r []float64) float64 {
	if len(r) == 0 {
		return 0
	}
	return float64(winCount(r)) / float64(len(r))
}

// Expectancy returns mean(R), the average R per trade (0 when empty).
func Expectancy(r []float64) float64 { return Mean(r) }

// WinLoss is the result of AnalyzeWinLoss. Rates are fractions of all
// trades (0–1); R figures are in R; undefined ratios are null.
type WinLoss struct {
	TradeCount     int           `json:"trade_count"`
	WinCount       int           `json:"win_count"`
	LossCount      int           `json:"loss_count"`
	BreakevenCount int           `json:"breakeven_count"`
	WinRate        toolkit.Float `json:"win_rate"`       // wins / all trades
	LossRate       toolkit.Float `json:"loss_rate"`      // losses / all trades
	BreakevenRate  toolkit.Float `json:"breakeven_rate"` // breakevens / all trades
	AverageWinR    toolkit.Float `json:"average_win_r"`  // mean of R > 0 (0 without wins)
	AverageLossR   toolkit.Float `json:"average_loss_r"` // mean of R < 0, negative (0 without losses)
	MedianWinR     toolkit.Float `json:"median_win_r"`
	MedianLossR    toolkit.Float `json:"median_loss_r"`
	LargestWinR    toolkit.Float `json:"largest_win_r"`  // max R (0 without wins)
	LargestLossR   toolkit.Float `json:"largest_loss_r"` // min R (0 without losses)
	// PayoffRatio = average_win_r/|average_loss_r|; null without wins or losses.
	PayoffRatio *toolkit.Float `json:"payoff_ratio"`
	// ProfitFactor = ΣR⁺/|ΣR⁻|; null when there are no losses.
	ProfitFactor *toolkit.Float `json:"profit_factor"`
	// LargestWinToLargestLoss = largest_win_r/|largest_loss_r|; null without wins or losses.
	LargestWinToLargestLoss *toolkit.Float `json:"largest_win_to_largest_loss"`
	Expectancy              toolkit.Float  `json:"expectancy"` // mean R over all trades
	TotalR                  toolkit.Float  `json:"total_r"`
	// LongestWinningStreak and LongestLosingStreak are the longest runs of
	// consecutive wins (R > 0) and losses (R < 0); a breakeven ends both
	// (StreakRule, the same in every tool).
	LongestWinningStreak int `json:"longest_winning_streak"`
	LongestLosingStreak  int `json:"longest_losing_streak"`
	// CurrentStreak is the run at the end of the series: positive for wins,
	// negative for losses, 0 when the last trade is a breakeven.
	CurrentStreak int `json:"current_streak"`
	// BreakevenRule states how R = 0 is treated.
	BreakevenRule string `json:"breakeven_rule"`
	// PnL holds the money figures when pnl_values were given.
	PnL *WinLossPnL `json:"pnl,omitempty"`
}

// WinLossPnL holds the currency figures of AnalyzeWinLoss, computed
// exactly in decimal from the pnl values. A trade is a win when its P&L is
// > 0 and a loss when it is < 0 (its own sign, which fees can make differ
// from the sign of its R). Averages are rounded half-even to 2 decimals.
type WinLossPnL struct {
	TotalPnL       toolkit.Amount `json:"total_pnl"`
	GrossProfit    toolkit.Amount `json:"gross_profit"`
	GrossLoss      toolkit.Amount `json:"gross_loss"` // negative or 0
	AverageWin     toolkit.Amount `json:"average_win"`
	AverageLoss    toolkit.Amount `json:"average_loss"` // negative or 0
	LargestWin     toolkit.Amount `json:"largest_win"`
	LargestLoss    toolkit.Amount `json:"largest_loss"`
	AveragePnL     toolkit.Amount `json:"average_pnl"`
	WinCount       int            `json:"win_count"`
	LossCount      int            `json:"loss_count"`
	WinRate        toolkit.Float  `json:"win_rate"`
	ProfitFactor   *toolkit.Float `json:"profit_factor"` // null without losing P&L
	BreakevenCount int            `json:"breakeven_count"`
}

// BreakevenRule is the breakeven convention of the win/loss figures.
const BreakevenRule = "R = 0 is a breakeven: it counts in trade_count and in the expectancy but is neither a win nor a loss, and it ends both win and loss streaks"

// StreakRule defines the streaks of every tool that reports one
// (analyze_win_loss, analyze_consistency, and the skip rule of
// run_what_if).
const StreakRule = "a losing streak is a run of consecutive losses (R < 0) and a winning streak a run of consecutive wins (R > 0); a breakeven (R = 0) ends both"

// streaks returns the longest winning and losing streaks of r (StreakRule)
// and the run at its end: positive for wins, negative for losses, 0 after
// a breakeven.
func streaks(r []float64) (longestWin, longestLoss, current int) {
	run := 0 // >0 win run, <0 loss run
	for _, x := range r {
		switch {
		case x > 0:
			run = max(run, 0) + 1
			longestWin = max(longestWin, run)
		case x < 0:
			run = min(run, 0) - 1
			longestLoss = max(longestLoss, -run)
		default:
			run = 0
		}
	}
	return longestWin, longestLoss, run
}

// AnalyzeWinLoss computes win/loss statistics of r (at least 1 trade).
// pnl, when not nil, must be parallel to r (same length) and adds currency
// figures. Rates use all trades as the denominator, so
// expectancy = win_rate·average_win_r + loss_rate·average_loss_r exactly.
func AnalyzeWinLoss(r []float64, pnl []toolkit.Amount) (WinLoss, error) {
	if err := ValidateSeries("r_multiples", r, 1); err != nil {
		return WinLoss{}, err
	}
	if pnl != nil && len(pnl) != len(r) {
		return WinLoss{}, invalid("pnl_values", "must have the same length as r_multiples (%d), got %d", len(r), len(pnl))
	}
	n := len(r)
	wins := make([]float64, 0, n)
	losses := make([]float64, 0, n)
	var sumWin, sumLoss float64
	res := WinLoss{TradeCount: n, BreakevenRule: BreakevenRule}
	for _, x := range r {
		switch {
		case x > 0:
			wins = append(wins, x)
			sumWin += x
		case x < 0:
			losses = append(losses, x)
			sumLoss += x
		default:
			res.BreakevenCount++
		}
	}
	res.LongestWinningStreak, res.LongestLosingStreak, res.CurrentStreak = streaks(r)
	res.WinCount, res.LossCount = len(wins), len(losses)
	fn := float64(n)
	res.WinRate = toolkit.Float(float64(len(wins)) / fn)
	res.LossRate = toolkit.Float(float64(len(losses)) / fn)
	res.BreakevenRate = toolkit.Float(float64(res.BreakevenCount) / fn)
	res.TotalR = toolkit.Float(sumWin + sumLoss)
	res.Expectancy = toolkit.Float(Mean(r))
	if len(wins) > 0 {
		res.AverageWinR = toolkit.Float(sumWin / float64(len(wins)))
		res.LargestWinR = toolkit.Float(slices.Max(wins))
		res.MedianWinR = toolkit.Float(medianOf(wins))
	}
	if len(losses) > 0 {
		res.AverageLossR = toolkit.Float(sumLoss / float64(len(losses)))
		res.LargestLossR = toolkit.Float(slices.Min(losses))
		res.MedianLossR = toolkit.Float(medianOf(losses))
		res.ProfitFactor = ptr(sumWin / -sumLoss)
	}
	if len(wins) > 0 && len(losses) > 0 {
		res.PayoffRatio = ptr(float64(res.AverageWinR) / -float64(res.AverageLossR))
		res.LargestWinToLargestLoss = ptr(float64(res.LargestWinR) / -float64(res.LargestLossR))
	}
	if pnl != nil {
		p, err := winLossPnL(pnl)
		if err != nil {
			return WinLoss{}, err
		}
		res.PnL = &p
	}
	return res, nil
}

// winLossPnL computes the currency figures exactly in decimal. Averages
// beyond 34 significant digits (sums of values at the limit of the input
// range) are toolkit.Invalid naming pnl_values.
func winLossPnL(pnl []toolkit.Amount) (WinLossPnL, error) {
	var out WinLossPnL
	zero := toolkit.AmountFromInt(0)
	out.TotalPnL, out.GrossProfit, out.GrossLoss = zero, zero, zero
	out.LargestWin, out.LargestLoss, out.AverageWin, out.AverageLoss = zero, zero, zero, zero
	for _, p := range pnl {
		switch p.Sign() {
		case 1:
			out.WinCount++
			out.GrossProfit = out.GrossProfit.Add(p)
			if p.Cmp(out.LargestWin) > 0 {
				out.LargestWin = p
			}
		case -1:
			out.LossCount++
			out.GrossLoss = out.GrossLoss.Add(p)
			if p.Cmp(out.LargestLoss) < 0 {
				out.LargestLoss = p
			}
		default:
			out.BreakevenCount++
		}
	}
	out.TotalPnL = out.GrossProfit.Add(out.GrossLoss)
	avg := func(sum toolkit.Amount, k int) (toolkit.Amount, error) {
		if k == 0 {
			return zero, nil
		}
		q, err := sum.Quo(toolkit.AmountFromInt(int64(k)))
		if err == nil {
			q, err = q.Round(2, toolkit.RoundHalfEven)
		}
		if err != nil {
			return zero, invalid("pnl_values", "the sums of these values are out of range; use smaller values")
		}
		return q, nil
	}
	var err error
	for _, a := range []struct {
		dst *toolkit.Amount
		sum toolkit.Amount
		k   int
	}{{&out.AverageWin, out.GrossProfit, out.WinCount}, {&out.AverageLoss, out.GrossLoss, out.LossCount}, {&out.AveragePnL, out.TotalPnL, len(pnl)}} {
		if *a.dst, err = avg(a.sum, a.k); err != nil {
			return WinLossPnL{}, err
		}
	}
	money.Fields(&out.TotalPnL, &out.GrossProfit, &out.GrossLoss, &out.AverageWin, &out.AverageLoss,
		&out.LargestWin, &out.LargestLoss, &out.AveragePnL)
	out.WinRate = toolkit.Float(float64(out.WinCount) / float64(len(pnl)))
	if out.LossCount > 0 {
		out.ProfitFactor = ptr(out.GrossProfit.Float64() / -out.GrossLoss.Float64())
	}
	return out, nil
}
