package support

import (
	"net/mail"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentfinance/toolkit"
)

// Length limits in characters. The spec's Limits table fixes the ticket,
// feedback, suggestion and enterprise bounds; the bug-report and list
// bounds are the project's own (the spec leaves them open).
const (
	MinRating          = 1
	MaxRating          = 5
	MaxMessageLen      = 2000 // feedback message
	MaxSubjectLen      = 200  // ticket subject
	MaxDescriptionLen  = 5000 // ticket, suggestion, enterprise and bug descriptions
	MaxTitleLen        = 200  // suggestion and bug titles
	MaxUseCaseLen      = 2000 // suggestion use_case
	MaxOrganizationLen = 200  // enterprise organization_name
	MaxEmailLen        = 254  // enterprise contact_email (RFC 5321 path limit)
	MaxRequirements    = 50   // enterprise requirements: 1 to 50 items
	MaxRequirementLen  = 500  // each requirement
	MaxTimelineLen     = 500  // enterprise timeline
	MaxBudgetRangeLen  = 200  // enterprise budget_range (optional)
	MaxStepsLen        = 5000 // bug steps_to_reproduce
	MaxBehaviorLen     = 2000 // bug expected_behavior and actual_behavior
	MaxToolNameLen     = 64   // bug tool_name (optional)
	MaxErrorMessageLen = 5000 // bug error_message (optional)
	MaxAgentIDLen      = 100  // agent_id filter of the admin lists
)

func invalid(format string, args ...any) error {
	return toolkit.Errorf(toolkit.Invalid, format, args...)
}

// lineText checks a single-line text: length in characters, not blank, no
// control characters.
func lineText(field, s string, minLen, maxLen int) error {
	return checkText(field, s, minLen, maxLen, false)
}

// blockText checks a multi-line text: like lineText, but tabs and line
// breaks are allowed.
func blockText(field, s string, minLen, maxLen int) error {
	return checkText(field, s, minLen, maxLen, true)
}

func checkText(field, s string, minLen, maxLen int, multiline bool) error {
	if !utf8.ValidString(s) {
		return invalid("%s: must be valid UTF-8", field)
	}
	n := utf8.RuneCountInString(s)
	if n < minLen || n > maxLen {
		return invalid("%s: must be %d to %d characters (got %d)", field, minLen, maxLen, n)
	}
	if n > 0 && strings.TrimSpace(s) == "" {
		return invalid("%s: must not be blank", field)
	}
	for _, r := range s {
		if unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\r' || r == '\t')) {
			return invalid("%s: must not contain control characters", field)
		}
	}
	return nil
}

// optionalText checks an optional text; nil is always valid.
func optionalText(check func(string, string, int, int) error, field string, s *string, maxLen int) error {
	if s == nil {
		return nil
	}
	return check(field, *s, 0, maxLen)
}

// checkEmail accepts a bare address (no display name, no comments) that
// net/mail parses back to itself.
func checkEmail(field, s string) error {
	if err := lineText(field, s, 3, MaxEmailLen); err != nil {
		return err
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s || !strings.Contains(s, "@") {
		return invalid("%s: must be an email address like name@example.com (got %q)", field, s)
	}
	return nil
}

// FeedbackInput is POST /v1/support/feedback.
//
// The JSON names of the submission inputs (feedback, suggestion, inquiry,
// bug report) are a persistent format: they name the fields of the sealed
// content of stored submissions, so they never change.
type FeedbackInput struct {
	Rating   int    `json:"rating"`
	Message  string `json:"message"`
	Category string `json:"category"`
}

func (in FeedbackInput) validate() error {
	if in.Rating < MinRating || in.Rating > MaxRating {
		return invalid("rating: must be an integer from %d to %d (got %d)", MinRating, MaxRating, in.Rating)
	}
	if err := blockText("message", in.Message, 1, MaxMessageLen); err != nil {
		return err
	}
	return oneOf("category", in.Category, FeedbackCategories)
}

// TicketInput is POST /v1/support/ticket.
type TicketInput struct {
	Subject     string
	Description string
	Priority    string
	Category    string
}

func (in TicketInput) validate() error {
	if err := lineText("subject", in.Subject, 1, MaxSubjectLen); err != nil {
		return err
	}
	if err := blockText("description", in.Description, 1, MaxDescriptionLen); err != nil {
		return err
	}
	if err := oneOf("priority", in.Priority, Priorities); err != nil {
		return err
	}
	return oneOf("category", in.Category, TicketCategories)
}

// SuggestionInput is POST /v1/support/suggestion.
type SuggestionInput struct {
	Title            string `json:"title"`
	Description      string `json:"description"`
	UseCase          string `json:"use_case"`
	PriorityForAgent string `json:"priority_for_agent"`
}

func (in SuggestionInput) validate() error {
	if err := lineText("title", in.Title, 1, MaxTitleLen); err != nil {
		return err
	}
	if err := blockText("description", in.Description, 1, MaxDescriptionLen); err != nil {
		return err
	}
	if err := blockText("use_case", in.UseCase, 1, MaxUseCaseLen); err != nil {
		return err
	}
	return oneOf("priority_for_agent", in.PriorityForAgent, SuggestionPriorities)
}

// InquiryInput is POST /v1/support/enterprise.
type InquiryInput struct {
	OrganizationName string   `json:"organization_name"`
	ContactEmail     string   `json:"contact_email"`
	Description      string   `json:"description"`
	Requirements     []string `json:"requirements"`
	Timeline         string   `json:"timeline"`
	BudgetRange      *string  `json:"budget_range,omitempty"`
}

func (in InquiryInput) validate() error {
	if err := lineText("organization_name", in.OrganizationName, 1, MaxOrganizationLen); err != nil {
		return err
	}
	if err := checkEmail("contact_email", in.ContactEmail); err != nil {
		return err
	}
	if err := blockText("description", in.Description, 1, MaxDescriptionLen); err != nil {
		return err
	}
	if len(in.Requirements) < 1 || len(in.Requirements) > MaxRequirements {
		return invalid("requirements: must have 1 to %d items (got %d)", MaxRequirements, len(in.Requirements))
	}
	for i, r := range in.Requirements {
		if err := lineText("requirements["+strconv.Itoa(i)+"]", r, 1, MaxRequirementLen); err != nil {
			return err
		}
	}
	if err := blockText("timeline", in.Timeline, 1, MaxTimelineLen); err != nil {
		return err
	}
	return optionalText(lineText, "budget_range", in.BudgetRange, MaxBudgetRangeLen)
}

// BugReportInput is POST /v1/support/bug.
type BugReportInput struct {
	Title            string  `json:"title"`
	Description      string  `json:"description"`
	StepsToReproduce string  `json:"steps_to_reproduce"`
	ExpectedBehavior string  `json:"expected_behavior"`
	ActualBehavior   string  `json:"actual_behavior"`
	ToolName         *string `json:"tool_name,omitempty"`
	ErrorMessage     *string `json:"error_message,omitempty"`
}

func (in BugReportInput) validate() error {
	for _, f := range []struct {
		name, value string
		max         int
		check       func(string, string, int, int) error
	}{
		{"title", in.Title, MaxTitleLen, lineText},
		{"description", in.Description, MaxDescriptionLen, blockText},
		{"steps_to_reproduce", in.StepsToReproduce, MaxStepsLen, blockText},
		{"expected_behavior", in.ExpectedBehavior, MaxBehaviorLen, blockText},
		{"actual_behavior", in.ActualBehavior, MaxBehaviorLen, blockText},
	} {
		if err := f.check(f.name, f.value, 1, f.max); err != nil {
			return err
		}
	}
	if in.ToolName != nil {
		if err := lineText("tool_name", *in.ToolName, 1, MaxToolNameLen); err != nil {
			return err
		}
	}
	return optionalText(blockText, "error_message", in.ErrorMessage, MaxErrorMessageLen)
}
