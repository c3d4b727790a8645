package toolkit_test

import (
	"encoding/json"
	"fmt"

	"github.com/agentfinance/toolkit"
)

// Exact money: parse, add, multiply, convert to the stores' micro-USD.
func ExampleAmount() {
	price := toolkit.MustParseAmount("0.1")
	total := price.Add(toolkit.MustParseAmount("0.2"))
	fee := total.Mul(toolkit.MustParseAmount("3"))
	micros, _ := fee.Micros()
	fmt.Println(total, fee, micros)
	// Output: 0.3 0.9 900000
}

// JSON in any finite number form, out as a plain decimal string.
func ExampleParseAmount() {
	var in struct {
		Equity toolkit.Amount `json:"equity"`
	}
	_ = json.Unmarshal([]byte(`{"equity": 1.5e4}`), &in)
	out, _ := json.Marshal(in)
	fmt.Println(string(out))

	_, err := toolkit.ParseAmount("NaN")
	fmt.Println(err)
	// Output:
	// {"equity":"15000"}
	// invalid decimal "NaN": use a JSON number like "12.50" or "1.5e-05" (no sign, spaces, hex or leading zeros)
}

// Rounding only where a rule says so (here, a SOL deposit credited down to
// the micro-USD).
func ExampleAmount_Round() {
	credit, _ := toolkit.MustParseAmount("142.3456789").Round(6, toolkit.RoundDown)
	fmt.Println(credit)
	// Output: 142.345678
}

// One error type: a kind for the status, a message for the client.
func ExampleErrorf() {
	err := toolkit.Errorf(toolkit.Invalid, "risk_percent: must be in (0, 1], got %s", "2")
	fmt.Println(toolkit.KindOf(err), "-", toolkit.MessageOf(err))
	// Output: invalid - risk_percent: must be in (0, 1], got 2
}
