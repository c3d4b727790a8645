package support

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentfinance/toolkit"
)

// Submission is a feedback, suggestion, enterprise inquiry or bug report.
// Exactly one of Feedback, Suggestion, Inquiry and BugReport is set, the
// one Kind names.
type Submission struct {
	ID        string
	Kind      Kind
	AgentID   string
	Status    string
	CreatedAt time.Time

	Feedback   *FeedbackInput
	Suggestion *SuggestionInput
	Inquiry    *InquiryInput
	BugReport  *BugReportInput
}

// SubmissionList is one page of submissions, newest first.
type SubmissionList struct {
	Submissions []Submission
	toolkit.Page
}

// SubmissionFilter narrows the administrators' submission list. Empty
// fields do not filter.
type SubmissionFilter struct {
	Kind    string
	AgentID string
}

// CreateFeedback files feedback from agentID.
func (s *Service) CreateFeedback(ctx context.Context, agentID string, in FeedbackInput) (Submission, error) {
	if err := in.validate(); err != nil {
		return Submission{}, err
	}
	sub := Submission{Kind: KindFeedback, Feedback: &in}
	if err := s.createSubmission(ctx, "support.CreateFeedback", agentID, &sub, in); err != nil {
		return Submission{}, err
	}
	return sub, nil
}

// CreateSuggestion files a feature suggestion from agentID.
func (s *Service) CreateSuggestion(ctx context.Context, agentID string, in SuggestionInput) (Submission, error) {
	if err := in.validate(); err != nil {
		return Submission{}, err
	}
	sub := Submission{Kind: KindSuggestion, Suggestion: &in}
	if err := s.createSubmission(ctx, "support.CreateSuggestion", agentID, &sub, in); err != nil {
		return Submission{}, err
	}
	return sub, nil
}

// CreateInquiry files an enterprise inquiry from agentID. The contact
// email is sealed with everything else.
func (s *Service) CreateInquiry(ctx context.Context, agentID string, in InquiryInput) (Submission, error) {
	if err := in.validate(); err != nil {
		return Submission{}, err
	}
	sub := Submission{Kind: KindEnterprise, Inquiry: &in}
	if err := s.createSubmission(ctx, "support.CreateInquiry", agentID, &sub, in); err != nil {
		return Submission{}, err
	}
	return sub, nil
}

// CreateBugReport files a bug report from agentID.
func (s *Service) CreateBugReport(ctx context.Context, agentID string, in BugReportInput) (Submission, error) {
	if err := in.validate(); err != nil {
		return Submission{}, err
	}
	sub := Submission{Kind: KindBug, BugReport: &in}
	if err := s.createSubmission(ctx, "support.CreateBugReport", agentID, &sub, in); err != nil {
		return Submission{}, err
	}
	return sub, nil
}

// createSubmission seals content and stores sub, filling in its id,
// agent, status and creation time.
func (s *Service) createSubmission(ctx context.Context, op, agentID string, sub *Submission, content any) error {
	id, err := s.newID(idPrefixes[sub.Kind])
	if err != nil {
		return toolkit.WithOp(op, err)
	}
	plain, err := json.Marshal(content)
	if err != nil {
		return toolkit.AsInternal(op, err)
	}
	sealed, err := s.vault.Seal(ctx, agentID, submissionField(sub.Kind, id), plain)
	if err != nil {
		return toolkit.WithOp(op, err)
	}
	sub.ID, sub.AgentID, sub.Status, sub.CreatedAt = id, agentID, StatusReceived, s.timestamp()
	err = s.store.CreateSubmission(ctx, SubmissionRecord{
		ID: id, Kind: sub.Kind, AgentID: agentID, Status: sub.Status, Content: sealed, CreatedAt: sub.CreatedAt,
	})
	return toolkit.WithOp(op, err)
}

// AdminSubmissions lists every agent's submissions, newest first, opened.
func (s *Service) AdminSubmissions(ctx context.Context, f SubmissionFilter, page toolkit.PageInput) (SubmissionList, error) {
	const op = "support.AdminSubmissions"
	var q SubmissionQuery
	if f.Kind != "" {
		k, err := ParseKind("type", f.Kind)
		if err != nil {
			return SubmissionList{}, err
		}
		q.Kind = k
	}
	if f.AgentID != "" {
		if err := lineText("agent_id", f.AgentID, 1, MaxAgentIDLen); err != nil {
			return SubmissionList{}, err
		}
		q.AgentID = f.AgentID
	}
	limit, after, err := listKeyset.Parse(page)
	if err != nil {
		return SubmissionList{}, err
	}
	q.After, q.Limit = after, limit+1
	recs, err := s.store.Submissions(ctx, q)
	if err != nil {
		return SubmissionList{}, toolkit.WithOp(op, err)
	}
	recs, p := toolkit.PageOf(listKeyset, recs, limit, func(r SubmissionRecord) toolkit.Cursor { return toolkit.Cursor{At: r.CreatedAt, ID: r.ID} })
	out := SubmissionList{Submissions: make([]Submission, len(recs)), Page: p}
	for i, r := range recs {
		if out.Submissions[i], err = s.openSubmission(ctx, r); err != nil {
			return SubmissionList{}, toolkit.WithOp(op, err)
		}
	}
	return out, nil
}

// openSubmission opens a stored submission's sealed content.
func (s *Service) openSubmission(ctx context.Context, r SubmissionRecord) (Submission, error) {
	plain, err := s.vault.Open(ctx, r.AgentID, submissionField(r.Kind, r.ID), r.Content)
	if err != nil {
		return Submission{}, err
	}
	sub := Submission{ID: r.ID, Kind: r.Kind, AgentID: r.AgentID, Status: r.Status, CreatedAt: r.CreatedAt.UTC()}
	var target any
	switch r.Kind {
	case KindFeedback:
		sub.Feedback = new(FeedbackInput)
		target = sub.Feedback
	case KindSuggestion:
		sub.Suggestion = new(SuggestionInput)
		target = sub.Suggestion
	case KindEnterprise:
		sub.Inquiry = new(InquiryInput)
		target = sub.Inquiry
	case KindBug:
		sub.BugReport = new(BugReportInput)
		target = sub.BugReport
	default:
		return Submission{}, fmt.Errorf("submission %s has unknown kind %q", r.ID, r.Kind)
	}
	if err := json.Unmarshal(plain, target); err != nil {
		return Submission{}, fmt.Errorf("submission %s: decoding its content: %w", r.ID, err)
	}
	return sub, nil
}
