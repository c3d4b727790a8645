package derivatives

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/agentfinance/toolkit"
)

// DefaultRiskFreeRate is the continuously compounded annual rate used when
// risk_free_rate is absent: 0.05 (5 %), a round figure near recent US
// Treasury bill yields. Pass the current rate for real work.
const DefaultRiskFreeRate = 0.05

// Volatility given on input must lie in this range (0.01 % to 1000 %).
const (
	minInputVol = 0.0001
	maxInputVol = 10.0
)

// Date is a calendar date "YYYY-MM-DD". Spans between dates count calendar
// days; there is no time of day or zone.
type Date string

// Time parses d; field names it in the error.
func (d Date) Time(field string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, string(d))
	if err != nil {
		return time.Time{}, invalid(field, "must be a date like \"2024-03-15\", got %q", string(d))
	}
	return t, nil
}

// daysBetween returns the number of calendar days from a to b.
func daysBetween(a, b time.Time) int { return int(math.Round(b.Sub(a).Hours() / 24)) }

// OptionRecord is one option of a chain, in the published record shape,
// plus an optional signed position Quantity for the aggregates.
type OptionRecord struct {
	Symbol            string          `json:"symbol"`
	UnderlyingSymbol  string          `json:"underlying_symbol,omitempty"`
	Strike            toolkit.Amount  `json:"strike"`
	Expiration        Date            `json:"expiration"`
	OptionType        OptionType      `json:"option_type"`
	Bid               *toolkit.Amount `json:"bid,omitempty"`
	Ask               *toolkit.Amount `json:"ask,omitempty"`
	Last              *toolkit.Amount `json:"last,omitempty"`
	Volume            *int64          `json:"volume,omitempty"`
	OpenInterest      *int64          `json:"open_interest,omitempty"`
	ImpliedVolatility *toolkit.Amount `json:"implied_volatility,omitempty"`
	// Quantity is the signed number of contracts held (negative = short)
	// used by the totals; absent means 1.
	Quantity *toolkit.Amount `json:"quantity,omitempty"`
}

// GreeksInput are the inputs of AnalyzeGreeks.
type GreeksInput struct {
	Chain           []OptionRecord `json:"chain"`
	UnderlyingPrice toolkit.Amount `json:"underlying_price"`
	// AsOf is the valuation date; time to expiry is (expiration − as_of)/365.
	AsOf Date `json:"as_of"`
	// RiskFreeRate is continuously compounded (0.05 = 5 %); nil means DefaultRiskFreeRate.
	RiskFreeRate *toolkit.Float `json:"risk_free_rate,omitempty"`
	// DividendYield is continuous (0.015 = 1.5 %); nil means 0.
	DividendYield *toolkit.Float `json:"dividend_yield,omitempty"`
	// ContractMultiplier scales the totals, at least 1; nil means
	// DefaultContractMultiplier.
	ContractMultiplier *int64 `json:"contract_multiplier,omitempty"`
}

// OptionGreeks is the analysis of one option. The model figures are null
// when Status is not "ok"; Note says why.
type OptionGreeks struct {
	Symbol           string          `json:"symbol"`
	UnderlyingSymbol string          `json:"underlying_symbol"`
	OptionType       OptionType      `json:"option_type"`
	Strike           toolkit.Amount  `json:"strike"`
	Expiration       Date            `json:"expiration"`
	DaysToExpiry     int             `json:"days_to_expiry"`
	YearsToExpiry    toolkit.Float   `json:"years_to_expiry"`
	Quantity         toolkit.Amount  `json:"quantity"`
	Moneyness        toolkit.Float   `json:"moneyness"` // underlying_price / strike
	InTheMoney       bool            `json:"in_the_money"`
	IntrinsicValue   toolkit.Amount  `json:"intrinsic_value"`
	MarketPrice      *toolkit.Amount `json:"market_price"` // mid of bid/ask, else last
	// IVSource is where the volatility came from: input, mid, last or none.
	IVSource          string         `json:"iv_source"`
	ImpliedVolatility *toolkit.Float `json:"implied_volatility"`
	TheoreticalPrice  *toolkit.Float `json:"theoretical_price"`
	Delta             *toolkit.Float `json:"delta"`
	Gamma             *toolkit.Float `json:"gamma"`
	Theta             *toolkit.Float `json:"theta"` // per calendar day
	Vega              *toolkit.Float `json:"vega"`  // per volatility point
	Rho               *toolkit.Float `json:"rho"`   // per 1 % of rate
	// Status is ok, expired or no_volatility.
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
}

// GreeksTotals aggregate the priced options, each weighted by quantity ×
// contract multiplier.
type GreeksTotals struct {
	NetDelta       toolkit.Float  `json:"net_delta"`    // underlying units
	DollarDelta    toolkit.Float  `json:"dollar_delta"` // net_delta × underlying_price
	NetGamma       toolkit.Float  `json:"net_gamma"`    // change of net_delta per 1.0 move
	NetTheta       toolkit.Float  `json:"net_theta"`    // value change per calendar day
	NetVega        toolkit.Float  `json:"net_vega"`     // per volatility point
	NetRho         toolkit.Float  `json:"net_rho"`      // per 1 % of rate
	OptionsPriced  int            `json:"options_priced"`
	OptionsSkipped int            `json:"options_skipped"`
	Calls          int            `json:"calls"`
	Puts           int            `json:"puts"`
	PutCallVolume  *toolkit.Float `json:"put_call_volume_ratio"`        // null without call volume
	PutCallOI      *toolkit.Float `json:"put_call_open_interest_ratio"` // null without call open interest
}

// GreeksResult is the result of AnalyzeGreeks.
type GreeksResult struct {
	AsOf               Date           `json:"as_of"`
	UnderlyingPrice    toolkit.Amount `json:"underlying_price"`
	RiskFreeRate       toolkit.Float  `json:"risk_free_rate"`
	DividendYield      toolkit.Float  `json:"dividend_yield"`
	ContractMultiplier int64          `json:"contract_multiplier"`
	Options            []OptionGreeks `json:"options"`
	Totals             GreeksTotals   `json:"totals"`
}

// AnalyzeGreeks prices every option of a chain under Black–Scholes–Merton
// (European exercise) and aggregates the position greeks. Time to expiry
// is calendar days from as_of to expiration divided by 365; an option
// expiring on or before as_of is reported as "expired" without greeks. The
// volatility is the record's implied_volatility when present and non-zero,
// otherwise it is implied from the bid/ask mid (both positive, ask ≥ bid)
// or else from last; an option with neither is "no_volatility". Skipped
// options are left out of the totals. It checks ctx every
// greeksPerCheck options and returns ctx.Err() once ctx is done.
func AnalyzeGreeks(ctx context.Context, in GreeksInput) (*GreeksResult, error) {
	asOf, err := in.AsOf.Time("as_of")
	if err != nil {
		return nil, err
	}
	res := &GreeksResult{AsOf: in.AsOf, UnderlyingPrice: in.UnderlyingPrice, RiskFreeRate: DefaultRiskFreeRate,
		ContractMultiplier: DefaultContractMultiplier}
	if in.ContractMultiplier != nil {
		res.ContractMultiplier = *in.ContractMultiplier
	}
	if err := checkGreeksInput(in, res); err != nil {
		return nil, err
	}
	s := in.UnderlyingPrice.Float64()
	mult := float64(res.ContractMultiplier)
	res.Options = make([]OptionGreeks, len(in.Chain))
	var callVol, putVol, callOI, putOI float64 // float64: sums of int64 could overflow
	t := &res.Totals
	for i, rec := range in.Chain {
		if i%greeksPerCheck == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		o, err := analyzeOption(i, rec, asOf, s, in.UnderlyingPrice, float64(res.RiskFreeRate), float64(res.DividendYield))
		if err != nil {
			return nil, err
		}
		res.Options[i] = o
		if rec.OptionType == Call {
			t.Calls++
			callVol, callOI = callVol+deref(rec.Volume), callOI+deref(rec.OpenInterest)
		} else {
			t.Puts++
			putVol, putOI = putVol+deref(rec.Volume), putOI+deref(rec.OpenInterest)
		}
		if o.Status != "ok" {
			t.OptionsSkipped++
			continue
		}
		t.OptionsPriced++
		w := o.Quantity.Float64() * mult
		t.NetDelta += toolkit.Float(w * float64(*o.Delta))
		t.NetGamma += toolkit.Float(w * float64(*o.Gamma))
		t.NetTheta += toolkit.Float(w * float64(*o.Theta))
		t.NetVega += toolkit.Float(w * float64(*o.Vega))
		t.NetRho += toolkit.Float(w * float64(*o.Rho))
	}
	t.DollarDelta = t.NetDelta * toolkit.Float(s)
	for _, v := range []toolkit.Float{t.NetDelta, t.NetGamma, t.NetTheta, t.NetVega, t.NetRho, t.DollarDelta} {
		if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
			return nil, invalid("chain", "quantities are too large: the totals overflow")
		}
	}
	if callVol > 0 {
		t.PutCallVolume = ptr(toolkit.Float(putVol / callVol))
	}
	if callOI > 0 {
		t.PutCallOI = ptr(toolkit.Float(putOI / callOI))
	}
	return res, nil
}

// greeksPerCheck is how many options AnalyzeGreeks prices between two
// context checks: an option costs about a microsecond (up to tens when its
// volatility is implied from a price), a check tens of nanoseconds.
const greeksPerCheck = 64

// deref returns *p, or 0 for nil.
func deref(p *int64) float64 {
	if p == nil {
		return 0
	}
	return float64(*p)
}

// checkGreeksInput validates the shared inputs and fills the defaults.
func checkGreeksInput(in GreeksInput, res *GreeksResult) error {
	if len(in.Chain) == 0 {
		return invalid("chain", "must hold at least 1 option")
	}
	if err := tooMany("chain", len(in.Chain)); err != nil {
		return err
	}
	if err := positive("underlying_price", in.UnderlyingPrice); err != nil {
		return err
	}
	if in.RiskFreeRate != nil {
		res.RiskFreeRate = *in.RiskFreeRate
	}
	if in.DividendYield != nil {
		res.DividendYield = *in.DividendYield
	}
	for _, f := range []struct {
		name string
		v    toolkit.Float
	}{{"risk_free_rate", res.RiskFreeRate}, {"dividend_yield", res.DividendYield}} {
		if f.v < -1 || f.v > 1 {
			return invalid(f.name, "must be a decimal rate between -1 and 1 (0.05 means 5 %%), got %v", float64(f.v))
		}
	}
	if res.ContractMultiplier < 1 {
		return invalid("contract_multiplier", "must be an integer of at least 1, got %d", res.ContractMultiplier)
	}
	first := ""
	for i, rec := range in.Chain {
		u := canonical(rec.UnderlyingSymbol)
		if u == "" {
			continue
		}
		if first == "" {
			first = u
		} else if u != first {
			return invalid(fmt.Sprintf("chain[%d].underlying_symbol", i),
				"%s differs from %s: one call analyses one underlying", rec.UnderlyingSymbol, first)
		}
	}
	return nil
}

// checkRecord validates one option record.
func checkRecord(i int, rec OptionRecord) error {
	field := func(name string) string { return fmt.Sprintf("chain[%d].%s", i, name) }
	if rec.OptionType != Call && rec.OptionType != Put {
		return invalid(field("option_type"), "must be CALL or PUT, got %q", string(rec.OptionType))
	}
	if err := positive(field("strike"), rec.Strike); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    *toolkit.Amount
	}{{"bid", rec.Bid}, {"ask", rec.Ask}, {"last", rec.Last}, {"implied_volatility", rec.ImpliedVolatility}} {
		if f.v != nil {
			if err := nonNegative(field(f.name), *f.v); err != nil {
				return err
			}
		}
	}
	for _, f := range []struct {
		name string
		v    *int64
	}{{"volume", rec.Volume}, {"open_interest", rec.OpenInterest}} {
		if f.v != nil && *f.v < 0 {
			return invalid(field(f.name), "must not be negative, got %d", *f.v)
		}
	}
	if v := rec.ImpliedVolatility; v != nil && !v.IsZero() {
		if f := v.Float64(); f < minInputVol || f > maxInputVol {
			return invalid(field("implied_volatility"), "must be a decimal between 0.0001 and 10 (0.25 means 25 %%), got %s", *v)
		}
	}
	return nil
}

// analyzeOption prices one record.
func analyzeOption(i int, rec OptionRecord, asOf time.Time, s float64, spot toolkit.Amount, r, q float64) (OptionGreeks, error) {
	if err := checkRecord(i, rec); err != nil {
		return OptionGreeks{}, err
	}
	exp, err := rec.Expiration.Time(fmt.Sprintf("chain[%d].expiration", i))
	if err != nil {
		return OptionGreeks{}, err
	}
	o := OptionGreeks{Symbol: rec.Symbol, UnderlyingSymbol: rec.UnderlyingSymbol, OptionType: rec.OptionType,
		Strike: rec.Strike, Expiration: rec.Expiration, Quantity: one, IVSource: "none"}
	if rec.Quantity != nil {
		o.Quantity = *rec.Quantity
	}
	o.DaysToExpiry = daysBetween(asOf, exp)
	k := rec.Strike.Float64()
	o.Moneyness = toolkit.Float(s / k)
	intrinsic := spot.Sub(rec.Strike)
	if rec.OptionType == Put {
		intrinsic = intrinsic.Neg()
	}
	o.InTheMoney = intrinsic.Sign() > 0
	o.IntrinsicValue = zero
	if o.InTheMoney {
		o.IntrinsicValue = intrinsic
	}
	var source string
	o.MarketPrice, source = marketPrice(rec)
	if o.DaysToExpiry <= 0 {
		o.Status, o.Note = "expired", "expires on or before as_of: time to expiry is 0, greeks are undefined"
		return o, nil
	}
	years := float64(o.DaysToExpiry) / DaysPerYear
	o.YearsToExpiry = toolkit.Float(years)
	p := BSInput{Type: rec.OptionType, Spot: s, Strike: k, Years: years, Rate: r, DividendYield: q}
	switch {
	case rec.ImpliedVolatility != nil && !rec.ImpliedVolatility.IsZero():
		p.Volatility, o.IVSource = rec.ImpliedVolatility.Float64(), "input"
	case o.MarketPrice != nil:
		vol, err := ImpliedVolatility(p, o.MarketPrice.Float64())
		if err != nil {
			o.Status, o.Note = "no_volatility", fmt.Sprintf("cannot imply volatility from the %s price %s: %v", source, *o.MarketPrice, err)
			return o, nil
		}
		p.Volatility, o.IVSource = vol, source
	default:
		o.Status, o.Note = "no_volatility", "no implied_volatility and no bid/ask or last price to imply it from"
		return o, nil
	}
	g, err := BlackScholes(p)
	if err != nil {
		o.Status, o.Note = "no_volatility", err.Error()
		return o, nil
	}
	o.Status = "ok"
	o.ImpliedVolatility = ptr(toolkit.Float(p.Volatility))
	o.TheoreticalPrice, o.Delta, o.Gamma = ptr(toolkit.Float(g.Price)), ptr(toolkit.Float(g.Delta)), ptr(toolkit.Float(g.Gamma))
	o.Theta, o.Vega, o.Rho = ptr(toolkit.Float(g.Theta)), ptr(toolkit.Float(g.Vega)), ptr(toolkit.Float(g.Rho))
	return o, nil
}

// marketPrice returns the bid/ask mid when both are positive and ask ≥
// bid, else last when positive, with its source name.
func marketPrice(rec OptionRecord) (*toolkit.Amount, string) {
	if rec.Bid != nil && rec.Ask != nil && rec.Bid.Sign() > 0 && rec.Ask.Cmp(*rec.Bid) >= 0 {
		return ptr(quo(rec.Bid.Add(*rec.Ask), toolkit.AmountFromInt(2))), "mid"
	}
	if rec.Last != nil && rec.Last.Sign() > 0 {
		return rec.Last, "last"
	}
	return nil, "none"
}
