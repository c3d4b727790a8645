package performance

import (
	"context"
	"math"
	"math/bits"
	"runtime"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
)

// Monte Carlo limits and defaults.
const (
	DefaultSimulations         = 1000
	MaxSimulations             = 10000
	DefaultTradesPerSimulation = 100
	MaxTradesPerSimulation     = 1000
	// MaxSeed is the largest seed the JSON tool accepts or picks (2^53−1,
	// exact in every JSON client). The Go API accepts any uint64.
	MaxSeed = 1<<53 - 1
)

// MonteCarloOptions configures RunMonteCarlo. A nil option takes its
// default.
type MonteCarloOptions struct {
	StartingEquity      float64  // required, > 0
	NumSimulations      *int     // default 1000, 1..10000
	TradesPerSimulation *int     // default 100, 1..1000
	RiskPerTrade        *float64 // fraction of equity per 1R, default 0.01, 0 < f < 1
	// Seed seeds the run; nil derives it from the canonical arguments
	// (MonteCarloSeedRule), so identical inputs give identical results.
	// The result echoes the seed and says where it came from.
	Seed *uint64
	// Workers is the number of goroutines (default GOMAXPROCS). It never
	// changes the result: simulation i always uses the stream derived from
	// (seed, i).
	Workers int
}

// MonteCarlo is the result of RunMonteCarlo. Probabilities are fractions
// (0–1); equity figures are in the currency of starting_equity; drawdowns
// are fractions of the running peak (0.2 = 20 %).
type MonteCarlo struct {
	ProbabilityOfProfit      toolkit.Float `json:"probability_of_profit"`      // final > start
	Probability20pctGain     toolkit.Float `json:"probability_20pct_gain"`     // final >= 1.2·start
	Probability20pctDrawdown toolkit.Float `json:"probability_20pct_drawdown"` // max drawdown >= 20 %
	Probability50pctDrawdown toolkit.Float `json:"probability_50pct_drawdown"` // max drawdown >= 50 %
	ProbabilityOfRuin        toolkit.Float `json:"probability_of_ruin"`        // equity reached 0
	MedianFinalEquity        toolkit.Float `json:"median_final_equity"`
	MeanFinalEquity          toolkit.Float `json:"mean_final_equity"`
	P5FinalEquity            toolkit.Float `json:"p5_final_equity"`
	P25FinalEquity           toolkit.Float `json:"p25_final_equity"`
	P75FinalEquity           toolkit.Float `json:"p75_final_equity"`
	P95FinalEquity           toolkit.Float `json:"p95_final_equity"`
	BestCase                 toolkit.Float `json:"best_case"`  // highest final equity
	WorstCase                toolkit.Float `json:"worst_case"` // lowest final equity
	MedianMaxDrawdown        toolkit.Float `json:"median_max_drawdown"`
	P95MaxDrawdown           toolkit.Float `json:"p95_max_drawdown"`
	// Final R sum per path (no compounding): its mean estimates N·mean(R).
	MeanFinalR   toolkit.Float `json:"mean_final_r"`
	MedianFinalR toolkit.Float `json:"median_final_r"`
	P5FinalR     toolkit.Float `json:"p5_final_r"`
	P95FinalR    toolkit.Float `json:"p95_final_r"`
	// Echoed parameters.
	Seed uint64 `json:"seed"`
	// SeedFrom is SeedGiven (the seed argument) or SeedDerived (from the
	// canonical arguments by MonteCarloSeedRule).
	SeedFrom            string        `json:"seed_from"`
	NumSimulations      int           `json:"num_simulations"`
	TradesPerSimulation int           `json:"trades_per_simulation"`
	StartingEquity      toolkit.Float `json:"starting_equity"`
	RiskPerTrade        toolkit.Float `json:"risk_per_trade"`
	Method              string        `json:"method"`
}

// MonteCarloMethod documents the simulation.
const MonteCarloMethod = "i.i.d. bootstrap: each trade draws one observed R uniformly with replacement; equity compounds as E*(1+risk_per_trade*R), floored at 0 (ruin is absorbing); drawdown is measured from the running peak, the starting equity counting as a peak; percentiles interpolate linearly (Hyndman-Fan type 7); " + MonteCarloSeedRule

// Where the seed of a Monte Carlo came from (MonteCarlo.SeedFrom).
const (
	SeedGiven   = "given"   // the seed argument
	SeedDerived = "derived" // derived from the canonical arguments (MonteCarloSeedRule)
)

// MonteCarloSeedRule documents the seed used when none is given.
const MonteCarloSeedRule = "without a seed argument the seed is derived from the canonical arguments (FNV-1a over the float64 values of r_multiples, starting_equity and risk_per_trade and the integers num_simulations and trades_per_simulation, defaults applied, masked to 53 bits; seed_from says which), so identical inputs give identical results on every surface"

// RunMonteCarlo simulates equity paths by resampling r (at least 2 values).
//
// Each path compounds equity_{k+1} = equity_k·(1 + f·R) over
// TradesPerSimulation draws. A trade with 1 + f·R <= 0 ruins the path:
// equity becomes 0 and stays 0, drawdown 100 %. Internally paths run in
// log space with ln(1 + f·R) precomputed per observed R. Simulation i uses
// its own splitmix64 stream seeded from (seed, i), and indexes are drawn
// by Lemire's multiply-high (bias below n/2^64), so the result is
// bit-identical for a seed whatever the number of workers or cores. It
// checks ctx between chunks of simulations and returns ctx.Err() once ctx
// is done.
func RunMonteCarlo(ctx context.Context, r []float64, opt MonteCarloOptions) (MonteCarlo, error) {
	if err := ValidateSeries("r_multiples", r, 2); err != nil {
		return MonteCarlo{}, err
	}
	if err := validatePositive("starting_equity", opt.StartingEquity); err != nil {
		return MonteCarlo{}, err
	}
	sims := orDefault(opt.NumSimulations, DefaultSimulations)
	if err := validateCount("num_simulations", sims, 1, MaxSimulations); err != nil {
		return MonteCarlo{}, err
	}
	trades := orDefault(opt.TradesPerSimulation, DefaultTradesPerSimulation)
	if err := validateCount("trades_per_simulation", trades, 1, MaxTradesPerSimulation); err != nil {
		return MonteCarlo{}, err
	}
	risk := orDefault(opt.RiskPerTrade, DefaultRiskPerTrade)
	if err := validateRiskFraction("risk_per_trade", risk); err != nil {
		return MonteCarlo{}, err
	}
	seed, from := canonicalSeed(r, opt.StartingEquity, risk, sims, trades), SeedDerived
	if opt.Seed != nil {
		seed, from = *opt.Seed, SeedGiven
	}

	steps := make([]mcStep, len(r))
	for i, x := range r {
		g := 1 + risk*x
		steps[i].r = x
		if g > 0 {
			steps[i].lg = math.Log(g)
		} else {
			steps[i].lg = math.Inf(-1)
		}
	}
	finalLog := make([]float64, sims)
	maxDD := make([]float64, sims) // max drawdown in log units
	finalR := make([]float64, sims)
	if err := simulateAll(ctx, steps, seed, trades, finalLog, maxDD, finalR, opt.Workers); err != nil {
		return MonteCarlo{}, err
	}
	out := summarizeMonteCarlo(opt.StartingEquity, risk, seed, trades, finalLog, maxDD, finalR)
	out.SeedFrom = from
	return out, nil
}

// canonicalSeed is the seed of MonteCarloSeedRule: FNV-1a (64 bits) over
// the little-endian bits of every argument that shapes the run, masked to
// MaxSeed. Values compare as numbers ("1.0", "1" and 1 are one value; −0
// is 0), so one question has one seed whatever the surface or the form
// the numbers were sent in.
func canonicalSeed(r []float64, start, risk float64, sims, trades int) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	word := func(w uint64) {
		for range 8 {
			h = (h ^ (w & 0xff)) * prime
			w >>= 8
		}
	}
	number := func(x float64) {
		if x == 0 {
			x = 0 // −0 is 0
		}
		word(math.Float64bits(x))
	}
	for _, x := range r {
		number(x)
	}
	number(start)
	number(risk)
	word(uint64(sims))
	word(uint64(trades))
	return h & MaxSeed
}

// mcStep is one observed trade: its R and ln(1 + f·R) (−Inf for ruin).
type mcStep struct{ lg, r float64 }

// simulateAll runs every simulation, in chunks of simulations taken by
// workers goroutines from a shared counter (forChunks); results land at
// their index, so the split never changes them. It stops with ctx.Err()
// when ctx ends.
func simulateAll(ctx context.Context, steps []mcStep, seed uint64, trades int, finalLog, maxDD, finalR []float64, workers int) error {
	sims := len(finalLog)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// below ~20k steps a goroutine costs more than it saves
	workers = min(workers, max(1, sims*trades/20000))
	chunk := max(2, limits.CheckEvery(trades)&^1) // even: pairs never straddle two chunks
	return forChunks(ctx, sims, chunk, workers, func(lo, hi int) {
		simulateRange(steps, seed, trades, lo, hi, finalLog, maxDD, finalR)
	})
}

// simulateRange runs simulations lo..hi-1, two at a time: the two paths
// are independent dependency chains, which the CPU overlaps. Each path
// still uses only its own stream, so pairing never changes a result.
func simulateRange(steps []mcStep, seed uint64, trades, lo, hi int, finalLog, maxDD, finalR []float64) {
	n := uint64(len(steps))
	i := lo
	for ; i+1 < hi; i += 2 {
		sa, sb := streamSeed(seed, uint64(i)), streamSeed(seed, uint64(i+1))
		var la, pa, da, ra, lb, pb, db, rb float64
		for range trades {
			sa += splitMixIncrement
			sb += splitMixIncrement
			ja, _ := bits.Mul64(splitMix(sa), n)
			jb, _ := bits.Mul64(splitMix(sb), n)
			a, b := steps[ja], steps[jb]
			la += a.lg
			lb += b.lg
			ra += a.r
			rb += b.r
			pa = max(pa, la) // branch-free: a branch would mispredict half the time
			pb = max(pb, lb)
			da = max(da, pa-la)
			db = max(db, pb-lb)
		}
		finalLog[i], maxDD[i], finalR[i] = la, da, ra
		finalLog[i+1], maxDD[i+1], finalR[i+1] = lb, db, rb
	}
	if i < hi {
		s := streamSeed(seed, uint64(i))
		var l, p, d, rs float64
		for range trades {
			s += splitMixIncrement
			j, _ := bits.Mul64(splitMix(s), n)
			st := steps[j]
			l += st.lg
			rs += st.r
			p = max(p, l)
			d = max(d, p-l)
		}
		finalLog[i], maxDD[i], finalR[i] = l, d, rs
	}
}

// streamSeed derives the splitmix64 state of simulation i from the seed:
// two rounds of the splitmix64 finaliser over seed and index, so that
// neighbouring seeds and indexes start far apart in the sequence.
func streamSeed(seed, i uint64) uint64 {
	return mix64(mix64(seed) ^ mix64(i+0x632be59bd9b4e019))
}

// mix64 is the splitmix64 output function (Stafford variant 13).
func mix64(z uint64) uint64 { return splitMix(z + splitMixIncrement) }

// summarizeMonteCarlo turns per-path results into the published figures.
func summarizeMonteCarlo(start, risk float64, seed uint64, trades int, finalLog, maxDD, finalR []float64) MonteCarlo {
	sims := len(finalLog)
	fs := float64(sims)
	gain20 := math.Log(1.2)
	dd20, dd50 := -math.Log(0.8), math.Log(2) // log drawdown of 20 % and 50 %
	var profit, gain, p20, p50, ruin int
	var sumEq, sumR float64
	for i, l := range finalLog {
		if l > 0 {
			profit++
		}
		if l >= gain20 {
			gain++
		}
		if maxDD[i] >= dd20 {
			p20++
		}
		if maxDD[i] >= dd50 {
			p50++
		}
		if math.IsInf(l, -1) {
			ruin++
		}
		sumEq += math.Exp(l)
		sumR += finalR[i]
	}
	scratch := make([]uint64, 2*sims)
	radixSortFloat64(finalLog, scratch)
	radixSortFloat64(maxDD, scratch)
	radixSortFloat64(finalR, scratch)
	// Quantiles interpolate the transformed order statistics (equity,
	// drawdown fraction), not the log values: the transforms are monotone,
	// so the order statistics are the same, and ruined paths (−Inf) stay
	// finite after the transform.
	eq := func(q float64) toolkit.Float {
		return toolkit.Float(quantileSortedFunc(finalLog, q, func(l float64) float64 { return start * math.Exp(l) }))
	}
	dd := func(q float64) toolkit.Float {
		return toolkit.Float(quantileSortedFunc(maxDD, q, func(d float64) float64 { return -math.Expm1(-d) }))
	}
	return MonteCarlo{
		ProbabilityOfProfit:      toolkit.Float(float64(profit) / fs),
		Probability20pctGain:     toolkit.Float(float64(gain) / fs),
		Probability20pctDrawdown: toolkit.Float(float64(p20) / fs),
		Probability50pctDrawdown: toolkit.Float(float64(p50) / fs),
		ProbabilityOfRuin:        toolkit.Float(float64(ruin) / fs),
		MedianFinalEquity:        eq(0.5),
		MeanFinalEquity:          toolkit.Float(start * sumEq / fs),
		P5FinalEquity:            eq(0.05),
		P25FinalEquity:           eq(0.25),
		P75FinalEquity:           eq(0.75),
		P95FinalEquity:           eq(0.95),
		BestCase:                 eq(1),
		WorstCase:                eq(0),
		MedianMaxDrawdown:        dd(0.5),
		P95MaxDrawdown:           dd(0.95),
		MeanFinalR:               toolkit.Float(sumR / fs),
		MedianFinalR:             toolkit.Float(quantileSorted(finalR, 0.5)),
		P5FinalR:                 toolkit.Float(quantileSorted(finalR, 0.05)),
		P95FinalR:                toolkit.Float(quantileSorted(finalR, 0.95)),
		Seed:                     seed,
		NumSimulations:           sims,
		TradesPerSimulation:      trades,
		StartingEquity:           toolkit.Float(start),
		RiskPerTrade:             toolkit.Float(risk),
		Method:                   MonteCarloMethod,
	}
}
