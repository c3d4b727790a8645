package toolformat

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/google/jsonschema-go/jsonschema"
)

// dialect is what one host's schema subset can say; convert moves the
// rest into descriptions.
type dialect struct {
	// strict: every property is required and an optional one admits null
	// (OpenAI strict mode).
	strict bool
	// closed: every object states additionalProperties false.
	closed bool
	// exclusiveBounds: exclusiveMinimum and exclusiveMaximum exist.
	exclusiveBounds bool
	// lengths: minLength and maxLength exist.
	lengths bool
	// boundsInText: numeric bounds are written into the description
	// ("> 0, <= 1"), which is shorter than the keywords.
	boundsInText bool
	// gemini: type names in capitals, counts as strings (int64 in the
	// protocol), no additionalProperties.
	gemini bool
	// textObjects: a free-form object is published as a string holding
	// its JSON text (the subset cannot describe an object without
	// properties).
	textObjects bool
	// sparseExamples: only the members a call sends get an example: the
	// required ones and those a condition of their object names (OpenAI
	// strict, where every other member is sent as null).
	sparseExamples bool
}

var (
	openAIDialect  = dialect{strict: true, closed: true, boundsInText: true, textObjects: true, sparseExamples: true}
	geminiDialect  = dialect{lengths: true, gemini: true, textObjects: true}
	compactDialect = dialect{closed: true, boundsInText: true, lengths: true}
)

// converter turns the schemas of one tool's input into a dialect.
type converter struct {
	d    dialect
	root *jsonschema.Schema // holds the $defs
}

// convert returns the input schema s in dialect d: definitions inlined,
// decimal strings as numbers, a free-form object as its JSON text, and
// what d cannot say written into the descriptions.
func convert(d dialect, s *jsonschema.Schema) (object, error) {
	c := converter{d: d, root: s}
	return c.node(s, place{root: true, sent: true})
}

// place is where a schema sits: the tool's whole input (root), a member
// that is not required (optional), and whether a call sends it (a
// required member, or one a condition names).
type place struct {
	root, optional, sent bool
}

// node converts the schema s of a value at place at.
func (c converter) node(s *jsonschema.Schema, at place) (object, error) {
	s, err := c.resolve(s)
	if err != nil {
		return nil, err
	}
	kind := c.kindOf(s)
	o := object{{"type", c.typeName(kind.json, at.optional && c.d.strict)}}
	c.values(&o, s, kind, at)
	notes := c.bounds(&o, s)
	if kind.json == "string" && !kind.text && s.Format == "" && intOr(s.MaxLength, 0) != catalog.MaxTextLen {
		notes = append(notes, c.lengths(&o, s)...)
	}
	switch kind.json {
	case "array":
		err = c.array(&o, s, at.sent)
	case "object":
		err = c.object(&o, s)
	}
	if err != nil {
		return nil, err
	}
	more, err := c.notes(&o, s, kind, at)
	if err != nil {
		return nil, err
	}
	description := s.Description
	if at.root {
		description = strings.TrimSpace(strings.TrimPrefix(description, catalog.DecimalsNote))
	}
	if text := withNotes(description, append(notes, more...)); text != "" {
		o = append(object{o[0], {"description", text}}, o[1:]...)
	}
	return o, nil
}

// values keeps what restricts a value's form: its enum (with null when
// strict mode lets it be null), its format and a pattern other than the
// decimal grammar.
func (c converter) values(o *object, s *jsonschema.Schema, kind kind, at place) {
	if len(s.Enum) > 0 {
		enum := distinctEnum(s.Enum)
		if at.optional && c.d.strict {
			enum = append(enum, nil)
		}
		o.set("enum", enum)
	}
	if s.Format != "" {
		o.set("format", s.Format)
	}
	if s.Pattern != "" && !kind.decimal {
		o.set("pattern", s.Pattern)
	}
}

// notes returns the member count of a free-form object published as
// text, the default and the example as notes for the description (a
// countable object keeps maxProperties).
func (c converter) notes(o *object, s *jsonschema.Schema, kind kind, at place) ([]string, error) {
	var notes []string
	if s.MaxProperties != nil {
		if kind.text {
			notes = append(notes, "max "+strconv.Itoa(*s.MaxProperties)+" members")
		} else {
			o.set("maxProperties", c.count(*s.MaxProperties))
		}
	}
	if len(s.Default) > 0 {
		notes = append(notes, "default "+c.example(s, s.Default))
	}
	if len(s.Examples) > 0 && len(s.Default) == 0 && (at.sent || !c.d.sparseExamples) { // a default is an example already
		b, err := json.Marshal(s.Examples[0])
		if err != nil {
			return nil, err
		}
		notes = append(notes, "e.g. "+c.example(s, b))
	}
	return notes, nil
}

// kind is how a schema is published: its JSON type, and whether it is a
// decimal input (a string in the catalog, a number here) or a free-form
// object (its JSON text here).
type kind struct {
	json    string
	decimal bool
	text    bool
}

func (c converter) kindOf(s *jsonschema.Schema) kind {
	switch {
	case s.Type == "string" && s.Pattern == toolkit.DecimalPattern:
		return kind{json: "number", decimal: true}
	case s.Type == "object" && len(s.Properties) == 0 && c.d.textObjects:
		return kind{json: "string", text: true}
	}
	return kind{json: s.Type}
}

// typeName spells a type: in capitals for Gemini, with null when the
// value may be null.
func (c converter) typeName(t string, nullable bool) any {
	switch {
	case c.d.gemini:
		return strings.ToUpper(t)
	case nullable:
		return []string{t, "null"}
	}
	return t
}

// resolve inlines a reference to the root's definitions, keeping the
// referring schema's annotations.
func (c converter) resolve(s *jsonschema.Schema) (*jsonschema.Schema, error) {
	if s.Ref == "" {
		return s, nil
	}
	name, ok := strings.CutPrefix(s.Ref, "#/$defs/")
	def, found := c.root.Defs[name]
	if !ok || !found {
		return nil, fmt.Errorf("unresolvable $ref %q", s.Ref)
	}
	out := *def
	out.Description, out.Default, out.Examples = s.Description, s.Default, s.Examples
	return &out, nil
}

// array converts the items of s; sent says whether a call sends the array.
// An item's example is left to the array's own example when it has one.
// Caps of at least modelItems items are left out: no model writes that
// many values into one call, and the server enforces them (the catalog's
// list states them).
func (c converter) array(o *object, s *jsonschema.Schema, sent bool) error {
	if s.Items == nil {
		return fmt.Errorf("an array without items")
	}
	items, err := c.node(s.Items, place{sent: sent && len(s.Examples) == 0})
	if err != nil {
		return err
	}
	o.set("items", items)
	if s.MinItems != nil {
		o.set("minItems", c.count(*s.MinItems))
	}
	if s.MaxItems != nil && *s.MaxItems < modelItems {
		o.set("maxItems", c.count(*s.MaxItems))
	}
	return nil
}

// modelItems is the array length from which a cap is left out of the
// vendor lists (see array).
const modelItems = 10_000

// object converts the properties of s, in their order.
func (c converter) object(o *object, s *jsonschema.Schema) error {
	props := object{}
	var names []string
	for _, name := range propertyNames(s) {
		if s.Properties[name].Deprecated && !isRequired(s, name) {
			continue // accepted, but not offered
		}
		names = append(names, name)
	}
	for _, name := range names {
		required := isRequired(s, name)
		p, err := c.node(s.Properties[name], place{optional: !required, sent: required || mentioned(s, name)})
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		props.set(name, p)
	}
	o.set("properties", props)
	required := s.Required
	if c.d.strict {
		required = names
	}
	o.set("required", append([]string{}, required...))
	if c.d.closed {
		o.set("additionalProperties", false)
	}
	return nil
}

// propertyNames lists the properties of s in their published order.
func propertyNames(s *jsonschema.Schema) []string {
	names := make([]string, 0, len(s.Properties))
	for _, n := range s.PropertyOrder {
		if _, ok := s.Properties[n]; ok {
			names = append(names, n)
		}
	}
	for _, n := range sortedKeys(s.Properties) {
		if !contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

func isRequired(s *jsonschema.Schema, name string) bool {
	return contains(s.Required, name)
}

// distinctEnum lists the values of enum, leaving out a string that
// repeats an earlier one in another letter case ("LONG" after "long"):
// the first spelling is enough to send.
func distinctEnum(enum []any) []any {
	var out []any
	for _, v := range enum {
		text, isText := v.(string)
		if isText && slices.ContainsFunc(out, func(w any) bool { t, ok := w.(string); return ok && strings.EqualFold(t, text) }) {
			continue
		}
		out = append(out, v)
	}
	return out
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// mentioned reports whether a condition of the object s names its
// property name: the "Needs one of: ..." sentence of s, or the "Needs by
// mode: ..." sentence of another property (see catalog.NeedsOneOf).
func mentioned(s *jsonschema.Schema, name string) bool {
	if namesWord(conditionOf(s.Description), name) {
		return true
	}
	for other, p := range s.Properties {
		if other != name && namesWord(conditionOf(p.Description), name) {
			return true
		}
	}
	return false
}

// conditionOf returns the condition sentences of a description: from
// "Needs " on, or "".
func conditionOf(text string) string {
	if i := strings.Index(text, "Needs "); i >= 0 {
		return text[i:]
	}
	return ""
}

// namesWord reports whether text holds name as a whole word (member
// names are letters, digits and underscores).
func namesWord(text, name string) bool {
	for i := strings.Index(text, name); i >= 0; {
		end := i + len(name)
		if (i == 0 || !isWordByte(text[i-1])) && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
		next := strings.Index(text[i+1:], name)
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
