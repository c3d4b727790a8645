package derivatives

import (
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func marginBook() MarginInput {
	return MarginInput{AccountEquity: amt("100000"), Positions: []MarginPosition{
		// Stock on Reg T: 50 % initial, 25 % maintenance.
		{Symbol: "AAPL", Quantity: amt("200"), Price: amt("185.50"), MarginRate: pa("0.5"), MaintenanceMarginRate: pa("0.25")},
		// Short ES futures: exchange margin per contract.
		{Symbol: "ESH5", Quantity: amt("-2"), Price: amt("5000"), Multiplier: pa("50"),
			InitialMarginPerContract: pa("12650"), MaintenanceMarginPerContract: pa("11500")},
	}}
}

func TestCalculateMarginHandChecked(t *testing.T) {
	res, err := CalculateMargin(marginBook())
	require.NoError(t, err)
	a, es := res.Positions[0], res.Positions[1]
	assert.Equal(t, "long", a.Side)
	assertAmount(t, "37100", a.Notional)
	assertAmount(t, "18550", a.InitialMargin)
	assertAmount(t, "9275", a.MaintenanceMargin)
	assert.Equal(t, "rate", a.MarginBasis)
	assert.Equal(t, "short", es.Side)
	assertAmount(t, "500000", es.Notional)
	assertAmount(t, "25300", es.InitialMargin)
	assertAmount(t, "23000", es.MaintenanceMargin)
	assert.Equal(t, "per_contract", es.MarginBasis)
	assertAmount(t, "537100", res.TotalNotional)
	assertAmount(t, "43850", res.TotalInitialMargin)
	assertAmount(t, "32275", res.TotalMaintenanceMargin)
	assertAmount(t, "56150", res.FreeMargin)
	assertAmount(t, "67725", res.ExcessOverMaintenance)
	assertAmount(t, "0.4385", *res.MarginUsageFraction)
	assertAmount(t, "5.371", *res.Leverage)
	assert.False(t, res.MarginCall)
	assert.Equal(t, MarginOK, res.Status)
	assert.Empty(t, res.Warnings)
}

func TestCalculateMarginStatuses(t *testing.T) {
	cases := []struct {
		equity string
		status string
		call   bool
	}{
		{"43850", MarginOK, false},            // exactly the initial margin
		{"43849.99", MarginRestricted, false}, // below initial, above maintenance
		{"32275", MarginRestricted, false},    // exactly the maintenance margin: no call
		{"32274.99", MarginCall, true},
		{"-100", MarginCall, true},
	}
	for _, c := range cases {
		in := marginBook()
		in.AccountEquity = amt(c.equity)
		res, err := CalculateMargin(in)
		require.NoError(t, err)
		assert.Equal(t, c.status, res.Status, c.equity)
		assert.Equal(t, c.call, res.MarginCall, c.equity)
	}
	in := marginBook()
	in.AccountEquity = amt("0")
	res, err := CalculateMargin(in)
	require.NoError(t, err)
	assert.Nil(t, res.MarginUsageFraction)
	assert.Nil(t, res.Leverage)
	assert.Contains(t, res.Warnings, "account_equity is not positive: usage and leverage are undefined")
}

func TestCalculateMarginDefaultsAndWarnings(t *testing.T) {
	res, err := CalculateMargin(MarginInput{AccountEquity: amt("1000"), Positions: []MarginPosition{
		{Symbol: "MES", Quantity: amt("1.5"), Price: amt("5000"), InitialMarginPerContract: pa("1265")},
		{Symbol: "FLAT", Quantity: amt("0"), Price: amt("10"), MarginRate: pa("1")},
	}})
	require.NoError(t, err)
	assertAmount(t, "1897.5", res.Positions[0].InitialMargin)
	assertAmount(t, "1897.5", res.Positions[0].MaintenanceMargin, "maintenance defaults to initial")
	assertAmount(t, "7500", res.Positions[0].Notional, "multiplier defaults to 1")
	assert.Equal(t, "flat", res.Positions[1].Side)
	assert.Contains(t, res.Warnings, "positions[0]: quantity 1.5 is not a whole number of contracts")
	assert.Equal(t, MarginCall, res.Status)
}

func TestCalculateMarginErrors(t *testing.T) {
	cases := []struct {
		name string
		edit func(*MarginInput)
		want string
	}{
		{"no positions", func(m *MarginInput) { m.Positions = nil }, "positions: must hold at least 1 position"},
		{"price", func(m *MarginInput) { m.Positions[0].Price = amt("0") }, "positions[0].price: must be greater than 0"},
		{"multiplier", func(m *MarginInput) { m.Positions[1].Multiplier = pa("0") }, "positions[1].multiplier: must be greater than 0"},
		{"no margin", func(m *MarginInput) { m.Positions[0].MarginRate = nil },
			"positions[0].margin_rate or positions[0].initial_margin_per_contract is required"},
		{"both margins", func(m *MarginInput) { m.Positions[1].MarginRate = pa("0.1") },
			"positions[1].margin_rate: give either margin_rate or initial_margin_per_contract, not both"},
		{"rate as percent", func(m *MarginInput) { m.Positions[0].MarginRate = pa("50") }, "positions[0].margin_rate: must be a fraction in (0, 1]"},
		{"negative per contract", func(m *MarginInput) { m.Positions[1].InitialMarginPerContract = pa("-1") },
			"positions[1].initial_margin_per_contract: must not be negative"},
		{"maintenance above initial", func(m *MarginInput) { m.Positions[0].MaintenanceMarginRate = pa("0.6") },
			"positions[0].maintenance_margin: 22260.000 exceeds the initial margin 18550.000"},
		{"both maintenance", func(m *MarginInput) { m.Positions[1].MaintenanceMarginRate = pa("0.1") },
			"positions[1].maintenance_margin_rate: give either"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := marginBook()
			c.edit(&in)
			_, err := CalculateMargin(in)
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), c.want)
		})
	}
}
