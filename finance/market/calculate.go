package market

import (
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

// IndicatorRequest selects an indicator and its parameters. Zero values
// take the defaults: period SMA/EMA 20, RSI 14, ATR 14, BB 20; MACD 12/26/9;
// BB nbdev 2. Period applies to sma, ema, rsi, atr and bb; the MACD periods
// only to macd; NbDev only to bb.
type IndicatorRequest struct {
	Indicator    string
	Period       int
	FastPeriod   int
	SlowPeriod   int
	SignalPeriod int
	NbDev        float64
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

// withDefaults fills the zero fields of r with the defaults.
func (r IndicatorRequest) withDefaults() IndicatorRequest {
	if r.Period == 0 {
		switch r.Indicator {
		case IndicatorRSI, IndicatorATR:
			r.Period = 14
		default:
			r.Period = 20
		}
	}
	if r.FastPeriod == 0 {
		r.FastPeriod = 12
	}
	if r.SlowPeriod == 0 {
		r.SlowPeriod = 26
	}
	if r.SignalPeriod == 0 {
		r.SignalPeriod = 9
	}
	if r.NbDev == 0 {
		r.NbDev = 2
	}
	return r
}

// IndicatorMinBars returns the number of bars the request needs for one
// value (its lookback + 1), after filling in the defaults. It is 0 for an
// unknown indicator.
func IndicatorMinBars(r IndicatorRequest) int {
	r = r.withDefaults()
	switch r.Indicator {
	case IndicatorSMA, IndicatorEMA, IndicatorBB:
		return r.Period
	case IndicatorRSI, IndicatorATR:
		return r.Period + 1
	case IndicatorMACD:
		return MACDLookback(r.SlowPeriod, r.SignalPeriod) + 1
	}
	return 0
}

// CalculateIndicators runs one indicator over the bars (oldest first) with
// TA-Lib semantics; see SMA, EMA, RSI, MACD, BBands and ATR for the
// definitions and the documented deviations. It validates the bars
// (ValidateBars) and the parameters; with fewer bars than
// IndicatorMinBars it returns a toolkit.Invalid error naming the count (the
// catalog tool answers with InsufficientBars instead).
func CalculateIndicators(bars []Bar, req IndicatorRequest) (*IndicatorResult, error) {
	if err := ValidateBars("bars", bars); err != nil {
		return nil, err
	}
	switch req.Indicator {
	case IndicatorSMA, IndicatorEMA, IndicatorRSI, IndicatorMACD, IndicatorBB, IndicatorATR:
	default:
		return nil, invalid("indicator", "must be one of sma, ema, rsi, macd, bb, atr (got %q)", req.Indicator)
	}
	need := IndicatorMinBars(req)
	req = req.withDefaults()
	if len(bars) < need {
		return nil, invalid("bars", "%s needs at least %d bars; %d provided", req.Indicator, need, len(bars))
	}
	cols := Columns(bars)
	res := &IndicatorResult{Indicator: req.Indicator, Bars: len(bars)}
	var out map[string]Series
	var err error
	switch req.Indicator {
	case IndicatorSMA, IndicatorEMA, IndicatorRSI, IndicatorATR:
		res.Params.Period = req.Period
		var s Series
		switch req.Indicator {
		case IndicatorSMA:
			s, err = SMA(cols.Close, req.Period)
		case IndicatorEMA:
			s, err = EMA(cols.Close, req.Period)
		case IndicatorRSI:
			s, err = RSI(cols.Close, req.Period)
		default:
			s, err = ATR(cols.High, cols.Low, cols.Close, req.Period)
		}
		out = map[string]Series{"value": s}
	case IndicatorMACD:
		res.Params.FastPeriod, res.Params.SlowPeriod, res.Params.SignalPeriod = req.FastPeriod, req.SlowPeriod, req.SignalPeriod
		var m MACDResult
		m, err = MACD(cols.Close, req.FastPeriod, req.SlowPeriod, req.SignalPeriod)
		out = map[string]Series{"macd": m.MACD, "signal": m.Signal, "histogram": m.Histogram}
	case IndicatorBB:
		nb := toolkit.Float(req.NbDev)
		res.Params.Period, res.Params.NbDev = req.Period, &nb
		var b BBandsResult
		b, err = BBands(cols.Close, req.Period, req.NbDev)
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
