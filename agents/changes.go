package agents

import (
	"crypto/sha256"
	"time"

	"github.com/agentfinance/toolkit/internal/changecache"
)

// ChangeFeed is implemented by a store that announces agent changes, so
// that the services of every instance sharing it can cache what they read
// about an agent (Service.Authenticate, the billing meter's pre-charge
// check) and drop it the moment it changes.
//
// The rule for stores: every store method that changes an agent (its key,
// mode, restrictions, presale status, spend limits, or anything a later
// method adds) announces the agent's id, in the same transaction as the
// change, to every instance sharing the store (so a change that did not
// commit is announced to no one), and to the listeners of its own
// instance before it returns (so the change holds on that instance at
// once). adapters/storetest checks every such method; adapters/bunstore
// announces through LISTEN/NOTIFY on Postgres and a change table on
// SQLite, adapters/memstore in process.
type ChangeFeed interface {
	// Subscribe delivers the feed to l until stop is called. The feed
	// starts down: l.FeedUp is called once announcements flow.
	Subscribe(l ChangeListener) (stop func())
}

// AllAgents is announced for a change that concerns every agent (a
// platform-wide ceiling, say): every cached entry is dropped.
const AllAgents = "*"

// ChangeListener receives a ChangeFeed. Its methods return quickly and
// never call the store.
type ChangeListener interface {
	// AgentChanged says that whatever was read about the agent (about
	// every agent, for AllAgents) before is stale.
	AgentChanged(agentID string)
	// FeedDown says that announcements may be missed from now on (the
	// feed lost its connection): nothing cached may be trusted until
	// FeedUp.
	FeedDown()
	// FeedUp says that announcements flow (again).
	FeedUp()
}

// CacheConfig tunes the caches the services keep in front of a store
// that implements ChangeFeed. A store that does not gets no cache: every
// call reads the store.
type CacheConfig struct {
	// MaxAge is how long a cached record is used before it is read again
	// even though no change was announced: a safety net for an
	// announcement lost anyway (default changecache.DefaultMaxAge, 5 s).
	// Negative turns the cache off.
	MaxAge time.Duration
	// MaxEntries bounds the records cached (default
	// changecache.DefaultMaxEntries, 10,000).
	MaxEntries int
}

// newAuthCache returns the cache of Authenticate, subscribed to store's
// change feed: nil (no cache) when store has none or cfg turns it off.
func newAuthCache(store Store, cfg CacheConfig, now func() time.Time) *changecache.Cache[[sha256.Size]byte, Agent] {
	feed, ok := store.(ChangeFeed)
	if !ok || cfg.MaxAge < 0 {
		return nil
	}
	c := changecache.New[[sha256.Size]byte, Agent](cfg.MaxAge, cfg.MaxEntries, now)
	feed.Subscribe(c)
	return c
}
