package workspace

import (
	"bytes"
	"encoding/json"

	"github.com/agentfinance/toolkit"
)

// maxMetadataMembers bounds the members of a memory's metadata object
// (the maxProperties of store_memory's schema).
const maxMetadataMembers = 64

// metadataArg is store_memory's metadata argument: a JSON object, or the
// same object written as JSON text in a string. Hosts whose tool schemas
// cannot carry a free-form object (OpenAI strict function calling, Gemini
// function declarations) publish the argument as a string and send the
// text form.
type metadataArg json.RawMessage

// DecodeJSONPrefix implements strictjson.PrefixDecoder: it reads the value
// at the start of b, unwraps the text form and checks that the result is
// an object of at most maxMetadataMembers members and MaxMetadataBytes
// bytes of compact JSON.
func (m *metadataArg) DecodeJSONPrefix(b []byte) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return 0, invalid("metadata: must be a JSON object (or its JSON text)")
	}
	consumed := int(dec.InputOffset())
	if raw[0] == '"' {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return 0, invalid("metadata: must be a JSON object (or its JSON text)")
		}
		raw = json.RawMessage(text)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil || compact.Len() == 0 || compact.Bytes()[0] != '{' {
		return 0, invalid("metadata: must be a JSON object (or its JSON text)")
	}
	if compact.Len() > MaxMetadataBytes {
		return 0, toolkit.Errorf(toolkit.TooLarge, "metadata: at most %d bytes of compact JSON, got %d", MaxMetadataBytes, compact.Len())
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(compact.Bytes(), &members); err != nil {
		return 0, invalid("metadata: must be a JSON object (or its JSON text)")
	}
	if len(members) > maxMetadataMembers {
		return 0, invalid("metadata: at most %d members are accepted", maxMetadataMembers)
	}
	*m = metadataArg(compact.Bytes())
	return consumed, nil
}
