package agents_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingStore counts the key lookups that reach the store; embedding
// *memstore.Store, it keeps the store's change feed.
type countingStore struct {
	*memstore.Store
	lookups atomic.Int64
}

func (c *countingStore) AgentByKeyDigest(ctx context.Context, digest []byte) (agents.Agent, error) {
	c.lookups.Add(1)
	return c.Store.AgentByKeyDigest(ctx, digest)
}

// withoutFeed hides the store's change feed.
type withoutFeed struct{ agents.Store }

func registered(t *testing.T, svc *agents.Service) (agents.Agent, string) {
	t.Helper()
	r, err := svc.Register(context.Background(), agents.RegisterInput{OwnerID: "acme", AgentName: "Bot", AgentType: "trading"}, "")
	require.NoError(t, err)
	return r.Agent, r.APIKey
}

func TestAuthenticateIsCachedWithAChangeFeed(t *testing.T) {
	ctx := context.Background()
	store := &countingStore{Store: memstore.New()}
	svc, err := agents.NewService(store, agents.Config{})
	require.NoError(t, err)
	a, key := registered(t, svc)
	for range 3 {
		got, err := svc.Authenticate(ctx, key)
		require.NoError(t, err)
		assert.Equal(t, a.ID, got.ID)
	}
	assert.Equal(t, int64(1), store.lookups.Load(), "one store lookup, then the cache")

	got, _ := svc.Authenticate(ctx, key)
	got.AuthorizedActions = append(got.AuthorizedActions, "everything")
	again, _ := svc.Authenticate(ctx, key)
	assert.Empty(t, again.AuthorizedActions, "a caller's copy never changes the cached agent")

	bad := key[:len(key)-1] + "Z"
	if bad == key {
		bad = key[:len(key)-1] + "Y" // one character off, whatever the key ends with
	}
	for range 2 {
		_, err := svc.Authenticate(ctx, bad)
		assert.Equal(t, toolkit.Unauthenticated, toolkit.KindOf(err))
	}
	assert.Equal(t, int64(3), store.lookups.Load(), "unknown keys are never cached")
}

func TestAuthenticateWithoutAFeedOrWithTheCacheOffReadsTheStore(t *testing.T) {
	ctx := context.Background()
	for name, build := range map[string]func(*countingStore) (*agents.Service, error){
		"store without a change feed": func(s *countingStore) (*agents.Service, error) {
			return agents.NewService(withoutFeed{s}, agents.Config{})
		},
		"negative MaxAge": func(s *countingStore) (*agents.Service, error) {
			return agents.NewService(s, agents.Config{Cache: agents.CacheConfig{MaxAge: -1}})
		},
	} {
		t.Run(name, func(t *testing.T) {
			store := &countingStore{Store: memstore.New()}
			svc, err := build(store)
			require.NoError(t, err)
			_, key := registered(t, svc)
			for range 3 {
				_, err := svc.Authenticate(ctx, key)
				require.NoError(t, err)
			}
			assert.Equal(t, int64(3), store.lookups.Load())
		})
	}
}

// TestEveryAgentChangeReachesTheCacheAtOnce: a cached key stops working
// the moment the agent changes, whether the change goes through the
// service or straight to the store (another service, an owner or admin
// operation): the store announces it before returning.
func TestEveryAgentChangeReachesTheCacheAtOnce(t *testing.T) {
	ctx := context.Background()
	cases := map[string]struct {
		change func(t *testing.T, svc *agents.Service, store *memstore.Store, a agents.Agent)
		kind   toolkit.Kind
	}{
		"key rotated": {func(t *testing.T, svc *agents.Service, _ *memstore.Store, a agents.Agent) {
			_, err := svc.RotateKey(ctx, a)
			require.NoError(t, err)
		}, toolkit.Unauthenticated},
		"suspended by an admin": {func(t *testing.T, svc *agents.Service, _ *memstore.Store, a agents.Agent) {
			_, err := svc.AdminSetMode(ctx, a.ID, "suspended")
			require.NoError(t, err)
		}, toolkit.Forbidden},
		"terminated by the agent": {func(t *testing.T, svc *agents.Service, _ *memstore.Store, a agents.Agent) {
			_, err := svc.SetMode(ctx, a, "terminated")
			require.NoError(t, err)
		}, toolkit.Forbidden},
		"suspended in the store directly": {func(t *testing.T, _ *agents.Service, store *memstore.Store, a agents.Agent) {
			_, err := store.SetMode(ctx, a.ID, agents.ModeSuspended)
			require.NoError(t, err)
		}, toolkit.Forbidden},
		"key replaced in the store directly": {func(t *testing.T, _ *agents.Service, store *memstore.Store, a agents.Agent) {
			require.NoError(t, store.ReplaceKeyDigest(ctx, a.ID, agents.KeyDigest("aft_agent_"+string(make([]byte, 40))), time.Now()))
		}, toolkit.Unauthenticated},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			store := memstore.New()
			svc, err := agents.NewService(store, agents.Config{Cache: agents.CacheConfig{MaxAge: time.Hour}})
			require.NoError(t, err)
			a, key := registered(t, svc)
			_, err = svc.Authenticate(ctx, key)
			require.NoError(t, err, "the agent is cached")
			c.change(t, svc, store, a)
			_, err = svc.Authenticate(ctx, key)
			assert.Equal(t, c.kind, toolkit.KindOf(err), "refused at once, not after the maximum age")
		})
	}
}

func TestAuthenticateSeesAModeChangeBackToActive(t *testing.T) {
	ctx := context.Background()
	svc, err := agents.NewService(memstore.New(), agents.Config{Cache: agents.CacheConfig{MaxAge: time.Hour}})
	require.NoError(t, err)
	a, key := registered(t, svc)
	_, err = svc.AdminSetMode(ctx, a.ID, "suspended")
	require.NoError(t, err)
	_, err = svc.Authenticate(ctx, key)
	require.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "a suspended agent is cached as such")
	_, err = svc.AdminSetMode(ctx, a.ID, "live")
	require.NoError(t, err)
	got, err := svc.Authenticate(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, agents.ModeLive, got.Mode)
}
