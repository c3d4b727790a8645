// Package agents manages agents: registration, API keys, modes, wallets
// and trading restrictions.
//
// An agent belongs to an owner (owner_id); one owner may hold several
// agents. Each agent has exactly one API key: a fixed prefix ending in
// "agent_" and 40 random alphanumerics, shown once at registration or
// rotation and stored only as its SHA-256 digest ([KeyDigest]). Keys are
// never logged.
//
// # Registration
//
// [Service.Register] creates an agent for a new owner, or for an existing
// owner when called with the key of one of its active agents (the new
// agent inherits that agent's restrictions: an agent can never mint a less
// restricted sibling). [Service.RegisterWallet] signs an agent in with a
// Solana wallet: an Ed25519 signature over "<service>-auth:<wallet>:<unix
// seconds>" within five minutes, each challenge accepted once; the same
// wallet again rotates the key. [Service.LinkWallet] links a wallet to an
// existing agent and asks the [PresaleChecker] whether it bought the
// native token's presale (the agent then pays 80 % of list prices).
//
// # Modes
//
// New agents start in [ModeSandbox] (paid from test funds). An agent may
// move itself between sandbox, live and suspended; only an admin lifts a
// suspension; [ModeTerminated] is final. Suspended and terminated agents
// are refused everywhere (403). [Service.Authenticate] turns a key into
// the agent, refusing unknown keys (401) and inactive agents (403).
//
// # Restrictions
//
// authorized_actions whitelists the tools an agent may call (by tool name,
// operation or category), authorized_instruments the symbols its risk
// checks accept, and max_position_size_pct / max_daily_loss_pct bound the
// risk tools. An agent can tighten its own restrictions, never loosen
// them; spend caps live in billing.
//
// # Cached agents and the change rule
//
// With a store that implements ChangeFeed, Service.Authenticate caches
// agents by key digest (and the billing meter caches its pre-charge
// checks), so that a metered call makes one store round trip. What keeps
// the caches true is one rule for stores: every store method that changes
// an agent — its key, mode, restrictions, presale status, spend limits
// and ceilings, or whatever a later method changes (an owner's or an
// administrator's operation included) — announces the agent in the
// change's transaction to every instance sharing the store, and to its
// own instance's listeners before it returns (AllAgents for a change that
// concerns every agent). The rule lives in the store, not in Service, so
// that every caller of a store method gets it; adapters/storetest checks
// each changing method. Informational writes that no cache relies on
// (TouchKey's last use) need no announcement. A maximum age (Config.Cache)
// bounds what a lost announcement leaves behind, and the charge stays the
// authority on money and caps (billing's check_cache.go).
// docs/operations.md has the whole picture.
//
// Everything sensitive (wallet addresses) is sealed per agent through the
// cryptovault. The package owns its [Store] port; adapters/bunstore and
// adapters/memstore implement it and adapters/storetest proves them.
package agents
