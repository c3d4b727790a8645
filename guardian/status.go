package guardian

import (
	"context"
	"time"

	"github.com/agentfinance/toolkit"
)

// PlatformStatus is operational, degraded or maintenance.
type PlatformStatus string

// The platform statuses.
const (
	StatusOperational PlatformStatus = "operational"
	StatusDegraded    PlatformStatus = "degraded"
	StatusMaintenance PlatformStatus = "maintenance"
)

// PlatformStatuses lists every platform status.
var PlatformStatuses = []PlatformStatus{StatusOperational, StatusDegraded, StatusMaintenance}

// Status is the public platform status.
type Status struct {
	Platform string
	Status   PlatformStatus
	// Uptime is the time since this instance started.
	Uptime time.Duration
	// Latency is the round trip of the store probe.
	Latency time.Duration
	Version string
	// Message is the maintenance message, if any.
	Message string
}

// Status derives the platform status: maintenance when an admin switched
// it on; degraded when the store probe fails or is slower than
// Config.DegradedLatency, or when the share of 5xx answers over
// Config.StatsWindow reaches Config.DegradedErrorRate; operational
// otherwise. It never fails: an unreachable store is "degraded".
func (s *Service) Status(ctx context.Context) Status {
	now := s.cfg.Now()
	st := Status{Platform: s.cfg.Platform, Status: StatusOperational, Uptime: now.Sub(s.started), Version: s.cfg.Version}
	err := s.probe(ctx)
	st.Latency = max(s.cfg.Now().Sub(now), 0)
	if err != nil || st.Latency >= s.cfg.DegradedLatency {
		st.Status = StatusDegraded
	}
	if snap := s.stats.snapshot(now); snap.requests >= s.cfg.DegradedMinRequests &&
		float64(snap.errors) >= s.cfg.DegradedErrorRate*float64(snap.requests) {
		st.Status = StatusDegraded
	}
	if err == nil {
		m, err := s.store.Maintenance(ctx)
		switch {
		case err != nil:
			st.Status = StatusDegraded
		case m.On:
			st.Status, st.Message = StatusMaintenance, m.Message
		}
	}
	return st
}

// Ready checks that the store is reachable and migrated (for /readyz).
func (s *Service) Ready(ctx context.Context) error { return s.probe(ctx) }

func (s *Service) probe(ctx context.Context) error {
	if s.cfg.Probe == nil {
		return nil
	}
	if err := s.cfg.Probe(ctx); err != nil {
		s.cfg.Logger.WarnContext(ctx, "guardian: store probe failed", "error", err)
		return toolkit.WithOp("guardian.probe", err)
	}
	return nil
}

// MaxMaintenanceMessageLen bounds the maintenance message, in characters.
const MaxMaintenanceMessageLen = 500

// SetMaintenance switches maintenance on or off for every instance (the
// switch is stored) and records the change as an event.
func (s *Service) SetMaintenance(ctx context.Context, on bool, message string) (Status, error) {
	if n := len([]rune(message)); n > MaxMaintenanceMessageLen {
		return Status{}, toolkit.Errorf(toolkit.Invalid, "message: at most %d characters (got %d)", MaxMaintenanceMessageLen, n)
	}
	if !on && message != "" {
		return Status{}, toolkit.Errorf(toolkit.Invalid, "message: only allowed when maintenance is true")
	}
	m := Maintenance{On: on, Message: message, ChangedAt: s.cfg.Now().UTC().Truncate(time.Microsecond)}
	if err := s.store.SetMaintenance(ctx, m); err != nil {
		return Status{}, toolkit.WithOp("guardian.SetMaintenance", err)
	}
	desc := "Maintenance switched off"
	if on {
		desc = "Maintenance switched on"
	}
	s.Record(ctx, Event{Type: TypeMaintenanceChanged, Description: desc})
	return s.Status(ctx), nil
}
