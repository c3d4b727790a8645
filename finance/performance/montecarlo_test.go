package performance

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMonteCarloSameSeedBitIdentical(t *testing.T) {
	r := benchR(50)
	seed := uint64(12345)
	base := MonteCarloOptions{StartingEquity: 100000, NumSimulations: ref(3001), TradesPerSimulation: ref(57), Seed: &seed}
	var results []MonteCarlo
	for _, w := range []int{1, 2, 3, 7} {
		opt := base
		opt.Workers = w
		res, err := RunMonteCarlo(context.Background(), r, opt)
		require.NoError(t, err)
		results = append(results, res)
	}
	for _, res := range results[1:] {
		assert.Equal(t, results[0], res) // float fields compared exactly
	}
	other := uint64(12346)
	base.Seed = &other
	res, err := RunMonteCarlo(context.Background(), r, base)
	require.NoError(t, err)
	assert.NotEqual(t, results[0].MeanFinalEquity, res.MeanFinalEquity)
}

// TestMonteCarloMeanFinalR: each path sums N draws from the empirical
// distribution of r, so the mean final R estimates N·mean(R) with
// standard error sqrt(N·popvar(R)/sims). One fixed seed must land within 3
// standard errors, and over 40 seeds the z-scores must look standard
// normal (mean near 0, sd near 1), which a biased or correlated generator
// would fail.
func TestMonteCarloMeanFinalR(t *testing.T) {
	r := benchR(300)
	const trades = 100
	want := trades * Mean(r)
	z := func(seed uint64, sims int) float64 {
		res, err := RunMonteCarlo(context.Background(), r, MonteCarloOptions{StartingEquity: 1000, NumSimulations: ref(sims), TradesPerSimulation: ref(trades), Seed: &seed})
		require.NoError(t, err)
		return (float64(res.MeanFinalR) - want) / math.Sqrt(trades*PopVariance(r)/float64(sims))
	}
	assert.Less(t, math.Abs(z(20261122, 10000)), 3.0)
	var s, ss float64
	const seeds = 40
	for seed := range uint64(seeds) {
		v := z(seed, 2000)
		s, ss = s+v, ss+v*v
	}
	mean := s / seeds
	sd := math.Sqrt(ss/seeds - mean*mean)
	assert.Less(t, math.Abs(mean), 3/math.Sqrt(seeds), "mean of z")
	assert.InDelta(t, 1, sd, 0.35, "sd of z")
}

// TestMonteCarloAgainstReference re-implements one path with plain
// compounding and checks every published figure on a small run.
func TestMonteCarloAgainstReference(t *testing.T) {
	r := []float64{2, -1, 0.5, -0.5, 3, -1.2}
	seed := uint64(99)
	const sims, trades, risk, start = 501, 40, 0.05, 10000.0
	res, err := RunMonteCarlo(context.Background(), r, MonteCarloOptions{StartingEquity: start, NumSimulations: ref(sims), TradesPerSimulation: ref(trades), RiskPerTrade: ref(risk), Seed: &seed})
	require.NoError(t, err)
	finals := make([]float64, sims)
	dds := make([]float64, sims)
	var profit, gain, d20, d50 int
	var sum float64
	for i := range sims {
		state := streamSeed(seed, uint64(i))
		e, peak, mdd := start, start, 0.0
		for range trades {
			state += splitMixIncrement
			hi, _ := bits.Mul64(splitMix(state), uint64(len(r)))
			e *= 1 + risk*r[hi]
			peak = math.Max(peak, e)
			mdd = math.Max(mdd, 1-e/peak)
		}
		finals[i], dds[i] = e, mdd
		sum += e
		if e > start*(1+1e-12) {
			profit++
		}
		if e >= 1.2*start*(1+1e-12) {
			gain++
		}
		if mdd >= 0.2 {
			d20++
		}
		if mdd >= 0.5 {
			d50++
		}
	}
	slices.Sort(finals)
	slices.Sort(dds)
	rel := 1e-11
	assert.InEpsilon(t, sum/sims, float64(res.MeanFinalEquity), rel)
	assert.InEpsilon(t, quantileSorted(finals, 0.5), float64(res.MedianFinalEquity), rel)
	assert.InEpsilon(t, quantileSorted(finals, 0.05), float64(res.P5FinalEquity), rel)
	assert.InEpsilon(t, quantileSorted(finals, 0.95), float64(res.P95FinalEquity), rel)
	assert.InEpsilon(t, finals[0], float64(res.WorstCase), rel)
	assert.InEpsilon(t, finals[sims-1], float64(res.BestCase), rel)
	assert.InEpsilon(t, quantileSorted(dds, 0.5), float64(res.MedianMaxDrawdown), 1e-9)
	assert.InDelta(t, float64(profit)/sims, float64(res.ProbabilityOfProfit), 1.5/sims)
	assert.InDelta(t, float64(gain)/sims, float64(res.Probability20pctGain), 1.5/sims)
	assert.InDelta(t, float64(d20)/sims, float64(res.Probability20pctDrawdown), 1.5/sims)
	assert.InDelta(t, float64(d50)/sims, float64(res.Probability50pctDrawdown), 1.5/sims)
	assert.Equal(t, seed, res.Seed)
	assert.Equal(t, sims, res.NumSimulations)
	assert.Equal(t, trades, res.TradesPerSimulation)
}

func TestMonteCarloRuinIsAbsorbing(t *testing.T) {
	seed := uint64(3)
	// risk 0.5 and R = -2 wipe the account out
	res, err := RunMonteCarlo(context.Background(), []float64{1, -2}, MonteCarloOptions{StartingEquity: 100, NumSimulations: ref(200), TradesPerSimulation: ref(20), RiskPerTrade: ref(0.5), Seed: &seed})
	require.NoError(t, err)
	assert.Greater(t, float64(res.ProbabilityOfRuin), 0.99)
	assert.Equal(t, toolkit.Float(0), res.WorstCase)
	assert.Equal(t, toolkit.Float(0), res.MedianFinalEquity)
	assert.Equal(t, toolkit.Float(1), res.MedianMaxDrawdown)
	assert.Equal(t, toolkit.Float(1), res.Probability50pctDrawdown)
}

// TestMonteCarloSeedDerivedFromCanonicalArguments: without a seed the
// seed comes from the arguments as numbers (defaults applied, -0 as 0),
// so the same question gets the same answer and the answer says how; any
// argument that shapes the run changes the seed.
func TestMonteCarloSeedDerivedFromCanonicalArguments(t *testing.T) {
	r := []float64{1, -1, 2.5, 0}
	run := func(r []float64, opt MonteCarloOptions) MonteCarlo {
		t.Helper()
		res, err := RunMonteCarlo(context.Background(), r, opt)
		require.NoError(t, err)
		return res
	}
	base := MonteCarloOptions{StartingEquity: 100, NumSimulations: ref(50), TradesPerSimulation: ref(20)}
	first := run(r, base)
	assert.Equal(t, SeedDerived, first.SeedFrom)
	assert.LessOrEqual(t, first.Seed, uint64(MaxSeed))
	assert.Equal(t, first, run(r, base), "identical inputs, identical result")
	explicit := base
	explicit.RiskPerTrade = ref(DefaultRiskPerTrade)
	assert.Equal(t, first, run([]float64{1, -1, 2.5, math.Copysign(0, -1)}, explicit), "defaults applied, -0 is 0")

	seed := first.Seed
	given := base
	given.Seed = &seed
	same := run(r, given)
	assert.Equal(t, SeedGiven, same.SeedFrom)
	same.SeedFrom = SeedDerived
	assert.Equal(t, first, same, "the derived seed is an ordinary seed")

	seeds := map[uint64]string{first.Seed: "base"}
	for name, v := range map[string]struct {
		r   []float64
		opt MonteCarloOptions
	}{
		"r":      {[]float64{1, -1, 2.5, 0.1}, base},
		"order":  {[]float64{-1, 1, 2.5, 0}, base},
		"equity": {r, MonteCarloOptions{StartingEquity: 101, NumSimulations: ref(50), TradesPerSimulation: ref(20)}},
		"sims":   {r, MonteCarloOptions{StartingEquity: 100, NumSimulations: ref(51), TradesPerSimulation: ref(20)}},
		"trades": {r, MonteCarloOptions{StartingEquity: 100, NumSimulations: ref(50), TradesPerSimulation: ref(21)}},
		"risk":   {r, MonteCarloOptions{StartingEquity: 100, NumSimulations: ref(50), TradesPerSimulation: ref(20), RiskPerTrade: ref(0.02)}},
	} {
		got := run(v.r, v.opt)
		_, dup := seeds[got.Seed]
		assert.False(t, dup, "%s: a new seed", name)
		seeds[got.Seed] = name
	}
}

func TestMonteCarloBadInput(t *testing.T) {
	seed := uint64(1)
	ok := MonteCarloOptions{StartingEquity: 100, Seed: &seed}
	cases := []struct {
		name string
		r    []float64
		mod  func(o *MonteCarloOptions)
		kind toolkit.Kind
		msg  string
	}{
		{"too few", []float64{1}, nil, toolkit.Invalid, "r_multiples: needs at least 2"},
		{"inf", []float64{1, math.Inf(1)}, nil, toolkit.Invalid, "r_multiples: item 1"},
		{"too many values", make([]float64, limits.MaxItems+1), nil, toolkit.TooLarge, "r_multiples: at most"},
		{"sims over max", []float64{1, -1}, func(o *MonteCarloOptions) { o.NumSimulations = ref(10001) }, toolkit.Invalid, "num_simulations: must be between 1 and 10000"},
		{"sims negative", []float64{1, -1}, func(o *MonteCarloOptions) { o.NumSimulations = ref(-1) }, toolkit.Invalid, "num_simulations"},
		{"trades over max", []float64{1, -1}, func(o *MonteCarloOptions) { o.TradesPerSimulation = ref(1001) }, toolkit.Invalid, "trades_per_simulation: must be between 1 and 1000"},
		{"equity", []float64{1, -1}, func(o *MonteCarloOptions) { o.StartingEquity = 0 }, toolkit.Invalid, "starting_equity"},
		{"risk", []float64{1, -1}, func(o *MonteCarloOptions) { o.RiskPerTrade = ref(1.5) }, toolkit.Invalid, "risk_per_trade"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := ok
			if c.mod != nil {
				c.mod(&o)
			}
			_, err := RunMonteCarlo(context.Background(), c.r, o)
			require.Error(t, err)
			assert.Equal(t, c.kind, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), c.msg)
		})
	}
}

func TestRadixSortMatchesSort(t *testing.T) {
	xs := benchR(5000)
	for i := range xs {
		xs[i] *= float64(i%7) - 3
	}
	xs = append(xs, math.Inf(-1), math.Inf(1), 0, -1e-300, 1e300)
	want := append([]float64(nil), xs...)
	slices.Sort(want)
	radixSortFloat64(xs, make([]uint64, 2*len(xs)))
	assert.Equal(t, want, xs)
}
