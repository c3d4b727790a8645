package toolformat

import (
	"encoding/json"
	"fmt"

	"github.com/agentfinance/toolkit/finance/catalog"
)

// The MCP list is what an MCP server's tools/list answers. A tool's input
// schema is the one of the Anthropic list: Claude Code and Claude Desktop
// hand an MCP tool's inputSchema to the Messages API as it is, so the
// strictest reader of both is the same. What only a server knows of a
// tool (its price, its output schema) is added by the server through
// Served: MCPTools builds the server's list, so an MCP server and
// GET /v1/tools/list?format=mcp list the same tools.

// Served is what an MCP server adds to one of its tools.
type Served struct {
	// Price is the sentence the tool's description ends with, e.g.
	// "Price: 0.003 USD per call (metered)." (empty: none).
	Price string
	// Meta is the tool's _meta (nil: none).
	Meta map[string]any
	// OutputSchema is the JSON Schema of the tool's structuredContent: an
	// object, self-contained (its $defs travel with it). MCPTools writes
	// it in the form MCP clients' portability checks take (see
	// portableSchema). Empty: the tool has none.
	OutputSchema json.RawMessage
}

// MCPTool is one tool of an MCP tools/list result. Its schemas are JSON
// text whose members keep the catalog's order.
type MCPTool struct {
	Name        string
	Title       string
	Description string
	// InputSchema is the tool's input schema in the Anthropic list's form.
	InputSchema json.RawMessage
	// OutputSchema is empty when the tool has none.
	OutputSchema json.RawMessage
	Annotations  Annotations
	// Meta is nil when the tool has none.
	Meta map[string]any
}

// Annotations are a tool's MCP hints, from its catalog Effect. Every
// tool works on a closed world (its arguments, or the calling agent's own
// workspace) and none destroys anything; a read-only tool is idempotent,
// an appending one is not (a repeat adds another record).
type Annotations struct {
	Title                                        string
	ReadOnly, Destructive, Idempotent, OpenWorld bool
}

// MCPTools returns the tools as an MCP server lists them, each with what
// served says the server adds to it (served nil: nothing).
func MCPTools(tools []catalog.Tool, served func(catalog.Tool) (Served, error)) ([]MCPTool, error) {
	return each(tools, func(t catalog.Tool) (MCPTool, error) {
		var add Served
		if served != nil {
			var err error
			if add, err = served(t); err != nil {
				return MCPTool{}, err
			}
		}
		return mcpTool(t, add)
	})
}

// mcpTool is one tool of MCPTools.
func mcpTool(t catalog.Tool, add Served) (MCPTool, error) {
	input, err := convert(compactDialect, t.InputSchema)
	if err != nil {
		return MCPTool{}, err
	}
	inputJSON, err := marshal(input)
	if err != nil {
		return MCPTool{}, err
	}
	out := MCPTool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: inputJSON, Meta: add.Meta}
	if add.Price != "" {
		out.Description += " " + add.Price
	}
	if len(add.OutputSchema) > 0 {
		if out.OutputSchema, err = portableSchema(add.OutputSchema); err != nil {
			return MCPTool{}, fmt.Errorf("outputSchema: %w", err)
		}
	}
	readOnly := t.Effect == catalog.ReadOnly
	out.Annotations = Annotations{Title: t.Title, ReadOnly: readOnly, Idempotent: readOnly}
	return out, nil
}

// MarshalJSON writes the tool as tools/list lists it: name, title,
// description, inputSchema, outputSchema (when it has one), annotations
// and _meta (when it has one).
func (t MCPTool) MarshalJSON() ([]byte, error) {
	o := object{{"name", t.Name}, {"title", t.Title}, {"description", t.Description}, {"inputSchema", t.InputSchema}}
	if len(t.OutputSchema) > 0 {
		o.set("outputSchema", t.OutputSchema)
	}
	a := t.Annotations
	o.set("annotations", object{{"title", a.Title}, {"readOnlyHint", a.ReadOnly}, {"destructiveHint", a.Destructive},
		{"idempotentHint", a.Idempotent}, {"openWorldHint", a.OpenWorld}})
	if t.Meta != nil {
		o.set("_meta", t.Meta)
	}
	return marshal(o)
}
