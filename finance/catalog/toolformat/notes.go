package toolformat

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/google/jsonschema-go/jsonschema"
)

// What a host's schema subset cannot say is written into the description
// as short notes: "account equity, currency; > 0; e.g. 100000".

// withNotes appends the notes to a description: "account equity,
// currency; > 0; e.g. 100000".
func withNotes(text string, notes []string) string {
	parts := notes
	if text = strings.TrimSpace(text); text != "" {
		parts = append([]string{text}, notes...)
	}
	return strings.Join(parts, "; ")
}

// bounds keeps the numeric bounds as keywords where the dialect has
// them, and returns them as a note otherwise ("> 0, <= 1").
func (c converter) bounds(o *object, s *jsonschema.Schema) []string {
	var text []string
	maximum := s.Maximum
	if s.Type == "integer" && maximum != nil && *maximum == catalog.MaxItems {
		maximum = nil // a count bounded by the decoder's limit on arrays
	}
	for _, b := range []struct {
		key       string
		value     *float64
		op        string
		exclusive bool
	}{{"minimum", s.Minimum, ">= ", false}, {"exclusiveMinimum", s.ExclusiveMinimum, "> ", true},
		{"maximum", maximum, "<= ", false}, {"exclusiveMaximum", s.ExclusiveMaximum, "< ", true}} {
		switch {
		case b.value == nil:
		case c.d.boundsInText || b.exclusive && !c.d.exclusiveBounds:
			text = append(text, b.op+number(*b.value))
		default:
			o.set(b.key, json.Number(jsonNumber(*b.value)))
		}
	}
	if len(text) == 0 {
		return nil
	}
	return []string{strings.Join(text, ", ")}
}

// number writes a bound in a description briefly: 0.5, -1000, 1e12,
// 2^53-1.
func number(x float64) string {
	if x == 1<<53-1 {
		return "2^53-1"
	}
	return jsonNumber(x)
}

// jsonNumber writes x as a short JSON number: 0.5, -1000, 1e12.
func jsonNumber(x float64) string {
	return strings.Replace(strconv.FormatFloat(x, 'g', -1, 64), "e+", "e", 1)
}

// lengths keeps a string's length bounds where the dialect has them
// (Gemini: int64 counts, written as strings) and returns them as a
// sentence otherwise.
func (c converter) lengths(o *object, s *jsonschema.Schema) []string {
	if c.d.lengths {
		if s.MinLength != nil {
			o.set("minLength", c.count(*s.MinLength))
		}
		if s.MaxLength != nil {
			o.set("maxLength", c.count(*s.MaxLength))
		}
		return nil
	}
	switch {
	case s.MaxLength != nil && s.MinLength != nil && *s.MinLength > 0:
		return []string{fmt.Sprintf("%d-%d chars", *s.MinLength, *s.MaxLength)}
	case s.MaxLength != nil:
		return []string{fmt.Sprintf("max %d chars", *s.MaxLength)}
	case s.MinLength != nil && *s.MinLength > 0:
		return []string{fmt.Sprintf("min %d chars", *s.MinLength)}
	}
	return nil
}

// count writes a count keyword's value: a number, or for Gemini the
// string of an int64.
func (c converter) count(n int) any {
	if c.d.gemini {
		return strconv.Itoa(n)
	}
	return n
}
