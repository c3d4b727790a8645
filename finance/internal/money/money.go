// Package money puts the money figures of finance results in the
// toolkit's one canonical form.
//
// Canonical form: at least two decimals, and no trailing zero beyond the
// second (67336.5, "67336.50" and 6.73365e4 all print "67336.50"; 0.001000
// prints "0.001"; 2500 prints "2500.00"). The value never changes: digits
// beyond the second decimal that are not zero are kept ("2500.0125"). An
// integer of 10^32 or more is written without decimals: two more digits
// would not fit in the 34 significant digits of an Amount.
// Each result type lists its money fields in one method that calls Fields
// or Optional as the result is built.
package money

import "github.com/agentfinance/toolkit"

// Canonical returns a in the canonical money form (see the package
// comment). A non-finite a is returned as is.
func Canonical(a toolkit.Amount) toolkit.Amount {
	if !a.IsFinite() {
		return a
	}
	t := a.Trim(2)
	// at most two decimals: written with exactly two (Round(2) pads; it
	// fails from 10^32 on, where t is kept)
	if r, err := t.Round(2, toolkit.RoundHalfEven); err == nil && r.Cmp(t) == 0 {
		return r
	}
	return t
}

// Fields puts every amount in canonical form, in place.
func Fields(amounts ...*toolkit.Amount) {
	for _, a := range amounts {
		*a = Canonical(*a)
	}
}

// Optional puts every optional (nil-able) amount in canonical form. A set
// field gets a new pointer, so an amount shared with the input is never
// modified.
func Optional(amounts ...**toolkit.Amount) {
	for _, p := range amounts {
		if *p != nil {
			c := Canonical(**p)
			*p = &c
		}
	}
}
