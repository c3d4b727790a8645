package httpapi

import (
	"encoding/json"
	"github.com/agentfinance/toolkit/billing/toolcall"

	"github.com/agentfinance/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// ToolCallRequest is the body of POST /v1/tools/call. The published
// alternate shape {"tool", "params"} is accepted too.
type ToolCallRequest struct {
	ToolName  string          `json:"tool_name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Tool      string          `json:"tool,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
}

// ToolCallResponse wraps a tool's result.
type ToolCallResponse struct {
	ToolName string          `json:"tool_name"`
	Result   json.RawMessage `json:"result"`
}

// ToolInfo describes one tool in GET /v1/tools/list.
type ToolInfo struct {
	Name         string             `json:"name"`
	Description  string             `json:"description"`
	Category     string             `json:"category"`
	BillingClass string             `json:"billing_class"`
	Operation    *string            `json:"operation"`
	Price        toolkit.Amount     `json:"price"`
	InputSchema  *jsonschema.Schema `json:"input_schema"`
}

// ToolListResponse is the body of GET /v1/tools/list.
type ToolListResponse struct {
	ToolCount int        `json:"tool_count"`
	Tools     []ToolInfo `json:"tools"`
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (ToolInfo) Enums() map[string][]string {
	return map[string][]string{"billing_class": {toolcall.BillingClassFree, toolcall.BillingClassMetered}}
}
