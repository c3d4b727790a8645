package performance

import (
	"math"

	"github.com/agentfinance/toolkit"
)

// Edge readings of CalculateExpectedValue.
const (
	EdgePositive = "POSITIVE"
	EdgeNegative = "NEGATIVE"
	EdgeNone     = "NONE"
)

// Input forms of CalculateExpectedValue.
const (
	EVFromParameters = "parameters"
	EVFromRMultiples = "r_multiples"
)

// ExpectedValueInput is the input of CalculateExpectedValue: either the
// three parameters WinRate, AvgWin and AvgLoss, or RMultiples.
type ExpectedValueInput struct {
	// WinRate is the probability of a win, a fraction in [0, 1].
	WinRate *float64
	// AvgWin is the average win (>= 0), in any unit (R or money).
	AvgWin *float64
	// AvgLoss is the average loss in the same unit; its sign is ignored.
	AvgLoss *float64
	// RMultiples is a trade list (at least 2 values).
	RMultiples []float64
}

// ExpectedValueResult is the answer of CalculateExpectedValue.
type ExpectedValueResult struct {
	// Method is "parameters" or "r_multiples".
	Method string `json:"method"`
	// ExpectedValue = p·avg_win - q·avg_loss per trade.
	ExpectedValue toolkit.Float `json:"expected_value"`
	WinRate       toolkit.Float `json:"win_rate"`
	// LossRate is 1 - win_rate for parameters, #(R < 0)/n for r_multiples.
	LossRate toolkit.Float `json:"loss_rate"`
	// BreakevenRate is #(R = 0)/n (0 for parameters).
	BreakevenRate toolkit.Float `json:"breakeven_rate"`
	AverageWin    toolkit.Float `json:"average_win"`
	// AverageLoss is a magnitude (>= 0).
	AverageLoss toolkit.Float `json:"average_loss"`
	// PayoffRatio = average_win/average_loss (null when average_loss = 0).
	PayoffRatio *toolkit.Float `json:"payoff_ratio"`
	// BreakevenWinRate = average_loss/(average_win + average_loss): the win
	// rate at which the expected value is 0 (null when both are 0).
	BreakevenWinRate *toolkit.Float `json:"breakeven_win_rate"`
	// Edge is POSITIVE, NEGATIVE or NONE by the sign of ExpectedValue.
	Edge string `json:"edge"`
	// TradeCount is n for r_multiples (0 for parameters).
	TradeCount  int      `json:"trade_count"`
	Conventions []string `json:"conventions"`
}

// CalculateExpectedValue returns the expected value per trade.
//
// From parameters: EV = p·W - (1 - p)·L with p = win_rate in [0, 1],
// W = avg_win >= 0 and L = |avg_loss|, in the unit of W and L. From
// r_multiples: p = #(R > 0)/n, q = #(R < 0)/n, W = mean of the wins,
// L = mean |loss|, and EV = p·W - q·L, which equals mean(R) (breakevens
// count in n and add nothing). Giving both forms, or only part of the
// parameters, is Invalid.
func CalculateExpectedValue(in ExpectedValueInput) (*ExpectedValueResult, error) {
	anyParam := in.WinRate != nil || in.AvgWin != nil || in.AvgLoss != nil
	if anyParam && in.RMultiples != nil {
		return nil, invalid("r_multiples", "give either win_rate, avg_win and avg_loss or r_multiples, not both")
	}
	res := &ExpectedValueResult{
		Conventions: []string{
			"parameters: expected_value = win_rate·avg_win - (1 - win_rate)·|avg_loss|, in the unit of avg_win",
			"r_multiples: win R > 0, loss R < 0, breakeven R = 0 (counted in n); expected_value = mean(R)",
			"breakeven_win_rate = average_loss/(average_win + average_loss)",
		},
	}
	var p, q, w, l float64
	if in.RMultiples != nil {
		r := in.RMultiples
		if err := ValidateSeries("r_multiples", r, 2); err != nil {
			return nil, err
		}
		var sw, sl, sum float64
		nw, nl := 0, 0
		for _, x := range r {
			sum += x
			switch {
			case x > 0:
				sw += x
				nw++
			case x < 0:
				sl -= x
				nl++
			}
		}
		n := float64(len(r))
		p, q = float64(nw)/n, float64(nl)/n
		if nw > 0 {
			w = sw / float64(nw)
		}
		if nl > 0 {
			l = sl / float64(nl)
		}
		res.Method, res.TradeCount = EVFromRMultiples, len(r)
		res.ExpectedValue = toolkit.Float(sum / n)
		res.BreakevenRate = toolkit.Float(float64(len(r)-nw-nl) / n)
	} else {
		switch {
		case in.WinRate == nil:
			return nil, invalid("win_rate", "is required unless r_multiples is given")
		case in.AvgWin == nil:
			return nil, invalid("avg_win", "is required unless r_multiples is given")
		case in.AvgLoss == nil:
			return nil, invalid("avg_loss", "is required unless r_multiples is given")
		case !(*in.WinRate >= 0 && *in.WinRate <= 1):
			return nil, invalid("win_rate", "must be a fraction between 0 and 1")
		case !(*in.AvgWin >= 0) || math.IsInf(*in.AvgWin, 0):
			return nil, invalid("avg_win", "must be a finite number >= 0")
		case math.IsNaN(*in.AvgLoss) || math.IsInf(*in.AvgLoss, 0):
			return nil, invalid("avg_loss", "must be a finite number")
		}
		p, w, l = *in.WinRate, *in.AvgWin, math.Abs(*in.AvgLoss)
		q = 1 - p
		res.Method = EVFromParameters
		res.ExpectedValue = toolkit.Float(p*w - q*l)
	}
	res.WinRate, res.LossRate = toolkit.Float(p), toolkit.Float(q)
	res.AverageWin, res.AverageLoss = toolkit.Float(w), toolkit.Float(l)
	res.PayoffRatio = ratioOrNil(w, l)
	res.BreakevenWinRate = ratioOrNil(l, w+l)
	switch {
	case res.ExpectedValue > 0:
		res.Edge = EdgePositive
	case res.ExpectedValue < 0:
		res.Edge = EdgeNegative
	default:
		res.Edge = EdgeNone
	}
	return res, nil
}
