// Package tinkkeys implements cryptovault.KeyManager over Tink keysets.
//
// # Keys
//
// A KeyManager holds two keysets:
//
//   - The master keyset: a Tink PRF-based deriver (an HKDF-SHA256 PRF) that
//     derives one AES-256-GCM keyset per agent, with the salt
//     "agentfin/field-key/v1/" + agent id. Derived keysets keep the master's
//     key ids and primary, and use Tink's output prefix (a version byte and
//     the 4-byte key id before the nonce), so after a rotation old
//     ciphertexts still open under the old key and new ones name the new key.
//     Derived AEADs are kept in a bounded LRU cache (default 10,000 agents).
//
//   - The lookup keyset: one HMAC-SHA256 PRF key, used for
//     cryptovault.KeyManager.LookupHash. It is separate from the master
//     keyset because lookup hashes back unique indexes (deposit-signature
//     replay protection, wallet lookups) and must not change when the
//     encryption keys rotate: a hash derived from the master primary would
//     change at every rotation and silently defeat those indexes. The lookup
//     key is never rotated by this package; rotating it means recomputing
//     every stored hash first ("never rotate without rehashing"), so a key
//     file whose lookup keyset holds more than one key is refused.
//
// # Key files
//
// Both keysets live in one JSON file:
//
//	{"format": "agentfin-keys-v1", "protection": "cleartext" | "kek",
//	 "master": <Tink JSON keyset>, "lookup": <Tink JSON keyset>}
//
// With protection "cleartext" (development, LoadOrCreateDevKeys) the
// keysets are Tink cleartext JSON keysets; the file must have mode 0600 (no
// group or other permission bits) or it is refused. With protection "kek"
// (production, CreateEncryptedKeys, LoadEncryptedKeys) each keyset is a Tink
// encrypted keyset, encrypted under a key-encryption key (any tink.AEAD,
// typically a KMS client's AEAD) with associated data
// "agentfin-keys-v1/master/" + ad or "agentfin-keys-v1/lookup/" + ad, where
// ad is a non-empty deployment name chosen by the operator. Each loader
// refuses the other protection. Files are written atomically (temporary
// file in the same directory, fsync, then rename or link) with mode 0600.
//
// # Rotation
//
// Rotate (or AddKey, then Promote) adds a master key, rewrites the key file
// atomically and then switches the running KeyManager to the new keyset with
// a fresh cache, so the process never serves an AEAD derived before the
// change. Other processes reading the same file keep their keys until they
// reload (restart): with several servers, AddKey first, restart them all,
// then Promote and restart again, so that no server meets a ciphertext under
// a key it does not hold yet (it would report it as tampered). Old master
// keys are never removed: data sealed under them stays readable. Rotation
// does not touch the lookup keyset.
package tinkkeys

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/agentfinance/toolkit/cryptovault"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/tink-crypto/tink-go/v2/aead"
	"github.com/tink-crypto/tink-go/v2/aead/aesgcm"
	"github.com/tink-crypto/tink-go/v2/keyderivation"
	"github.com/tink-crypto/tink-go/v2/keyset"
	"github.com/tink-crypto/tink-go/v2/prf"
	tinkpb "github.com/tink-crypto/tink-go/v2/proto/tink_go_proto"
)

// DefaultCacheSize is the number of derived agent AEADs a KeyManager keeps.
const DefaultCacheSize = 10_000

// saltPrefix starts the derivation salt of every agent key. It is part of
// the persistent format: changing it changes every agent's key.
const saltPrefix = "agentfin/field-key/v1/"

// lookupSize is the length of a lookup hash.
const lookupSize = cryptovault.HashSize

var _ cryptovault.KeyManager = (*KeyManager)(nil)

// Option tunes a KeyManager.
type Option func(*options)

type options struct {
	cacheSize int
}

// WithCacheSize sets how many derived agent AEADs are cached (default
// DefaultCacheSize; at least 1). Each costs a few kilobytes; a miss costs
// one derivation per master key.
func WithCacheSize(n int) Option {
	return func(o *options) { o.cacheSize = n }
}

// KeyManager derives per-agent AEADs from a master keyset and computes
// lookup hashes with a separate PRF keyset. It is safe for concurrent use.
type KeyManager struct {
	cacheSize int
	lookup    *prf.Set
	lookupKS  *keyset.Handle
	file      *keyFile // where key changes are written; nil when built by New

	mu    sync.Mutex // serialises key changes
	state atomic.Pointer[masterState]
}

// masterState is one version of the master keyset with its own cache. A
// key change installs a new state, so an AEAD derived from an older keyset
// can never be served from the new state's cache.
type masterState struct {
	handle  *keyset.Handle
	deriver keyderivation.KeysetDeriver
	cache   *lru.Cache[string, cryptovault.AEAD]
}

// masterTemplate is the key template of master keys: an HKDF-SHA256 PRF
// deriving AES-256-GCM keys with Tink's output prefix.
func masterTemplate() (*tinkpb.KeyTemplate, error) {
	return keyderivation.CreatePRFBasedKeyTemplate(prf.HKDFSHA256PRFKeyTemplate(), aead.AES256GCMKeyTemplate())
}

// NewKeysets generates a fresh master keyset (one PRF-based deriver key) and
// a fresh lookup keyset (one HMAC-SHA256 PRF key).
func NewKeysets() (master, lookup *keyset.Handle, err error) {
	tmpl, err := masterTemplate()
	if err != nil {
		return nil, nil, fmt.Errorf("tinkkeys: master key template: %w", err)
	}
	if master, err = keyset.NewHandle(tmpl); err != nil {
		return nil, nil, fmt.Errorf("tinkkeys: new master keyset: %w", err)
	}
	if lookup, err = keyset.NewHandle(prf.HMACSHA256PRFKeyTemplate()); err != nil {
		return nil, nil, fmt.Errorf("tinkkeys: new lookup keyset: %w", err)
	}
	return master, lookup, nil
}

// New returns a KeyManager over the given keysets, which it checks: master
// must derive AES-256-GCM keysets with Tink's output prefix, lookup must be
// a single-key PRF keyset giving 32-byte outputs. A KeyManager built by New
// has no key file, so Rotate, AddKey and Promote refuse to run: rotate the
// keysets where they are stored and build a new KeyManager.
func New(master, lookup *keyset.Handle, opts ...Option) (*KeyManager, error) {
	o := options{cacheSize: DefaultCacheSize}
	for _, opt := range opts {
		opt(&o)
	}
	if o.cacheSize < 1 {
		return nil, fmt.Errorf("tinkkeys: cache size must be at least 1, got %d", o.cacheSize)
	}
	if master == nil || lookup == nil {
		return nil, errors.New("tinkkeys: master and lookup keysets are required")
	}
	if n := lookup.Len(); n != 1 {
		return nil, fmt.Errorf("tinkkeys: lookup keyset must hold exactly one key, has %d: "+
			"rotating it changes every lookup hash, so rehash stored values first", n)
	}
	ps, err := prf.NewPRFSet(lookup)
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: lookup keyset is not a PRF keyset: %w", err)
	}
	if _, err := ps.ComputePrimaryPRF([]byte("probe"), lookupSize); err != nil {
		return nil, fmt.Errorf("tinkkeys: lookup keyset cannot give %d-byte hashes: %w", lookupSize, err)
	}
	km := &KeyManager{cacheSize: o.cacheSize, lookup: ps, lookupKS: lookup}
	s, err := km.newState(master)
	if err != nil {
		return nil, err
	}
	km.state.Store(s)
	return km, nil
}

// newState checks master and prepares a deriver and an empty cache for it.
func (km *KeyManager) newState(master *keyset.Handle) (*masterState, error) {
	d, err := keyderivation.New(master)
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: master keyset is not a key-derivation keyset: %w", err)
	}
	probe, err := d.DeriveKeyset([]byte(saltPrefix))
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: master keyset cannot derive: %w", err)
	}
	if err := checkDerived(probe); err != nil {
		return nil, err
	}
	cache, err := lru.New[string, cryptovault.AEAD](km.cacheSize)
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: cache: %w", err)
	}
	return &masterState{handle: master, deriver: d, cache: cache}, nil
}

// checkDerived verifies a derived keyset holds only AES-256-GCM keys with
// Tink's output prefix, the only kind this package writes.
func checkDerived(h *keyset.Handle) error {
	for i := range h.Len() {
		e, err := h.Entry(i)
		if err != nil {
			return fmt.Errorf("tinkkeys: derived keyset: %w", err)
		}
		k, ok := e.Key().(*aesgcm.Key)
		if !ok {
			return fmt.Errorf("tinkkeys: master key %d derives %T, want AES-256-GCM", e.KeyID(), e.Key())
		}
		p, ok := k.Parameters().(*aesgcm.Parameters)
		if !ok {
			return fmt.Errorf("tinkkeys: master key %d derives AES-GCM with parameters %T", e.KeyID(), k.Parameters())
		}
		if p.KeySizeInBytes() != 32 || p.Variant() != aesgcm.VariantTink {
			return fmt.Errorf("tinkkeys: master key %d derives AES-GCM with %d-byte keys and variant %s, want 32 and TINK",
				e.KeyID(), p.KeySizeInBytes(), p.Variant())
		}
	}
	return nil
}

// AgentAEAD returns agentID's AEAD, derived from the master keyset with
// the agent id in the salt, from the cache when it is there.
func (km *KeyManager) AgentAEAD(_ context.Context, agentID string) (cryptovault.AEAD, error) {
	if agentID == "" {
		return nil, errors.New("tinkkeys: empty agent id")
	}
	s := km.state.Load()
	if a, ok := s.cache.Get(agentID); ok {
		return a, nil
	}
	a, err := s.derive(agentID)
	if err != nil {
		return nil, err
	}
	s.cache.Add(agentID, a)
	return a, nil
}

// derive builds agentID's AEAD without the cache.
func (s *masterState) derive(agentID string) (cryptovault.AEAD, error) {
	h, err := s.deriver.DeriveKeyset([]byte(saltPrefix + agentID))
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: derive key for agent %q: %w", agentID, err)
	}
	a, err := aead.New(h)
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: AEAD for agent %q: %w", agentID, err)
	}
	return a, nil
}

// LookupHash returns the 32-byte HMAC-SHA256 PRF of data under the lookup
// key. It does not depend on the master keyset, so it survives rotation.
func (km *KeyManager) LookupHash(data []byte) ([]byte, error) {
	h, err := km.lookup.ComputePrimaryPRF(data, lookupSize)
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: lookup hash: %w", err)
	}
	return h, nil
}

// PrimaryKeyID returns the id of the primary master key: the key id that
// new ciphertexts carry in bytes 1 to 4 of their output prefix.
func (km *KeyManager) PrimaryKeyID() uint32 {
	e, err := km.state.Load().handle.Primary()
	if err != nil { // a checked keyset always has a primary
		return 0
	}
	return e.KeyID()
}
