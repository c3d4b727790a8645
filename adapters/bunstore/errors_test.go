package bunstore

import (
	"errors"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A lock held past the busy timeout is a passing condition: 503, never a
// 500 and never the client's fault.
func TestBusyIsUnavailable(t *testing.T) {
	for _, msg := range []string{"database is locked (5) (SQLITE_BUSY)", "database table is locked (6) (SQLITE_LOCKED)"} {
		err := translate("op", errors.New(msg))
		assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), msg)
		assert.Equal(t, time.Second, toolkit.RetryAfterOf(err), "a 503 with a Retry-After")
	}
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(translate("op", errors.New("no such table: x"))))
}

// Postgres's disk_full and read_only_sql_transaction are storage faults;
// other codes are not.
func TestPostgresStorageFaultCodes(t *testing.T) {
	for code, want := range map[string][2]bool{"53100": {true, true}, "25006": {false, true}, "53200": {}, "23505": {}} {
		full, ok := pgStorageFault(code)
		assert.Equal(t, want, [2]bool{full, ok}, code)
	}
	for msg, full := range map[string]bool{"database or disk is full (13)": true, "attempt to write a readonly database (8)": false} {
		err := translate("op", errors.New(msg))
		assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err), msg)
		var f *storageFault
		require.ErrorAs(t, err, &f, msg)
		assert.Equal(t, full, f.DiskFull(), msg)
	}
}
