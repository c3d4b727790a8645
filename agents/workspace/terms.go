package workspace

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Terms splits text into index terms and counts them. It is the one
// tokeniser of the memory index, applied to memories before they are
// sealed and to queries:
//
//  1. the text is normalised to Unicode NFKC (so "ﬁ" is "fi", full-width
//     "ＡＢＣ" is "ABC" and "²" is "2") and lower-cased;
//  2. a term is a maximal run of letters, marks and digits (Unicode
//     categories L, M and N); every other rune separates terms;
//  3. each Han, Hiragana or Katakana rune is a term of its own, since
//     those scripts do not separate words with spaces.
//
// There is no stemming and no stop-word list: BM25's inverse document
// frequency discounts common words. Terms returns the count of each
// distinct term and the total number of terms (the document length).
func Terms(text string) (counts map[string]int64, length int64) {
	counts = map[string]int64{}
	text = strings.ToLower(norm.NFKC.String(text))
	start := -1
	flush := func(end int) {
		if start >= 0 {
			counts[text[start:end]]++
			length++
			start = -1
		}
	}
	for i, r := range text {
		switch {
		case isIdeograph(r):
			flush(i)
			counts[string(r)]++
			length++
		case unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(text))
	return counts, length
}

// isIdeograph reports whether r belongs to a script written without
// spaces between words.
func isIdeograph(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}
