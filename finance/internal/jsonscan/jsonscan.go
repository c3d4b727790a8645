// Package jsonscan holds the byte-level JSON scanning primitives shared by
// the fast decoders of finance/market (bars, symbols_data) and
// finance/catalog (argument objects). It only finds token boundaries; the
// callers validate the values.
package jsonscan

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space (space, tab, newline, carriage return), or len(b).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// StringEnd returns the index just past the JSON string starting at i
// (b[i] must be '"'), skipping backslash escapes; ok is false when b[i] is
// not a quote or the string is not terminated.
func StringEnd(b []byte, i int) (end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}
