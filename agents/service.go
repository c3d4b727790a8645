package agents

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/internal/changecache"
)

// MaxAgentsPerOwner bounds the agents listed for one owner.
const MaxAgentsPerOwner = 1000

// Config configures a Service. Zero fields take defaults.
type Config struct {
	// KeyPrefix is the API key prefix; it must end in "agent_".
	// Default DefaultKeyPrefix ("aft_agent_").
	KeyPrefix string
	// Now returns the current time (default time.Now).
	Now func() time.Time
	// Random is the source of key and id randomness (default crypto/rand).
	Random io.Reader
	// Recorder receives security events: refused owner claims,
	// suspensions and terminations (default: discarded).
	Recorder guardian.Recorder
	// WalletService is the service name in signed wallet messages
	// ("<service>-auth:..."; default DefaultWalletService).
	WalletService string
	// Vault seals wallet addresses per agent and hashes them for lookups.
	// Nil: register-wallet and link-wallet are toolkit.Unavailable.
	Vault *cryptovault.Vault
	// Presale reads presale purchases on chain for link-wallet. Nil:
	// wallets link without a presale check (is_presale_buyer false, and
	// the answer says why).
	Presale PresaleChecker
	// WalletSearches bounds the register-wallet requests without message
	// or timestamp whose challenge is searched at once in this process
	// (each costs up to MaxChallengeSearch signature verifications); one
	// more is toolkit.Unavailable with a retry hint. Default
	// DefaultWalletSearches().
	WalletSearches int
	// Cache tunes the cache of authenticated agents (key digest -> agent,
	// mode and restrictions), kept when the store implements ChangeFeed:
	// a change to an agent on any instance drops its entry.
	Cache CacheConfig
}

// Service implements agent registration, authentication and management.
type Service struct {
	store       Store
	prefix      string
	ownerPrefix string
	keyUse      keyUse
	now         func() time.Time
	random      io.Reader
	rec         guardian.Recorder
	wallets     *WalletAuth
	vault       *cryptovault.Vault
	presale     PresaleChecker
	// searches bounds the concurrent challenge searches.
	searches searchSlots
	// auth caches Authenticate's lookups; nil when the store has no
	// change feed.
	auth *changecache.Cache[[sha256.Size]byte, Agent]
}

// NewService returns a Service over store.
func NewService(store Store, cfg Config) (*Service, error) {
	if cfg.KeyPrefix == "" {
		cfg.KeyPrefix = DefaultKeyPrefix
	}
	if !validKeyPrefix(cfg.KeyPrefix) {
		return nil, fmt.Errorf("agents: key prefix %q must end in \"agent_\" and use only [a-z0-9_]", cfg.KeyPrefix)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	wallets, err := NewWalletAuth(cfg.WalletService)
	if err != nil {
		return nil, err
	}
	if cfg.WalletSearches <= 0 {
		cfg.WalletSearches = DefaultWalletSearches()
	}
	return &Service{store: store, prefix: cfg.KeyPrefix, ownerPrefix: ownerPrefixOf(cfg.KeyPrefix), now: cfg.Now, random: cfg.Random,
		rec: guardian.OrDiscard(cfg.Recorder), wallets: wallets, vault: cfg.Vault, presale: cfg.Presale,
		searches: make(searchSlots, cfg.WalletSearches), auth: newAuthCache(store, cfg.Cache, cfg.Now)}, nil
}

// Registered is the result of Register.
type Registered struct {
	Agent Agent
	// APIKey is the agent's key, shown only this once.
	APIKey string
	// OwnerKey is the new owner's owner key, shown only this once: set
	// when this registration created the owner (and the service has a
	// vault to hash it), empty otherwise.
	OwnerKey string
}

// Register creates an agent in sandbox mode and returns it with its API
// key, which is shown only this once; the first registration of an owner
// also returns the owner's key.
//
// Owner claims are not self-asserted: the first registration under an
// owner_id creates the owner; registering another agent under an existing
// owner requires callerKey to be the API key of an active agent of that
// owner. Otherwise the result is toolkit.Conflict.
func (s *Service) Register(ctx context.Context, in RegisterInput, callerKey string) (Registered, error) {
	const op = "agents.Register"
	a, err := in.validate()
	if err != nil {
		return Registered{}, err
	}
	reg := Registration{NewOwner: true}
	if callerKey != "" {
		// A key proves membership of its own owner only; for any other
		// owner_id the registration claims a new owner.
		caller, err := s.Authenticate(ctx, callerKey)
		if err != nil {
			return Registered{}, err
		}
		if caller.OwnerID == a.OwnerID {
			// A sibling inherits at least its registrar's restrictions.
			if err := inheritRestrictions(&a, caller); err != nil {
				return Registered{}, err
			}
			reg.NewOwner, reg.LimitsFrom = false, caller.ID
		}
	}
	if reg.NewOwner && strings.HasPrefix(a.OwnerID, walletOwnerPrefix) {
		return Registered{}, invalid("owner_id: the prefix %q is reserved for owners registered by wallet", walletOwnerPrefix)
	}
	id, key, err := s.newIdentity()
	if err != nil {
		return Registered{}, toolkit.WithOp(op, err)
	}
	var ownerKey string
	if reg.NewOwner {
		if ownerKey, reg.OwnerKeyHash, err = s.newOwnerKey(); err != nil {
			return Registered{}, toolkit.WithOp(op, err)
		}
	}
	a.ID = id
	a.Mode = ModeSandbox
	a.CreatedAt = s.now().UTC().Truncate(time.Microsecond)
	a.KeyCreatedAt = a.CreatedAt
	reg.Agent, reg.KeyDigest = a, KeyDigest(key)
	if err := s.store.CreateAgent(ctx, reg); err != nil {
		if toolkit.IsKind(err, toolkit.Conflict) && reg.NewOwner {
			s.rec.Record(ctx, guardian.Event{Type: guardian.TypeOwnerClaimRefused,
				Description: fmt.Sprintf("Registration refused: owner_id %q belongs to another owner", in.OwnerID)})
			return Registered{}, &toolkit.Error{Kind: toolkit.Conflict, Op: op, Err: err,
				Msg: fmt.Sprintf("owner_id %q is already registered; to add an agent to it, send the X-API-Key of an active agent of that owner", a.OwnerID)}
		}
		return Registered{}, toolkit.WithOp(op, err)
	}
	return Registered{Agent: a, APIKey: key, OwnerKey: ownerKey}, nil
}

// newIdentity returns a fresh agent id and API key.
func (s *Service) newIdentity() (id, key string, err error) {
	if id, err = toolkit.NewID(s.random, "agt_"); err != nil {
		return "", "", err
	}
	key, err = s.newKey()
	return id, key, err
}

func (s *Service) newKey() (string, error) {
	r, err := toolkit.RandomString(s.random, toolkit.Alphanumerics, keyRandomLen)
	if err != nil {
		return "", err
	}
	return s.prefix + r, nil
}

// Authenticate returns the agent owning key. A missing, malformed or
// unknown key is toolkit.Unauthenticated; a suspended or terminated agent
// is toolkit.Forbidden.
//
// With a store that implements ChangeFeed, agents found are cached by key
// digest (see Config.Cache): a rotated key, a suspension or any other
// change made through the store drops the entry at once on this instance
// and as soon as the feed delivers it on the others. Unknown keys are
// never cached.
func (s *Service) Authenticate(ctx context.Context, key string) (Agent, error) {
	if !s.wellFormedKey(key) {
		return Agent{}, toolkit.Errorf(toolkit.Unauthenticated, "Invalid or missing API key")
	}
	a, err := s.agentByKey(ctx, sha256.Sum256([]byte(key)))
	if toolkit.IsKind(err, toolkit.NotFound) {
		return Agent{}, toolkit.Errorf(toolkit.Unauthenticated, "Invalid or missing API key")
	}
	if err != nil {
		return Agent{}, toolkit.WithOp("agents.Authenticate", err)
	}
	if !a.IsActive() {
		return Agent{}, toolkit.Errorf(toolkit.Forbidden, "Agent is %s: API calls are not permitted", a.Mode)
	}
	s.touchKey(ctx, a)
	return a, nil
}

// agentByKey returns the agent whose key has digest, from the cache when
// it holds it.
func (s *Service) agentByKey(ctx context.Context, digest [sha256.Size]byte) (Agent, error) {
	if s.auth == nil {
		return s.store.AgentByKeyDigest(ctx, digest[:])
	}
	if a, ok := s.auth.Get(digest); ok {
		return a.Clone(), nil
	}
	ticket := s.auth.Begin()
	a, err := s.store.AgentByKeyDigest(ctx, digest[:])
	if err == nil {
		s.auth.Put(ticket, a.ID, digest, a.Clone())
	}
	return a, err
}

// wellFormedKey checks the key's shape before any lookup.
func (s *Service) wellFormedKey(key string) bool {
	if len(key) != len(s.prefix)+keyRandomLen {
		return false
	}
	if subtle.ConstantTimeCompare([]byte(key[:len(s.prefix)]), []byte(s.prefix)) != 1 {
		return false
	}
	for i := len(s.prefix); i < len(key); i++ {
		if strings.IndexByte(toolkit.Alphanumerics, key[i]) < 0 {
			return false
		}
	}
	return true
}

// Me returns the agent's current record.
func (s *Service) Me(ctx context.Context, id string) (Agent, error) {
	a, err := s.store.AgentByID(ctx, id)
	return a, toolkit.WithOp("agents.Me", err)
}

// ListByOwner returns every agent of the caller's owner, oldest first.
func (s *Service) ListByOwner(ctx context.Context, caller Agent) ([]Agent, error) {
	list, err := s.store.ListAgentsByOwner(ctx, caller.OwnerID, MaxAgentsPerOwner)
	return list, toolkit.WithOp("agents.ListByOwner", err)
}

// SetMode changes the caller's own mode. Any mode may be requested; a
// terminated agent stays terminated (toolkit.Conflict). A suspended agent
// never gets here: Authenticate refuses it, so it cannot lift its own
// suspension (an admin can, with AdminSetMode).
func (s *Service) SetMode(ctx context.Context, caller Agent, mode string) (Agent, error) {
	return s.setMode(ctx, caller.ID, mode, "by the agent itself")
}

// AdminSetMode changes any agent's mode on an administrator's behalf.
func (s *Service) AdminSetMode(ctx context.Context, agentID, mode string) (Agent, error) {
	return s.setMode(ctx, agentID, mode, "by an admin")
}

// setMode changes a mode and records suspensions and terminations.
func (s *Service) setMode(ctx context.Context, agentID, mode, by string) (Agent, error) {
	m, err := ParseMode(mode)
	if err != nil {
		return Agent{}, err
	}
	a, err := s.store.SetMode(ctx, agentID, m)
	if toolkit.IsKind(err, toolkit.Conflict) {
		return Agent{}, &toolkit.Error{Kind: toolkit.Conflict, Op: "agents.SetMode", Err: err,
			Msg: "Agent is terminated: its mode can no longer change"}
	}
	if err != nil {
		return Agent{}, toolkit.WithOp("agents.SetMode", err)
	}
	switch m {
	case ModeSuspended:
		s.rec.Record(ctx, guardian.Event{Type: guardian.TypeAgentSuspended, AgentID: a.ID, Description: "Agent suspended " + by})
	case ModeTerminated:
		s.rec.Record(ctx, guardian.Event{Type: guardian.TypeAgentTerminated, AgentID: a.ID, Description: "Agent terminated " + by})
	}
	return a, nil
}

// RotateKey issues a new API key for the caller; the old key stops working
// at once. The new key is returned only this once.
func (s *Service) RotateKey(ctx context.Context, caller Agent) (string, error) {
	key, err := s.newKey()
	if err != nil {
		return "", toolkit.WithOp("agents.RotateKey", err)
	}
	if err := s.store.ReplaceKeyDigest(ctx, caller.ID, KeyDigest(key), s.now().UTC().Truncate(time.Microsecond)); err != nil {
		return "", toolkit.WithOp("agents.RotateKey", err)
	}
	return key, nil
}
