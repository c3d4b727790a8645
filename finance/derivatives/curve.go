package derivatives

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/agentfinance/toolkit"
)

// DefaultFlatTolerance is the relative front-to-back price change within
// which a curve (or a pair) is "flat": |back/front − 1| ≤ 0.005 (0.5 %).
const DefaultFlatTolerance = 0.005

// The curve structures.
const (
	Contango      = "contango"      // later expiries are dearer
	Backwardation = "backwardation" // later expiries are cheaper
	Flat          = "flat"          // within the flat tolerance
)

// CurveContract is one futures contract on the curve.
type CurveContract struct {
	Symbol string         `json:"symbol,omitempty"`
	Expiry Date           `json:"expiry"`
	Price  toolkit.Amount `json:"price"`
}

// CurveInput are the inputs of AnalyzeFuturesCurve.
type CurveInput struct {
	Contracts []CurveContract `json:"contracts"`
	// Spot is the optional spot price of the underlying (for the basis).
	Spot *toolkit.Amount `json:"spot,omitempty"`
	// AsOf is the optional valuation date (for days to expiry and the
	// spot-to-front roll yield).
	AsOf *Date `json:"as_of,omitempty"`
	// FlatTolerance overrides DefaultFlatTolerance (a fraction).
	FlatTolerance *toolkit.Float `json:"flat_tolerance,omitempty"`
}

// CurvePoint is one contract of the sorted curve.
type CurvePoint struct {
	Symbol         string         `json:"symbol"`
	Expiry         Date           `json:"expiry"`
	Price          toolkit.Amount `json:"price"`
	YearsFromFront toolkit.Float  `json:"years_from_front"` // (expiry − front expiry)/365
	DaysToExpiry   *int           `json:"days_to_expiry"`   // from as_of; null without as_of
}

// CurvePair compares two adjacent expiries.
type CurvePair struct {
	Near        string         `json:"near"` // symbol, or expiry when the symbol is empty
	Far         string         `json:"far"`
	DaysBetween int            `json:"days_between"`
	Spread      toolkit.Amount `json:"spread"`     // far − near
	ChangePct   toolkit.Float  `json:"change_pct"` // (far/near − 1) × 100, percent points
	// RollYield is ln(near/far) × 365 / days_between: the annualised,
	// continuously compounded return a long position earns from rolling
	// down the curve (positive in backwardation, negative in contango).
	RollYield toolkit.Float `json:"annualized_roll_yield"`
	Structure string        `json:"structure"`
}

// CurveResult is the result of AnalyzeFuturesCurve.
type CurveResult struct {
	// Structure compares the back contract with the front one.
	Structure     string        `json:"structure"`
	FlatTolerance toolkit.Float `json:"flat_tolerance"`
	Front         CurvePoint    `json:"front"`
	Back          CurvePoint    `json:"back"`
	// FrontToBackChangePct is (back/front − 1) × 100, in percent points.
	FrontToBackChangePct toolkit.Float `json:"front_to_back_change_pct"`
	// FrontToBackRollYield is ln(front/back) × 365 / days(front → back).
	FrontToBackRollYield toolkit.Float `json:"front_to_back_roll_yield"`
	// Slope is the least-squares slope of price on years from the front
	// expiry (price units per year); LogSlope that of ln(price), a
	// continuously compounded rate per year (a fraction, like the roll
	// yields).
	Slope       toolkit.Float   `json:"slope"`
	LogSlope    toolkit.Float   `json:"log_slope"`
	IsMonotonic bool            `json:"is_monotonic"` // every spread ≥ 0, or every spread ≤ 0
	Contracts   []CurvePoint    `json:"contracts"`    // sorted by expiry
	Pairs       []CurvePair     `json:"pairs"`
	Spot        *toolkit.Amount `json:"spot"`
	// Basis is spot − front price; BasisPct is basis / spot × 100, in
	// percent points.
	Basis    *toolkit.Amount `json:"basis"`
	BasisPct *toolkit.Float  `json:"basis_pct"`
	// SpotRollYield is ln(spot/front) × 365 / days to the front expiry
	// (needs spot and as_of).
	SpotRollYield *toolkit.Float `json:"spot_roll_yield"`
}

// AnalyzeFuturesCurve classifies a futures term structure and measures its
// roll yield. Contracts are sorted by expiry (at least 2, distinct expiries,
// positive prices). The structure is flat when |back/front − 1| ≤
// flat_tolerance, contango when the back is dearer, backwardation when it
// is cheaper; each adjacent pair is classified the same way.
func AnalyzeFuturesCurve(in CurveInput) (*CurveResult, error) {
	if err := checkCurveInput(in); err != nil {
		return nil, err
	}
	tol := DefaultFlatTolerance
	if in.FlatTolerance != nil {
		tol = float64(*in.FlatTolerance)
	}
	pts, err := sortedCurve(in)
	if err != nil {
		return nil, err
	}
	res := &CurveResult{FlatTolerance: toolkit.Float(tol), Contracts: make([]CurvePoint, len(pts)),
		Pairs: make([]CurvePair, 0, len(pts)-1), IsMonotonic: true}
	var asOf time.Time
	if in.AsOf != nil {
		asOf, _ = in.AsOf.Time("as_of")
	}
	up, down := true, true
	xs, ys, ls := make([]float64, len(pts)), make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		days := daysBetween(pts[0].t, p.t)
		res.Contracts[i] = CurvePoint{Symbol: p.Symbol, Expiry: p.Expiry, Price: p.Price,
			YearsFromFront: toolkit.Float(float64(days) / DaysPerYear)}
		if in.AsOf != nil {
			res.Contracts[i].DaysToExpiry = ptr(daysBetween(asOf, p.t))
		}
		xs[i], ys[i], ls[i] = float64(days)/DaysPerYear, p.Price.Float64(), math.Log(p.Price.Float64())
		if i == 0 {
			continue
		}
		pair := comparePoints(pts[i-1], p, tol)
		up = up && pair.Spread.Sign() >= 0
		down = down && pair.Spread.Sign() <= 0
		res.Pairs = append(res.Pairs, pair)
	}
	res.IsMonotonic = up || down
	front, back := pts[0], pts[len(pts)-1]
	res.Front, res.Back = res.Contracts[0], res.Contracts[len(pts)-1]
	fb := comparePoints(front, back, tol)
	res.Structure, res.FrontToBackChangePct, res.FrontToBackRollYield = fb.Structure, fb.ChangePct, fb.RollYield
	res.Slope, res.LogSlope = toolkit.Float(olsSlope(xs, ys)), toolkit.Float(olsSlope(xs, ls))
	if in.Spot != nil {
		res.Spot = in.Spot
		basis := in.Spot.Sub(front.Price)
		res.Basis = &basis
		res.BasisPct = ptr(toolkit.Float(basis.Float64() / in.Spot.Float64() * 100))
		if in.AsOf != nil {
			days := daysBetween(asOf, front.t)
			res.SpotRollYield = ptr(toolkit.Float(math.Log(in.Spot.Float64()/front.Price.Float64()) * DaysPerYear / float64(days)))
		}
	}
	return res, nil
}

// checkCurveInput validates sizes, prices and the tolerance.
func checkCurveInput(in CurveInput) error {
	if len(in.Contracts) < 2 {
		return invalid("contracts", "must hold at least 2 contracts, got %d", len(in.Contracts))
	}
	if err := tooMany("contracts", len(in.Contracts)); err != nil {
		return err
	}
	for i, c := range in.Contracts {
		if err := positive(fmt.Sprintf("contracts[%d].price", i), c.Price); err != nil {
			return err
		}
	}
	if in.Spot != nil {
		if err := positive("spot", *in.Spot); err != nil {
			return err
		}
	}
	if in.FlatTolerance != nil && (*in.FlatTolerance < 0 || *in.FlatTolerance >= 1) {
		return invalid("flat_tolerance", "must be a fraction in [0, 1) (0.005 means 0.5 %%), got %v", float64(*in.FlatTolerance))
	}
	return nil
}

// datedContract is a contract with its parsed expiry.
type datedContract struct {
	CurveContract
	t     time.Time
	index int
}

// sortedCurve parses the expiries and sorts by them, rejecting duplicate
// expiries and, with as_of, contracts expiring on or before as_of.
func sortedCurve(in CurveInput) ([]datedContract, error) {
	var asOf time.Time
	if in.AsOf != nil {
		t, err := in.AsOf.Time("as_of")
		if err != nil {
			return nil, err
		}
		asOf = t
	}
	pts := make([]datedContract, len(in.Contracts))
	for i, c := range in.Contracts {
		t, err := c.Expiry.Time(fmt.Sprintf("contracts[%d].expiry", i))
		if err != nil {
			return nil, err
		}
		if in.AsOf != nil && !t.After(asOf) {
			return nil, invalid(fmt.Sprintf("contracts[%d].expiry", i), "%s is not after as_of %s: expired contracts do not belong on the curve", c.Expiry, *in.AsOf)
		}
		pts[i] = datedContract{CurveContract: c, t: t, index: i}
	}
	sort.SliceStable(pts, func(a, b int) bool { return pts[a].t.Before(pts[b].t) })
	for i := 1; i < len(pts); i++ {
		if pts[i].t.Equal(pts[i-1].t) {
			return nil, invalid(fmt.Sprintf("contracts[%d].expiry", pts[i].index), "%s repeats the expiry of contracts[%d]", pts[i].Expiry, pts[i-1].index)
		}
	}
	return pts, nil
}

// comparePoints measures the far contract against the near one.
func comparePoints(near, far datedContract, tol float64) CurvePair {
	days := daysBetween(near.t, far.t)
	n, f := near.Price.Float64(), far.Price.Float64()
	change := f/n - 1
	p := CurvePair{Near: label(near), Far: label(far), DaysBetween: days, Spread: far.Price.Sub(near.Price),
		ChangePct: toolkit.Float(change * 100), RollYield: toolkit.Float(math.Log(n/f) * DaysPerYear / float64(days))}
	switch {
	case math.Abs(change) <= tol:
		p.Structure = Flat
	case change > 0:
		p.Structure = Contango
	default:
		p.Structure = Backwardation
	}
	return p
}

// label names a contract by symbol, or by expiry when it has none.
func label(c datedContract) string {
	if c.Symbol != "" {
		return c.Symbol
	}
	return string(c.Expiry)
}

// olsSlope returns the least-squares slope of y on x (x not all equal).
func olsSlope(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx float64
	for i := range x {
		dx := x[i] - mx
		sxy += dx * (y[i] - my)
		sxx += dx * dx
	}
	return sxy / sxx
}
