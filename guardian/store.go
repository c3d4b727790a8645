package guardian

import (
	"context"
	"time"

	"github.com/agentfinance/toolkit"
)

// Store persists guardian state shared by every server instance: events,
// the maintenance switch, activity counters and the rate-limit buckets of
// the store-backed limiter. Implementations live in adapters (bunstore,
// memstore) and must pass adapters/storetest.
//
// Every method is one transaction. Errors are *toolkit.Error values:
// toolkit.NotFound for an unknown event, toolkit.Conflict for a duplicate
// event id.
type Store interface {
	// AddEvents stores events (IDs assigned, fields normalized) in one
	// transaction.
	AddEvents(ctx context.Context, events []Event) error
	// ListEvents returns up to q.Limit events matching q, newest first:
	// ordered by At descending, ties by ID descending.
	ListEvents(ctx context.Context, q EventQuery) ([]Event, error)
	// AcknowledgeEvent sets the event's AcknowledgedAt to at unless it is
	// already set, and returns the event.
	AcknowledgeEvent(ctx context.Context, id string, at time.Time) (Event, error)
	// CountEvents returns the number of stored events.
	CountEvents(ctx context.Context) (int64, error)

	// SetMaintenance stores the maintenance switch.
	SetMaintenance(ctx context.Context, m Maintenance) error
	// Maintenance returns the maintenance switch (zero value if never set).
	Maintenance(ctx context.Context) (Maintenance, error)

	// AddCounters adds each delta to its (name, hour) counter.
	AddCounters(ctx context.Context, deltas []CounterDelta) error
	// SumCounter sums a counter over the hours starting at or after since.
	SumCounter(ctx context.Context, name string, since time.Time) (int64, error)
	// CountActiveAgents returns the number of agents in sandbox or live
	// mode.
	CountActiveAgents(ctx context.Context) (int64, error)

	// TakeRateToken applies one request to the key's bucket (GCRA): with
	// tat the bucket's theoretical arrival time (now when absent), the
	// request is allowed when max(tat, now) + Interval - Now <= Tolerance,
	// and then tat becomes max(tat, now) + Interval. The check and the
	// update are one atomic statement, so instances sharing the store
	// share the limit.
	TakeRateToken(ctx context.Context, req RateRequest) (RateState, error)
	// RateBucket returns the key's theoretical arrival time (zero time
	// when the key has no bucket).
	RateBucket(ctx context.Context, key string) (time.Time, error)
	// PruneRateBuckets deletes the buckets whose theoretical arrival time
	// is before before (they are full again) and returns how many.
	PruneRateBuckets(ctx context.Context, before time.Time) (int64, error)
}

// EventQuery selects events. Zero fields do not filter.
type EventQuery struct {
	Category Category
	// Severities keeps events of these severities.
	Severities []Severity
	// Unacknowledged keeps events no admin has acknowledged.
	Unacknowledged bool
	// After continues a listing: events strictly older than (At, ID) in
	// the listing order.
	After *toolkit.Cursor
	// Limit is the number of events to return (> 0).
	Limit int
}

// Maintenance is the maintenance switch set by an admin.
type Maintenance struct {
	On bool
	// Message tells clients what is going on (optional).
	Message string
	// ChangedAt is when the switch last changed.
	ChangedAt time.Time
}

// CounterDelta adds Delta to the counter Name for the hour starting at
// Hour (UTC, truncated to the hour).
type CounterDelta struct {
	Name  string
	Hour  time.Time
	Delta int64
}

// MaxRateKeyLen bounds a rate-limit bucket key.
const MaxRateKeyLen = 160

// RateRequest is one request against a rate-limit bucket.
type RateRequest struct {
	Key string
	Now time.Time
	// Interval is the time one token takes to come back (1 / rate).
	Interval time.Duration
	// Tolerance is Interval × burst: how far ahead of now the bucket's
	// theoretical arrival time may run.
	Tolerance time.Duration
}

// RateState is the outcome of TakeRateToken.
type RateState struct {
	Allowed bool
	// TAT is the bucket's theoretical arrival time after the request
	// (unchanged when refused).
	TAT time.Time
}
