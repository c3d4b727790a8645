package workspace

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// BM25 parameters of the memory search (Robertson and Zaragoza's usual
// values).
const (
	// BM25K1 saturates term frequency.
	BM25K1 = 1.2
	// BM25B is the strength of document-length normalisation.
	BM25B = 0.75
)

// scored is a candidate memory with its BM25 score.
type scored struct {
	IndexMatch
	score float64
}

// rankBM25 scores the candidates of snap against the distinct query terms
// (string term hashes) with Okapi BM25:
//
//	score(D) = Σ_t idf(t) · f(t,D)·(k1 + 1) / (f(t,D) + k1·(1 − b + b·|D|/avgdl))
//	idf(t)   = ln(1 + (N − n(t) + 0.5)/(n(t) + 0.5))
//
// where N is the number of the agent's memories, n(t) the number holding
// t, |D| the memory's length in terms and avgdl the mean length (the
// Lucene form of idf, which stays positive for common terms). A query
// term counts once however often it is repeated. Corpus figures cover all
// the agent's memories, whatever the category filter. The result is
// ordered by score (highest first), then StoredAt (newest first), then
// memory id (descending), so equal scores list the newest memory first.
func rankBM25(snap IndexSnapshot, terms []string) []scored {
	n := float64(snap.Memories)
	avgdl := 1.0
	if snap.Memories > 0 && snap.Length > 0 {
		avgdl = float64(snap.Length) / n
	}
	idf := make(map[string]float64, len(terms))
	for _, t := range terms {
		df := float64(snap.DocFreq[t])
		idf[t] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	out := make([]scored, 0, len(snap.Matches))
	for _, m := range snap.Matches {
		norm := BM25K1 * (1 - BM25B + BM25B*float64(m.Length)/avgdl)
		var score float64
		for _, t := range terms {
			if f := float64(m.Counts[t]); f > 0 {
				score += idf[t] * f * (BM25K1 + 1) / (f + norm)
			}
		}
		if score > 0 {
			out = append(out, scored{IndexMatch: m, score: round12(score)})
		}
	}
	slices.SortFunc(out, func(a, b scored) int {
		switch {
		case a.score != b.score:
			if a.score > b.score {
				return -1
			}
			return 1
		case !a.StoredAt.Equal(b.StoredAt):
			return b.StoredAt.Compare(a.StoredAt)
		}
		return strings.Compare(b.MemoryID, a.MemoryID)
	})
	return out
}

// round12 rounds x to 12 significant digits (the precision statistics are
// published with), so scores that differ only by floating-point noise tie
// and fall back to the newest-first order.
func round12(x float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	if err != nil {
		return x
	}
	return r
}
