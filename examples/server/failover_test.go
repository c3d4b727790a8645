//go:build cluster

package main

import (
	"fmt"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failoverLoad is metered load whose every call carries an
// Idempotency-Key and is retried with it until answered 200, as a careful
// client does; it records what each attempt got.
type failoverLoad struct {
	mu       sync.Mutex
	statuses map[int]int
	answered map[string]bool      // keys answered 200 -> answered as a replay
	firstOK  map[string]time.Time // keys answered 200 -> when
	pending  map[string]bool      // keys never answered 200 before the deadline
	retried  int                  // keys that needed more than one attempt
	okTimes  map[string][]time.Time
}

func newFailoverLoad() *failoverLoad {
	return &failoverLoad{statuses: map[int]int{}, answered: map[string]bool{}, firstOK: map[string]time.Time{},
		pending: map[string]bool{}, okTimes: map[string][]time.Time{}}
}

// postKeyed sends one sizing call with an Idempotency-Key: its status (0:
// no answer) and whether it was a replay.
func postKeyed(client *http.Client, base, apiKey, idem string) (int, bool) {
	req, _ := http.NewRequest("POST", base+"/v1/sizing/calculate", strings.NewReader(sizingBody))
	req.Header.Set("X-API-Key", apiKey)
	req.Header.Set("Idempotency-Key", idem)
	res, err := client.Do(req)
	if err != nil {
		return 0, false
	}
	defer res.Body.Close()
	return res.StatusCode, res.Header.Get("Idempotent-Replayed") == "true"
}

// client runs keyed calls against the servers in turn until stop closes,
// then finishes the call under way (retrying it until giveUp).
func (l *failoverLoad) client(id int, servers []*server, apiKey string, stop <-chan struct{}, giveUp time.Time) {
	client := &http.Client{Timeout: 10 * time.Second}
	for n := 0; ; n++ {
		select {
		case <-stop:
			return
		default:
		}
		idem := fmt.Sprintf("failover-%d-%d", id, n)
		for attempt := 0; ; attempt++ {
			s := servers[(id+n+attempt)%len(servers)]
			status, replayed := postKeyed(client, s.base, apiKey, idem)
			l.mu.Lock()
			l.statuses[status]++
			if status == http.StatusOK {
				l.answered[idem] = replayed
				l.firstOK[idem] = time.Now()
				l.okTimes[s.base] = append(l.okTimes[s.base], time.Now())
				if attempt > 0 {
					l.retried++
				}
			}
			l.mu.Unlock()
			if status == http.StatusOK {
				break
			}
			if time.Now().After(giveUp) {
				l.mu.Lock()
				l.pending[idem] = true
				l.mu.Unlock()
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// firstOKAfter is the first 200 after t on base (zero: none).
func (l *failoverLoad) firstOKAfter(base string, t time.Time) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	times := l.okTimes[base]
	i := sort.Search(len(times), func(i int) bool { return times[i].After(t) })
	if i == len(times) {
		return time.Time{}
	}
	return times[i]
}

// retryOldCharges retries, on the servers now on the promoted standby, up
// to 50 keys answered 200 by the old primary before it was killed, as a
// client whose answers were lost would: each is a replay.
func retryOldCharges(t *testing.T, servers []*server, apiKey string, load *failoverLoad, killedAt time.Time) int {
	var old []string
	for k, at := range load.firstOK {
		if at.Before(killedAt) && len(old) < 50 {
			old = append(old, k)
		}
	}
	require.NotEmpty(t, old)
	for i, k := range old {
		status, replayed := postKeyed(http.DefaultClient, servers[i%len(servers)].base, apiKey, k)
		require.Equal(t, http.StatusOK, status, k)
		assert.True(t, replayed, "%s: charged on the old primary, replayed by the promoted one", k)
	}
	return len(old)
}

// idempotencyKeys are the keys stored for an agent's charges.
func (f faultDB) idempotencyKeys(t *testing.T, agentID string) map[string]bool {
	rows, err := f.db.Query(`SELECT idem_key FROM idempotency_keys WHERE agent_id = $1`, agentID)
	require.NoError(t, err)
	defer rows.Close()
	keys := map[string]bool{}
	for rows.Next() {
		var k string
		require.NoError(t, rows.Scan(&k))
		keys[k] = true
	}
	require.NoError(t, rows.Err())
	return keys
}

// TestFailoverSynchronousStandby (issue 28, item 3): two servers on a
// primary with a synchronous standby, through a multi-host URL with
// target_session_attrs=read-write. The primary is killed under metered
// load and the standby promoted. Every charge answered 200 is in the
// promoted database, each Idempotency-Key retried across the switch is
// charged once, the books hold, and the servers recover by themselves.
func TestFailoverSynchronousStandby(t *testing.T) {
	pair := startPGPair(t)
	dsn := pair.url(pair.primary, pair.standby)
	keys := filepath.Join(t.TempDir(), "keys.json")
	var servers []*server
	for range 2 {
		servers = append(servers, startServer(t, append([]string{"-db", dsn, "-keys", keys}, noLimits...)...))
	}
	apiKey, agentID := funded(t, servers[0], "failover", "100")

	load := newFailoverLoad()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	const clients = 8
	giveUp := time.Now().Add(60 * time.Second)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			load.client(i, servers, apiKey, stop, giveUp)
		}()
	}
	time.Sleep(1500 * time.Millisecond)
	killedAt := time.Now()
	pair.killPrimary()
	pair.promote()
	promotedAt := time.Now()
	time.Sleep(3 * time.Second)
	close(stop)
	wg.Wait()

	window := time.Duration(0)
	var recovered []string
	for _, s := range servers {
		first := load.firstOKAfter(s.base, promotedAt.Add(-time.Nanosecond))
		require.False(t, first.IsZero(), "%s answers 200 again after the promotion by itself", s.base)
		window = max(window, first.Sub(killedAt))
		recovered = append(recovered, first.Sub(killedAt).Round(time.Millisecond).String())
	}
	promoted := faultDB{name: "promoted standby", db: pair.open(pair.standby, "toolkit")}
	defer promoted.db.Close()

	stored := promoted.idempotencyKeys(t, agentID)
	var missing []string
	replays := 0
	for k, replayed := range load.answered {
		if !stored[k] {
			missing = append(missing, k)
		}
		if replayed {
			replays++
		}
	}
	charges := promoted.charges(t, agentID)
	t.Logf("FIGURE failover: primary killed under load of %d clients on 2 servers; standby promoted in %v; every server answering 200 again %v after the kill (each server: %s)",
		clients, promotedAt.Sub(killedAt).Round(time.Millisecond), window.Round(time.Millisecond), strings.Join(recovered, ", "))
	t.Logf("FIGURE failover: %d charges answered 200 checked in the promoted database: %d missing; %d consumption rows; %d keys retried across the switch (%d answered as replays); answers %v",
		len(load.answered), len(missing), charges, load.retried, replays, load.statuses)

	assert.Empty(t, load.pending, "every keyed call is answered 200 after the switch")
	assert.Empty(t, missing, "every charge answered 200 is in the promoted database")
	assert.Equal(t, int64(len(load.answered)), charges, "each Idempotency-Key charged once, none lost, none twice")
	n := retryOldCharges(t, servers, apiKey, load, killedAt)
	assert.Equal(t, charges, promoted.charges(t, agentID), "retries of charges the old primary took charge nothing")
	t.Logf("FIGURE failover: %d keys charged on the old primary retried after the promotion: each a replay, %d consumption rows after",
		n, promoted.charges(t, agentID))
	for status := range load.statuses {
		assert.Contains(t, []int{http.StatusOK, http.StatusServiceUnavailable}, status, "only successes and 503s, never a 500")
	}
	promoted.booksHold(t)
	status, bal := servers[1].call("GET", "/v1/billing/balance", map[string]string{"X-API-Key": apiKey}, "")
	require.Equal(t, http.StatusOK, status, bal)
	got, err := toolkit.ParseAmount(fmt.Sprint(bal["sandbox_balance"]))
	require.NoError(t, err)
	micros, err := got.Micros()
	require.NoError(t, err)
	assert.Equal(t, 100_000_000-3_000*int64(len(load.answered)), micros, "the balance is the deposit less one price per answered key")
}
