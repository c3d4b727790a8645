package bunstore

import (
	"errors"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
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

// A database server that went away (killed, crashed, stopped at once, a
// failover under way) is a passing condition: 503 with a Retry-After,
// never a 500.
func TestLostServerIsUnavailable(t *testing.T) {
	for _, err := range []error{
		io.EOF, fmt.Errorf("reading: %w", io.ErrUnexpectedEOF),
		&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")},
		&noHostError{attrs: sessionReadWrite, err: errReadOnlySession},
	} {
		got := translate("op", err)
		assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(got), "%v", err)
		assert.Equal(t, time.Second, toolkit.RetryAfterOf(got), "%v", err)
	}
}
