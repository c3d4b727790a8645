package mcpserver

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/internal/strictjson"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// EnvelopeLimits bound what the MCP SDK decodes of a request body: the SDK
// turns params._meta, initialize's capabilities and a tools/call's
// inputResponses into map[string]any and answers each message of a batch,
// so these are checked over the body's bytes before it runs. Zero fields
// take the defaults.
type EnvelopeLimits struct {
	// MaxMetaBytes bounds params._meta of any message (default 4 KiB).
	MaxMetaBytes int
	// MaxInitializeBytes bounds the params of initialize (default
	// 16 KiB).
	MaxInitializeBytes int
	// MaxParamsBytes bounds the params of every method; those of
	// tools/call without its arguments, which the tool's own schema
	// bounds (default 64 KiB).
	MaxParamsBytes int
}

func (l EnvelopeLimits) withDefaults() EnvelopeLimits {
	if l.MaxMetaBytes <= 0 {
		l.MaxMetaBytes = 4 << 10
	}
	if l.MaxInitializeBytes <= 0 {
		l.MaxInitializeBytes = 16 << 10
	}
	if l.MaxParamsBytes <= 0 {
		l.MaxParamsBytes = 64 << 10
	}
	return l
}

// The JSON-RPC error codes of a refused envelope.
const (
	rpcParseError     = jsonrpc.CodeParseError
	rpcInvalidRequest = jsonrpc.CodeInvalidRequest
	rpcInvalidParams  = jsonrpc.CodeInvalidParams
)

// maxClientInfoLen bounds the client name and version a session keeps.
const maxClientInfoLen = 256

// envelope is a checked JSON-RPC message.
type envelope struct {
	// method is the request's or notification's method ("" for a
	// response).
	method string
	// body is what the SDK reads: the message as sent, or for initialize
	// the message with only what a session keeps of its params.
	body []byte
}

// envelopeError is a refused message, answered as a JSON-RPC error.
type envelopeError struct {
	code    int
	message string
	id      json.RawMessage // the request's id when it could be read, else null
}

// Error implements error.
func (e *envelopeError) Error() string { return e.message }

// response is the JSON-RPC error response of e.
func (e *envelopeError) response() []byte {
	id := e.id
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{e.code, e.message}})
	return b
}

// checkEnvelope checks one JSON-RPC message before the SDK decodes it: a
// single object (a batch is refused: the current protocol has none) whose
// members are those of JSON-RPC, no key twice in it or in its params (a
// tool's arguments are the tool's to judge), within the scan's limits,
// with _meta and the params (of tools/call: but its arguments) within lim.
// An initialize keeps only the protocol version and the client's name and
// version, so a session holds nothing else of it. Nothing is decoded into
// a generic map.
func checkEnvelope(body []byte, lim EnvelopeLimits) (envelope, *envelopeError) {
	lim = lim.withDefaults()
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		return envelope{}, &envelopeError{code: rpcInvalidRequest, message: "the body is empty: send one JSON-RPC message"}
	case trimmed[0] == '[':
		return envelope{}, &envelopeError{code: rpcInvalidRequest,
			message: "JSON-RPC batches are not accepted: send one message per request"}
	}
	members := map[string][]byte{}
	if err := validators().message.Validate(trimmed, nil, func(name string, value []byte) error {
		members[name] = value
		return nil
	}); err != nil {
		return envelope{}, scanError(err, nil)
	}
	env := envelope{body: body}
	if m, ok := members["method"]; ok {
		_ = json.Unmarshal(m, &env.method) // a plain string: the scan checked it
	}
	id := members["id"]
	params, ok := members["params"]
	if !ok {
		return env, nil
	}
	if env.method == "initialize" {
		return initializeKept(env, id, params, lim)
	}
	if env.method != "tools/call" && len(params) > lim.MaxParamsBytes {
		return envelope{}, &envelopeError{code: rpcInvalidParams, id: id,
			message: "params of " + clip(env.method) + " are over " + strconv.Itoa(lim.MaxParamsBytes) + " bytes"}
	}
	var meta, arguments []byte
	if err := validators().params.Validate(params, nil, func(name string, value []byte) error {
		switch name {
		case "_meta":
			meta = value
		case "arguments":
			arguments = value
		}
		return nil
	}); err != nil {
		return envelope{}, scanError(err, id)
	}
	switch {
	case len(meta) > lim.MaxMetaBytes:
		return envelope{}, &envelopeError{code: rpcInvalidParams, id: id,
			message: "params._meta is over " + strconv.Itoa(lim.MaxMetaBytes) + " bytes"}
	case env.method == "tools/call" && len(params)-len(arguments) > lim.MaxParamsBytes:
		return envelope{}, &envelopeError{code: rpcInvalidParams, id: id,
			message: "params of \"tools/call\" other than arguments are over " + strconv.Itoa(lim.MaxParamsBytes) + " bytes"}
	}
	return env, nil
}

// initializeKept checks initialize's params and rewrites the message with
// only the protocol version and the client's name and version.
func initializeKept(env envelope, id, params []byte, lim EnvelopeLimits) (envelope, *envelopeError) {
	if len(params) > lim.MaxInitializeBytes {
		return envelope{}, &envelopeError{code: rpcInvalidParams, id: id,
			message: "initialize params are over " + strconv.Itoa(lim.MaxInitializeBytes) + " bytes"}
	}
	var in struct {
		ProtocolVersion string     `json:"protocolVersion"`
		ClientInfo      clientInfo `json:"clientInfo"`
	}
	if err := json.Unmarshal(params, &in); err != nil {
		return envelope{}, &envelopeError{code: rpcInvalidParams, id: id, message: "initialize params: " + err.Error()}
	}
	for field, v := range map[string]string{"protocolVersion": in.ProtocolVersion, "clientInfo.name": in.ClientInfo.Name,
		"clientInfo.version": in.ClientInfo.Version} {
		if utf8.RuneCountInString(v) > maxClientInfoLen {
			return envelope{}, &envelopeError{code: rpcInvalidParams, id: id,
				message: "initialize params: " + field + " is over " + strconv.Itoa(maxClientInfoLen) + " characters"}
		}
	}
	kept := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id,omitempty"`
		Method  string          `json:"method"`
		Params  struct {
			ProtocolVersion string     `json:"protocolVersion"`
			Capabilities    struct{}   `json:"capabilities"`
			ClientInfo      clientInfo `json:"clientInfo"`
		} `json:"params"`
	}{JSONRPC: "2.0", ID: id, Method: env.method}
	kept.Params.ProtocolVersion, kept.Params.ClientInfo = in.ProtocolVersion, in.ClientInfo
	b, err := json.Marshal(kept)
	if err != nil {
		return envelope{}, &envelopeError{code: rpcInvalidParams, id: id, message: "initialize params cannot be kept"}
	}
	env.body = b
	return env, nil
}

// clientInfo is what a session keeps of the client.
type clientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// scanError turns a refusal of the scan into a JSON-RPC error: text that
// is not JSON is a parse error, anything else an invalid request.
func scanError(err error, id json.RawMessage) *envelopeError {
	code := rpcInvalidRequest
	var te *toolkit.Error
	if e, ok := err.(*toolkit.Error); ok {
		te = e
	}
	if te != nil && len(te.Fields) > 0 && te.Fields[0].Rule == "syntax" {
		code = rpcParseError
	}
	return &envelopeError{code: code, id: id, message: toolkit.MessageOf(err)}
}

// clip bounds a client-supplied method name quoted in a message.
func clip(s string) string {
	if len(s) > 64 {
		return strconv.Quote(s[:64]) + "..."
	}
	return strconv.Quote(s)
}

// envelopeLimits bound the scan of a message whatever its method: the
// nesting and the size of one string and one object of tool arguments,
// with room for the envelope around them.
var envelopeLimits = strictjson.Limits{MaxDepth: 24, MaxValues: 1_100_000, MaxStringBytes: 1 << 20, MaxKeys: 1000}

// envelopeValidators are the compiled schemas of a message and its
// params.
type envelopeValidators struct {
	message, params *strictjson.Validator
}

// validators compiles the envelope schemas once: a message holds only
// JSON-RPC's members (jsonrpc "2.0", an id that is a string of at most 256
// characters, an integer or null, a method of at most 128 characters,
// object params, a result or an error); params are any object whose _meta,
// when present, is an object.
var validators = sync.OnceValue(func() envelopeValidators {
	closed := &jsonschema.Schema{Not: &jsonschema.Schema{}}
	message := &jsonschema.Schema{Type: "object", AdditionalProperties: closed, Properties: map[string]*jsonschema.Schema{
		"jsonrpc": {Type: "string", Enum: []any{"2.0"}},
		"id":      {Types: []string{"string", "integer", "null"}, MaxLength: ptr(256)},
		"method":  {Type: "string", MaxLength: ptr(128)},
		"params":  {Type: "object"},
		"result":  {},
		"error":   {Type: "object"},
	}}
	params := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"_meta": {Type: "object"}}}
	// The text of strings, numbers and keys repeated below the root are
	// not the envelope's to judge: a tool's own schema checks its
	// arguments, answering a tool error the model can act on; the SDK and
	// the tools read the rest. The root's keys (the message's, and the
	// params' in their own scan) stay unique, so the SDK reads the members
	// checked here.
	opts := strictjson.Options{Permissive: true, Limits: envelopeLimits, Noun: "member", Document: "the JSON-RPC message"}
	m, err := strictjson.Compile(message, opts)
	if err != nil {
		panic(err) // a programming error in the schema above
	}
	opts.Document = "params"
	p, err := strictjson.Compile(params, opts)
	if err != nil {
		panic(err)
	}
	return envelopeValidators{message: m, params: p}
})

func ptr[T any](v T) *T { return &v }
