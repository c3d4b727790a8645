// Package strictjson validates a JSON document against a compiled JSON
// Schema in a single pass over its bytes, before anything is decoded.
//
// It exists so that a hostile request can never make the server allocate
// more than a small multiple of its body: limits (nesting depth, number of
// values, string sizes, and every maxItems/maxLength of the schema) are
// enforced while scanning, so a 1.6-million-item array is refused at the
// first item past its limit instead of being decoded first. The scan also
// enforces what encoding/json lets through: object keys must match a
// property exactly (encoding/json matches case-insensitively), a key may
// appear once, strings must be valid UTF-8 without control characters
// other than tab, line feed and carriage return, and numbers must stay in
// the toolkit's input range (toolkit.ParseAmount).
//
// Validation goes on past a violation of the schema and reports every one
// it finds (at most toolkit.MaxFieldErrors) in the error's Fields; it
// stops at the first violation of a limit, at text that is not JSON, and
// at the first key an object that forbids others does not list. Duplicate
// keys are found in linear time and every object's keys are capped
// (Limits.MaxKeys), so no document costs more than a scan of its bytes.
// After Validate succeeds, decoding the document (or a member of it) with encoding/json cannot fail
// on syntax and allocates only what the schema allows.
//
// Compile accepts the subset of JSON Schema 2020-12 the toolkit's schemas
// use and refuses every other keyword, so nothing is silently unchecked:
// type, enum, const, properties, required, additionalProperties,
// dependentRequired, minProperties, maxProperties, items, minItems,
// maxItems, minLength, maxLength, pattern, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, allOf, anyOf, oneOf, not (only the
// false schema), $ref to "#/$defs/..." and the annotations (title,
// description, default, examples, format, deprecated, readOnly, writeOnly).
//
// A string schema whose pattern is toolkit.DecimalPattern is a decimal
// input: it also accepts a JSON number in the same grammar, and its
// minimum and maximum apply to the value.
package strictjson

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// Limits bound a document independently of its schema. Zero fields take
// the defaults.
type Limits struct {
	// MaxDepth is the deepest nesting of arrays and objects (default 32).
	MaxDepth int
	// MaxValues is the number of values of all kinds in one document
	// (default 1,000,000).
	MaxValues int
	// MaxStringBytes bounds every string and object key (default 1 MiB).
	MaxStringBytes int
	// MaxKeys bounds the members of any one object, free-form objects
	// included (default 1,000); a schema's maxProperties binds too.
	MaxKeys int
}

func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = 32
	}
	if l.MaxValues <= 0 {
		l.MaxValues = 1_000_000
	}
	if l.MaxStringBytes <= 0 {
		l.MaxStringBytes = 1 << 20
	}
	if l.MaxKeys <= 0 {
		l.MaxKeys = 1000
	}
	return l
}

// Options configure Compile.
type Options struct {
	// Permissive leaves the rules of strings and numbers, and the
	// uniqueness of keys below the root object, to another check: a
	// string may hold anything JSON allows (control characters, invalid
	// UTF-8, lone surrogates), a number any magnitude JSON's grammar
	// writes unless the schema bounds it, and an object inside the root a
	// key twice; the root's own keys stay unique (a caller reading them
	// sees what a later decoder sees), and the grammar, the schema and
	// the limits still bind. For a document whose values are another
	// check's to judge, such as an MCP message, whose tool arguments the
	// tool's own schema checks.
	Permissive bool
	Limits     Limits
	// Noun names a member in messages: "Missing required argument: x",
	// "Unknown field: y". Default "field".
	Noun string
	// Document names the whole document in messages: "arguments must be a
	// JSON object". Default "the document".
	Document string
	// PermissiveMembers lists top-level properties whose values are
	// scanned as under Permissive, strings, numbers and repeated keys
	// left to another check, while the rest of the document keeps every
	// rule: a tool call's arguments, which the tool's own schema checks.
	PermissiveMembers []string
	// Delegated lists top-level properties whose values are validated by
	// the caller's own decoder (see Validator.Validate): the scan hands
	// them over instead of checking them against their schemas. Their
	// required status is still checked.
	Delegated []string
	// NullIsAbsent reads a null member whose property is optional and
	// does not admit null as if the member were absent: what a model
	// whose tool schema lists every property (OpenAI strict function
	// calling) sends for an argument it does not use. A required member
	// sent as null is still refused.
	NullIsAbsent bool
}

// typeSet is a set of JSON types.
type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tInteger
	tString
	tAny = tNull | tBoolean | tObject | tArray | tNumber | tInteger | tString
)

var typeNames = map[string]typeSet{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "integer": tInteger, "string": tString,
}

// node is one compiled schema.
type node struct {
	never   bool // the false schema
	types   typeSet
	decimal bool // a decimal input: a string or a number in toolkit's grammar

	enum []any // allowed values (enum and const) as encoding/json decodes them

	props          map[string]*node
	names          map[string]string // property name -> itself (allocation-free key matching)
	required       []string
	additional     *node // nil: any additional property is allowed
	closed         bool  // additionalProperties: false
	dependent      map[string][]string
	minProps       int
	maxProps       int // -1: none
	items          *node
	minItems       int
	maxItems       int // -1: none
	minLength      int
	maxLength      int // -1: none
	pattern        *regexp.Regexp
	patternText    string
	minimum        *float64
	maximum        *float64
	exclusiveMin   *float64
	exclusiveMax   *float64
	allOf          []*node
	anyOf          []*node
	oneOf          []*node
	delegatedRoot  map[string]bool // top-level only
	permissiveRoot map[string]bool // top-level only
}

// Validator is a compiled schema. It is safe for concurrent use.
type Validator struct {
	root         *node
	limits       Limits
	noun         string
	document     string
	nullIsAbsent bool
	permissive   bool
}

// rootProperties is the set of names, each a property of root (what names
// the option in the error), or nil when there are none.
func rootProperties(root *node, names []string, what string) (map[string]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	set := make(map[string]bool, len(names))
	for _, name := range names {
		if _, ok := root.props[name]; !ok {
			return nil, fmt.Errorf("strictjson: %s property %q is not in the schema", what, name)
		}
		set[name] = true
	}
	return set, nil
}

// Compile compiles s. Keywords outside the supported subset are an error.
func Compile(s *jsonschema.Schema, opts Options) (*Validator, error) {
	c := compiler{root: s, done: map[*jsonschema.Schema]*node{}}
	root, err := c.compile(s, "#")
	if err != nil {
		return nil, err
	}
	if root.delegatedRoot, err = rootProperties(root, opts.Delegated, "delegated"); err != nil {
		return nil, err
	}
	if root.permissiveRoot, err = rootProperties(root, opts.PermissiveMembers, "permissive"); err != nil {
		return nil, err
	}
	v := &Validator{root: root, limits: opts.Limits.withDefaults(), noun: opts.Noun, document: opts.Document,
		nullIsAbsent: opts.NullIsAbsent, permissive: opts.Permissive}
	if v.noun == "" {
		v.noun = "field"
	}
	if v.document == "" {
		v.document = "the document"
	}
	return v, nil
}

type compiler struct {
	root *jsonschema.Schema
	done map[*jsonschema.Schema]*node
}

func (c *compiler) compile(s *jsonschema.Schema, at string) (*node, error) {
	if s == nil {
		return &node{types: tAny, maxProps: -1, maxItems: -1, maxLength: -1}, nil
	}
	if n, ok := c.done[s]; ok {
		return n, nil
	}
	if err := unsupported(s, at); err != nil {
		return nil, err
	}
	if s.Ref != "" {
		target, err := c.resolve(s.Ref)
		if err != nil {
			return nil, fmt.Errorf("strictjson: %s: %w", at, err)
		}
		if !refOnly(s) {
			// Sibling keywords of a $ref are annotations only here.
			return nil, fmt.Errorf("strictjson: %s: keywords next to $ref are not supported (only annotations)", at)
		}
		return c.compile(target, s.Ref)
	}
	n := &node{types: tAny, maxProps: -1, maxItems: -1, maxLength: -1}
	c.done[s] = n
	if isFalse(s) {
		n.never = true
		return n, nil
	}
	if err := c.fill(n, s, at); err != nil {
		return nil, err
	}
	return n, nil
}

func (c *compiler) fill(n *node, s *jsonschema.Schema, at string) error {
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	if len(types) > 0 {
		n.types = 0
		for _, t := range types {
			ts, ok := typeNames[t]
			if !ok {
				return fmt.Errorf("strictjson: %s: unknown type %q", at, t)
			}
			n.types |= ts
		}
		if n.types&tNumber != 0 {
			n.types |= tInteger
		}
	}
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return fmt.Errorf("strictjson: %s: pattern: %w", at, err)
		}
		n.pattern, n.patternText = re, s.Pattern
		n.decimal = s.Pattern == toolkit.DecimalPattern
		if n.decimal {
			n.types |= tNumber | tInteger
		}
	}
	values := s.Enum
	if s.Const != nil {
		values = []any{*s.Const}
	}
	for _, v := range values {
		norm, err := normalize(v)
		if err != nil {
			return fmt.Errorf("strictjson: %s: enum: %w", at, err)
		}
		n.enum = append(n.enum, norm)
	}
	n.required = s.Required
	n.dependent = s.DependentRequired
	n.minProps, n.maxProps = intOr(s.MinProperties, 0), intOr(s.MaxProperties, -1)
	n.minItems, n.maxItems = intOr(s.MinItems, 0), intOr(s.MaxItems, -1)
	n.minLength, n.maxLength = intOr(s.MinLength, 0), intOr(s.MaxLength, -1)
	n.minimum, n.maximum = s.Minimum, s.Maximum
	n.exclusiveMin, n.exclusiveMax = s.ExclusiveMinimum, s.ExclusiveMaximum
	if len(s.Properties) > 0 {
		n.props = make(map[string]*node, len(s.Properties))
		n.names = make(map[string]string, len(s.Properties))
		for name, p := range s.Properties {
			n.names[name] = name
			pn, err := c.compile(p, at+"/properties/"+name)
			if err != nil {
				return err
			}
			n.props[name] = pn
		}
	}
	if s.AdditionalProperties != nil {
		if isFalse(s.AdditionalProperties) {
			n.closed = true
		} else {
			ap, err := c.compile(s.AdditionalProperties, at+"/additionalProperties")
			if err != nil {
				return err
			}
			n.additional = ap
		}
	}
	if s.Items != nil {
		it, err := c.compile(s.Items, at+"/items")
		if err != nil {
			return err
		}
		n.items = it
	}
	for _, group := range []struct {
		dst  *[]*node
		src  []*jsonschema.Schema
		name string
	}{{&n.allOf, s.AllOf, "allOf"}, {&n.anyOf, s.AnyOf, "anyOf"}, {&n.oneOf, s.OneOf, "oneOf"}} {
		for i, sub := range group.src {
			sn, err := c.compile(sub, fmt.Sprintf("%s/%s/%d", at, group.name, i))
			if err != nil {
				return err
			}
			*group.dst = append(*group.dst, sn)
		}
	}
	return nil
}

// resolve finds a "#/$defs/name" (or "#/definitions/name") reference in
// the root schema.
func (c *compiler) resolve(ref string) (*jsonschema.Schema, error) {
	for prefix, defs := range map[string]map[string]*jsonschema.Schema{
		"#/$defs/": c.root.Defs, "#/definitions/": c.root.Definitions,
	} {
		if name, ok := strings.CutPrefix(ref, prefix); ok {
			if d, ok := defs[name]; ok {
				return d, nil
			}
		}
	}
	return nil, fmt.Errorf("unresolvable $ref %q (only #/$defs/<name> of the root)", ref)
}

// unsupported reports the first keyword outside the supported subset.
func unsupported(s *jsonschema.Schema, at string) error {
	bad := map[string]bool{
		"$dynamicRef": s.DynamicRef != "", "multipleOf": s.MultipleOf != nil, "prefixItems": len(s.PrefixItems) > 0,
		"items (array form)": len(s.ItemsArray) > 0, "additionalItems": s.AdditionalItems != nil,
		"uniqueItems": s.UniqueItems, "contains": s.Contains != nil, "unevaluatedItems": s.UnevaluatedItems != nil,
		"patternProperties": len(s.PatternProperties) > 0, "propertyNames": s.PropertyNames != nil,
		"unevaluatedProperties": s.UnevaluatedProperties != nil, "if": s.If != nil, "then": s.Then != nil,
		"else": s.Else != nil, "dependentSchemas": len(s.DependentSchemas) > 0 || len(s.DependencySchemas) > 0,
		"dependencies": len(s.DependencyStrings) > 0, "extra keywords": len(s.Extra) > 0,
		"not (other than the false schema)": s.Not != nil && !isFalse(s),
	}
	for kw, present := range bad {
		if present {
			return fmt.Errorf("strictjson: %s: unsupported keyword %s", at, kw)
		}
	}
	return nil
}

// isFalse reports whether s is the false schema ({"not": {}}).
func isFalse(s *jsonschema.Schema) bool {
	if s.Not == nil {
		return false
	}
	empty := jsonschema.Schema{}
	b1, _ := json.Marshal(s.Not)
	b2, _ := json.Marshal(&empty)
	return string(b1) == string(b2)
}

// refOnly reports whether s holds nothing but $ref and annotations.
func refOnly(s *jsonschema.Schema) bool {
	c := *s
	c.Ref, c.Title, c.Description, c.Default, c.Examples, c.Deprecated, c.ReadOnly, c.WriteOnly, c.Comment =
		"", "", "", nil, nil, false, false, false, ""
	b, _ := json.Marshal(&c)
	return string(b) == "{}" || string(b) == "true"
}

// normalize turns an enum value into what encoding/json decodes it as
// (string, float64, bool or nil); arrays and objects are not supported.
func normalize(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	switch out.(type) {
	case string, float64, bool, nil:
		return out, nil
	}
	return nil, fmt.Errorf("only scalar enum values are supported, got %s", b)
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
