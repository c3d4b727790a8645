package market

import (
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
	for i, b := range bars {
		switch {
		case b.Open <= 0 || b.High <= 0 || b.Low <= 0 || b.Close <= 0:
			return toolkit.Errorf(toolkit.Invalid, "%s[%d]: prices must be positive", field, i)
		case b.High < b.Low:
			return toolkit.Errorf(toolkit.Invalid, "%s[%d]: high %v is below low %v", field, i, b.High, b.Low)
		case b.Volume < 0:
			return toolkit.Errorf(toolkit.Invalid, "%s[%d]: volume must not be negative", field, i)
		}
	}
	return nil
}

// checkBars validates bars (ValidateBars) and requires at least min of
// them for tool; fewer is toolkit.Invalid (the catalog tools answer
// InsufficientBars before calling, so this guards Go callers).
func checkBars(tool string, bars []Bar, min int) error {
	if err := ValidateBars("bars", bars); err != nil {
		return err
	}
	if len(bars) < min {
		return invalid("bars", "%s needs at least %d bars; %d provided", tool, min, len(bars))
	}
	return nil
}

// InsufficientBars is the result of a bar tool given fewer bars than it
// needs. It is an answer, not an error (the caller should fetch more
// history and retry), and it is never charged.
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
