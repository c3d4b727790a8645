package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diskFull is a store adapter's error of a full disk
// (guardian.StorageFault).
type diskFull struct{}

func (diskFull) Error() string  { return "disk full: database or disk is full (13)" }
func (diskFull) DiskFull() bool { return true }

// fullAgentsStore refuses to store agents: its disk is full.
type fullAgentsStore struct{ agents.Store }

func (fullAgentsStore) CreateAgent(context.Context, agents.Registration) error {
	return &toolkit.Error{Kind: toolkit.Unavailable, Op: "bunstore.CreateAgent", Err: diskFull{},
		Msg: "the database's disk is full; writes are refused until space is freed, retry later", RetryAfter: 30 * time.Second}
}

// Regression (issue 23, finding 5): a write refused by a full disk is a
// 503 with a Retry-After, one log line naming the cause, and a disk_full
// event for the admin.
func TestDiskFullIsUnavailableAndRecorded(t *testing.T) {
	c := newTestClock()
	e := newEnv(t, withClock(c), func(c *envConfig) {
		c.agentsStore = func(s agents.Store) agents.Store { return fullAgentsStore{s} }
	})
	status, h, m := e.exchange("POST", "/v1/agents/register", nil, `{"owner_id":"acme","agent_name":"bot","agent_type":"trading"}`)
	require.Equal(t, http.StatusServiceUnavailable, status, m)
	assert.Equal(t, "30", h.Get("Retry-After"))
	assert.Equal(t, "unavailable", m["code"])
	assert.Contains(t, m["detail"], "disk is full")
	assert.NotContains(t, m["detail"], "(13)", "the driver's text stays in the logs")
	assert.Equal(t, 1, strings.Count(e.logs.String(), "database or disk is full (13)"), "one log line names the cause")

	c.Advance(2 * time.Minute) // the event's window closes
	events := e.eventsOf(guardian.TypeDiskFull)
	require.Len(t, events, 1)
	assert.Equal(t, "critical", events[0]["severity"])
}
