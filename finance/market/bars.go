package market

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
)

// Bar is one OHLCV bar. On the wire every field is a decimal string
// (JSON numbers are accepted too).
type Bar struct {
	Open   toolkit.Float `json:"open"`
	High   toolkit.Float `json:"high"`
	Low    toolkit.Float `json:"low"`
	Close  toolkit.Float `json:"close"`
	Volume toolkit.Float `json:"volume"`
}

// ValidateBars checks every bar: prices must be positive, high must not be
// below low, and volume must not be negative. The error names the field
// (as "<field>[<index>]") and the rule.
func ValidateBars(field string, bars []Bar) error {
	if len(bars) > limits.MaxItems {
		return toolkit.Errorf(toolkit.TooLarge, "%s: at most %d bars are accepted", field, limits.MaxItems)
	}
	for i := range bars {
		b := &bars[i]
		// one rarely taken branch per bar (see bit); the error says which rule
		if bit(b.Open > 0)&bit(b.High > 0)&bit(b.Low > 0)&bit(b.Close > 0)&bit(b.High >= b.Low)&bit(b.Volume >= 0) == 0 {
			return badBar(field, i, b)
		}
	}
	return nil
}

// badBar returns the error of the invalid bar b at index i.
func badBar(field string, i int, b *Bar) error {
	switch {
	case !(b.Open > 0 && b.High > 0 && b.Low > 0 && b.Close > 0):
		return toolkit.Errorf(toolkit.Invalid, "%s[%d]: prices must be positive", field, i)
	case b.High < b.Low:
		return toolkit.Errorf(toolkit.Invalid, "%s[%d]: high %v is below low %v", field, i, b.High, b.Low)
	}
	return toolkit.Errorf(toolkit.Invalid, "%s[%d]: volume must not be negative", field, i)
}

// analyse runs the bar analysis tool: it validates the bars, answers
// InsufficientBars when there are fewer than min, returns ctx.Err() when
// the context is done, and otherwise returns run's result.
func analyse[T any](ctx context.Context, tool string, bars []Bar, min int, run func() (*T, error)) (Answer[T], error) {
	short, err := checkBars(tool, bars, min)
	if short != nil || err != nil {
		return Answer[T]{Insufficient: short}, err
	}
	if err := ctx.Err(); err != nil {
		return Answer[T]{}, err
	}
	res, err := run()
	if err != nil {
		return Answer[T]{}, err
	}
	return answer(res), nil
}

// checkBars validates bars (ValidateBars) and reports whether there are at
// least min of them; when there are fewer it returns the InsufficientBars
// answer of tool.
func checkBars(tool string, bars []Bar, min int) (*InsufficientBars, error) {
	if err := ValidateBars("bars", bars); err != nil {
		return nil, err
	}
	if len(bars) < min {
		return NewInsufficientBars(tool, len(bars), min), nil
	}
	return nil, nil
}

// InsufficientBars is the answer of a bar analysis given fewer bars than
// it needs. It is an answer, not an error (the caller should fetch more
// history and retry), the same in Go and over HTTP (a 200 whose result is
// {"error": "insufficient_bars", ...}), and it is never charged.
type InsufficientBars struct {
	Error        string `json:"error"` // always "insufficient_bars"
	BarsProvided int    `json:"bars_provided"`
	BarsRequired int    `json:"bars_required"`
	Message      string `json:"message"`
}

// NewInsufficientBars returns the insufficient_bars answer of tool.
func NewInsufficientBars(tool string, provided, required int) *InsufficientBars {
	return &InsufficientBars{
		Error:        "insufficient_bars",
		BarsProvided: provided,
		BarsRequired: required,
		Message: fmt.Sprintf("%s needs at least %d bars (latest last); %d provided. Fetch more history and retry.",
			tool, required, provided),
	}
}

// Chargeable reports false: an insufficient_bars answer is never billed.
func (*InsufficientBars) Chargeable() bool { return false }

// Answer is what a bar analysis returns when it does not fail: either its
// Result, or Insufficient when the bars are fewer than it needs (exactly
// one is set). A bad bar is an error whatever the count; the options are
// checked (an error when out of range) once there are enough bars, as
// over HTTP.
//
// Answer marshals as the one that is set, so a Go caller encoding it gets
// the tool's JSON answer byte for byte.
type Answer[T any] struct {
	Result       *T
	Insufficient *InsufficientBars
}

// answer wraps a result.
func answer[T any](res *T) Answer[T] { return Answer[T]{Result: res} }

// Value returns the pointer that is set (the Result or the Insufficient
// answer) as the tool's result value.
func (a Answer[T]) Value() any {
	if a.Insufficient != nil {
		return a.Insufficient
	}
	return a.Result
}

// Chargeable reports whether the answer may be billed: false for an
// insufficient_bars answer.
func (a Answer[T]) Chargeable() bool { return a.Insufficient == nil }

// MarshalJSON encodes the Result, or the Insufficient answer.
func (a Answer[T]) MarshalJSON() ([]byte, error) { return json.Marshal(a.Value()) }
