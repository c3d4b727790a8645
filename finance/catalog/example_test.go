package catalog_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfinance/toolkit/finance/catalog"
)

// The catalog is the one list of tools every surface serves. Run calls a
// tool in its pure, unmetered form: validation, decoding and the
// computation, without authorization, metering or a deadline (those are
// billing/toolcall's, the call path of every surface).
func Example() {
	c := catalog.Default()
	t, _ := c.Lookup("calculate_kelly")
	fmt.Println(len(c.Tools()), "built-in tools;", t.Name, "is billed as", t.Operation)

	out, err := t.Run(context.Background(), catalog.Call{
		Arguments: json.RawMessage(`{"r_multiples": ["2", "-1", "1.5", "-1", "3", "-1"]}`)})
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(out)
	var kelly struct {
		Full string `json:"full_kelly"`
		Half string `json:"half_kelly"`
	}
	_ = json.Unmarshal(b, &kelly)
	fmt.Println("full Kelly", kelly.Full, "half", kelly.Half)
	// Output:
	// 41 built-in tools; calculate_kelly is billed as calculate_kelly
	// full Kelly 0.262342442949 half 0.131171221474
}

// Bad arguments are a 400 naming the field and the rule, before anything
// runs (and so before anything is charged).
func Example_invalid() {
	t, _ := catalog.Default().Lookup("calculate_position_size")
	_, err := t.Prepare(catalog.Call{Arguments: json.RawMessage(`{"equity": "-5"}`)})
	fmt.Println(err)
	// Output: invalid: equity: must be greater than 0, got "-5"
}
