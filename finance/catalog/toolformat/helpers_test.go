package toolformat_test

import (
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

type catalogSchema = jsonschema.Schema

func names(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, x.(string))
	}
	return out
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }

// admitsNull reports whether a shaped schema admits null.
func admitsNull(s map[string]any) bool {
	list, _ := s["type"].([]any)
	return slices.Contains(list, any("null"))
}
