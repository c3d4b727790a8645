package bunstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/agentfinance/toolkit"
	"github.com/uptrace/bun"
)

// ErrorObserver is told about every failed query whose error is a fault
// of the database rather than a business outcome: kinds toolkit.Internal
// and toolkit.Unavailable (not NotFound, not Conflict, not a cancelled
// request). operation is the SQL verb ("SELECT", "INSERT", ...).
type ErrorObserver func(operation string, kind toolkit.Kind)

// errorHook reports failed queries to an ErrorObserver.
type errorHook struct{ observe ErrorObserver }

var _ bun.QueryHook = errorHook{}

// BeforeQuery implements bun.QueryHook.
func (errorHook) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

// AfterQuery implements bun.QueryHook.
func (h errorHook) AfterQuery(ctx context.Context, e *bun.QueryEvent) {
	if e.Err == nil || errors.Is(e.Err, sql.ErrNoRows) || errors.Is(e.Err, context.Canceled) || ctx.Err() != nil {
		return
	}
	if kind := toolkit.KindOf(translate("", e.Err)); kind == toolkit.Internal || kind == toolkit.Unavailable {
		h.observe(e.Operation(), kind)
	}
}
