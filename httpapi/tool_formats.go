package httpapi

import (
	"net/http"

	"github.com/agentfinance/toolkit/finance/catalog/toolformat"
)

// formatParam picks a host's shape of GET /v1/tools/list.
var formatParam = enumParam("format",
	"The list in an agent host's shape, its tools member ready for the host's request: anthropic (Messages API), "+
		"openai (strict function tools of the Responses API), gemini (functionDeclarations), mcp (MCP tools/list). "+
		"Omitted: the catalog with prices.", toolformat.Formats)

// hostToolsList serves GET /v1/tools/list?format=...: the catalog in the
// shape of one agent host (see toolformat); mcp is what the MCP server's
// tools/list answers, prices and output schemas included. An unknown
// format is a 400 naming the formats.
func (a *API) hostToolsList(w http.ResponseWriter, name string) error {
	f, err := toolformat.Parse(name)
	if err != nil {
		return err
	}
	if f == toolformat.MCP {
		writeRawJSON(w, http.StatusOK, a.mcp.ToolList())
		return nil
	}
	if b, ok := a.hostLists.Load(f); ok {
		writeRawJSON(w, http.StatusOK, b.([]byte))
		return nil
	}
	list, err := toolformat.Build(f, a.svc.Catalog.Tools())
	if err != nil {
		return err
	}
	b, err := toolformat.Encode(list)
	if err != nil {
		return err
	}
	a.hostLists.Store(f, b) // the catalog does not change once served
	writeRawJSON(w, http.StatusOK, b)
	return nil
}
