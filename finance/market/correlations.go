package market

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Correlation limits.
const (
	CorrelationMinSymbols = 2
	CorrelationMaxSymbols = 100
	CorrelationMinBars    = 10 // per symbol
)

// SymbolBars is one symbol's bars (oldest first).
type SymbolBars struct {
	Symbol string `json:"symbol"`
	Bars   Bars   `json:"bars"`
}

// CorrelationPair is the correlation of one pair of symbols.
type CorrelationPair struct {
	SymbolA     string         `json:"symbol_a"`
	SymbolB     string         `json:"symbol_b"`
	Correlation *toolkit.Float `json:"correlation"` // Pearson r of log returns; null if either return series is constant
	N           int            `json:"n"`           // aligned returns used
	TStat       *toolkit.Float `json:"t_stat"`      // r·√((n-2)/(1-r²)); null if r is null or |r| = 1
	PValue      *toolkit.Float `json:"p_value"`     // two-sided, Student t with n-2 df; 0 when |r| = 1
	CI95Low     *toolkit.Float `json:"ci95_low"`    // Fisher z: tanh(atanh(r) ∓ 1.96/√(n-3)); null if r is null or |r| = 1
	CI95High    *toolkit.Float `json:"ci95_high"`
}

// CorrelationResult is the answer of analyze_correlations.
type CorrelationResult struct {
	Symbols         []string           `json:"symbols"`          // input order
	Matrix          [][]*toolkit.Float `json:"matrix"`           // Matrix[i][j] = r(symbols[i], symbols[j]); diagonal 1 (null for a constant series)
	Pairs           []CorrelationPair  `json:"pairs"`            // every i < j, in input order
	MostCorrelated  *CorrelationPair   `json:"most_correlated"`  // highest r; null if no pair has an r
	LeastCorrelated *CorrelationPair   `json:"least_correlated"` // r closest to 0
	MostNegative    *CorrelationPair   `json:"most_negative"`    // lowest r
	Method          string             `json:"method"`           // "pearson_log_returns"
	Alignment       string             `json:"alignment"`        // "latest_bar"
}

// AnalyzeCorrelations computes the Pearson correlation of log returns
// ln(c_t/c_{t-1}) for every pair of symbols (never of prices: trending
// prices correlate spuriously).
//
// Alignment: bars carry no timestamps, so the series are aligned by
// position from the latest bar — the last bar of every symbol is taken as
// the same moment, and a pair uses the min(len_a, len_b)-1 most recent
// returns. Callers must send bars that end at the same time with the same
// spacing. Ties in the most/least rankings go to the earlier pair in input
// order. Needs 2..100 symbols with unique, non-empty names; a symbol with
// fewer than 10 bars makes the answer InsufficientBars (see Answer), naming
// the symbol.
func AnalyzeCorrelations(ctx context.Context, data []SymbolBars) (Answer[CorrelationResult], error) {
	if len(data) < CorrelationMinSymbols {
		return Answer[CorrelationResult]{}, invalid("symbols_data", "at least %d symbols are required (got %d)", CorrelationMinSymbols, len(data))
	}
	if len(data) > CorrelationMaxSymbols {
		return Answer[CorrelationResult]{}, toolkit.Errorf(toolkit.TooLarge, "symbols_data: at most %d symbols are accepted (got %d)", CorrelationMaxSymbols, len(data))
	}
	if err := checkSymbols(data); err != nil {
		return Answer[CorrelationResult]{}, err
	}
	for _, d := range data {
		if len(d.Bars) < CorrelationMinBars {
			short := NewInsufficientBars("analyze_correlations", len(d.Bars), CorrelationMinBars)
			short.Message = fmt.Sprintf("analyze_correlations needs at least %d bars per symbol (latest last); symbol %q has %d. Fetch more history and retry.",
				CorrelationMinBars, d.Symbol, len(d.Bars))
			return Answer[CorrelationResult]{Insufficient: short}, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return Answer[CorrelationResult]{}, err
	}
	res, err := analyzeCorrelations(ctx, data)
	if err != nil {
		return Answer[CorrelationResult]{}, err
	}
	return answer(res), nil
}

// checkSymbols validates the symbols and their bars: names non-empty and
// unique, every bar valid, at most limits.MaxItems bars in all.
func checkSymbols(data []SymbolBars) error {
	seen := make(map[string]bool, len(data))
	total := 0
	for i, d := range data {
		if d.Symbol == "" {
			return invalid("symbols_data", "[%d].symbol must not be empty", i)
		}
		if seen[d.Symbol] {
			return invalid("symbols_data", "[%d].symbol %q is repeated", i, d.Symbol)
		}
		seen[d.Symbol] = true
		if total += len(d.Bars); total > limits.MaxItems {
			return toolkit.Errorf(toolkit.TooLarge, "symbols_data: at most %d bars in all are accepted", limits.MaxItems)
		}
		if err := ValidateBars("symbols_data["+strconv.Itoa(i)+"].bars", d.Bars); err != nil {
			return err
		}
	}
	return nil
}

// analyzeCorrelations is AnalyzeCorrelations on enough valid bars.
func analyzeCorrelations(ctx context.Context, data []SymbolBars) (*CorrelationResult, error) {
	total := 0
	for _, d := range data {
		total += len(d.Bars)
	}
	s := getScratch(total)
	defer s.release()
	rets := make([][]float64, len(data))
	res := &CorrelationResult{Method: "pearson_log_returns", Alignment: "latest_bar"}
	for i, d := range data {
		rets[i] = closeLogReturns(s.floats(len(d.Bars)-1), d.Bars)
		res.Symbols = append(res.Symbols, d.Symbol)
	}
	k := len(data)
	res.Matrix = make([][]*toolkit.Float, k)
	vars := s.floats(k) // of each whole series: a pair of equal lengths reuses them
	for i := range res.Matrix {
		res.Matrix[i] = make([]*toolkit.Float, k)
		if vars[i] = variance(rets[i]); vars[i] > 0 {
			res.Matrix[i][i] = flp(1)
		}
	}
	for i := 0; i < k; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j := i + 1; j < k; j++ {
			p := correlatePair(res.Symbols[i], res.Symbols[j], rets[i], rets[j], vars[i], vars[j])
			res.Matrix[i][j], res.Matrix[j][i] = p.Correlation, p.Correlation
			res.Pairs = append(res.Pairs, p)
		}
	}
	for i := range res.Pairs {
		p := &res.Pairs[i]
		if p.Correlation == nil {
			continue
		}
		r := float64(*p.Correlation)
		if res.MostCorrelated == nil || r > float64(*res.MostCorrelated.Correlation) {
			res.MostCorrelated = p
		}
		if res.MostNegative == nil || r < float64(*res.MostNegative.Correlation) {
			res.MostNegative = p
		}
		if res.LeastCorrelated == nil || math.Abs(r) < math.Abs(float64(*res.LeastCorrelated.Correlation)) {
			res.LeastCorrelated = p
		}
	}
	return res, nil
}

// correlatePair aligns two return series at their ends and correlates them;
// varA and varB are the variances of the whole series ra and rb.
func correlatePair(a, b string, ra, rb []float64, varA, varB float64) CorrelationPair {
	m := min(len(ra), len(rb))
	x, y := ra[len(ra)-m:], rb[len(rb)-m:]
	p := CorrelationPair{SymbolA: a, SymbolB: b, N: m}
	if len(x) < len(ra) {
		varA = variance(x)
	}
	if len(y) < len(rb) {
		varB = variance(y)
	}
	if varA == 0 || varB == 0 {
		return p
	}
	r := max(-1, min(1, stat.Correlation(x, y, nil)))
	p.Correlation = flp(r)
	df := float64(m - 2)
	if math.Abs(r) == 1 {
		p.PValue = flp(0)
		return p
	}
	t := r * math.Sqrt(df/(1-r*r))
	p.TStat = flp(t)
	p.PValue = flp(2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.CDF(-math.Abs(t)))
	if m > 3 {
		z, h := math.Atanh(r), 1.96/math.Sqrt(float64(m-3))
		p.CI95Low, p.CI95High = flp(math.Tanh(z-h)), flp(math.Tanh(z+h))
	}
	return p
}

// variance is the population variance (two-pass).
func variance(x []float64) float64 {
	m := meanOf(x)
	s := 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return s / float64(len(x))
}
