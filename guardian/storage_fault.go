package guardian

import (
	"context"
	"errors"
)

// StorageFault is implemented by the errors of a store that cannot write:
// its disk (or size limit) is full, or it is read-only. A store adapter
// wraps such driver errors in a type implementing it (under a
// toolkit.Unavailable error with a Retry-After), so whoever answers the
// request can record the event without knowing the adapter.
type StorageFault interface {
	error
	// DiskFull reports a full disk; false means a read-only database.
	DiskFull() bool
}

// StorageFaultEvent is the event to record for err when a StorageFault
// is in its chain: TypeDiskFull or TypeDatabaseReadOnly.
func StorageFaultEvent(err error) (Event, bool) {
	var f StorageFault
	if !errors.As(err, &f) {
		return Event{}, false
	}
	if f.DiskFull() {
		return Event{Type: TypeDiskFull}, true
	}
	return Event{Type: TypeDatabaseReadOnly}, true
}

// RecordStorageFault records the event of a storage fault in err's chain
// (see StorageFaultEvent) and reports whether there was one. Every
// transport answering a failed request calls it (the REST middleware, the
// MCP tool handler), so a full or read-only database is reported alike
// whichever way the write came in; the caller adds its one log line.
func RecordStorageFault(ctx context.Context, rec Recorder, err error) bool {
	e, ok := StorageFaultEvent(err)
	if ok {
		OrDiscard(rec).Record(ctx, e)
	}
	return ok
}
