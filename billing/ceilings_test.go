package billing

import (
	"context"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetCeilingsClampsTheLimits(t *testing.T) {
	cases := []struct {
		name     string
		cur      SpendLimits
		in       LimitsInput
		want     SpendLimits // limits after, ceilings aside
		conflict bool
	}{
		{name: "no limit becomes the ceiling", in: LimitsInput{DailyLimit: ptr(amount("2"))},
			want: SpendLimits{DailyMicros: ptr(int64(2_000_000))}},
		{name: "a limit above comes down", cur: SpendLimits{DailyMicros: ptr(int64(5_000_000)), MonthlyMicros: ptr(int64(9_000_000))},
			in:   LimitsInput{DailyLimit: ptr(amount("2"))},
			want: SpendLimits{DailyMicros: ptr(int64(2_000_000)), MonthlyMicros: ptr(int64(9_000_000))}},
		{name: "a limit below stays", cur: SpendLimits{DailyMicros: ptr(int64(1_000_000))},
			in: LimitsInput{DailyLimit: ptr(amount("2"))}, want: SpendLimits{DailyMicros: ptr(int64(1_000_000))}},
		{name: "all operations narrow to the ceiling", in: LimitsInput{AllowedOperations: []string{"risk_check", "full_eval"}},
			want: SpendLimits{AllowedOperations: []string{"full_eval", "risk_check"}}},
		{name: "a list is intersected", cur: SpendLimits{AllowedOperations: []string{"basic_eval", "risk_check"}},
			in: LimitsInput{AllowedOperations: []string{"risk_check", "full_eval"}}, want: SpendLimits{AllowedOperations: []string{"risk_check"}}},
		{name: "nothing left is a conflict", cur: SpendLimits{AllowedOperations: []string{"basic_eval"}},
			in: LimitsInput{AllowedOperations: []string{"risk_check"}}, conflict: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := newFakeStore()
			store.limits = c.cur
			svc := newService(t, store)
			got, err := svc.SetCeilings(context.Background(), agentID, c.in)
			if c.conflict {
				assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err))
				assert.Contains(t, toolkit.MessageOf(err), "allowed_operations")
				assert.Zero(t, store.calls["SetSpendLimits"], "nothing stored")
				return
			}
			require.NoError(t, err)
			stored := store.limits
			stored.Ceilings, stored.Version = Ceilings{}, 0
			assert.Equal(t, c.want, stored)
			if c.in.DailyLimit != nil {
				require.NotNil(t, got.Ceilings.DailyLimit)
				assert.Zero(t, c.in.DailyLimit.Cmp(*got.Ceilings.DailyLimit), "the ceiling is reported")
			}
		})
	}
}

func TestOwnerLimitsStayWithinCeilings(t *testing.T) {
	store := newFakeStore()
	store.limits = SpendLimits{DailyMicros: ptr(int64(1_000_000)), Version: 1,
		Ceilings: Ceilings{DailyMicros: ptr(int64(3_000_000)), AllowedOperations: []string{"full_eval", "risk_check"}}}
	svc := newService(t, store)
	ctx := context.Background()
	for _, in := range []LimitsInput{
		{DailyLimit: ptr(amount("4")), AllowedOperations: []string{"risk_check"}},
		{AllowedOperations: []string{"risk_check"}},
		{DailyLimit: ptr(amount("2"))},
		{DailyLimit: ptr(amount("2")), AllowedOperations: []string{"basic_eval"}},
	} {
		_, err := svc.OwnerSetLimits(ctx, agentID, in)
		assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "%+v", in)
	}
	got, err := svc.OwnerSetLimits(ctx, agentID, LimitsInput{DailyLimit: ptr(amount("3")), MonthlyLimit: ptr(amount("50")),
		AllowedOperations: []string{"full_eval"}})
	require.NoError(t, err, "raising up to the ceiling is the owner's right")
	assert.Equal(t, "3.00", got.DailyLimit.String())
	assert.Equal(t, int64(3_000_000), *store.limits.Ceilings.DailyMicros, "the ceilings are kept")
	_, err = svc.TightenLimits(ctx, agentID, LimitsInput{DailyLimit: ptr(amount("3.5")), AllowedOperations: []string{"full_eval"}})
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "the agent itself still only tightens")
}
