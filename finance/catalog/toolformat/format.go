package toolformat

import (
	"fmt"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/catalog"
)

// Format names a host's tool list.
type Format string

// The formats.
const (
	Anthropic Format = "anthropic"
	OpenAI    Format = "openai"
	Gemini    Format = "gemini"
	MCP       Format = "mcp"
)

// Formats lists every format.
var Formats = []Format{Anthropic, OpenAI, Gemini, MCP}

// Parse returns the format called name; any other name is toolkit.Invalid
// naming the formats.
func Parse(name string) (Format, error) {
	for _, f := range Formats {
		if string(f) == name {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", toolkit.Errorf(toolkit.Invalid, "format: must be one of %s (got %q)", strings.Join(names, ", "), name)
}

// List is a host's tool list: its Tools member is what the host's request
// takes.
type List struct {
	Tools any `json:"tools"`
}

// Build returns the list of tools in format f.
func Build(f Format, tools []catalog.Tool) (List, error) {
	var out any
	var err error
	switch f {
	case Anthropic:
		out, err = each(tools, anthropicTool)
	case OpenAI:
		out, err = each(tools, openAITool)
	case Gemini:
		var decls []object
		if decls, err = each(tools, geminiDeclaration); err == nil {
			out = []object{{{"functionDeclarations", decls}}}
		}
	case MCP:
		out, err = MCPTools(tools, nil)
	default:
		_, err = Parse(string(f))
	}
	if err != nil {
		return List{}, err
	}
	return List{Tools: out}, nil
}

// Encode writes a list as JSON, without HTML escaping (descriptions say
// "> 0").
func Encode(l List) ([]byte, error) {
	return marshal(l)
}

// each converts every tool with convert.
func each[T any](tools []catalog.Tool, convert func(catalog.Tool) (T, error)) ([]T, error) {
	out := make([]T, len(tools))
	for i, t := range tools {
		v, err := convert(t)
		if err != nil {
			return nil, fmt.Errorf("toolformat: %s: %w", t.Name, err)
		}
		out[i] = v
	}
	return out, nil
}

func anthropicTool(t catalog.Tool) (object, error) {
	schema, err := convert(compactDialect, t.InputSchema)
	if err != nil {
		return nil, err
	}
	return object{{"name", t.Name}, {"description", t.Description}, {"input_schema", schema}}, nil
}

func openAITool(t catalog.Tool) (object, error) {
	params, err := convert(openAIDialect, t.InputSchema)
	if err != nil {
		return nil, err
	}
	return object{{"type", "function"}, {"name", t.Name}, {"description", t.Description}, {"parameters", params}, {"strict", true}}, nil
}

func geminiDeclaration(t catalog.Tool) (object, error) {
	params, err := convert(geminiDialect, t.InputSchema)
	if err != nil {
		return nil, err
	}
	return object{{"name", t.Name}, {"description", t.Description}, {"parameters", params}}, nil
}
