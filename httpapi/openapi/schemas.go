package openapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/market"
	"github.com/google/jsonschema-go/jsonschema"
)

// Response schemas are reflected from the Go types the handlers encode,
// in forms every mainstream generator accepts: named structs become
// components referenced by $ref, a field that can be null is
// anyOf [T, null] (never a type array), a field without omitempty is
// required, decimals are strings with a pattern, and objects refuse
// properties they do not list.

// schema is one JSON schema of the document.
type schema = map[string]any

// outputDecimalPattern is the grammar of the decimals the server sends:
// plain notation, never an exponent.
const outputDecimalPattern = `^-?(0|[1-9][0-9]*)(\.[0-9]+)?$`

// schemaSet collects the component schemas of the document. Component
// names are the Go type names, qualified by the package when two types
// share a name; they are assigned once every type is known (names).
type schemaSet struct {
	types map[reflect.Type]schema // named type -> its schema
	refs  map[reflect.Type][]schema
	extra map[string]schema // components that are not Go types (tool inputs, unions)
	names map[reflect.Type]string
}

func newSchemaSet() *schemaSet {
	return &schemaSet{types: map[reflect.Type]schema{}, refs: map[reflect.Type][]schema{}, extra: map[string]schema{}}
}

// special are the Go types with a hand-written schema (custom JSON
// encodings).
var special = map[reflect.Type]func(s *schemaSet) schema{
	reflect.TypeFor[toolkit.Amount](): func(s *schemaSet) schema { return s.component("Decimal", decimalSchema()) },
	reflect.TypeFor[toolkit.Float]():  func(s *schemaSet) schema { return s.component("Decimal", decimalSchema()) },
	reflect.TypeFor[toolkit.Floats](): func(s *schemaSet) schema {
		return schema{"type": "array", "items": s.component("Decimal", decimalSchema())}
	},
	reflect.TypeFor[market.Series](): func(s *schemaSet) schema {
		return schema{"type": "array", "description": "values aligned to the bars; null in the warm-up slots",
			"items": nullable(s.component("Decimal", decimalSchema()))}
	},
	reflect.TypeFor[time.Time]():         func(*schemaSet) schema { return schema{"type": "string", "format": "date-time"} },
	reflect.TypeFor[json.RawMessage]():   func(*schemaSet) schema { return schema{} },
	reflect.TypeFor[jsonschema.Schema](): func(*schemaSet) schema { return jsonSchemaObject() },
}

// decimalSchema is the Decimal component: every decimal the server sends.
func decimalSchema() schema {
	return schema{"type": "string", "pattern": outputDecimalPattern,
		"description": "Exact decimal as a string in plain notation, e.g. \"185.50\""}
}

// jsonSchemaObject describes an embedded JSON Schema document.
func jsonSchemaObject() schema {
	return schema{"type": "object", "additionalProperties": true, "description": "JSON Schema (draft 2020-12)"}
}

// component registers a hand-written component schema and returns a
// reference to it.
func (s *schemaSet) component(name string, sch schema) schema {
	if _, ok := s.extra[name]; !ok {
		s.extra[name] = sch
	}
	return schema{"$ref": "#/components/schemas/" + name}
}

// nullable allows null next to sch.
func nullable(sch schema) schema {
	return schema{"anyOf": []any{sch, schema{"type": "null"}}}
}

// of returns the schema of a value of type t (a $ref for named structs).
func (s *schemaSet) of(t reflect.Type) schema {
	if f, ok := special[t]; ok {
		return f(s)
	}
	switch t.Kind() {
	case reflect.Pointer:
		return s.of(t.Elem())
	case reflect.Struct:
		if t.Name() == "" {
			return s.object(t)
		}
		if _, ok := s.types[t]; !ok {
			s.types[t] = nil // placeholder: recursive types terminate
			s.types[t] = s.object(t)
		}
		ref := schema{}
		s.refs[t] = append(s.refs[t], ref)
		return ref
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return schema{"type": "string", "contentEncoding": "base64"}
		}
		return schema{"type": "array", "items": s.of(t.Elem())}
	case reflect.Map:
		return schema{"type": "object", "additionalProperties": s.of(t.Elem())}
	case reflect.Interface:
		return schema{}
	case reflect.Bool:
		return schema{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return schema{"type": "integer"}
	case reflect.Int64, reflect.Uint, reflect.Uint64:
		return schema{"type": "integer", "format": "int64"}
	case reflect.Float32, reflect.Float64:
		return schema{"type": "number"}
	case reflect.String:
		return schema{"type": "string"}
	}
	panic(fmt.Sprintf("openapi: no schema for %s", t))
}

// object is the schema of a struct type: its JSON fields (embedded structs
// flattened, as encoding/json does), the fields without omitempty
// required, and enums from the type's enums method.
func (s *schemaSet) object(t reflect.Type) schema {
	props := schema{}
	var required []string
	s.fields(t, props, &required)
	if e, ok := reflect.Zero(t).Interface().(Enumerated); ok {
		for name, values := range e.Enums() {
			p, ok := props[name].(schema)
			if !ok {
				panic(fmt.Sprintf("openapi: %s has no field %q to enumerate", t, name))
			}
			target := p
			if any, ok := p["anyOf"].([]any); ok {
				target = any[0].(schema)
			}
			if items, ok := target["items"].(schema); ok {
				target = items
			}
			enum := make([]any, len(values))
			for i, v := range values {
				enum[i] = v
			}
			target["enum"] = enum
		}
	}
	out := schema{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		sort.Strings(required)
		out["required"] = required
	}
	return out
}

// fields adds the JSON fields of struct t to props.
func (s *schemaSet) fields(t reflect.Type, props schema, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				s.fields(ft, props, required)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		omitempty := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		p := s.of(ft)
		if strings.Contains(opts, "string") {
			p = schema{"type": "string"}
		}
		if !omitempty && canBeNull(ft) {
			p = nullable(p)
		}
		if d := f.Tag.Get("doc"); d != "" {
			p = withDescription(p, d)
		}
		props[name] = p
		if !omitempty {
			*required = append(*required, name)
		}
	}
}

// canBeNull reports whether encoding/json can write null for a value of
// type t. Slices and maps are not: the API always sends [] and {} (a test
// checks every tool's answers against the document).
func canBeNull(t reflect.Type) bool {
	if _, ok := special[t]; ok {
		return false
	}
	return t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface
}

// withDescription sets a description, beside a $ref when there is one.
func withDescription(p schema, d string) schema {
	p["description"] = d
	return p
}

// resolve names every component and returns components.schemas. A name
// shared by types of several packages is qualified by the package.
func (s *schemaSet) resolve() schema {
	byName := map[string][]reflect.Type{}
	for t := range s.types {
		byName[baseName(t)] = append(byName[baseName(t)], t)
	}
	s.names = map[reflect.Type]string{}
	for name, ts := range byName {
		_, clash := s.extra[name]
		for _, t := range ts {
			n := name
			if len(ts) > 1 || clash {
				n = exportedName(pkgName(t)) + name
			}
			s.names[t] = n
		}
	}
	out := schema{}
	for name, sch := range s.extra {
		out[name] = sch
	}
	for t, sch := range s.types {
		out[s.names[t]] = sch
		for _, ref := range s.refs[t] {
			ref["$ref"] = "#/components/schemas/" + s.names[t]
		}
	}
	return out
}

// baseName is a type's name without type arguments.
func baseName(t reflect.Type) string {
	n, _, _ := strings.Cut(t.Name(), "[")
	return exportedName(n)
}

// pkgName is the last element of a type's package path.
func pkgName(t reflect.Type) string {
	p := t.PkgPath()
	return p[strings.LastIndex(p, "/")+1:]
}

// exportedName upper-cases the first letter of a name.
func exportedName(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
