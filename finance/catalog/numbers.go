package catalog

import (
	"reflect"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// decimalPattern is the JSON-schema pattern of a decimal string.
const decimalPattern = toolkit.DecimalPattern

// numberSchema describes a decimal input: a string in the decimal grammar
// (the argument decoder accepts a JSON number in the same grammar too, see
// strictjson). shareDecimals turns it into a reference to a shared
// definition.
func numberSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: decimalPattern}
}

// typeSchemas maps the toolkit's input types to their JSON schemas.
func typeSchemas() map[reflect.Type]*jsonschema.Schema {
	number := numberSchema()
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[toolkit.Float]():  number,
		reflect.TypeFor[toolkit.Amount](): number,
		reflect.TypeFor[toolkit.Floats](): {Type: "array", Items: numberSchema()},
	}
}

// floatPtr converts an optional number argument for the finance functions.
func floatPtr(f *toolkit.Float) *float64 {
	if f == nil {
		return nil
	}
	v := float64(*f)
	return &v
}

// amountFloat converts an optional money argument for the float statistics
// of the finance functions.
func amountFloat(a *toolkit.Amount) *float64 {
	if a == nil {
		return nil
	}
	v := a.Float64()
	return &v
}
