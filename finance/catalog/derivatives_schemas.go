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
		"mode":                "cost per contract: stop risk, premium, delta × underlying move, or max spread loss",
		"equity":              "account equity, currency",
		"risk_pct":            "equity fraction at risk (premium budget in mode premium)",
		"entry_premium":       "premium per unit, currency (net debit in mode spread)",
		"stop_premium":        "exit premium per unit, currency, below entry_premium",
		"delta":               "option delta, signed (call > 0, put < 0)",
		"spread_width":        "distance between the strikes, price units",
		"credit_received":     "net credit per unit, currency, below spread_width",
		"underlying_entry":    "underlying entry price, currency",
		"underlying_stop":     "underlying stop price, currency",
		"contract_multiplier": "units of underlying per contract",
	})
	examples(s, map[string]any{"equity": "100000", "risk_pct": "0.02", "entry_premium": "5.35", "stop_premium": "2.50",
		"delta": "0.45", "spread_width": "5", "credit_received": "1.20", "underlying_entry": "185", "underlying_stop": "180"})
	optionsRequirements(s)
}

func tightenFuturesSizing(s *jsonschema.Schema) {
	prop(s, "mode").Enum = []any{"margin_based", "tick_value", "notional"}
	positives(s, "equity", "entry_price", "stop_price", "tick_size", "tick_value", "available_margin",
		"initial_margin_per_contract", "max_notional", "contract_price")
	fractions(s, "risk_pct", "max_margin_usage_pct")
	setDefault(prop(s, "max_margin_usage_pct"), derivatives.DefaultMaxMarginUsagePct.String())
	bound(prop(s, "contract_multiplier"), f64(1), nil, nil)
	describeAll(s, map[string]string{
		"mode":                        "the primary constraint",
		"equity":                      "account equity, currency",
		"risk_pct":                    "share of equity at risk, " + fractionText,
		"entry_price":                 "planned entry, price points",
		"stop_price":                  "initial stop, price points",
		"tick_size":                   "minimum price increment, price points (ES 0.25)",
		"tick_value":                  "currency value of one tick (ES 12.50)",
		"available_margin":            "margin available, currency",
		"max_margin_usage_pct":        "usable share of available_margin, a fraction",
		"max_notional":                "largest notional, currency",
		"contract_price":              "price of the notional, points; default entry_price",
		"contract_multiplier":         "point value, currency per 1.0 move; default tick_value / tick_size",
		"initial_margin_per_contract": "initial margin per contract, currency",
	})
	examples(s, map[string]any{"equity": "100000", "risk_pct": "0.02", "entry_price": "5000", "stop_price": "4980",
		"tick_size": "0.25", "tick_value": "12.50", "available_margin": "100000", "initial_margin_per_contract": "12000",
		"max_notional": "500000", "contract_price": "5000", "contract_multiplier": 50})
	futuresRequirements(s)
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
		"symbol":             "option symbol (OCC code)",
		"underlying_symbol":  "underlying symbol, one per chain",
		"strike":             "strike price, currency",
		"option_type":        "CALL or PUT",
		"bid":                "bid premium per unit, currency",
		"ask":                "ask premium per unit, currency",
		"last":               "last premium per unit, currency",
		"volume":             "contracts traded today",
		"open_interest":      "open interest in contracts",
		"implied_volatility": "annual volatility, a fraction; absent: implied",
		"quantity":           "signed contracts held (short < 0)",
	})
	describe(s, "chain", "options of one underlying")
	positiveDecimal(s, "underlying_price", "underlying price, currency")
	dateProp(prop(s, "as_of"), "valuation date")
	r := prop(s, "risk_free_rate")
	bound(r, f64(-1), nil, f64(1))
	setDefault(r, "0.05")
	r.Description = "continuously compounded annual rate, a fraction"
	q := prop(s, "dividend_yield")
	bound(q, f64(-1), nil, f64(1))
	setDefault(q, "0")
	q.Description = "continuous dividend yield, a fraction"
	m := prop(s, "contract_multiplier")
	bound(m, f64(1), nil, nil)
	setDefault(m, derivatives.DefaultContractMultiplier)
	m.Description = "units of underlying per contract"
	examples(rec, map[string]any{"symbol": "AAPL240315C00185000", "underlying_symbol": "AAPL", "strike": "185", "expiration": "2024-03-15",
		"bid": "5.20", "ask": "5.40", "last": "5.30", "volume": 1250, "open_interest": 8400, "implied_volatility": "0.25"})
	examples(s, map[string]any{"underlying_price": "185.50", "as_of": "2024-02-15"})
}

func tightenCurve(s *jsonschema.Schema) {
	c := prop(s, "contracts")
	c.MinItems = intp(2)
	dateProp(prop(c.Items, "expiry"), "contract expiry")
	bound(prop(c.Items, "price"), nil, f64(0), nil)
	describe(s, "contracts", "futures of one underlying, distinct expiries")
	example(c, []any{
		map[string]any{"symbol": "CLF5", "expiry": "2025-01-20", "price": "75"},
		map[string]any{"symbol": "CLG5", "expiry": "2025-02-20", "price": "75.50"},
	})
	describeAll(c.Items, map[string]string{"symbol": "contract symbol, echoed", "price": "futures price, currency"})
	positiveDecimal(s, "spot", "spot price, currency; adds the basis")
	examples(s, map[string]any{"spot": "74.80", "as_of": "2025-01-02"})
	dateProp(prop(s, "as_of"), "valuation date for days to expiry")
	tol := prop(s, "flat_tolerance")
	bound(tol, f64(0), nil, nil)
	tol.ExclusiveMaximum = f64(1)
	setDefault(tol, "0.005")
	tol.Description = "front-to-back change counted as flat, a fraction"
}

func tightenMargin(s *jsonschema.Schema) {
	p := prop(s, "positions")
	p.MinItems = intp(1)
	p.Description = "open positions of the book"
	pos := p.Items
	describe(pos, "symbol", "instrument symbol, echoed")
	positives(pos, "price", "multiplier")
	fractions(pos, "margin_rate", "maintenance_margin_rate")
	bound(prop(pos, "initial_margin_per_contract"), f64(0), nil, nil)
	bound(prop(pos, "maintenance_margin_per_contract"), f64(0), nil, nil)
	setDefault(prop(pos, "multiplier"), "1")
	describeAll(pos, map[string]string{
		"quantity":                        "signed contracts or units (short < 0)",
		"price":                           "price per unit, currency",
		"multiplier":                      "units per contract",
		"margin_rate":                     "initial margin share of notional, a fraction",
		"initial_margin_per_contract":     "initial margin per contract, currency",
		"maintenance_margin_rate":         "maintenance share of notional, a fraction; default initial",
		"maintenance_margin_per_contract": "maintenance per contract, currency; default initial",
	})
	prop(s, "account_equity").Description = "net liquidation value, currency"
	examples(pos, map[string]any{"symbol": "ESH5", "quantity": "-2", "price": "5000", "multiplier": "50", "margin_rate": "0.05",
		"initial_margin_per_contract": "12650", "maintenance_margin_rate": "0.045", "maintenance_margin_per_contract": "11500"})
	example(prop(s, "account_equity"), "30000")
	NeedsOneOf(pos, true, []string{"margin_rate"}, []string{"initial_margin_per_contract"})
}

func tightenCompliance(s *jsonschema.Schema) {
	positives(s, "equity")
	fractions(s, "max_position_weight", "max_concentration_share", "max_hhi")
	for _, h := range []*jsonschema.Schema{prop(s, "positions").Items, prop(s, "proposed_trade")} {
		positives(h, "price", "multiplier")
		setDefault(prop(h, "multiplier"), "1")
		describeAll(h, map[string]string{
			"symbol":     "symbol, any letter case",
			"quantity":   "signed units, short < 0",
			"price":      "price per unit, currency",
			"multiplier": "units per contract",
		})
	}
	describe(s, "positions", "holdings of the current book")
	describeAll(s, map[string]string{
		"equity":                  "account equity, currency",
		"max_position_weight":     "cap on each |exposure| / equity, a fraction",
		"max_concentration_share": "cap on the largest exposure share, a fraction",
		"max_hhi":                 "cap on the Herfindahl index of exposures, a fraction",
		"restricted_symbols":      "symbols that may not be traded or held",
		"proposed_trade":          "the trade to check against the book",
	})
	for _, h := range []*jsonschema.Schema{prop(s, "positions").Items, prop(s, "proposed_trade")} {
		examples(h, map[string]any{"symbol": "AAPL", "quantity": "100", "price": "185.50"})
	}
	examples(s, map[string]any{"equity": "100000", "max_position_weight": "0.25", "max_concentration_share": "0.4", "max_hhi": "0.3"})
	itemExample(s, "restricted_symbols", "GME")
	NeedsOneOf(s, false, []string{"positions"}, []string{"proposed_trade"})
}

// optionsRequirements states the members each options sizing mode needs.
func optionsRequirements(s *jsonschema.Schema) {
	needsByMode(s, "mode",
		modeRule{modes: []string{"equity_risk", "premium"}, required: []string{"entry_premium"}},
		modeRule{modes: []string{"delta_adjusted"}, required: []string{"delta", "underlying_entry", "underlying_stop"}},
		modeRule{modes: []string{"spread"}, required: []string{"spread_width"},
			choices: []choice{{alternatives: [][]string{{"credit_received"}, {"entry_premium"}}, exclusive: true}}})
}

// futuresRequirements states the members each futures sizing mode needs.
func futuresRequirements(s *jsonschema.Schema) {
	needsByMode(s, "mode",
		modeRule{modes: []string{"margin_based"}, required: []string{"available_margin", "initial_margin_per_contract"}},
		modeRule{modes: []string{"tick_value"}, required: []string{"equity", "risk_pct", "entry_price", "stop_price", "tick_size", "tick_value"}},
		modeRule{modes: []string{"notional"}, required: []string{"max_notional"}, choices: []choice{
			{alternatives: [][]string{{"contract_price"}, {"entry_price"}}},
			{alternatives: [][]string{{"contract_multiplier"}, {"tick_size", "tick_value"}}}}})
}
