package httpapi

import (
	"net/http"

	"github.com/agentfinance/toolkit/guardian"
)

func (a *API) guardianStatus(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, statusResponse(a.svc.Guardian.Status(r.Context())))
	return nil
}

// guardianReport stores a report. It is verified when the request carries
// the API key of the agent it names; any other key (missing, invalid,
// another agent's) leaves it unverified and is not an error, so the
// answer tells nothing about keys.
func (a *API) guardianReport(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[ReportRequest](a, r)
	if err != nil {
		return err
	}
	verified := false
	if k := apiKey(r); k != "" {
		ag, err := a.svc.Agents.Authenticate(r.Context(), k)
		verified = err == nil && ag.ID == req.AgentID
	}
	receipt, err := a.svc.Guardian.Report(r.Context(), guardian.ReportInput{
		AgentID: req.AgentID, ReportType: req.ReportType, Description: req.Description, Details: req.Details, Verified: verified,
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ReportResponse{EventID: receipt.EventID, Status: receipt.Status})
	return nil
}

func (a *API) guardianEvents(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", guardian.DefaultEventsLimit, guardian.MaxEventsLimit)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	page, err := a.svc.Guardian.Events(r.Context(), guardian.EventFilter{
		Category: q.Get("category"), Severity: q.Get("severity"), Limit: limit, Cursor: q.Get("cursor"),
	})
	if err != nil {
		return err
	}
	out := EventsResponse{Events: eventResponses(page.Events), Count: len(page.Events),
		Filters: EventFilters{Limit: page.Limit}, HasMore: page.HasMore, NextCursor: cursorOf(page)}
	if page.Category != "" {
		c := string(page.Category)
		out.Filters.Category = &c
	}
	if page.Severity != "" {
		s := string(page.Severity)
		out.Filters.Severity = &s
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) guardianAlerts(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", guardian.DefaultAlertsLimit, guardian.MaxAlertsLimit)
	if err != nil {
		return err
	}
	page, err := a.svc.Guardian.Alerts(r.Context(), limit, r.URL.Query().Get("cursor"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, AlertsResponse{Alerts: eventResponses(page.Events), Count: len(page.Events),
		HasMore: page.HasMore, NextCursor: cursorOf(page)})
	return nil
}

func (a *API) guardianAcknowledge(w http.ResponseWriter, r *http.Request) error {
	e, err := a.svc.Guardian.Acknowledge(r.Context(), r.PathValue("event_id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, eventResponse(e))
	return nil
}

func (a *API) guardianMetrics(w http.ResponseWriter, r *http.Request) error {
	m, err := a.svc.Guardian.Metrics(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, metricsResponse(m))
	return nil
}

func (a *API) guardianMaintenance(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[MaintenanceRequest](a, r)
	if err != nil {
		return err
	}
	msg := ""
	if req.Message != nil {
		msg = *req.Message
	}
	st, err := a.svc.Guardian.SetMaintenance(r.Context(), req.Maintenance, msg)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, statusResponse(st))
	return nil
}
