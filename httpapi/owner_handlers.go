package httpapi

import (
	"encoding/csv"
	"net/http"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/owners"
)

// ownerRoutes are the owner API (X-Owner-Key) and the admin endpoints of
// owner keys and ceilings. An agent key never opens an owner route.
func (a *API) ownerRoutes() []route {
	agent := textParam("agent_id", "Only this agent (one of the owner's)", 64)
	date := func(name, desc string) queryParam {
		return queryParam{name: name, description: desc, schema: map[string]any{"type": "string", "format": "date", "maxLength": 10}}
	}
	conflict, notFound := toolkit.Conflict, toolkit.NotFound
	return []route{
		{method: "POST", path: "/v1/owner/rotate-key", id: "rotateOwnerKey", auth: authOwner,
			summary:  "Replace the owner key; the old one and the portal sessions signed in with it stop working",
			response: OwnerKeyResponse{}, status: http.StatusOK, handle: a.rotateOwnerKey},
		{method: "GET", path: "/v1/owner/agents", id: "listOwnerAgents", auth: authOwner,
			summary:  "Every agent of the owner: mode, real and sandbox balance, spend today and this month, limits, allowed operations, key created and last used",
			response: OwnerAgentsResponse{}, status: http.StatusOK, query: []queryParam{}, handle: a.ownerAgents},
		{method: "GET", path: "/v1/owner/usage", id: "getOwnerUsage", auth: authOwner,
			summary:  "Usage per UTC day and operation (count, cost) over the owner's agents or one of them; default the last 30 days",
			response: OwnerUsageResponse{}, status: http.StatusOK, errors: []toolkit.Kind{notFound},
			query:  []queryParam{date("from", "First day (YYYY-MM-DD, UTC)"), date("to", "Last day (YYYY-MM-DD, UTC), at most 366 days after from"), agent},
			handle: a.ownerUsage},
		{method: "GET", path: "/v1/owner/transactions", id: "listOwnerTransactions", auth: authOwner,
			summary:  "The ledger of every agent of the owner (or one), newest first, a page at a time; Accept: text/csv answers CSV",
			response: OwnerTransactionsResponse{}, status: http.StatusOK, csv: true, errors: []toolkit.Kind{notFound},
			query:  []queryParam{limitParam(billing.DefaultTransactionsLimit, billing.MaxTransactionsLimit), cursorParam, agent},
			handle: a.ownerTransactions},
		{method: "PUT", path: "/v1/owner/agents/{agent_id}/limits", id: "setOwnerAgentLimits", auth: authOwner,
			summary: "Raise or lower an agent's daily and monthly limits and allowed operations, within the admin's ceilings",
			request: bodyOf[LimitsRequest](), response: LimitsResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{toolkit.Forbidden, notFound}, handle: a.ownerSetLimits},
		{method: "PUT", path: "/v1/owner/agents/{agent_id}/mode", id: "setOwnerAgentMode", auth: authOwner,
			summary: "Suspend (suspended), resume (sandbox or live) or terminate (terminated, final) an agent",
			request: bodyOf[ModeRequest](), response: AgentResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{notFound, conflict}, handle: a.ownerSetMode},
		{method: "POST", path: "/v1/owner/agents/{agent_id}/rotate-key", id: "rotateOwnerAgentKey", auth: authOwner,
			summary:  "Issue a new API key for an agent (shown once); the old one stops working",
			response: RotateKeyResponse{}, status: http.StatusOK, errors: []toolkit.Kind{notFound, conflict}, handle: a.ownerRotateAgentKey},
		{method: "PUT", path: "/v1/admin/agents/{agent_id}/ceilings", id: "adminSetCeilings", auth: authAdmin,
			summary: "Set an agent's ceilings: the most its owner may set as daily and monthly limits and allowed operations (admin); limits above them come down",
			request: bodyOf[LimitsRequest](), response: LimitsResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{notFound, conflict, toolkit.Unavailable}, handle: a.adminSetCeilings},
		{method: "POST", path: "/v1/admin/owners/{owner_id}/key", id: "adminIssueOwnerKey", auth: authAdmin,
			summary:  "Issue an owner key (shown once) for an owner who has none or lost it; any previous key stops working (admin)",
			response: OwnerKeyResponse{}, status: http.StatusOK, errors: []toolkit.Kind{notFound, toolkit.Unavailable}, handle: a.adminIssueOwnerKey},
	}
}

func (a *API) rotateOwnerKey(w http.ResponseWriter, r *http.Request) error {
	o := ownerFrom(r)
	key, err := a.svc.Agents.RotateOwnerKey(r.Context(), o)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, OwnerKeyResponse{OwnerID: o.ID, OwnerKey: key})
	return nil
}

func (a *API) adminIssueOwnerKey(w http.ResponseWriter, r *http.Request) error {
	key, err := a.svc.Agents.IssueOwnerKey(r.Context(), r.PathValue("owner_id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, OwnerKeyResponse{OwnerID: r.PathValue("owner_id"), OwnerKey: key})
	return nil
}

func (a *API) ownerAgents(w http.ResponseWriter, r *http.Request) error {
	o := ownerFrom(r)
	views, err := a.owners.Agents(r.Context(), o)
	if err != nil {
		return err
	}
	out := OwnerAgentsResponse{OwnerID: o.ID, Agents: make([]OwnerAgentResponse, len(views)), Count: len(views)}
	for i, v := range views {
		out.Agents[i] = ownerAgentResponse(v)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) ownerUsage(w http.ResponseWriter, r *http.Request) error {
	q := owners.UsageQuery{AgentID: r.URL.Query().Get("agent_id")}
	var err error
	if q.From, err = queryDate(r, "from"); err != nil {
		return err
	}
	if q.To, err = queryDate(r, "to"); err != nil {
		return err
	}
	o := ownerFrom(r)
	rows, err := a.owners.Usage(r.Context(), o, q)
	if err != nil {
		return err
	}
	from, to := owners.UsageRange(q.From, q.To, time.Now())
	out := OwnerUsageResponse{OwnerID: o.ID, From: from.UTC().Format(time.DateOnly), To: to.UTC().Format(time.DateOnly),
		Days: make([]UsageDayResponse, len(rows))}
	if q.AgentID != "" {
		out.AgentID = &q.AgentID
	}
	var total int64
	for i, u := range rows {
		out.Days[i] = UsageDayResponse{Day: u.Day.Format(time.DateOnly), Operation: u.Operation, Count: u.Count, Cost: billing.USD(u.TotalMicros)}
		out.TotalCount += u.Count
		total += u.TotalMicros
	}
	out.TotalCost = billing.USD(total)
	writeJSON(w, http.StatusOK, out)
	return nil
}

// queryDate parses an optional YYYY-MM-DD parameter (zero when absent).
func queryDate(r *http.Request, name string) (time.Time, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, toolkit.Errorf(toolkit.Invalid, "%s: must be a date YYYY-MM-DD (got %s)", name, quoteParam(s))
	}
	return t, nil
}

func (a *API) ownerTransactions(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", billing.DefaultTransactionsLimit, billing.MaxTransactionsLimit)
	if err != nil {
		return err
	}
	page, err := a.owners.Transactions(r.Context(), ownerFrom(r), r.URL.Query().Get("agent_id"), limit, r.URL.Query().Get("cursor"))
	if err != nil {
		return err
	}
	if strings.Contains(r.Header.Get("Accept"), "text/csv") {
		return writeTransactionsCSV(w, page)
	}
	out := OwnerTransactionsResponse{Transactions: make([]OwnerTransactionResponse, len(page.Transactions)),
		Count: len(page.Transactions), HasMore: page.HasMore}
	if page.HasMore {
		out.NextCursor = &page.NextCursor
	}
	for i, tx := range page.Transactions {
		out.Transactions[i] = ownerTransactionResponse(tx)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// writeTransactionsCSV answers a ledger page as CSV; the next page's
// cursor travels in X-Next-Cursor.
func writeTransactionsCSV(w http.ResponseWriter, page billing.TransactionPage) error {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Disposition", `attachment; filename="transactions.csv"`)
	if page.HasMore {
		w.Header().Set("X-Next-Cursor", page.NextCursor)
	}
	w.WriteHeader(http.StatusOK)
	cw := csv.NewWriter(w)
	_ = cw.Write(billing.LedgerCSVHeader)
	for _, tx := range page.Transactions {
		_ = cw.Write(billing.LedgerCSVRecord(tx))
	}
	cw.Flush()
	return nil
}

func (a *API) ownerSetLimits(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[LimitsRequest](a, r)
	if err != nil {
		return err
	}
	l, err := a.owners.SetLimits(r.Context(), ownerFrom(r), r.PathValue("agent_id"), req.input())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, limitsResponse(l))
	return nil
}

func (a *API) ownerSetMode(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[ModeRequest](a, r)
	if err != nil {
		return err
	}
	ag, err := a.owners.SetMode(r.Context(), ownerFrom(r), r.PathValue("agent_id"), req.Mode)
	if err != nil {
		return err
	}
	a.releaseSessions(ag)
	writeJSON(w, http.StatusOK, agentResponse(ag))
	return nil
}

func (a *API) ownerRotateAgentKey(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("agent_id")
	key, err := a.owners.RotateAgentKey(r.Context(), ownerFrom(r), id)
	if err != nil {
		return err
	}
	a.mcp.CloseAgent(id)
	writeJSON(w, http.StatusOK, RotateKeyResponse{AgentID: id, APIKey: key})
	return nil
}

func (a *API) adminSetCeilings(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[LimitsRequest](a, r)
	if err != nil {
		return err
	}
	l, err := a.svc.Billing.SetCeilings(r.Context(), r.PathValue("agent_id"), req.input())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, limitsResponse(l))
	return nil
}
