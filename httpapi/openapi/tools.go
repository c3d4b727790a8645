package openapi

import (
	"reflect"
	"slices"
)

// The tools in the document: each tool's arguments are a component
// (<Tool>Arguments, from its input schema), its result is the schema of
// its Go result type (a oneOf when it has several), a REST shortcut takes
// the arguments and answers the result, and POST /v1/tools/call takes and
// answers a oneOf keyed by tool_name, one variant per tool.

// toolDoc is what the document says of one tool.
type toolDoc struct {
	name      string
	arguments string // component name of the arguments
	input     schema // the arguments' schema
	result    schema // the result's schema: a $ref, a oneOf, or {} when undescribed
}

// toolDocs are the tools of the catalog, in catalog order.
type toolDocs struct {
	list   []toolDoc
	byName map[string]int
}

func (t toolDocs) lookup(name string) (toolDoc, bool) {
	i, ok := t.byName[name]
	if !ok {
		return toolDoc{}, false
	}
	return t.list[i], true
}

// toolSchemas registers every tool's arguments and result.
func (d *document) toolSchemas() (toolDocs, error) {
	docs := toolDocs{byName: map[string]int{}}
	for _, t := range d.spec.Tools {
		name := pascal(t.Name)
		in, err := d.schemas.inputSchema(name, t.InputSchema)
		if err != nil {
			return toolDocs{}, err
		}
		if in["description"] == nil {
			in["description"] = "Arguments of " + t.Name
		}
		doc := toolDoc{name: t.Name, arguments: name + "Arguments", input: in, result: d.resultSchema(t.Results)}
		d.schemas.extra[doc.arguments] = in
		docs.byName[t.Name] = len(docs.list)
		docs.list = append(docs.list, doc)
	}
	return docs, nil
}

// resultSchema is the schema of a tool's answer.
func (d *document) resultSchema(types []reflect.Type) schema {
	switch len(types) {
	case 0:
		return schema{"type": "object", "additionalProperties": true, "description": "The tool's result"}
	case 1:
		return d.schemas.of(types[0])
	}
	variants := make([]any, len(types))
	for i, t := range types {
		variants[i] = d.schemas.of(t)
	}
	return schema{"oneOf": variants}
}

// tierArguments are evaluate_performance's arguments without tier, which
// the shortcut's path fixes: a component named after the operation.
func (d *document) tierArguments(operationID string, doc toolDoc) schema {
	name := exportedName(operationID) + "Arguments"
	if _, ok := d.schemas.extra[name]; !ok {
		s := schema{}
		for k, v := range doc.input {
			s[k] = v
		}
		props := schema{}
		for k, v := range doc.input["properties"].(schema) {
			if k != "tier" {
				props[k] = v
			}
		}
		s["properties"] = props
		if req, ok := doc.input["required"].([]any); ok {
			s["required"] = slices.DeleteFunc(slices.Clone(req), func(v any) bool { return v == "tier" })
		}
		s["description"] = "Arguments of " + doc.name + "; the tier is the path's"
		d.schemas.extra[name] = s
	}
	return ref("schemas", name)
}

// callRequest is the body of POST /v1/tools/call: one variant per tool,
// keyed by tool_name.
func (t toolDocs) callRequest(s *schemaSet) schema {
	variants := make([]any, len(t.list))
	mapping := schema{}
	for i, doc := range t.list {
		name := pascal(doc.name) + "Call"
		v := schema{"type": "object", "additionalProperties": false,
			"properties": schema{
				"tool_name": schema{"type": "string", "enum": []string{doc.name}},
				"arguments": ref("schemas", doc.arguments),
			},
			"required": []string{"tool_name"}}
		if needsArguments(doc.input) {
			v["required"] = []string{"arguments", "tool_name"}
		}
		s.extra[name] = v
		variants[i] = ref("schemas", name)
		mapping[doc.name] = "#/components/schemas/" + name
	}
	return s.component("ToolCallRequest", schema{
		"description": "A tool and its arguments. Published tool-name aliases and the published shape " +
			"{\"tool\": ..., \"params\": {...}} are accepted too.",
		"oneOf":         variants,
		"discriminator": schema{"propertyName": "tool_name", "mapping": mapping},
	})
}

// callResponse is the answer of POST /v1/tools/call: one variant per tool,
// keyed by tool_name, whose result is the tool's result.
func (t toolDocs) callResponse(s *schemaSet) schema {
	variants := make([]any, len(t.list))
	mapping := schema{}
	for i, doc := range t.list {
		name := answerComponent(doc.name)
		s.extra[name] = schema{"type": "object", "additionalProperties": false,
			"properties": schema{
				"tool_name": schema{"type": "string", "enum": []string{doc.name}},
				"result":    doc.result,
			},
			"required": []string{"result", "tool_name"}}
		variants[i] = ref("schemas", name)
		mapping[doc.name] = "#/components/schemas/" + name
	}
	return s.component("ToolCallResponse", schema{
		"description":   "The tool that ran (its canonical name) and its result",
		"oneOf":         variants,
		"discriminator": schema{"propertyName": "tool_name", "mapping": mapping},
	})
}

// needsArguments reports whether a tool's arguments schema requires some
// member: directly, or in every alternative of its anyOf or oneOf.
func needsArguments(input schema) bool {
	if req, _ := input["required"].([]any); len(req) > 0 {
		return true
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		alternatives, _ := input[key].([]any)
		every := len(alternatives) > 0
		for _, a := range alternatives {
			alt, _ := a.(schema)
			every = every && needsArguments(alt)
		}
		if every {
			return true
		}
	}
	return false
}

// answerComponent names the component of a tool's POST /v1/tools/call
// answer, whose result property is the tool's result schema.
func answerComponent(tool string) string { return pascal(tool) + "Answer" }
