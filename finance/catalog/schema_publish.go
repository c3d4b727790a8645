package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// PublishedSchema is the JSON of the input schema s as the tool lists
// publish it: s itself, with "required" present at the root even when
// empty (the service spec asks every input schema for properties and
// required; the schema type omits an empty list).
func PublishedSchema(s *jsonschema.Schema) (json.RawMessage, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("catalog: input schema: %w", err)
	}
	if len(s.Required) == 0 && len(b) > 2 && b[0] == '{' {
		b = append(bytes.TrimSuffix(b, []byte("}")), []byte(`,"required":[]}`)...)
	}
	return b, nil
}
