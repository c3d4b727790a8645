package httpapi

import (
	"net/http"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents/workspace"
)

// workspaceRoutes are the journal reads and memory deletion. Memories are
// stored and searched through the tools store_memory and search_memory,
// and trades recorded through record_trade_journal or its REST shortcut
// (POST /v1/journal/record, which its catalog.Spec declares).
func (a *API) workspaceRoutes() []route {
	filters := []queryParam{
		textParam("symbol", "Only trades of this symbol (case-insensitive)", workspace.MaxSymbolLen),
		textParam("strategy", "Only trades of this strategy (case-insensitive)", workspace.MaxLabelLen),
		timeParam("from", "Only trades closed at or after this RFC 3339 time or YYYY-MM-DD date"),
		timeParam("to", "Only trades closed before this RFC 3339 time or YYYY-MM-DD date"),
	}
	page := []queryParam{limitParam(workspace.DefaultTradesLimit, workspace.MaxTradesLimit), cursorParam}
	return []route{
		{method: "GET", path: "/v1/journal/trades", id: "listTrades", auth: authAgent,
			summary: "The caller's trades, newest first by closing time (?symbol=, ?strategy=, ?from=, ?to=, ?limit=1..1000, ?cursor=)",
			query:   append(append([]queryParam{}, filters...), page...), response: TradeListResponse{}, status: http.StatusOK, handle: a.listTrades},
		{method: "GET", path: "/v1/journal/stats", id: "getJournalStats", auth: authAgent,
			summary: "Performance figures of the caller's journal (win rate, average R, total P&L, SQN, G, win/loss analysis)",
			query:   filters, response: JournalStatsResponse{}, status: http.StatusOK, handle: a.journalStats},
		{method: "GET", path: "/v1/journal/r-multiples", id: "getJournalRMultiples", auth: authAgent,
			summary:  "R-multiples of the latest trades, oldest first, ready for the R tools (?limit=1..10000, default 50)",
			query:    append([]queryParam{limitParam(workspace.DefaultRLimit, workspace.MaxRLimit)}, filters...),
			response: RMultiplesResponse{}, status: http.StatusOK, handle: a.rMultiples},
		{method: "DELETE", path: "/v1/memory/{memory_id}", id: "deleteMemory", auth: authAgent, summary: "Delete one of the caller's memories (frees its quota)",
			query: []queryParam{}, response: DeletedMemoryResponse{}, status: http.StatusOK, errors: []toolkit.Kind{toolkit.NotFound}, handle: a.deleteMemory},
	}
}

// timeParam is an RFC 3339 time or date query parameter.
func timeParam(name, description string) queryParam {
	return queryParam{name: name, description: description, schema: map[string]any{"type": "string", "maxLength": 40}}
}

func (a *API) listTrades(w http.ResponseWriter, r *http.Request) error {
	f, err := tradeFilter(r)
	if err != nil {
		return err
	}
	limit, err := queryInt(r, "limit", workspace.DefaultTradesLimit, workspace.MaxTradesLimit)
	if err != nil {
		return err
	}
	l, err := a.svc.Workspace.Trades(r.Context(), agentFrom(r).ID, f, toolkit.PageInput{Limit: limit, Cursor: r.URL.Query().Get("cursor")})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, tradeListResponse(l))
	return nil
}

func (a *API) journalStats(w http.ResponseWriter, r *http.Request) error {
	f, err := tradeFilter(r)
	if err != nil {
		return err
	}
	ag := agentFrom(r)
	st, err := a.svc.Workspace.Stats(r.Context(), ag.ID, f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, JournalStatsResponse{AgentID: ag.ID, JournalStats: st})
	return nil
}

func (a *API) rMultiples(w http.ResponseWriter, r *http.Request) error {
	f, err := tradeFilter(r)
	if err != nil {
		return err
	}
	limit, err := queryInt(r, "limit", workspace.DefaultRLimit, workspace.MaxRLimit)
	if err != nil {
		return err
	}
	ag := agentFrom(r)
	rs, err := a.svc.Workspace.RMultiples(r.Context(), ag.ID, f, limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, RMultiplesResponse{AgentID: ag.ID, RMultiples: rs, Count: len(rs)})
	return nil
}

func (a *API) deleteMemory(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("memory_id")
	if err := a.svc.Workspace.DeleteMemory(r.Context(), agentFrom(r).ID, id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, DeletedMemoryResponse{MemoryID: id, Deleted: true})
	return nil
}

// tradeFilter reads the journal filters of the query.
func tradeFilter(r *http.Request) (workspace.TradeFilter, error) {
	q := r.URL.Query()
	f := workspace.TradeFilter{Symbol: strings.TrimSpace(q.Get("symbol")), Strategy: strings.TrimSpace(q.Get("strategy"))}
	var err error
	if f.From, err = workspace.ParseTime("from", q.Get("from")); err != nil {
		return f, err
	}
	f.To, err = workspace.ParseTime("to", q.Get("to"))
	return f, err
}
