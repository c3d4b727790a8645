package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// Spec is the descriptive part of a tool.
type Spec struct {
	Name        string
	Description string
	Category    string
	Operation   string // price-table key; empty = free
}

// NewTool builds a Tool whose arguments decode into In.
//
// The input schema is generated from In: JSON field names become
// properties, fields without omitempty are required, Float/Floats/
// toolkit.Amount accept decimal strings or numbers, and unknown properties
// are rejected. tighten then adds what Go types cannot say (enums,
// minItems, minimum, maximum, defaults). Run validates the arguments
// against that schema (errors name the field and the rule) and decodes
// them strictly into In; the prepared call then runs run. Top-level
// properties whose type implements PrefixDecoder skip the generic
// validation and decode with their own decoder (see PrefixDecoder); the
// rest is validated as above.
func NewTool[In any](spec Spec, run func(ctx context.Context, call Call, in In) (any, error), tighten func(s *jsonschema.Schema)) Tool {
	schema, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: typeSchemas()})
	if err != nil {
		panic(fmt.Sprintf("catalog: schema for %s: %v", spec.Name, err))
	}
	dropNullable(schema)
	if tighten != nil {
		tighten(schema)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("catalog: resolving schema for %s: %v", spec.Name, err))
	}
	plan, err := planFor[In](schema)
	if err != nil {
		panic(fmt.Sprintf("catalog: resolving the split schema for %s: %v", spec.Name, err))
	}
	return Tool{
		Name:        spec.Name,
		Description: spec.Description,
		Category:    spec.Category,
		Operation:   spec.Operation,
		InputSchema: schema,
		Prepare: func(call Call) (Prepared, error) {
			if plan != nil {
				if in, ok, err := decodeFast[In](plan, call.Arguments); ok {
					if err != nil {
						return nil, err
					}
					return func(ctx context.Context) (any, error) { return run(ctx, call, in) }, nil
				}
			}
			in, err := Decode[In](resolved, call.Arguments)
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (any, error) { return run(ctx, call, in) }, nil
		},
	}
}

// Decode validates raw against the resolved schema and decodes it strictly
// into an In. Empty raw means {}.
func Decode[In any](resolved *jsonschema.Resolved, raw json.RawMessage) (In, error) {
	var in In
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return in, toolkit.Errorf(toolkit.Invalid, "arguments are not valid JSON: %v", err)
	}
	if _, ok := generic.(map[string]any); !ok {
		return in, toolkit.Errorf(toolkit.Invalid, "arguments must be a JSON object")
	}
	if err := resolved.Validate(generic); err != nil {
		return in, toolkit.Errorf(toolkit.Invalid, "%s", schemaMessage(err))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		var te *toolkit.Error
		if errors.As(err, &te) {
			return in, te
		}
		return in, toolkit.Errorf(toolkit.Invalid, "invalid arguments: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return in, toolkit.Errorf(toolkit.Invalid, "invalid arguments: unexpected data after the JSON object")
	}
	return in, nil
}

// dropNullable turns the generated ["null", T] types of slices, maps and
// pointers into plain T: a present value must be a real value, and an
// optional one is simply omitted.
func dropNullable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 && s.Types[0] == "null" {
		s.Types = s.Types[1:]
		if len(s.Types) == 1 {
			s.Type, s.Types = s.Types[0], nil
		}
	}
	for _, p := range s.Properties {
		dropNullable(p)
	}
	dropNullable(s.Items)
	dropNullable(s.AdditionalProperties)
}

var (
	pathPart       = regexp.MustCompile(`validating (/[^:]*):`)
	missingProps   = regexp.MustCompile(`missing properties: \[(.*)\]`)
	extraProps     = regexp.MustCompile(`unexpected additional properties \[(.*)\]`)
	patternMessage = regexp.MustCompile(`pattern: (.*) does not match regular expression .*`)
)

// schemaMessage rewrites a jsonschema validation error into a client
// message that names the field and the rule, e.g.
// "r_multiples: minItems: array length 1 is less than 2".
func schemaMessage(err error) string {
	msg := err.Error()
	if m := missingProps.FindStringSubmatch(msg); m != nil {
		prefix := fieldPrefix(msg)
		return "Missing required argument: " + prefix + strings.ReplaceAll(strings.ReplaceAll(m[1], `"`, ""), ",", ", "+prefix)
	}
	if m := extraProps.FindStringSubmatch(msg); m != nil {
		return "Unknown argument: " + fieldPrefix(msg) + strings.ReplaceAll(m[1], `"`, "")
	}
	field := strings.TrimSuffix(fieldPrefix(msg), ".")
	rule := strings.TrimPrefix(msg, "validating root: ")
	if loc := pathPart.FindAllStringIndex(rule, -1); len(loc) > 0 {
		// keep "<rule>: <detail>" from the innermost validation step
		rule = strings.TrimSpace(rule[loc[len(loc)-1][1]:])
	}
	if m := patternMessage.FindStringSubmatch(rule); m != nil && strings.Contains(rule, strconv.Quote(decimalPattern)) {
		rule = m[1] + " is not a decimal number like \"1.5\" (plain digits, no exponent)"
	}
	if field == "" {
		return rule
	}
	return field + ": " + rule
}

// fieldPrefix returns the innermost field path of a validation error as
// "a.b[]." (with a trailing dot), or "" at the root.
func fieldPrefix(msg string) string {
	all := pathPart.FindAllStringSubmatch(msg, -1)
	if len(all) == 0 {
		return ""
	}
	p := all[len(all)-1][1]
	p = strings.ReplaceAll(p, "/properties/", ".")
	p = strings.ReplaceAll(p, "/items", "[]")
	p = strings.TrimPrefix(p, ".")
	if p == "" {
		return ""
	}
	return p + "."
}
