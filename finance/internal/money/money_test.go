package money

import (
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCanonicalWhateverTheInputForm(t *testing.T) {
	cases := []struct{ in, want string }{
		{"67336.50", "67336.50"},
		{"67336.5", "67336.50"},
		{"6.73365e4", "67336.50"},
		{"67336.500000", "67336.50"},
		{"2500", "2500.00"},
		{"1E3", "1000.00"},
		{"0", "0.00"},
		{"0.000", "0.00"},
		{"-12.3", "-12.30"},
		{"0.001000", "0.001"},
		{"2500.01250", "2500.0125"},
		{"0.0000001", "0.0000001"},
		{"123456789012345678.9", "123456789012345678.90"},
	}
	for _, c := range cases {
		got := Canonical(toolkit.MustParseAmount(c.in))
		assert.Equal(t, c.want, got.String(), c.in)
		assert.Zero(t, got.Cmp(toolkit.MustParseAmount(c.in)), "the value never changes")
	}
	// the same for amounts made by arithmetic (34 digits, exponent forms)
	third, err := toolkit.AmountFromInt(1).Quo(toolkit.AmountFromInt(3))
	require.NoError(t, err)
	assert.Equal(t, third.String(), Canonical(third).String(), "34 significant digits: nothing to pad or trim")
	big := toolkit.AmountFromInt(1 << 40).Mul(toolkit.AmountFromInt(1 << 40)).Mul(toolkit.AmountFromInt(1 << 40))
	assert.Equal(t, big.String(), Canonical(big).String(), "beyond 10^32 no room for two more digits: written as is")
}

func TestFieldsAndOptional(t *testing.T) {
	a, b := toolkit.MustParseAmount("5"), toolkit.MustParseAmount("1.250")
	Fields(&a, &b)
	assert.Equal(t, "5.00", a.String())
	assert.Equal(t, "1.25", b.String())

	in := toolkit.MustParseAmount("7.5")
	shared := &in // an output field pointing at an input
	var none *toolkit.Amount
	Optional(&shared, &none)
	assert.Equal(t, "7.50", shared.String())
	assert.Equal(t, "7.5", in.String(), "the input is not modified")
	assert.Nil(t, none)
}
