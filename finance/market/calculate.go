package market

import (
	"context"

	"github.com/agentfinance/toolkit"
)

// Indicator names accepted by CalculateIndicators.
const (
	IndicatorSMA  = "sma"
	IndicatorEMA  = "ema"
	IndicatorRSI  = "rsi"
	IndicatorMACD = "macd"
	IndicatorBB   = "bb"
	IndicatorATR  = "atr"
)

// IndicatorRequest selects an indicator and its parameters. A nil
// parameter takes its default: period SMA/EMA 20, RSI 14, ATR 14, BB 20;
// MACD 12/26/9; BB nbdev 2. Period applies to sma, ema, rsi, atr and bb;
// the MACD periods only to macd; NbDev only to bb.
type IndicatorRequest struct {
	Indicator    string
	Period       *int
	FastPeriod   *int
	SlowPeriod   *int
	SignalPeriod *int
	NbDev        *float64
}

// indicatorParams are the parameters of a request, defaults filled in.
type indicatorParams struct {
	period, fast, slow, signal int
	nbdev                      float64
}

// IndicatorParams echoes the parameters used (defaults filled in).
type IndicatorParams struct {
	Period       int            `json:"period,omitempty"`
	FastPeriod   int            `json:"fast_period,omitempty"`
	SlowPeriod   int            `json:"slow_period,omitempty"`
	SignalPeriod int            `json:"signal_period,omitempty"`
	NbDev        *toolkit.Float `json:"nbdev,omitempty"`
}

// IndicatorResult is the answer of calculate_indicators.
//
// Every series in Series is as long as the input, aligned bar for bar
// (index i is bar i, oldest first), with null in the warm-up positions
// 0..first_valid_index-1 and decimal strings from first_valid_index on.
// The series keys are "value" for sma, ema, rsi and atr; "macd", "signal"
// and "histogram" for macd; "upper", "middle" and "lower" for bb. Latest
// holds the values at the last bar under the same keys.
type IndicatorResult struct {
	Indicator       string                   `json:"indicator"`
	Params          IndicatorParams          `json:"params"`
	Bars            int                      `json:"bars"`
	FirstValidIndex int                      `json:"first_valid_index"`
	Series          map[string]Series        `json:"series"`
	Latest          map[string]toolkit.Float `json:"latest"`
}

// params returns the parameters of r with the defaults filled in.
func (r IndicatorRequest) params() indicatorParams {
	period := 20
	if r.Indicator == IndicatorRSI || r.Indicator == IndicatorATR {
		period = 14
	}
	return indicatorParams{period: orDefault(r.Period, period), fast: orDefault(r.FastPeriod, 12),
		slow: orDefault(r.SlowPeriod, 26), signal: orDefault(r.SignalPeriod, 9), nbdev: orDefault(r.NbDev, 2)}
}

// IndicatorMinBars returns the number of bars the request needs for one
// value (its lookback + 1), after filling in the defaults. It is 0 for an
// unknown indicator.
func IndicatorMinBars(r IndicatorRequest) int {
	p := r.params()
	switch r.Indicator {
	case IndicatorSMA, IndicatorEMA, IndicatorBB:
		return p.period
	case IndicatorRSI, IndicatorATR:
		return p.period + 1
	case IndicatorMACD:
		return MACDLookback(p.slow, p.signal) + 1
	}
	return 0
}

// CalculateIndicators runs one indicator over the bars (oldest first) with
// TA-Lib semantics; see SMA, EMA, RSI, MACD, BBands and ATR for the
// definitions and the documented deviations. It validates the bars
// (ValidateBars) and the parameters; with fewer bars than
// IndicatorMinBars it returns the InsufficientBars answer (see Answer).
func CalculateIndicators(ctx context.Context, bars []Bar, req IndicatorRequest) (Answer[IndicatorResult], error) {
	switch req.Indicator {
	case IndicatorSMA, IndicatorEMA, IndicatorRSI, IndicatorMACD, IndicatorBB, IndicatorATR:
	default:
		if err := ValidateBars("bars", bars); err != nil {
			return Answer[IndicatorResult]{}, err
		}
		return Answer[IndicatorResult]{}, invalid("indicator", "must be one of sma, ema, rsi, macd, bb, atr (got %q)", req.Indicator)
	}
	return analyse(ctx, "calculate_indicators", bars, IndicatorMinBars(req), func() (*IndicatorResult, error) {
		return calculateIndicators(bars, req)
	})
}

// calculateIndicators is CalculateIndicators on enough valid bars and a
// known indicator.
func calculateIndicators(bars []Bar, req IndicatorRequest) (*IndicatorResult, error) {
	p := req.params()
	cols := Columns(bars)
	res := &IndicatorResult{Indicator: req.Indicator, Bars: len(bars)}
	var out map[string]Series
	var err error
	switch req.Indicator {
	case IndicatorSMA, IndicatorEMA, IndicatorRSI, IndicatorATR:
		res.Params.Period = p.period
		var s Series
		switch req.Indicator {
		case IndicatorSMA:
			s, err = SMA(cols.Close, p.period)
		case IndicatorEMA:
			s, err = EMA(cols.Close, p.period)
		case IndicatorRSI:
			s, err = RSI(cols.Close, p.period)
		default:
			s, err = ATR(cols.High, cols.Low, cols.Close, p.period)
		}
		out = map[string]Series{"value": s}
	case IndicatorMACD:
		res.Params.FastPeriod, res.Params.SlowPeriod, res.Params.SignalPeriod = p.fast, p.slow, p.signal
		var m MACDResult
		m, err = MACD(cols.Close, p.fast, p.slow, p.signal)
		out = map[string]Series{"macd": m.MACD, "signal": m.Signal, "histogram": m.Histogram}
	case IndicatorBB:
		nb := toolkit.Float(p.nbdev)
		res.Params.Period, res.Params.NbDev = p.period, &nb
		var b BBandsResult
		b, err = BBands(cols.Close, p.period, p.nbdev)
		out = map[string]Series{"upper": b.Upper, "middle": b.Middle, "lower": b.Lower}
	}
	if err != nil {
		return nil, err
	}
	res.Series = out
	res.Latest = make(map[string]toolkit.Float, len(out))
	for k, s := range out {
		res.FirstValidIndex = s.First
		v, _ := s.Last()
		res.Latest[k] = toolkit.Float(v)
	}
	return res, nil
}
