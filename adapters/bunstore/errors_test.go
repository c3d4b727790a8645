package bunstore

import (
	"errors"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
)

// A lock held past the busy timeout is a passing condition: 503, never a
// 500 and never the client's fault.
func TestBusyIsUnavailable(t *testing.T) {
	for _, msg := range []string{"database is locked (5) (SQLITE_BUSY)", "database table is locked (6) (SQLITE_LOCKED)"} {
		assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(translate("op", errors.New(msg))), msg)
	}
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(translate("op", errors.New("no such table: x"))))
}
