package billing_test

import (
	"math"
	"testing"

	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVerifiedDepositQuantity(t *testing.T) {
	tests := []struct {
		units    uint64
		decimals uint8
		want     string
	}{
		{1_500_000, 6, "1.500000"},
		{1, 6, "0.000001"},
		{999_999, 6, "0.999999"},
		{1_000_000_000, 9, "1.000000000"},
		{42, 0, "42"},
		{math.MaxUint64, 9, "18446744073.709551615"},
		{math.MaxUint64, 20, "0.18446744073709551615"},
	}
	for _, tt := range tests {
		q, err := billing.VerifiedDeposit{BaseUnits: tt.units, Decimals: tt.decimals}.Quantity()
		require.NoError(t, err)
		assert.Equal(t, tt.want, q.String())
	}
	_, err := billing.VerifiedDeposit{BaseUnits: 1, Decimals: 31}.Quantity()
	assert.Error(t, err)
}

func TestAssetIsStablecoin(t *testing.T) {
	for a, want := range map[billing.Asset]bool{billing.USDC: true, billing.USDT: true, billing.PYUSD: true, billing.SOL: false, billing.DefaultNativeToken: false, "usdc": false} {
		assert.Equal(t, want, a.IsStablecoin(), a)
	}
}
