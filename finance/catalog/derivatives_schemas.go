package catalog

import (
	"github.com/agentfinance/toolkit/finance/derivatives"
	"github.com/google/jsonschema-go/jsonschema"
)

// fractionText documents the fraction convention in schema descriptions.
const fractionText = "a fraction (0.02 = 2 %)"

func tightenOptionsSizing(s *jsonschema.Schema) {
	prop(s, "mode").Enum = []any{"equity_risk", "premium", "delta_adjusted", "spread"}
	positives(s, "equity", "entry_premium", "spread_width", "credit_received", "underlying_entry", "underlying_stop")
	fractions(s, "risk_pct")
	bound(prop(s, "stop_premium"), f64(0), nil, nil)
	bound(prop(s, "delta"), f64(-1), nil, f64(1))
	m := prop(s, "contract_multiplier")
	bound(m, f64(1), nil, nil)
	setDefault(m, derivatives.DefaultContractMultiplier)
	describeAll(s, map[string]string{
		"mode": "equity_risk: budget / risk per contract; premium: budget / premium per contract; " +
			"delta_adjusted: budget / (|delta| × |underlying_entry − underlying_stop| × multiplier); " +
			"spread: budget / max loss per spread",
		"equity":              "account equity in currency units",
		"risk_pct":            "share of equity at risk (premium budget in mode premium), " + fractionText,
		"entry_premium":       "option premium per unit of underlying in currency units (net debit in mode spread); required in equity_risk and premium",
		"stop_premium":        "premium per unit at which the position is exited, >= 0 and below entry_premium (optional)",
		"delta":               "option delta in [-1, 1]; required in delta_adjusted",
		"spread_width":        "distance between the spread strikes in price units; required in spread",
		"credit_received":     "net credit per unit of a credit spread in currency units, below spread_width",
		"underlying_entry":    "underlying entry price; required in delta_adjusted",
		"underlying_stop":     "underlying stop price; required in delta_adjusted",
		"contract_multiplier": "units of underlying per contract, an integer >= 1 (default 100)",
	})
	examples(s, map[string]any{"equity": "100000", "risk_pct": "0.02", "entry_premium": "5.35", "stop_premium": "2.50",
		"delta": "0.45", "spread_width": "5", "credit_received": "1.20", "underlying_entry": "185", "underlying_stop": "180"})
}

func tightenFuturesSizing(s *jsonschema.Schema) {
	prop(s, "mode").Enum = []any{"margin_based", "tick_value", "notional"}
	positives(s, "equity", "entry_price", "stop_price", "tick_size", "tick_value", "available_margin",
		"initial_margin_per_contract", "max_notional", "contract_price")
	fractions(s, "risk_pct", "max_margin_usage_pct")
	setDefault(prop(s, "max_margin_usage_pct"), derivatives.DefaultMaxMarginUsagePct.String())
	bound(prop(s, "contract_multiplier"), f64(1), nil, nil)
	describeAll(s, map[string]string{
		"mode": "primary constraint: tick_value (risk: equity, risk_pct, entry_price, stop_price, tick_size, tick_value), " +
			"margin_based (available_margin, initial_margin_per_contract) or notional (max_notional, contract_price, point value)",
		"equity":                      "account equity in currency units",
		"risk_pct":                    "share of equity at risk, " + fractionText,
		"entry_price":                 "planned entry price",
		"stop_price":                  "initial stop price",
		"tick_size":                   "minimum price increment in price units, > 0, e.g. 0.25 (ES) or 0.015625 (ZN)",
		"tick_value":                  "currency value of one tick, > 0, e.g. 12.50 (ES)",
		"available_margin":            "margin available for the position in currency units",
		"max_margin_usage_pct":        "share of available_margin that may be committed, " + fractionText + " (default 0.50)",
		"max_notional":                "largest notional in currency units",
		"contract_price":              "price used for the notional (defaults to entry_price)",
		"contract_multiplier":         "point value: currency per 1.0 price move, an integer >= 1 (e.g. 50 for ES); defaults to tick_value / tick_size",
		"initial_margin_per_contract": "exchange or broker initial margin per contract in currency units",
	})
	examples(s, map[string]any{"equity": "100000", "risk_pct": "0.02", "entry_price": "5000", "stop_price": "4980",
		"tick_size": "0.25", "tick_value": "12.50", "available_margin": "100000", "initial_margin_per_contract": "12000",
		"max_notional": "500000", "contract_price": "5000", "contract_multiplier": 50})
}

func tightenGreeks(s *jsonschema.Schema) {
	chain := prop(s, "chain")
	chain.MinItems = intp(1)
	rec := chain.Items
	prop(rec, "option_type").Enum = []any{"CALL", "PUT"}
	bound(prop(rec, "strike"), nil, f64(0), nil)
	for _, n := range []string{"bid", "ask", "last", "volume", "open_interest"} {
		bound(prop(rec, n), f64(0), nil, nil)
	}
	bound(prop(rec, "implied_volatility"), f64(0), nil, f64(10))
	dateProp(prop(rec, "expiration"), "expiry date")
	setDefault(prop(rec, "quantity"), "1")
	describeAll(rec, map[string]string{
		"symbol":             "option symbol",
		"underlying_symbol":  "underlying symbol (one per chain)",
		"strike":             "strike price",
		"option_type":        "CALL or PUT",
		"bid":                "bid premium per unit of underlying in currency units",
		"ask":                "ask premium per unit of underlying in currency units",
		"last":               "last traded premium per unit of underlying in currency units",
		"volume":             "contracts traded",
		"open_interest":      "open contracts",
		"implied_volatility": "annualised volatility, a fraction (0.25 = 25 %); absent or 0: implied from the bid/ask mid, else last",
		"quantity":           "signed contracts held for the totals (negative = short; default 1)",
	})
	describe(s, "chain", "option records of one underlying")
	positiveDecimal(s, "underlying_price", "underlying price")
	dateProp(prop(s, "as_of"), "valuation date (required: time to expiry = (expiration − as_of) / 365)")
	r := prop(s, "risk_free_rate")
	bound(r, f64(-1), nil, f64(1))
	setDefault(r, "0.05")
	r.Description = "continuously compounded annual rate as a decimal (default 0.05 = 5 %)"
	q := prop(s, "dividend_yield")
	bound(q, f64(-1), nil, f64(1))
	setDefault(q, "0")
	q.Description = "continuous dividend yield as a decimal (default 0)"
	m := prop(s, "contract_multiplier")
	bound(m, f64(1), nil, nil)
	setDefault(m, derivatives.DefaultContractMultiplier)
	m.Description = "units of underlying per contract, an integer >= 1"
	examples(rec, map[string]any{"symbol": "AAPL240315C00185000", "underlying_symbol": "AAPL", "strike": "185", "expiration": "2024-03-15",
		"bid": "5.20", "ask": "5.40", "last": "5.30", "volume": 1250, "open_interest": 8400, "implied_volatility": "0.25"})
	examples(s, map[string]any{"underlying_price": "185.50", "as_of": "2024-02-15"})
}

func tightenCurve(s *jsonschema.Schema) {
	c := prop(s, "contracts")
	c.MinItems = intp(2)
	dateProp(prop(c.Items, "expiry"), "contract expiry")
	bound(prop(c.Items, "price"), nil, f64(0), nil)
	describe(s, "contracts", "futures contracts of one underlying, distinct expiries")
	example(c, []any{
		map[string]any{"symbol": "CLF5", "expiry": "2025-01-20", "price": "75"},
		map[string]any{"symbol": "CLG5", "expiry": "2025-02-20", "price": "75.50"},
	})
	describeAll(c.Items, map[string]string{"symbol": "contract symbol (optional)", "price": "futures price"})
	positiveDecimal(s, "spot", "spot price of the underlying (optional; adds the basis)")
	examples(s, map[string]any{"spot": "74.80", "as_of": "2025-01-02"})
	dateProp(prop(s, "as_of"), "valuation date for days to expiry and the spot roll yield (optional)")
	tol := prop(s, "flat_tolerance")
	bound(tol, f64(0), nil, nil)
	tol.ExclusiveMaximum = f64(1)
	setDefault(tol, "0.005")
	tol.Description = "relative front-to-back change within which the curve is flat, a fraction in [0, 1) (default 0.005 = 0.5 %)"
}

func tightenMargin(s *jsonschema.Schema) {
	p := prop(s, "positions")
	p.MinItems = intp(1)
	p.Description = "open positions"
	pos := p.Items
	describe(pos, "symbol", "instrument symbol")
	positives(pos, "price", "multiplier")
	fractions(pos, "margin_rate", "maintenance_margin_rate")
	bound(prop(pos, "initial_margin_per_contract"), f64(0), nil, nil)
	bound(prop(pos, "maintenance_margin_per_contract"), f64(0), nil, nil)
	setDefault(prop(pos, "multiplier"), "1")
	describeAll(pos, map[string]string{
		"quantity":                        "signed quantity (negative = short); margin uses its absolute value",
		"price":                           "price per unit",
		"multiplier":                      "units per contract (default 1)",
		"margin_rate":                     "initial margin as a share of notional, " + fractionText + "; or give initial_margin_per_contract",
		"initial_margin_per_contract":     "initial margin per contract in currency units; or give margin_rate",
		"maintenance_margin_rate":         "maintenance margin as a share of notional, " + fractionText + " (default: the initial margin)",
		"maintenance_margin_per_contract": "maintenance margin per contract in currency units (default: the initial margin)",
	})
	prop(s, "account_equity").Description = "account equity (net liquidation value) in currency units"
	examples(pos, map[string]any{"symbol": "ESH5", "quantity": "-2", "price": "5000", "multiplier": "50", "margin_rate": "0.05",
		"initial_margin_per_contract": "12650", "maintenance_margin_rate": "0.045", "maintenance_margin_per_contract": "11500"})
	example(prop(s, "account_equity"), "30000")
}

func tightenCompliance(s *jsonschema.Schema) {
	positives(s, "equity")
	fractions(s, "max_position_weight", "max_concentration_share", "max_hhi")
	for _, h := range []*jsonschema.Schema{prop(s, "positions").Items, prop(s, "proposed_trade")} {
		positives(h, "price", "multiplier")
		setDefault(prop(h, "multiplier"), "1")
		describeAll(h, map[string]string{
			"symbol":     "instrument symbol (compared case-insensitively)",
			"quantity":   "signed quantity: positive long (buy), negative short (sell)",
			"price":      "price per unit",
			"multiplier": "units per contract (default 1)",
		})
	}
	describe(s, "positions", "the current book (optional)")
	describeAll(s, map[string]string{
		"equity":                  "account equity in currency units",
		"max_position_weight":     "cap on each symbol's weight |exposure| / equity, " + fractionText + "; the agent's max_position_size_pct (percent points) also applies",
		"max_concentration_share": "cap on the largest symbol's share of gross exposure, " + fractionText,
		"max_hhi":                 "cap on the Herfindahl index of the exposure shares, " + fractionText,
		"restricted_symbols":      "symbols that may not be traded or held (case-insensitive)",
		"proposed_trade":          "the trade to check against the book (optional)",
	})
	for _, h := range []*jsonschema.Schema{prop(s, "positions").Items, prop(s, "proposed_trade")} {
		examples(h, map[string]any{"symbol": "AAPL", "quantity": "100", "price": "185.50"})
	}
	examples(s, map[string]any{"equity": "100000", "max_position_weight": "0.25", "max_concentration_share": "0.4", "max_hhi": "0.3"})
	itemExample(s, "restricted_symbols", "GME")
}

// optionsRequirements: the members each options sizing mode needs.
func optionsRequirements(s *jsonschema.Schema) {
	requireByMode(s, "mode",
		modeRule{modes: []any{"equity_risk", "premium"}, required: []string{"entry_premium"}},
		modeRule{modes: []any{"delta_adjusted"}, required: []string{"delta", "underlying_entry", "underlying_stop"}},
		modeRule{modes: []any{"spread"}, required: []string{"spread_width"}, choices: [][][]string{{{"credit_received"}, {"entry_premium"}}}})
}

// futuresRequirements: the members each futures sizing mode needs.
func futuresRequirements(s *jsonschema.Schema) {
	requireByMode(s, "mode",
		modeRule{modes: []any{"margin_based"}, required: []string{"available_margin", "initial_margin_per_contract"}},
		modeRule{modes: []any{"tick_value"}, required: []string{"equity", "risk_pct", "entry_price", "stop_price", "tick_size", "tick_value"}},
		modeRule{modes: []any{"notional"}, required: []string{"max_notional"},
			choices: [][][]string{{{"contract_price"}, {"entry_price"}}, {{"contract_multiplier"}, {"tick_size", "tick_value"}}}})
}

// marginRequirements: each position gives a margin rate or a margin per
// contract.
func marginRequirements(s *jsonschema.Schema) {
	requireAnyOf(prop(s, "positions").Items, []string{"margin_rate"}, []string{"initial_margin_per_contract"})
}

// complianceRequirements: a book, a proposed trade, or both.
func complianceRequirements(s *jsonschema.Schema) {
	requireAnyOf(s, []string{"positions"}, []string{"proposed_trade"})
}
