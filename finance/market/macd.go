package market

import "github.com/agentfinance/toolkit"

// MACDResult holds the three MACD series, all starting at the same index.
type MACDResult struct {
	MACD      Series // EMA_fast - EMA_slow
	Signal    Series // EMA_signal of the MACD line
	Histogram Series // MACD - Signal
}

// MACDLookback is the index of the first MACD value: slow + signal - 2.
func MACDLookback(slow, signal int) int { return slow - 1 + signal - 1 }

// MACD is Appel's moving-average convergence/divergence with TA-Lib's
// seeding, reproduced exactly:
//   - the slow EMA is seeded with the SMA of bars 0..slow-1;
//   - the fast EMA is seeded with the SMA of the fast bars ending at bar
//     slow-1 (not bars 0..fast-1), so both start at bar slow-1;
//   - the signal EMA is seeded with the SMA of the first signal MACD values;
//   - the first output is at bar slow+signal-2 (33 for 12/26/9).
//
// All EMAs use alpha = 2/(period+1). fast must be at least 2 and below
// slow; signal must be at least 1. It allocates the three output series
// and nothing else.
func MACD(x []float64, fast, slow, signal int) (MACDResult, error) {
	return MACDInto(nil, nil, nil, x, fast, slow, signal)
}

// MACDInto is MACD writing into the given buffers when their capacity
// allows.
func MACDInto(dstMACD, dstSignal, dstHist, x []float64, fast, slow, signal int) (MACDResult, error) {
	if err := checkPeriod("fast_period", fast, 2); err != nil {
		return MACDResult{}, err
	}
	if err := checkPeriod("slow_period", slow, 2); err != nil {
		return MACDResult{}, err
	}
	if err := checkPeriod("signal_period", signal, 1); err != nil {
		return MACDResult{}, err
	}
	if fast >= slow {
		return MACDResult{}, toolkit.Errorf(toolkit.Invalid,
			"fast_period: must be less than slow_period (got %d and %d)", fast, slow)
	}
	lb := MACDLookback(slow, signal)
	n := len(x) - lb
	m, s, h := grow(dstMACD, n), grow(dstSignal, n), grow(dstHist, n)
	res := MACDResult{MACD: Series{lb, m}, Signal: Series{lb, s}, Histogram: Series{lb, h}}
	if n <= 0 {
		return res, nil
	}
	start := slow - 1
	var slowE, fastE float64
	for i, v := range x[:slow] {
		slowE += v
		if i >= slow-fast {
			fastE += v
		}
	}
	slowE /= float64(slow)
	fastE /= float64(fast)
	kf, ks, kg := 2/float64(fast+1), 2/float64(slow+1), 2/float64(signal+1)
	cf, cs, cg := 1-kf, 1-ks, 1-kg

	// Bars start..lb: the signal seed is the mean of the first signal MACD values.
	sig := fastE - slowE
	for i := start + 1; i <= lb; i++ {
		v := x[i]
		fastE = float64(cf*fastE) + float64(kf*v)
		slowE = float64(cs*slowE) + float64(ks*v)
		sig += fastE - slowE
	}
	sig /= float64(signal)
	line := fastE - slowE
	m[0], s[0], h[0] = line, sig, line-sig

	x = x[lb:]
	x, s, h = x[:len(m)], s[:len(m)], h[:len(m)]
	for i := 1; i < len(m); i++ {
		v := x[i]
		fastE = float64(cf*fastE) + float64(kf*v)
		slowE = float64(cs*slowE) + float64(ks*v)
		line = fastE - slowE
		sig = float64(cg*sig) + float64(kg*line)
		m[i], s[i], h[i] = line, sig, line-sig
	}
	return res, nil
}
