package owners

import (
	"testing"
	"time"

	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
)

func TestUsageRangeFillsTheMissingEnds(t *testing.T) {
	now := time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, time.UTC) }
	cases := []struct {
		name             string
		from, to         time.Time
		wantFrom, wantTo time.Time
	}{
		{"neither: the 30 days ending today", time.Time{}, time.Time{}, day(10, 29), day(11, 27)},
		{"to only: the 30 days ending then", time.Time{}, day(11, 10), day(10, 12), day(11, 10)},
		{"from only: the 30 days starting then", day(11, 1), time.Time{}, day(11, 1), day(11, 30)},
		{"both: as given", day(1, 1), day(2, 1), day(1, 1), day(2, 1)},
	}
	for _, c := range cases {
		from, to := UsageRange(c.from, c.to, now)
		assert.Equal(t, c.wantFrom.Format(time.DateOnly), from.Format(time.DateOnly), c.name)
		assert.Equal(t, c.wantTo.Format(time.DateOnly), to.Format(time.DateOnly), c.name)
	}
}

func TestSumOverAgentsMergesDayAndOperation(t *testing.T) {
	d1, d2 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	got := sumOverAgents([]billing.DailyUsage{
		{Day: d1, AgentID: "a", Operation: "risk_check", Count: 2, TotalMicros: 8000},
		{Day: d1, AgentID: "b", Operation: "position_sizing", Count: 1, TotalMicros: 3000},
		{Day: d1, AgentID: "b", Operation: "risk_check", Count: 1, TotalMicros: 4000},
		{Day: d2, AgentID: "a", Operation: "risk_check", Count: 1, TotalMicros: 4000},
	})
	assert.Equal(t, []billing.DailyUsage{
		{Day: d1, Operation: "position_sizing", Count: 1, TotalMicros: 3000},
		{Day: d1, Operation: "risk_check", Count: 3, TotalMicros: 12000},
		{Day: d2, Operation: "risk_check", Count: 1, TotalMicros: 4000},
	}, got)
}
