package changecache_test

import (
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/internal/changecache"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newCache(t *testing.T, maxEntries int) (*changecache.Cache[string, int], *clock) {
	t.Helper()
	clk := &clock{t: time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)}
	c := changecache.New[string, int](5*time.Second, maxEntries, clk.now)
	c.FeedUp()
	return c, clk
}

func put(c *changecache.Cache[string, int], agent, key string, v int) {
	c.Put(c.Begin(), agent, key, v)
}

func TestCacheServesUntilMaxAge(t *testing.T) {
	c, clk := newCache(t, 10)
	put(c, "agt_a", "k1", 1)
	v, ok := c.Get("k1")
	require.True(t, ok)
	assert.Equal(t, 1, v)
	clk.add(4999 * time.Millisecond)
	_, ok = c.Get("k1")
	assert.True(t, ok, "younger than the maximum age")
	clk.add(time.Millisecond)
	_, ok = c.Get("k1")
	assert.False(t, ok, "the maximum age is a safety net: the entry is read again")
}

func TestCacheServesNothingWhileTheFeedIsDown(t *testing.T) {
	clk := &clock{t: time.Now()}
	c := changecache.New[string, int](time.Minute, 10, clk.now)
	put(c, "agt_a", "k1", 1)
	_, ok := c.Get("k1")
	assert.False(t, ok, "a new cache waits for its feed")

	c.FeedUp()
	put(c, "agt_a", "k1", 1)
	_, ok = c.Get("k1")
	require.True(t, ok)

	c.FeedDown()
	_, ok = c.Get("k1")
	assert.False(t, ok, "changes may go unannounced: nothing cached is trusted")
	put(c, "agt_a", "k1", 1)
	c.FeedUp()
	_, ok = c.Get("k1")
	assert.False(t, ok, "nothing read while the feed was down is kept")
}

func TestAgentChangedDropsTheAgentAndRacingReads(t *testing.T) {
	c, _ := newCache(t, 10)
	put(c, "agt_a", "k1", 1)
	put(c, "agt_b", "k2", 2)

	ticket := c.Begin() // a read of agt_a starts...
	c.AgentChanged("agt_a")
	c.Put(ticket, "agt_a", "k1", 1) // ...and ends after the change: not cached
	_, ok := c.Get("k1")
	assert.False(t, ok, "the changed agent's entry is gone, and the racing read is not cached")
	v, ok := c.Get("k2")
	assert.True(t, ok, "other agents keep theirs")
	assert.Equal(t, 2, v)

	put(c, "agt_a", "k1", 3)
	v, ok = c.Get("k1")
	assert.True(t, ok, "a read after the change is cached")
	assert.Equal(t, 3, v)
}

func TestAChangeOfEveryAgentDropsEverything(t *testing.T) {
	c, _ := newCache(t, 10)
	put(c, "agt_a", "k1", 1)
	put(c, "agt_b", "k2", 2)
	c.AgentChanged("*")
	assert.Zero(t, c.Len())
	put(c, "agt_a", "k1", 1)
	_, ok := c.Get("k1")
	assert.True(t, ok, "the cache goes on serving what is read after")
}

func TestANewKeyOfAnAgentReplacesItsOldOne(t *testing.T) {
	c, _ := newCache(t, 10)
	put(c, "agt_a", "old", 1)
	put(c, "agt_a", "new", 1)
	_, ok := c.Get("old")
	assert.False(t, ok, "an agent has one key: the rotated one is dropped")
	_, ok = c.Get("new")
	assert.True(t, ok)
	assert.Equal(t, 1, c.Len())
}

func TestCacheIsBounded(t *testing.T) {
	c, _ := newCache(t, 3)
	for i, k := range []string{"a", "b", "c", "d", "e"} {
		put(c, "agt_"+k, k, i)
	}
	assert.Equal(t, 3, c.Len())
	v, ok := c.Get("e")
	assert.True(t, ok, "the newest entry is always stored")
	assert.Equal(t, 4, v)
}

func TestUpdateAndDrop(t *testing.T) {
	c, clk := newCache(t, 10)
	put(c, "agt_a", "k1", 1)
	clk.add(3 * time.Second)
	c.Update("k1", func(v int) int { return v + 10 })
	c.Update("missing", func(v int) int { t.Fatal("no entry: no update"); return v })
	v, ok := c.Get("k1")
	require.True(t, ok)
	assert.Equal(t, 11, v)
	clk.add(2 * time.Second)
	_, ok = c.Get("k1")
	assert.False(t, ok, "an update keeps the entry's age")

	put(c, "agt_a", "k1", 1)
	c.Drop("k1")
	_, ok = c.Get("k1")
	assert.False(t, ok)
	assert.Zero(t, c.Len())
}

func TestCacheIsSafeForConcurrentUse(t *testing.T) {
	c, _ := newCache(t, 50)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				k := string(rune('a' + (g*7+i)%26))
				put(c, "agt_"+k, k, i)
				c.Get(k)
				if i%50 == 0 {
					c.AgentChanged("agt_" + k)
				}
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, c.Len(), 26)
}
