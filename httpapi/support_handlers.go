package httpapi

import (
	"net/http"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/support"
)

func (a *API) createFeedback(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[FeedbackRequest](a, r)
	if err != nil {
		return err
	}
	sub, err := a.svc.Support.CreateFeedback(r.Context(), agentFrom(r).ID, support.FeedbackInput(req))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, submissionResponse(sub).Feedback)
	return nil
}

func (a *API) createTicket(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[TicketRequest](a, r)
	if err != nil {
		return err
	}
	t, err := a.svc.Support.CreateTicket(r.Context(), agentFrom(r).ID, support.TicketInput{
		Subject: req.Subject, Description: req.Description, Priority: req.Priority, Category: req.Category,
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, ticketResponse(t))
	return nil
}

func (a *API) createSuggestion(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[SuggestionRequest](a, r)
	if err != nil {
		return err
	}
	sub, err := a.svc.Support.CreateSuggestion(r.Context(), agentFrom(r).ID, support.SuggestionInput(req))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, submissionResponse(sub).Suggestion)
	return nil
}

func (a *API) createInquiry(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[EnterpriseRequest](a, r)
	if err != nil {
		return err
	}
	sub, err := a.svc.Support.CreateInquiry(r.Context(), agentFrom(r).ID, support.InquiryInput(req))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, submissionResponse(sub).Enterprise)
	return nil
}

func (a *API) createBugReport(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[BugReportRequest](a, r)
	if err != nil {
		return err
	}
	sub, err := a.svc.Support.CreateBugReport(r.Context(), agentFrom(r).ID, support.BugReportInput(req))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, submissionResponse(sub).Bug)
	return nil
}

func (a *API) listTickets(w http.ResponseWriter, r *http.Request) error {
	page, err := pageInput(r)
	if err != nil {
		return err
	}
	l, err := a.svc.Support.Tickets(r.Context(), agentFrom(r).ID, r.URL.Query().Get("status"), page)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ticketListResponse(l))
	return nil
}

func (a *API) getTicket(w http.ResponseWriter, r *http.Request) error {
	t, err := a.svc.Support.Ticket(r.Context(), agentFrom(r).ID, r.PathValue("ticket_id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ticketResponse(t))
	return nil
}

func (a *API) adminListTickets(w http.ResponseWriter, r *http.Request) error {
	page, err := pageInput(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	l, err := a.svc.Support.AdminTickets(r.Context(), support.TicketFilter{AgentID: q.Get("agent_id"), Status: q.Get("status")}, page)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ticketListResponse(l))
	return nil
}

func (a *API) adminGetTicket(w http.ResponseWriter, r *http.Request) error {
	t, err := a.svc.Support.AdminTicket(r.Context(), r.PathValue("ticket_id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ticketResponse(t))
	return nil
}

func (a *API) adminSetTicketStatus(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[TicketStatusRequest](a, r)
	if err != nil {
		return err
	}
	t, err := a.svc.Support.SetTicketStatus(r.Context(), r.PathValue("ticket_id"), req.Status)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ticketResponse(t))
	return nil
}

func (a *API) adminListSubmissions(w http.ResponseWriter, r *http.Request) error {
	page, err := pageInput(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	l, err := a.svc.Support.AdminSubmissions(r.Context(), support.SubmissionFilter{Kind: q.Get("type"), AgentID: q.Get("agent_id")}, page)
	if err != nil {
		return err
	}
	out := SubmissionListResponse{Submissions: make([]SubmissionResponse, len(l.Submissions)), Count: len(l.Submissions),
		HasMore: l.HasMore, NextCursor: nextCursor(l.Page)}
	for i, s := range l.Submissions {
		out.Submissions[i] = submissionResponse(s)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// pageInput reads ?limit= and ?cursor= of a support list.
func pageInput(r *http.Request) (toolkit.PageInput, error) {
	limit, err := queryInt(r, "limit", support.DefaultListLimit, support.MaxListLimit)
	if err != nil {
		return toolkit.PageInput{}, err
	}
	return toolkit.PageInput{Limit: limit, Cursor: r.URL.Query().Get("cursor")}, nil
}
