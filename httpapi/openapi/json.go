package openapi

import (
	"encoding/json"
	"sync"
	"sync/atomic"
)

// Document is a built OpenAPI document. It is safe for concurrent use.
type Document struct {
	doc   schema
	byURL sync.Map // base URL -> encoded document
	count atomic.Int32
}

func newDocument(doc schema) *Document { return &Document{doc: doc} }

// maxCachedDocuments bounds the encoded documents kept (one per base URL).
const maxCachedDocuments = 16

// JSON returns the document encoded with base as its one server URL,
// encoded once per base (for at most 16 bases).
func (d *Document) JSON(base string) ([]byte, error) {
	if b, ok := d.byURL.Load(base); ok {
		return b.([]byte), nil
	}
	doc := make(schema, len(d.doc)+1)
	for k, v := range d.doc {
		doc[k] = v
	}
	doc["servers"] = []schema{{"url": base}}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	if d.count.Add(1) <= maxCachedDocuments {
		d.byURL.Store(base, b)
	}
	return b, nil
}
