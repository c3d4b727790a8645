package agents

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestChallengeSecondsSearchOutward: the search tries each second of the
// ±5-minute window once, nearest first (the past before the future at each
// distance), so a bad signature costs exactly MaxChallengeSearch
// verifications and an honest one a few.
func TestChallengeSecondsSearchOutward(t *testing.T) {
	now := time.Unix(1767225600, 0)
	got := slices.Collect(challengeSeconds(now))
	assert.Len(t, got, MaxChallengeSearch)
	assert.Equal(t, 601, MaxChallengeSearch)
	assert.Equal(t, []int64{1767225600, 1767225599, 1767225601, 1767225598, 1767225602}, got[:5])
	assert.Equal(t, []int64{1767225300, 1767225900}, got[len(got)-2:])
	sorted := slices.Clone(got)
	slices.Sort(sorted)
	assert.Equal(t, int64(1767225300), sorted[0])
	assert.Equal(t, int64(1767225900), sorted[len(sorted)-1])
	assert.Len(t, slices.Compact(sorted), MaxChallengeSearch, "no second twice")
}
