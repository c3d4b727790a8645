package httpapi

import (
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/support"
	"github.com/google/jsonschema-go/jsonschema"
)

// FeedbackRequest is the body of POST /v1/support/feedback: the domain's
// input, with the decoding limits of constrain.
type FeedbackRequest support.FeedbackInput

// TicketRequest is the body of POST /v1/support/ticket.
type TicketRequest struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
	Priority    string `json:"priority"`
	Category    string `json:"category"`
}

// SuggestionRequest is the body of POST /v1/support/suggestion: the
// domain's input, with the decoding limits of constrain.
type SuggestionRequest support.SuggestionInput

// EnterpriseRequest is the body of POST /v1/support/enterprise: the
// domain's input, with the decoding limits of constrain.
type EnterpriseRequest support.InquiryInput

// BugReportRequest is the body of POST /v1/support/bug: the domain's
// input, with the decoding limits of constrain.
type BugReportRequest support.BugReportInput

// TicketStatusRequest is the body of PUT
// /v1/admin/support/tickets/{ticket_id}/status.
type TicketStatusRequest struct {
	Status string `json:"status"`
}

// FeedbackResponse is filed feedback.
type FeedbackResponse struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	AgentID   string    `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Rating    int       `json:"rating"`
	Message   string    `json:"message"`
	Category  string    `json:"category"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
}

// TicketResponse is a full support ticket. ticket_id is the
// human-readable reference (SR-000142) used in the ticket paths.
type TicketResponse struct {
	ID          string    `json:"id"`
	TicketID    string    `json:"ticket_id" example:"SR-000142"`
	Type        string    `json:"type"`
	AgentID     string    `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Subject     string    `json:"subject"`
	Description string    `json:"description"`
	Priority    string    `json:"priority"`
	Category    string    `json:"category"`
	Status      string    `json:"status"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// TicketSummary is a ticket in a list: the ticket without its
// description.
type TicketSummary struct {
	ID        string    `json:"id"`
	TicketID  string    `json:"ticket_id" example:"SR-000142"`
	Type      string    `json:"type"`
	AgentID   string    `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Subject   string    `json:"subject"`
	Priority  string    `json:"priority"`
	Category  string    `json:"category"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// TicketListResponse is one page of tickets, newest first. Pass
// next_cursor as ?cursor= for the next page; it is null on the last one.
type TicketListResponse struct {
	Tickets    []TicketSummary `json:"tickets"`
	Count      int             `json:"count"`
	HasMore    bool            `json:"has_more"`
	NextCursor *string         `json:"next_cursor"`
}

// SuggestionResponse is a filed feature suggestion.
type SuggestionResponse struct {
	ID               string    `json:"id"`
	Type             string    `json:"type"`
	AgentID          string    `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Title            string    `json:"title"`
	Description      string    `json:"description"`
	UseCase          string    `json:"use_case"`
	PriorityForAgent string    `json:"priority_for_agent"`
	Status           string    `json:"status"`
	CreatedAt        time.Time `json:"created_at"`
}

// EnterpriseResponse confirms an enterprise inquiry, echoing every field.
type EnterpriseResponse struct {
	ID               string    `json:"id"`
	Type             string    `json:"type"`
	AgentID          string    `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	OrganizationName string    `json:"organization_name"`
	ContactEmail     string    `json:"contact_email"`
	Description      string    `json:"description"`
	Requirements     []string  `json:"requirements"`
	Timeline         string    `json:"timeline"`
	BudgetRange      *string   `json:"budget_range"`
	Status           string    `json:"status"`
	CreatedAt        time.Time `json:"created_at"`
}

// BugReportResponse is a filed bug report.
type BugReportResponse struct {
	ID               string    `json:"id"`
	Type             string    `json:"type"`
	AgentID          string    `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Title            string    `json:"title"`
	Description      string    `json:"description"`
	StepsToReproduce string    `json:"steps_to_reproduce"`
	ExpectedBehavior string    `json:"expected_behavior"`
	ActualBehavior   string    `json:"actual_behavior"`
	ToolName         *string   `json:"tool_name"`
	ErrorMessage     *string   `json:"error_message"`
	Status           string    `json:"status"`
	CreatedAt        time.Time `json:"created_at"`
}

// SubmissionResponse is one item of the administrators' submission list:
// type says which one of the other members is present.
type SubmissionResponse struct {
	Type       string              `json:"type"`
	Feedback   *FeedbackResponse   `json:"feedback,omitempty"`
	Suggestion *SuggestionResponse `json:"suggestion,omitempty"`
	Enterprise *EnterpriseResponse `json:"enterprise,omitempty"`
	Bug        *BugReportResponse  `json:"bug,omitempty"`
}

// SubmissionListResponse is one page of submissions, newest first.
type SubmissionListResponse struct {
	Submissions []SubmissionResponse `json:"submissions"`
	Count       int                  `json:"count"`
	HasMore     bool                 `json:"has_more"`
	NextCursor  *string              `json:"next_cursor"`
}

// ticketType is the "type" of every ticket (the published value).
const ticketType = "support"

func (FeedbackRequest) constrain(s *jsonschema.Schema) {
	s.Properties["rating"].Minimum, s.Properties["rating"].Maximum = ptr(float64(support.MinRating)), ptr(float64(support.MaxRating))
	text(s, "message", 1, support.MaxMessageLen)
	enum(s, "category", support.FeedbackCategories)
}

func (TicketRequest) constrain(s *jsonschema.Schema) {
	text(s, "subject", 1, support.MaxSubjectLen)
	text(s, "description", 1, support.MaxDescriptionLen)
	enum(s, "priority", support.Priorities)
	enum(s, "category", support.TicketCategories)
}

func (SuggestionRequest) constrain(s *jsonschema.Schema) {
	text(s, "title", 1, support.MaxTitleLen)
	text(s, "description", 1, support.MaxDescriptionLen)
	text(s, "use_case", 1, support.MaxUseCaseLen)
	enum(s, "priority_for_agent", support.SuggestionPriorities)
}

func (EnterpriseRequest) constrain(s *jsonschema.Schema) {
	text(s, "organization_name", 1, support.MaxOrganizationLen)
	text(s, "contact_email", 3, support.MaxEmailLen)
	s.Properties["contact_email"].Format = "email"
	text(s, "description", 1, support.MaxDescriptionLen)
	p := s.Properties["requirements"]
	p.MinItems, p.MaxItems = ptr(1), ptr(support.MaxRequirements)
	p.Items.MinLength, p.Items.MaxLength = ptr(1), ptr(support.MaxRequirementLen)
	text(s, "timeline", 1, support.MaxTimelineLen)
	text(s, "budget_range", 0, support.MaxBudgetRangeLen)
}

func (BugReportRequest) constrain(s *jsonschema.Schema) {
	text(s, "title", 1, support.MaxTitleLen)
	text(s, "description", 1, support.MaxDescriptionLen)
	text(s, "steps_to_reproduce", 1, support.MaxStepsLen)
	text(s, "expected_behavior", 1, support.MaxBehaviorLen)
	text(s, "actual_behavior", 1, support.MaxBehaviorLen)
	text(s, "tool_name", 1, support.MaxToolNameLen)
	text(s, "error_message", 0, support.MaxErrorMessageLen)
}

func (TicketStatusRequest) constrain(s *jsonschema.Schema) { enum(s, "status", support.Statuses) }

func ticketResponse(t support.Ticket) TicketResponse {
	return TicketResponse{
		ID: t.ID, TicketID: t.Ref, Type: ticketType, AgentID: t.AgentID, Subject: t.Subject, Description: t.Description,
		Priority: t.Priority, Category: t.Category, Status: string(t.Status), CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
	}
}

func ticketListResponse(l support.TicketList) TicketListResponse {
	out := TicketListResponse{Tickets: make([]TicketSummary, len(l.Tickets)), Count: len(l.Tickets), HasMore: l.HasMore,
		NextCursor: nextCursor(l.Page)}
	for i, t := range l.Tickets {
		out.Tickets[i] = TicketSummary{
			ID: t.ID, TicketID: t.Ref, Type: ticketType, AgentID: t.AgentID, Subject: t.Subject,
			Priority: t.Priority, Category: t.Category, Status: string(t.Status), CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
		}
	}
	return out
}

func nextCursor(p toolkit.Page) *string {
	if !p.HasMore {
		return nil
	}
	c := p.NextCursor
	return &c
}

// submissionResponse renders a submission as its typed response; exactly
// one member is set, the one its kind names.
func submissionResponse(s support.Submission) SubmissionResponse {
	out := SubmissionResponse{Type: string(s.Kind)}
	switch {
	case s.Feedback != nil:
		f := s.Feedback
		out.Feedback = &FeedbackResponse{ID: s.ID, Type: string(s.Kind), AgentID: s.AgentID, Rating: f.Rating,
			Message: f.Message, Category: f.Category, Status: s.Status, CreatedAt: s.CreatedAt}
	case s.Suggestion != nil:
		g := s.Suggestion
		out.Suggestion = &SuggestionResponse{ID: s.ID, Type: string(s.Kind), AgentID: s.AgentID, Title: g.Title,
			Description: g.Description, UseCase: g.UseCase, PriorityForAgent: g.PriorityForAgent, Status: s.Status, CreatedAt: s.CreatedAt}
	case s.Inquiry != nil:
		q := s.Inquiry
		out.Enterprise = &EnterpriseResponse{ID: s.ID, Type: string(s.Kind), AgentID: s.AgentID, OrganizationName: q.OrganizationName,
			ContactEmail: q.ContactEmail, Description: q.Description, Requirements: nonNil(q.Requirements), Timeline: q.Timeline,
			BudgetRange: q.BudgetRange, Status: s.Status, CreatedAt: s.CreatedAt}
	case s.BugReport != nil:
		b := s.BugReport
		out.Bug = &BugReportResponse{ID: s.ID, Type: string(s.Kind), AgentID: s.AgentID, Title: b.Title, Description: b.Description,
			StepsToReproduce: b.StepsToReproduce, ExpectedBehavior: b.ExpectedBehavior, ActualBehavior: b.ActualBehavior,
			ToolName: b.ToolName, ErrorMessage: b.ErrorMessage, Status: s.Status, CreatedAt: s.CreatedAt}
	}
	return out
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (FeedbackResponse) Enums() map[string][]string {
	return map[string][]string{"type": {string(support.KindFeedback)}, "category": support.FeedbackCategories,
		"status": {support.StatusReceived}}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (TicketResponse) Enums() map[string][]string {
	return map[string][]string{"type": {ticketType}, "priority": support.Priorities, "category": support.TicketCategories,
		"status": stringsOf(support.Statuses)}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (TicketSummary) Enums() map[string][]string { return TicketResponse{}.Enums() }

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (SuggestionResponse) Enums() map[string][]string {
	return map[string][]string{"type": {string(support.KindSuggestion)}, "priority_for_agent": support.SuggestionPriorities,
		"status": {support.StatusReceived}}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (EnterpriseResponse) Enums() map[string][]string {
	return map[string][]string{"type": {string(support.KindEnterprise)}, "status": {support.StatusReceived}}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (BugReportResponse) Enums() map[string][]string {
	return map[string][]string{"type": {string(support.KindBug)}, "status": {support.StatusReceived}}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (SubmissionResponse) Enums() map[string][]string {
	return map[string][]string{"type": stringsOf(support.Kinds)}
}
