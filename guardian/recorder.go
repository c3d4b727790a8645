package guardian

import (
	"context"
	"time"
)

// Recorder is the port every package uses to record a security event:
//
//	rec.Record(ctx, guardian.Event{Type: guardian.TypeDepositReplay, AgentID: id})
//
// Record never fails and never blocks on storage; the recorder logs its
// own errors. *Service implements it (a nil *Service discards), and
// Discard drops everything.
type Recorder interface {
	Record(ctx context.Context, e Event)
}

// Discard is a Recorder that drops every event.
var Discard Recorder = discard{}

type discard struct{}

func (discard) Record(context.Context, Event) {}

// OrDiscard returns r, or Discard for a nil r: packages keep a non-nil
// recorder and call it unconditionally.
func OrDiscard(r Recorder) Recorder {
	if r == nil {
		return Discard
	}
	return r
}

// TamperObserver adapts a Recorder to cryptovault.TamperObserver: pass
// guardian.TamperObserver(rec) to cryptovault.WithTamperObserver.
func TamperObserver(r Recorder) func(ctx context.Context, agentID, field string) {
	r = OrDiscard(r)
	return func(ctx context.Context, agentID, field string) {
		r.Record(ctx, Event{Type: TypeCiphertextTampered, AgentID: agentID,
			Description: "Sealed field " + truncate(field, 64) + " failed its integrity check"})
	}
}

type sourceKey struct{}

// WithSource returns ctx carrying the client address of the request, which
// Record uses for events recorded without a Source.
func WithSource(ctx context.Context, source string) context.Context {
	return context.WithValue(ctx, sourceKey{}, source)
}

// SourceFrom returns the client address carried by ctx ("" if none).
func SourceFrom(ctx context.Context) string {
	s, _ := ctx.Value(sourceKey{}).(string)
	return s
}

// bucketKey identifies an aggregation window. Descriptions are written by
// the recording packages (reports are not aggregated), so they are part of
// the key: a maintenance switched on and off stays two events.
type bucketKey struct {
	typ         Type
	agentID     string
	source      string
	description string
}

// overflowSource replaces the source of events aggregated once the
// pending buckets are full.
const overflowSource = "*"

// pendingBucket is an open aggregation window.
type pendingBucket struct {
	ev  Event
	end time.Time // the window closes at end
}

// Record aggregates e into its window: all events of one type, agent,
// source and description within Config.Window become one stored event with
// a count. It
// never blocks on storage; Flush (or Run) stores the closed windows.
func (s *Service) Record(ctx context.Context, e Event) {
	if s == nil {
		return
	}
	if err := validType(e.Type); err != nil {
		s.cfg.Logger.ErrorContext(ctx, "guardian: event dropped", "error", err)
		return
	}
	if e.Source == "" {
		e.Source = SourceFrom(ctx)
	}
	now := s.cfg.Now()
	e = e.normalize(now)
	e.At, e.LastAt = now.UTC().Truncate(time.Microsecond), now.UTC().Truncate(time.Microsecond)
	k := bucketKey{typ: e.Type, agentID: e.AgentID, source: e.Source, description: e.Description}

	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.pending[k]; ok {
		if now.Before(b.end) {
			b.ev.Count += e.Count
			b.ev.LastAt = e.LastAt
			return
		}
		s.closeLocked(k, b)
	}
	if len(s.pending)+len(s.closed) >= s.cfg.MaxPending {
		k = bucketKey{typ: e.Type, source: overflowSource}
		if b, ok := s.pending[k]; ok && now.Before(b.end) {
			b.ev.Count += e.Count
			b.ev.LastAt = e.LastAt
			return
		}
		if len(s.closed) >= s.cfg.MaxPending {
			s.dropped += e.Count
			return
		}
		if b, ok := s.pending[k]; ok {
			s.closeLocked(k, b)
		}
		e.AgentID, e.Source = "", overflowSource
		e.Description = types[e.Type].description + " (many sources)"
	}
	s.pending[k] = &pendingBucket{ev: e, end: now.Add(s.cfg.Window)}
}

// closeLocked moves a window to the closed list, to be stored.
func (s *Service) closeLocked(k bucketKey, b *pendingBucket) {
	delete(s.pending, k)
	s.closed = append(s.closed, b.ev)
}

// takeDue removes and returns the windows to store: the closed ones and
// those whose time is up (all of them when final).
func (s *Service) takeDue(now time.Time, final bool) (events []Event, dropped int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, b := range s.pending {
		if final || !now.Before(b.end) {
			s.closeLocked(k, b)
		}
	}
	events, s.closed = s.closed, nil
	dropped, s.dropped = s.dropped, 0
	return events, dropped
}

// escalate raises a window's severity one level when its count reaches the
// type's threshold.
func escalate(e Event) Event {
	if at := types[e.Type].escalateAt; at > 0 && e.Count >= at {
		e.Severity = e.Severity.escalated()
	}
	return e
}
