package market

import "math"

// DirectionalResult holds Wilder's directional movement system.
type DirectionalResult struct {
	ADX     Series // average directional index, first valid at 2·period-1
	PlusDI  Series // +DI, first valid at period
	MinusDI Series // -DI, first valid at period
}

// ADXLookback is the index of the first ADX value: 2·period - 1.
func ADXLookback(period int) int { return 2*period - 1 }

// DILookback is the index of the first +DI/-DI value: period.
func DILookback(period int) int { return period }

// Directional computes TA-Lib ADX, PLUS_DI and MINUS_DI in one pass, with
// TA-Lib's order of operations:
//   - +DM_t = h_t-h_{t-1} when that is positive and greater than
//     l_{t-1}-l_t, else 0; -DM symmetrically (one of them at most is set);
//   - TR, +DM and -DM are summed over bars 1..period-1, then smoothed with
//     Wilder sums s = s - s/period + x;
//   - +DI = 100·(+DM_s)/TR_s, -DI likewise, from bar period;
//   - DX = 100·|+DI - -DI|/(+DI + -DI); ADX is seeded with the mean of the
//     first period DX values (at bar 2·period-1), then Wilder-averaged.
//
// Deliberate deviation: TA-Lib treats |TR_s| < 1e-14 and |+DI + -DI| <
// 1e-14 as zero (so DI, DX are 0 and ADX keeps its value), which silences
// the indicator on micro-priced series; here only an exact zero does, so the
// result does not depend on the price scale. period must be at least 2.
func Directional(high, low, close []float64, period int) (DirectionalResult, error) {
	return DirectionalInto(nil, nil, nil, high, low, close, period)
}

// DirectionalInto is Directional writing into dstADX, dstPlusDI and
// dstMinusDI when their capacities allow (no allocation).
func DirectionalInto(dstADX, dstPlusDI, dstMinusDI, high, low, close []float64, period int) (DirectionalResult, error) {
	if err := checkPeriod("period", period, 2); err != nil {
		return DirectionalResult{}, err
	}
	if err := checkOHLC(high, low, close); err != nil {
		return DirectionalResult{}, err
	}
	diLB, adxLB := DILookback(period), ADXLookback(period)
	pdi, mdi := grow(dstPlusDI, len(close)-diLB), grow(dstMinusDI, len(close)-diLB)
	adx := grow(dstADX, len(close)-adxLB)
	res := DirectionalResult{ADX: Series{adxLB, adx}, PlusDI: Series{diLB, pdi}, MinusDI: Series{diLB, mdi}}
	if len(pdi) == 0 {
		return res, nil
	}
	fp := float64(period)
	var plusDM, minusDM, tr, sumDX, prevADX float64
	for t := 1; t < len(close); t++ {
		diffP := high[t] - high[t-1]
		diffM := low[t-1] - low[t]
		if t >= period {
			minusDM -= minusDM / fp
			plusDM -= plusDM / fp
		}
		if diffM > 0 && diffP < diffM {
			minusDM += diffM
		} else if diffP > 0 && diffP > diffM {
			plusDM += diffP
		}
		r := trueRange(high[t], low[t], close[t-1])
		if t >= period {
			tr = tr - tr/fp + r
		} else {
			tr += r
			continue
		}
		var p, m, dx float64
		dxOK := false
		if tr != 0 {
			m = 100 * (minusDM / tr)
			p = 100 * (plusDM / tr)
			if s := m + p; s != 0 {
				dx = 100 * (math.Abs(m-p) / s)
				dxOK = true
			}
		}
		pdi[t-diLB], mdi[t-diLB] = p, m
		switch {
		case t < adxLB:
			if dxOK {
				sumDX += dx
			}
		case t == adxLB:
			if dxOK {
				sumDX += dx
			}
			prevADX = sumDX / fp
			adx[0] = prevADX
		default:
			if dxOK {
				prevADX = (prevADX*(fp-1) + dx) / fp
			}
			adx[t-adxLB] = prevADX
		}
	}
	return res, nil
}
