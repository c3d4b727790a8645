package billing

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetLimits(t *testing.T) {
	tooMany := make([]string, MaxAllowedOperations+1)
	for i := range tooMany {
		tooMany[i] = "risk_check"
	}
	cases := []struct {
		name    string
		in      LimitsInput
		wantMsg string // empty: accepted
		stored  SpendLimits
	}{
		{name: "no caps", in: LimitsInput{}, stored: SpendLimits{}},
		{name: "both caps", in: LimitsInput{DailyLimit: ptr(amount("0.5")), MonthlyLimit: ptr(amount("10"))},
			stored: SpendLimits{DailyMicros: ptr(int64(500_000)), MonthlyMicros: ptr(int64(10_000_000))}},
		{name: "smallest cap", in: LimitsInput{DailyLimit: ptr(amount("0.000001"))},
			stored: SpendLimits{DailyMicros: ptr(int64(1))}},
		{name: "operations sorted and deduplicated", in: LimitsInput{AllowedOperations: []string{"risk_check", "full_eval", "risk_check"}},
			stored: SpendLimits{AllowedOperations: []string{"full_eval", "risk_check"}}},
		{name: "at most 64 operations", in: LimitsInput{AllowedOperations: tooMany[:MaxAllowedOperations]},
			stored: SpendLimits{AllowedOperations: []string{"risk_check"}}},
		{name: "zero daily cap", in: LimitsInput{DailyLimit: ptr(amount("0"))},
			wantMsg: "daily_limit: must be a positive amount with at most 6 decimals (got 0)"},
		{name: "negative monthly cap", in: LimitsInput{MonthlyLimit: ptr(amount("-1"))},
			wantMsg: "monthly_limit: must be a positive amount with at most 6 decimals (got -1)"},
		{name: "cap below a micro-USD", in: LimitsInput{DailyLimit: ptr(amount("0.0000001"))},
			wantMsg: "daily_limit: must be a positive amount with at most 6 decimals (got 0.0000001)"},
		{name: "too many operations", in: LimitsInput{AllowedOperations: tooMany},
			wantMsg: "allowed_operations: at most 64 items"},
		{name: "unknown operation", in: LimitsInput{AllowedOperations: []string{"risk_check", "place_order"}},
			wantMsg: `allowed_operations[1]: unknown operation "place_order" (priced operations: [assess_trading_system`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := newFakeStore()
			svc := newService(t, store)
			got, err := svc.SetLimits(context.Background(), agentID, c.in)
			if c.wantMsg != "" {
				assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
				assert.Contains(t, toolkit.MessageOf(err), c.wantMsg)
				assert.Zero(t, store.calls["SetSpendLimits"], "nothing stored")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.stored, store.limits)
			assert.Equal(t, agentID, got.AgentID)
			assert.Equal(t, append([]string{}, c.stored.AllowedOperations...), got.AllowedOperations, "read back after the write")
		})
	}
}

func TestSetLimitsStoreFailure(t *testing.T) {
	for _, method := range []string{"SetSpendLimits", "SpendLimits"} {
		store := newFakeStore().fail(method, errBoom)
		_, err := newService(t, store).SetLimits(context.Background(), agentID, LimitsInput{DailyLimit: ptr(amount("1"))})
		assert.Equal(t, toolkit.Internal, toolkit.KindOf(err), method)
	}
}

func TestLimits(t *testing.T) {
	cases := []struct {
		stored           SpendLimits
		daily, monthly   string // "" for no cap
		allowedOperation []string
	}{
		{SpendLimits{}, "", "", []string{}},
		{SpendLimits{DailyMicros: ptr(int64(2_500)), MonthlyMicros: ptr(int64(1_000_000)), AllowedOperations: []string{"risk_check"}},
			"0.0025", "1.00", []string{"risk_check"}},
		{SpendLimits{MonthlyMicros: ptr(int64(50_000_000))}, "", "50.00", []string{}},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			store := newFakeStore()
			store.limits = c.stored
			got, err := newService(t, store).Limits(context.Background(), agentID)
			require.NoError(t, err)
			assert.Equal(t, agentID, got.AgentID)
			assert.Equal(t, c.daily, amountText(got.DailyLimit))
			assert.Equal(t, c.monthly, amountText(got.MonthlyLimit))
			assert.Equal(t, c.allowedOperation, got.AllowedOperations, "never nil: clients get []")
		})
	}
	_, err := newService(t, newFakeStore().fail("SpendLimits", errBoom)).Limits(context.Background(), agentID)
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
}

func amountText(a *toolkit.Amount) string {
	if a == nil {
		return ""
	}
	return a.String()
}
