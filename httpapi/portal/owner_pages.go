package portal

import (
	"encoding/csv"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/billing/owners"
)

// agentsView is the body of the agents page.
type agentsView struct {
	Rows       []owners.AgentView
	All        int
	Query      string
	Mode       string
	Modes      []agents.Mode
	Real, Test toolkit.Amount
	SpentToday toolkit.Amount
}

func (h *Handler) agentsPage(w http.ResponseWriter, r request) error {
	list, err := h.cfg.Owners.Agents(r.Context(), r.owner)
	if err != nil {
		return err
	}
	q, mode := strings.TrimSpace(r.URL.Query().Get("q")), r.URL.Query().Get("mode")
	v := agentsView{All: len(list), Query: q, Mode: mode, Modes: agents.Modes()}
	for _, a := range list {
		v.Real, v.Test, v.SpentToday = v.Real.Add(a.Summary.Balance), v.Test.Add(a.Summary.SandboxBalance), v.SpentToday.Add(a.Summary.SpentToday)
		if mode != "" && string(a.Agent.Mode) != mode {
			continue
		}
		if q != "" && !strings.Contains(strings.ToLower(a.Agent.Name+" "+a.Agent.ID), strings.ToLower(q)) {
			continue
		}
		v.Rows = append(v.Rows, a)
	}
	return h.renderPage(w, r, "agents", "Agents", "agents", v)
}

// ledgerPageSize is the ledger rows per page of the agent page.
const ledgerPageSize = 20

// agentView is the body of an agent's page.
type agentView struct {
	owners.AgentView
	Chart      chart
	From, To   time.Time
	Usage      []billing.DailyUsage
	Ledger     billing.TransactionPage
	Cursor     string
	Operations []string
	Allowed    map[string]bool
}

func (h *Handler) agentPage(w http.ResponseWriter, r request) error {
	id := r.PathValue("agent_id")
	ctx := r.Context()
	av, err := h.cfg.Owners.Agent(ctx, r.owner, id)
	if err != nil {
		return err
	}
	from, to := owners.UsageRange(time.Time{}, time.Time{}, h.cfg.Now())
	usage, err := h.cfg.Owners.Usage(ctx, r.owner, owners.UsageQuery{AgentID: id, From: from, To: to})
	if err != nil {
		return err
	}
	cursor := r.URL.Query().Get("cursor")
	ledger, err := h.cfg.Owners.Transactions(ctx, r.owner, id, ledgerPageSize, cursor)
	if err != nil {
		return err
	}
	v := agentView{AgentView: av, Chart: usageChart(usage, from, to, false, nil), From: from, To: to, Usage: usage,
		Ledger: ledger, Cursor: cursor, Operations: h.cfg.Billing.Prices().Operations(), Allowed: map[string]bool{}}
	for _, op := range av.Summary.Limits.AllowedOperations {
		v.Allowed[op] = true
	}
	return h.renderPage(w, r, "agent", av.Agent.Name, "agents", v)
}

// optionalAmount reads an optional money field of a form.
func optionalAmount(r request, field string) (*toolkit.Amount, error) {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r.PostForm.Get(field)), "$"))
	if s == "" {
		return nil, nil
	}
	a, err := toolkit.ParseAmount(s)
	if err != nil {
		return nil, toolkit.Errorf(toolkit.Invalid, "%s: must be an amount in dollars such as 2.50, or empty for no limit (got %q)", field, s)
	}
	return &a, nil
}

// limitsInput reads a limits form: daily_limit, monthly_limit (empty: no
// limit) and the checked allowed_operations (none: all).
func limitsInput(r request) (billing.LimitsInput, error) {
	var in billing.LimitsInput
	var err error
	if in.DailyLimit, err = optionalAmount(r, "daily_limit"); err != nil {
		return in, err
	}
	if in.MonthlyLimit, err = optionalAmount(r, "monthly_limit"); err != nil {
		return in, err
	}
	in.AllowedOperations = r.PostForm["allowed_operations"]
	return in, nil
}

func (h *Handler) setLimits(w http.ResponseWriter, r request) error {
	id := r.PathValue("agent_id")
	page := Prefix + "/agents/" + id
	in, err := limitsInput(r)
	if err == nil {
		_, err = h.cfg.Owners.SetLimits(r.Context(), r.owner, id, in)
	}
	return h.backOrFail(w, r, page, err, "Limits saved. The API enforces them from the next call.")
}

func (h *Handler) setMode(w http.ResponseWriter, r request) error {
	id := r.PathValue("agent_id")
	mode := r.PostForm.Get("mode")
	if mode == string(agents.ModeTerminated) && r.PostForm.Get("confirm") != "yes" {
		return h.back(w, r, Prefix+"/agents/"+id, flash{Text: "To terminate, tick the box that says you understand it is final.", Error: true})
	}
	a, err := h.cfg.Owners.SetMode(r.Context(), r.owner, id, mode)
	if err == nil && h.cfg.AgentChanged != nil {
		h.cfg.AgentChanged(a, false)
	}
	return h.backOrFail(w, r, Prefix+"/agents/"+id, err, "The agent is now "+mode+".")
}

// newKeyView is the body of the page that shows a new key once.
type newKeyView struct {
	What, Key, Next, NextLabel string
	SignedOut                  bool
}

func (h *Handler) rotateAgentKey(w http.ResponseWriter, r request) error {
	id := r.PathValue("agent_id")
	key, err := h.cfg.Owners.RotateAgentKey(r.Context(), r.owner, id)
	if err != nil {
		return h.backOrFail(w, r, Prefix+"/agents/"+id, err, "")
	}
	if h.cfg.AgentChanged != nil {
		h.cfg.AgentChanged(agents.Agent{ID: id}, true)
	}
	return h.renderPage(w, r, "newkey", "New API key", "agents", newKeyView{What: "the new API key of agent " + id,
		Key: key, Next: Prefix + "/agents/" + id, NextLabel: "Back to the agent"})
}

func (h *Handler) rotateOwnerKey(w http.ResponseWriter, r request) error {
	key, err := h.cfg.Agents.RotateOwnerKey(r.Context(), r.owner)
	if err != nil {
		return err
	}
	h.sessions.endOwner(r.owner.ID)
	h.setCookie(w, r.Request, "", -1)
	h.render(w, http.StatusOK, "newkey", view{Title: "New owner key", Body: newKeyView{What: "your new owner key", Key: key,
		Next: Prefix + "/", NextLabel: "Sign in with the new key", SignedOut: true}})
	return nil
}

func (h *Handler) agentCSV(w http.ResponseWriter, r request) error {
	return h.ledgerCSV(w, r, r.PathValue("agent_id"))
}

func (h *Handler) ownerCSV(w http.ResponseWriter, r request) error {
	return h.ledgerCSV(w, r, "")
}

// ledgerCSV downloads up to 1,000 ledger rows (of one agent, or every
// agent of the owner), newest first, after ?cursor=.
func (h *Handler) ledgerCSV(w http.ResponseWriter, r request, agentID string) error {
	page, err := h.cfg.Owners.Transactions(r.Context(), r.owner, agentID, billing.MaxTransactionsLimit, r.URL.Query().Get("cursor"))
	if err != nil {
		return err
	}
	name := "transactions.csv"
	if agentID != "" {
		name = agentID + "-transactions.csv"
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	if page.HasMore {
		w.Header().Set("X-Next-Cursor", page.NextCursor)
	}
	cw := csv.NewWriter(w)
	_ = cw.Write(billing.LedgerCSVHeader)
	for _, tx := range page.Transactions {
		_ = cw.Write(billing.LedgerCSVRecord(tx))
	}
	cw.Flush()
	return cw.Error()
}

// spendView is the body of the spend page.
type spendView struct {
	Chart    chart
	From, To time.Time
	Totals   []agentTotal
	Total    toolkit.Amount
}

type agentTotal struct {
	Agent agents.Agent
	Count int64
	Cost  toolkit.Amount
}

func (h *Handler) spendPage(w http.ResponseWriter, r request) error {
	ctx := r.Context()
	list, err := h.cfg.Owners.Agents(ctx, r.owner)
	if err != nil {
		return err
	}
	from, to := owners.UsageRange(time.Time{}, time.Time{}, h.cfg.Now())
	rows, err := h.cfg.Owners.Usage(ctx, r.owner, owners.UsageQuery{From: from, To: to, ByAgent: true})
	if err != nil {
		return err
	}
	names := map[string]string{}
	v := spendView{From: from, To: to}
	for _, a := range list {
		names[a.Agent.ID] = a.Agent.Name + " (" + a.Agent.ID + ")"
		t := agentTotal{Agent: a.Agent}
		var micros int64
		for _, u := range rows {
			if u.AgentID == a.Agent.ID {
				t.Count += u.Count
				micros += u.TotalMicros
			}
		}
		t.Cost = billing.USD(micros)
		v.Total = v.Total.Add(t.Cost)
		v.Totals = append(v.Totals, t)
	}
	slices.SortStableFunc(v.Totals, func(a, b agentTotal) int { return b.Cost.Cmp(a.Cost) })
	v.Chart = usageChart(rows, from, to, true, names)
	return h.renderPage(w, r, "spend", "Spend across agents", "spend", v)
}

// topUpView is the body of the top-up page.
type topUpView struct {
	TopUp
	Agents []agents.Agent
}

func (h *Handler) topUpPage(w http.ResponseWriter, r request) error {
	list, err := h.cfg.Agents.OwnerAgents(r.Context(), r.owner)
	if err != nil {
		return err
	}
	return h.renderPage(w, r, "topup", "How to top up", "topup", topUpView{TopUp: h.cfg.TopUp, Agents: list})
}
