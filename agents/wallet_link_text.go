package agents

import (
	"strconv"
	"strings"
	"time"
)

// unixSecondsDigits is the length of a number read as unix seconds in a
// free-text link message: ten digits cover 2001-09-09 to 2286-11-20.
const unixSecondsDigits = 10

// checkLinkText checks a free-text link-wallet message (any text not in
// the structured "<service>-link:" form), such as the published
// "Link wallet to agent <agent_id>": it must contain agentID as a whole
// word (not inside a longer identifier), and every 10-digit number in it
// is read as unix seconds and must be within WalletChallengeWindow of now.
// It returns the first such time, or the zero time when the message
// carries none.
func checkLinkText(field, s, agentID string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, invalid("%s: required (the exact signed text, containing the agent_id)", field)
	}
	if len(s) > MaxWalletMessageLen {
		return time.Time{}, invalid("%s: at most %d bytes", field, MaxWalletMessageLen)
	}
	if !containsWord(s, agentID) {
		return time.Time{}, invalid("%s: must contain the calling agent's agent_id %s as a word, e.g. %q", field, agentID,
			"Link wallet to agent "+agentID)
	}
	var first time.Time
	for _, run := range digitRuns(s) {
		if len(run) != unixSecondsDigits {
			continue
		}
		n, _ := strconv.ParseInt(run, 10, 64) // ten digits always parse
		at := time.Unix(n, 0).UTC()
		if err := checkWindow(field, at, now); err != nil {
			return time.Time{}, err
		}
		if first.IsZero() {
			first = at
		}
	}
	return first, nil
}

// containsWord reports whether word occurs in s with no identifier
// character ([A-Za-z0-9_-]) right before or after it.
func containsWord(s, word string) bool {
	if word == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(word)
		if (start == 0 || !isIdentByte(s[start-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return true
		}
		i = start + 1
	}
}

// digitRuns returns the maximal runs of ASCII digits in s that are not
// part of a longer identifier (no letter, '_' or '-' right before or
// after), so "agt_123" and "v2" hold none.
func digitRuns(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if (i == 0 || !isIdentByte(s[i-1])) && (j == len(s) || !isIdentByte(s[j])) {
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}

// isIdentByte reports whether c can be part of an identifier such as an
// agent id.
func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
