package agents

import (
	"context"
	"sync"
	"time"
)

// KeyUseResolution is the precision of an API key's last use
// (Agent.KeyUsedAt): a key that authenticates request after request is
// written to the store at most once per resolution and instance, so
// recording the last use adds no write to the hot path.
const KeyUseResolution = time.Minute

// maxKeyUseEntries bounds the instance's memory of recent key writes.
const maxKeyUseEntries = 10_000

// keyUse remembers when this instance last recorded each agent's key use.
type keyUse struct {
	mu      sync.Mutex
	written map[string]time.Time
}

// due reports whether the use of a's key at now should be written, and if
// so notes it as written.
func (k *keyUse) due(a Agent, now time.Time) bool {
	stale := now.Add(-KeyUseResolution)
	if a.KeyUsedAt != nil && a.KeyUsedAt.After(stale) {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if t, ok := k.written[a.ID]; ok && t.After(stale) {
		return false
	}
	if k.written == nil || len(k.written) >= maxKeyUseEntries {
		k.written = map[string]time.Time{} // forgetting costs one write per agent
	}
	k.written[a.ID] = now
	return true
}

// touchKey records the key's use when it is due. The record is
// informational (the owner's "last used"): a store failure must not fail
// the request it rides on, so it is dropped; the next use retries.
func (s *Service) touchKey(ctx context.Context, a Agent) {
	now := s.now().UTC().Truncate(time.Microsecond)
	if !s.keyUse.due(a, now) {
		return
	}
	if err := s.store.TouchKey(ctx, a.ID, now, now.Add(-KeyUseResolution)); err != nil {
		s.keyUse.forget(a.ID)
	}
}

// forget drops the note of a write that failed.
func (k *keyUse) forget(id string) {
	k.mu.Lock()
	delete(k.written, id)
	k.mu.Unlock()
}
