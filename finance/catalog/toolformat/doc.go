// Package toolformat derives the tool lists of the mainstream agent hosts
// from the one catalog, and checks a list against the documented schema
// rules of its host.
//
// Each list is a JSON object whose "tools" member is what the host's
// request takes as it is. Decimal inputs, decimal strings in the catalog,
// are JSON numbers in the OpenAI, Anthropic and Gemini lists: models write
// numbers naturally and the server reads a number's digits exactly.
//
//   - Anthropic: the tools of the Messages API (name, description,
//     input_schema), the input schema as the catalog publishes it;
//   - OpenAI: the function tools of the Responses API ({type, name,
//     description, parameters, strict: true}) with schemas in the strict
//     subset: every property listed in required (an optional one admits
//     null, which the tools read as absent), additionalProperties false on
//     every object, definitions inlined, and what the subset cannot say
//     (bounds, string lengths, defaults, examples) written into the
//     descriptions; Chat Completions takes the same function wrapped as
//     {type: "function", function: {name, description, parameters,
//     strict}};
//   - Gemini: one tool holding the functionDeclarations, with schemas in
//     Gemini's OpenAPI subset (type names in capitals, counts as strings,
//     no $ref, no additionalProperties, no examples, no exclusive bounds);
//   - MCP: the tools of an MCP tools/list result (name, title,
//     description, inputSchema in the Anthropic list's form, annotations);
//     an MCP server adds its prices and output schemas (MCPTools, Served).
//
// A free-form object argument (store_memory's metadata) is published to
// OpenAI and Gemini, whose subsets cannot describe one, as a string
// holding the object's JSON text, which the tool accepts.
//
// Check encodes each host's rules, with the source of each cited next to
// it; the package's tests run it over every list of the full catalog.
package toolformat
