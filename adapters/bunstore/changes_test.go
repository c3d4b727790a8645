package bunstore_test

import (
	"context"
	"net/url"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/bunstore"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/agentfinance/toolkit/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// feedWait bounds a wait on the change feed: a liveness bound for loaded
// machines. The latency itself is logged (and reported by hand), never
// asserted.
const feedWait = 10 * time.Second

// lookupCounter counts the key lookups that reach the database.
type lookupCounter struct {
	*bunstore.Store
	n atomic.Int64
}

func (c *lookupCounter) AgentByKeyDigest(ctx context.Context, digest []byte) (agents.Agent, error) {
	c.n.Add(1)
	return c.Store.AgentByKeyDigest(ctx, digest)
}

// twoInstances opens two stores on one database.
func twoInstances(t *testing.T, engine string) (a, b *bunstore.Store) {
	t.Helper()
	var dsn, schema string
	switch engine {
	case "sqlite":
		dsn = filepath.Join(t.TempDir(), "toolkit.db")
	case "postgres":
		dsn = bunstoretest.PostgresURL(t)
		schema = bunstoretest.FreshSchema(t, dsn)
	}
	open := func() *bunstore.Store {
		s, err := bunstore.Open(context.Background(), dsn, bunstore.Options{Schema: schema})
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	}
	return open(), open()
}

// refusedWithin waits until authenticate refuses with kind and returns
// how long that took.
func refusedWithin(t *testing.T, kind toolkit.Kind, authenticate func() error) time.Duration {
	t.Helper()
	start := time.Now()
	require.Eventually(t, func() bool { return toolkit.KindOf(authenticate()) == kind }, feedWait, time.Millisecond)
	return time.Since(start)
}

// TestAnotherInstanceRefusesAChangedKeyAtOnce: two servers' agent
// services on one database, each caching keys for an hour. A key rotated
// or an agent suspended on one is refused by the other as soon as the
// change feed delivers (LISTEN/NOTIFY on Postgres, the change table on
// SQLite), not after the hour.
func TestAnotherInstanceRefusesAChangedKeyAtOnce(t *testing.T) {
	ctx := context.Background()
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			first, second := twoInstances(t, engine)
			counted := &lookupCounter{Store: second}
			cache := agents.Config{Cache: agents.CacheConfig{MaxAge: time.Hour}}
			here, err := agents.NewService(first, cache)
			require.NoError(t, err)
			there, err := agents.NewService(counted, cache)
			require.NoError(t, err)

			reg, err := here.Register(ctx, agents.RegisterInput{OwnerID: "acme-" + engine, AgentName: "A", AgentType: "trading"}, "")
			require.NoError(t, err)
			a, key := reg.Agent, reg.APIKey
			require.Eventually(t, func() bool {
				before := counted.n.Load()
				_, err := there.Authenticate(ctx, key)
				return err == nil && counted.n.Load() == before
			}, feedWait, time.Millisecond, "once its feed is up, the other instance serves the key from its cache")

			newKey, err := here.RotateKey(ctx, a)
			require.NoError(t, err)
			took := refusedWithin(t, toolkit.Unauthenticated, func() error { _, err := there.Authenticate(ctx, key); return err })
			t.Logf("%s: the rotated key was refused by the other instance %s after the rotation returned", engine, took)
			_, err = there.Authenticate(ctx, newKey)
			require.NoError(t, err)

			_, err = here.AdminSetMode(ctx, a.ID, "suspended")
			require.NoError(t, err)
			took = refusedWithin(t, toolkit.Forbidden, func() error { _, err := there.Authenticate(ctx, newKey); return err })
			t.Logf("%s: the suspended agent was refused by the other instance %s after the suspension returned", engine, took)
		})
	}
}

// recorder records the feed's state changes.
type recorder struct {
	mu     sync.Mutex
	states []string
	heard  []string
}

func (r *recorder) AgentChanged(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.heard = append(r.heard, id)
}
func (r *recorder) FeedDown() { r.mu.Lock(); defer r.mu.Unlock(); r.states = append(r.states, "down") }
func (r *recorder) FeedUp()   { r.mu.Lock(); defer r.mu.Unlock(); r.states = append(r.states, "up") }

func (r *recorder) last() (state string, heard []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.states) > 0 {
		state = r.states[len(r.states)-1]
	}
	return state, append([]string(nil), r.heard...)
}

// TestChangeFeedGoesDownWithItsConnection: when the LISTEN connection is
// killed, the feed goes down (the caches serve nothing: announcements
// could be missed) and comes back up on a new connection, which hears the
// next change.
func TestChangeFeedGoesDownWithItsConnection(t *testing.T) {
	dsn := bunstoretest.PostgresURL(t)
	schema := bunstoretest.FreshSchema(t, dsn)
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	q := u.Query()
	q.Set("application_name", "feed-"+schema)
	u.RawQuery = q.Encode()
	ctx := context.Background()
	s, err := bunstore.Open(ctx, u.String(), bunstore.Options{Schema: schema})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	r := &recorder{}
	s.Subscribe(r)
	require.Eventually(t, func() bool { st, _ := r.last(); return st == "up" }, feedWait, time.Millisecond)

	killed := 0
	require.Eventually(t, func() bool {
		err := s.DB().NewRaw(`SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = ? AND query LIKE 'LISTEN%'`, "feed-"+schema).Scan(ctx, &killed)
		return err == nil && killed > 0
	}, feedWait, 10*time.Millisecond, "the listening connection is found and killed")
	require.Eventually(t, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.states) >= 3 && r.states[1] == "down" && r.states[2] == "up"
	}, feedWait, time.Millisecond, "down, then up on a new connection")

	a := agents.Agent{ID: "agt_feed", OwnerID: "o", Name: "n", Type: agents.TypeTrading, Mode: agents.ModeSandbox, CreatedAt: time.Now()}
	require.NoError(t, s.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: []byte("k"), NewOwner: true}))
	other, err := bunstore.Open(ctx, dsn, bunstore.Options{Schema: schema})
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	_, err = other.SetMode(ctx, a.ID, agents.ModeLive) // another instance's change: only the feed tells s
	require.NoError(t, err)
	assert.Eventually(t, func() bool { _, heard := r.last(); return len(heard) > 0 && heard[len(heard)-1] == a.ID },
		feedWait, time.Millisecond)
}
