package toolpages

import (
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// resultTable is the fields of one form of a tool's answer: most tools
// have one, a bar tool two (its analysis, or insufficient_bars).
type resultTable struct {
	title  string // the form's name, empty when the tool has one
	fields []field
}

// field is one row of a result table: a member of the answer, nested
// members named by their path (monte_carlo.seed, checks[].rule).
type field struct {
	path, kind, notes string
}

// resultTables lists the fields of a tool's answer from its result schema
// (root, self-contained with $defs), in the field order of its Go result
// types (the schema keeps none) when they are known.
func resultTables(root *jsonschema.Schema, types []reflect.Type) []resultTable {
	if root == nil {
		return nil
	}
	variants, names := []*jsonschema.Schema{root}, []string{""}
	if len(root.OneOf) > 0 {
		variants, names = root.OneOf, make([]string, len(root.OneOf))
		for i, v := range root.OneOf {
			names[i] = strings.TrimPrefix(v.Ref, "#/$defs/")
		}
	}
	var out []resultTable
	for i, v := range variants {
		var t reflect.Type
		if i < len(types) {
			t = types[i]
		}
		w := resultWalker{root: root, visiting: map[string]bool{}, shown: map[string]string{}}
		w.object("", v, t)
		out = append(out, resultTable{title: names[i], fields: w.fields})
	}
	return out
}

// resultWalker collects the fields of one form of an answer.
type resultWalker struct {
	root     *jsonschema.Schema
	visiting map[string]bool   // the components on the path, so recursive types end
	shown    map[string]string // component -> the path whose rows list its fields
	fields   []field
}

// object adds the members of the object schema s (a $ref or inline), whose
// Go type is t (nil when unknown), under prefix.
func (w *resultWalker) object(prefix string, s *jsonschema.Schema, t reflect.Type) {
	if w.visiting[s.Ref] {
		return
	}
	if s.Ref != "" {
		w.visiting[s.Ref] = true
		defer delete(w.visiting, s.Ref)
	}
	shape := resolve(w.root, s)
	for _, name := range memberOrder(shape, t) {
		p := shape.Properties[name]
		inner, nullable := withoutNull(p)
		kind := w.kind(inner)
		if nullable {
			kind += " or null"
		}
		notes := resultNotes(p, resolve(w.root, inner), slices.Contains(shape.Required, name))
		ref := w.componentOf(inner)
		if first, ok := w.shown[ref]; ok && ref != "" {
			// The same fields again: say where they are listed.
			w.fields = append(w.fields, field{path: prefix + name, kind: kind, notes: joinNotes(notes, "fields as in "+code(first))})
			continue
		}
		w.fields = append(w.fields, field{path: prefix + name, kind: kind, notes: notes})
		if ref != "" {
			w.shown[ref] = prefix + name + suffixOf(resolve(w.root, inner))
		}
		w.nested(prefix+name, inner, fieldType(t, name))
	}
}

// componentOf is the object component whose fields s lists, directly or
// as the items of an array: "" for any other schema.
func (w *resultWalker) componentOf(s *jsonschema.Schema) string {
	if shape := resolve(w.root, s); shape.Items != nil {
		s, _ = withoutNull(shape.Items)
	}
	if len(resolve(w.root, s).Properties) == 0 {
		return ""
	}
	return s.Ref
}

// suffixOf is "[]" for an array, whose fields are listed under path[].
func suffixOf(shape *jsonschema.Schema) string {
	if shape.Type == "array" {
		return "[]"
	}
	return ""
}

// joinNotes joins the non-empty notes.
func joinNotes(notes ...string) string {
	return strings.Join(slices.DeleteFunc(notes, func(n string) bool { return n == "" }), "; ")
}

// nested adds the members of an object member, or of the objects an array
// member holds.
func (w *resultWalker) nested(path string, s *jsonschema.Schema, t reflect.Type) {
	shape := resolve(w.root, s)
	switch {
	case len(shape.Properties) > 0:
		w.object(path+".", s, t)
	case shape.Items != nil:
		if item, _ := withoutNull(shape.Items); len(resolve(w.root, item).Properties) > 0 {
			w.object(path+"[].", item, elem(t))
		}
	}
}

// kind names the JSON type of a result member: decimal, integer, array of
// decimal or null, object of integer, one of ...
func (w *resultWalker) kind(s *jsonschema.Schema) string {
	shape := resolve(w.root, s)
	switch {
	case isOutputDecimal(shape):
		return "decimal"
	case len(shape.OneOf) > 0:
		kinds := make([]string, len(shape.OneOf))
		for i, v := range shape.OneOf {
			kinds[i] = w.kind(v)
		}
		return "one of " + strings.Join(kinds, ", ")
	case shape.Type == "array" && shape.Items != nil:
		item, nullable := withoutNull(shape.Items)
		kind := "array of " + w.kind(item)
		if nullable {
			kind += " or null"
		}
		return kind
	case shape.Type == "object" && shape.AdditionalProperties != nil && len(shape.Properties) == 0:
		if value := w.kind(shape.AdditionalProperties); value != "any" {
			return "object of " + value
		}
		return "object"
	case shape.Format != "" && shape.Type == "string":
		return shape.Type + " (" + shape.Format + ")"
	case shape.Type != "":
		return shape.Type
	}
	return "any"
}

// decimalSample is a decimal as the server writes it: a string schema
// whose pattern accepts it is a decimal.
const decimalSample = "-185.50"

// isOutputDecimal reports whether s is the schema of a decimal string.
func isOutputDecimal(s *jsonschema.Schema) bool {
	if s.Type != "string" || s.Pattern == "" {
		return false
	}
	re, err := regexp.Compile(s.Pattern)
	return err == nil && re.MatchString(decimalSample)
}

// withoutNull unwraps anyOf [T, null], the document's nullable member.
func withoutNull(s *jsonschema.Schema) (*jsonschema.Schema, bool) {
	if len(s.AnyOf) == 2 && s.AnyOf[1].Type == "null" {
		return s.AnyOf[0], true
	}
	return s, false
}

// resultNotes are a member's description, its allowed values, and whether
// it may be left out of the answer.
func resultNotes(p, shape *jsonschema.Schema, required bool) string {
	var notes []string
	if p.Description != "" {
		notes = append(notes, p.Description)
	} else if shape.Description != "" && !isOutputDecimal(shape) {
		notes = append(notes, shape.Description)
	}
	enum := shape.Enum
	if shape.Items != nil && len(enum) == 0 {
		enum = shape.Items.Enum
	}
	if len(enum) > 0 {
		notes = append(notes, "one of "+valueList(enum))
	}
	if !required {
		notes = append(notes, "omitted when empty")
	}
	return strings.Join(notes, "; ")
}

// memberOrder is the members of shape in the field order of the Go type t,
// then any others alphabetically.
func memberOrder(shape *jsonschema.Schema, t reflect.Type) []string {
	var names []string
	for _, name := range jsonNames(t) {
		if _, ok := shape.Properties[name]; ok && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	var rest []string
	for name := range shape.Properties {
		if !slices.Contains(names, name) {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// jsonNames lists the JSON member names of struct type t (pointers
// followed) in field order, embedded structs flattened as encoding/json
// does.
func jsonNames(t reflect.Type) []string {
	t = structOf(t)
	if t == nil {
		return nil
	}
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || (!f.IsExported() && !f.Anonymous):
		case f.Anonymous && name == "":
			names = append(names, jsonNames(f.Type)...)
		case name == "":
			names = append(names, f.Name)
		default:
			names = append(names, name)
		}
	}
	return names
}

// fieldType is the Go type of the member name of struct type t, nil when
// unknown.
func fieldType(t reflect.Type, name string) reflect.Type {
	t = structOf(t)
	if t == nil {
		return nil
	}
	for f := range t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == name || (tag == "" && f.Name == name):
			return f.Type
		case f.Anonymous && tag == "":
			if ft := fieldType(f.Type, name); ft != nil {
				return ft
			}
		}
	}
	return nil
}

// elem is the element type of a slice or array type t (pointers
// followed), nil otherwise.
func elem(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || (t.Kind() != reflect.Slice && t.Kind() != reflect.Array) {
		return nil
	}
	return t.Elem()
}

// structOf is t with pointers followed when it is a struct, else nil.
func structOf(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	return t
}
