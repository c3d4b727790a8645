package agents

import (
	"context"
	"crypto/subtle"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/guardian"
)

// OwnerKeyField is the vault field under which owner keys are hashed: an
// owner key is stored only as its keyed hash (cryptovault.Vault.Hash), so
// a copy of the database cannot be tested against guessed keys without the
// vault's lookup key.
const OwnerKeyField = "owner_key"

// Owner is the person or organisation that owns agents. Its owner key
// (X-Owner-Key) opens the owner API and the portal; agent keys never do.
type Owner struct {
	ID        string
	CreatedAt time.Time
	// KeyCreatedAt is when the current owner key was issued; nil when the
	// owner has none (an admin can issue one).
	KeyCreatedAt *time.Time
}

// OwnerSummary is one owner in the admin's list of owners.
type OwnerSummary struct {
	Owner
	// Agents counts the owner's agents; Active those in sandbox or live.
	Agents, Active int
}

// Bounds of the admin's owner list.
const (
	DefaultOwnersLimit = 50
	MaxOwnersLimit     = 500
)

// ownerPrefixOf derives the owner key prefix from the agent key prefix:
// "aft_agent_" gives "aft_owner_".
func ownerPrefixOf(agentPrefix string) string {
	return strings.TrimSuffix(agentPrefix, "agent_") + "owner_"
}

// OwnerKeyPrefix returns the prefix of this service's owner keys.
func (s *Service) OwnerKeyPrefix() string { return s.ownerPrefix }

// newOwnerKey returns a fresh owner key and its keyed hash. Without a
// vault no owner key can be stored: it returns "" and nil.
func (s *Service) newOwnerKey() (string, []byte, error) {
	if s.vault == nil {
		return "", nil, nil
	}
	r, err := toolkit.RandomString(s.random, toolkit.Alphanumerics, keyRandomLen)
	if err != nil {
		return "", nil, err
	}
	key := s.ownerPrefix + r
	hash, err := s.vault.Hash(OwnerKeyField, []byte(key))
	return key, hash, err
}

// wellFormedOwnerKey checks an owner key's shape before any lookup.
func (s *Service) wellFormedOwnerKey(key string) bool {
	p := s.ownerPrefix
	if len(key) != len(p)+keyRandomLen || subtle.ConstantTimeCompare([]byte(key[:len(p)]), []byte(p)) != 1 {
		return false
	}
	for i := len(p); i < len(key); i++ {
		if strings.IndexByte(toolkit.Alphanumerics, key[i]) < 0 {
			return false
		}
	}
	return true
}

// errOwnerKey is the answer to a missing, malformed or unknown owner key.
func errOwnerKey() error {
	return toolkit.Errorf(toolkit.Unauthenticated, "Invalid or missing owner key (X-Owner-Key); agent API keys do not open owner endpoints")
}

// ownerKeysUnavailable is the answer when no vault can hash owner keys.
func ownerKeysUnavailable() error {
	return toolkit.Errorf(toolkit.Unavailable,
		"owner keys are not set up on this server: it has no key vault to hash them")
}

// AuthenticateOwner returns the owner whose owner key this is. A missing,
// malformed or unknown key (an agent API key included) is
// toolkit.Unauthenticated.
func (s *Service) AuthenticateOwner(ctx context.Context, key string) (Owner, error) {
	if !s.wellFormedOwnerKey(key) {
		return Owner{}, errOwnerKey()
	}
	if s.vault == nil {
		return Owner{}, ownerKeysUnavailable()
	}
	hash, err := s.vault.Hash(OwnerKeyField, []byte(key))
	if err != nil {
		return Owner{}, toolkit.WithOp("agents.AuthenticateOwner", err)
	}
	return s.OwnerByKeyHash(ctx, hash)
}

// OwnerKeyHash returns the keyed hash under which key is stored (what a
// portal session keeps instead of the key).
func (s *Service) OwnerKeyHash(key string) ([]byte, error) {
	if s.vault == nil {
		return nil, ownerKeysUnavailable()
	}
	return s.vault.Hash(OwnerKeyField, []byte(key))
}

// OwnerByKeyHash returns the owner whose current key has this keyed hash;
// toolkit.Unauthenticated once the key was replaced.
func (s *Service) OwnerByKeyHash(ctx context.Context, hash []byte) (Owner, error) {
	o, err := s.store.OwnerByKeyHash(ctx, hash)
	if toolkit.IsKind(err, toolkit.NotFound) {
		return Owner{}, errOwnerKey()
	}
	return o, toolkit.WithOp("agents.OwnerByKeyHash", err)
}

// RotateOwnerKey replaces the owner's key; the old one stops working at
// once (portal sessions signed in with it end too). The new key is
// returned only this once.
func (s *Service) RotateOwnerKey(ctx context.Context, owner Owner) (string, error) {
	return s.replaceOwnerKey(ctx, owner.ID, "by the owner")
}

// IssueOwnerKey gives an owner a new owner key on an administrator's
// behalf: for an owner who has none (registered before owner keys
// existed) or lost it. Any previous key stops working.
func (s *Service) IssueOwnerKey(ctx context.Context, ownerID string) (string, error) {
	id, err := NormalizeOwnerID(ownerID)
	if err != nil {
		return "", err
	}
	return s.replaceOwnerKey(ctx, id, "by an admin")
}

func (s *Service) replaceOwnerKey(ctx context.Context, ownerID, by string) (string, error) {
	const op = "agents.ReplaceOwnerKey"
	if s.vault == nil {
		return "", ownerKeysUnavailable()
	}
	key, hash, err := s.newOwnerKey()
	if err != nil {
		return "", toolkit.WithOp(op, err)
	}
	if err := s.store.ReplaceOwnerKeyHash(ctx, ownerID, hash, s.now().UTC().Truncate(time.Microsecond)); err != nil {
		return "", toolkit.WithOp(op, err)
	}
	s.rec.Record(ctx, guardian.Event{Type: guardian.TypeOwnerKeyIssued, Description: "Owner key of " + ownerID + " replaced " + by})
	return key, nil
}

// ListOwners returns up to limit owners (1..MaxOwnersLimit) in id order,
// after the owner id after ("" starts at the first), for administrators.
func (s *Service) ListOwners(ctx context.Context, after string, limit int) ([]OwnerSummary, error) {
	if limit < 1 || limit > MaxOwnersLimit {
		return nil, invalid("limit: must be between 1 and %d (got %d)", MaxOwnersLimit, limit)
	}
	list, err := s.store.ListOwners(ctx, after, limit)
	return list, toolkit.WithOp("agents.ListOwners", err)
}
