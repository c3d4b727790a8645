package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agentfinance/toolkit"
)

// readBody reads the (already size-capped) body. Over the cap is
// toolkit.TooLarge.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return nil, toolkit.Errorf(toolkit.TooLarge, "Request body too large: at most %d bytes", mbe.Limit)
	}
	if err != nil {
		return nil, toolkit.Errorf(toolkit.Invalid, "reading the request body failed")
	}
	return b, nil
}

// decodeJSON decodes body strictly into dst: a single JSON object, no
// unknown fields, no trailing data; type errors name the field.
func decodeJSON(body []byte, dst any) error {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return toolkit.Errorf(toolkit.Invalid, "Request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return toolkit.Errorf(toolkit.Invalid, "Request body must hold a single JSON object (unexpected data after it)")
	}
	return nil
}

func decodeError(err error) error {
	var te *toolkit.Error
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return te
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return toolkit.Errorf(toolkit.Invalid, "Request body must be a JSON object")
		}
		return toolkit.Errorf(toolkit.Invalid, "%s: expected %s, got %s", typeErr.Field, jsonType(typeErr.Type.String()), typeErr.Value)
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return toolkit.Errorf(toolkit.Invalid, "Request body is not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return toolkit.Errorf(toolkit.Invalid, "Unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	// Errors from custom decoders (amounts, numbers) carry the value.
	return toolkit.Errorf(toolkit.Invalid, "Invalid request body: %s", strings.TrimPrefix(err.Error(), "json: "))
}

func jsonType(goType string) string {
	switch {
	case goType == "string":
		return "a string"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "float"):
		return "a number"
	case goType == "bool":
		return "a boolean"
	}
	return fmt.Sprintf("a %s", goType)
}
