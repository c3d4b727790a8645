package portal

import (
	"net/http"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/guardian"
)

// noGuardian is the refusal of operator pages on a server without one.
func noGuardian() error {
	return toolkit.Errorf(toolkit.Unavailable, "this server runs without the guardian: no status, events or metrics")
}

// operatorView is the body of the operator's status page.
type operatorView struct {
	Status          guardian.Status
	Metrics         guardian.Metrics
	ErrorRatePct    string
	Latency, Calls  chart
	ErrorRate       chart
	Alerts          []guardian.Event
	MoreAlerts      bool
	StatsWindowMins int
}

func (h *Handler) operatorPage(w http.ResponseWriter, r request) error {
	g := h.cfg.Guardian
	if g == nil {
		return noGuardian()
	}
	ctx := r.Context()
	m, err := g.Metrics(ctx)
	if err != nil {
		return err
	}
	alerts, err := g.Alerts(ctx, 10, "")
	if err != nil {
		return err
	}
	v := operatorView{Status: g.Status(ctx), Metrics: m, ErrorRatePct: string(toolkit.AppendFloat(nil, m.ErrorRate*100)) + " %",
		Alerts: alerts.Events, MoreAlerts: alerts.HasMore}
	series := g.MetricsSeries()
	v.Latency = chart{Unit: "ms", X: make([]int64, len(series)), Series: []chartSeries{
		{Label: "p50", Values: make([]float64, len(series))}, {Label: "p95", Values: make([]float64, len(series))},
		{Label: "p99", Values: make([]float64, len(series))}}}
	v.Calls = chart{Unit: "count", X: v.Latency.X, Series: []chartSeries{
		{Label: "requests", Values: make([]float64, len(series))}, {Label: "server errors", Values: make([]float64, len(series))}}}
	v.ErrorRate = chart{Unit: "ratio", X: v.Latency.X, Series: []chartSeries{{Label: "error rate", Values: make([]float64, len(series))}}}
	for i, p := range series {
		v.Latency.X[i] = p.At.Unix()
		v.Latency.Series[0].Values[i], v.Latency.Series[1].Values[i], v.Latency.Series[2].Values[i] =
			float64(p.LatencyP50Ms), float64(p.LatencyP95Ms), float64(p.LatencyP99Ms)
		v.Calls.Series[0].Values[i], v.Calls.Series[1].Values[i] = float64(p.Requests), float64(p.Errors)
		if p.Requests > 0 {
			v.ErrorRate.Series[0].Values[i] = float64(p.Errors) / float64(p.Requests)
		}
	}
	return h.renderPage(w, r, "operator", "Platform", "status", v)
}

// eventsView is the body of the events page.
type eventsView struct {
	Page       guardian.EventPage
	Category   string
	Severity   string
	Alerts     bool
	Categories []guardian.Category
	Severities []guardian.Severity
}

func (h *Handler) eventsPage(w http.ResponseWriter, r request) error {
	g := h.cfg.Guardian
	if g == nil {
		return noGuardian()
	}
	q := r.URL.Query()
	v := eventsView{Category: q.Get("category"), Severity: q.Get("severity"), Alerts: q.Get("alerts") == "1",
		Categories: guardian.Categories, Severities: guardian.Severities}
	var err error
	if v.Alerts {
		v.Page, err = g.Alerts(r.Context(), 50, q.Get("cursor"))
	} else {
		v.Page, err = g.Events(r.Context(), guardian.EventFilter{Category: v.Category, Severity: v.Severity, Limit: 50, Cursor: q.Get("cursor")})
	}
	if err != nil {
		return err
	}
	return h.renderPage(w, r, "events", "Security events", "events", v)
}

func (h *Handler) acknowledge(w http.ResponseWriter, r request) error {
	if h.cfg.Guardian == nil {
		return noGuardian()
	}
	_, err := h.cfg.Guardian.Acknowledge(r.Context(), r.PathValue("event_id"))
	return h.backOrFail(w, r, Prefix+"/admin/events?alerts=1", err, "Alert acknowledged.")
}

// ownersView is the body of the owners page.
type ownersView struct {
	Owners []agents.OwnerSummary
	After  string
	Next   string
}

func (h *Handler) ownersPage(w http.ResponseWriter, r request) error {
	after := r.URL.Query().Get("after")
	list, err := h.cfg.Agents.ListOwners(r.Context(), after, agents.DefaultOwnersLimit+1)
	if err != nil {
		return err
	}
	v := ownersView{Owners: list, After: after}
	if len(list) > agents.DefaultOwnersLimit {
		v.Owners = list[:agents.DefaultOwnersLimit]
		v.Next = v.Owners[len(v.Owners)-1].ID
	}
	return h.renderPage(w, r, "owners", "Owners", "owners", v)
}

// ownerAgentRow is one agent on the operator's owner page.
type ownerAgentRow struct {
	Agent   agents.Agent
	Summary billing.Summary
	Limits  billing.Limits
	Allowed map[string]bool
}

// ownerView is the body of the operator's page of one owner.
type ownerView struct {
	OwnerID    string
	Rows       []ownerAgentRow
	Operations []string
	NewKey     string
}

func (h *Handler) ownerPage(w http.ResponseWriter, r request) error {
	id := r.PathValue("owner_id")
	ctx := r.Context()
	list, err := h.cfg.Owners.Agents(ctx, agents.Owner{ID: id})
	if err != nil {
		return err
	}
	v := ownerView{OwnerID: id, Operations: h.cfg.Billing.Prices().Operations()}
	for _, a := range list {
		l, err := h.cfg.Billing.Ceilings(ctx, a.Agent.ID)
		if err != nil {
			return err
		}
		row := ownerAgentRow{Agent: a.Agent, Summary: a.Summary, Limits: l, Allowed: map[string]bool{}}
		for _, op := range l.Ceilings.AllowedOperations {
			row.Allowed[op] = true
		}
		v.Rows = append(v.Rows, row)
	}
	return h.renderPage(w, r, "owner", "Owner "+id, "owners", v)
}

func (h *Handler) issueOwnerKey(w http.ResponseWriter, r request) error {
	id := r.PathValue("owner_id")
	key, err := h.cfg.Agents.IssueOwnerKey(r.Context(), id)
	if err != nil {
		return h.backOrFail(w, r, Prefix+"/admin/owners/"+id, err, "")
	}
	h.sessions.endOwner(id)
	return h.renderPage(w, r, "newkey", "New owner key", "owners", newKeyView{What: "the new owner key of " + id,
		Key: key, Next: Prefix + "/admin/owners/" + id, NextLabel: "Back to the owner"})
}

func (h *Handler) setCeilings(w http.ResponseWriter, r request) error {
	id := r.PathValue("agent_id")
	back := Prefix + "/admin/owners"
	if owner := r.PostForm.Get("owner_id"); owner != "" {
		back += "/" + owner
	}
	in, err := limitsInput(r)
	if err == nil {
		_, err = h.cfg.Billing.SetCeilings(r.Context(), id, in)
	}
	return h.backOrFail(w, r, back, err, "Ceilings of "+id+" saved; limits above them came down.")
}
