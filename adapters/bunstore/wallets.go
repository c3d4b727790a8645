package bunstore

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/uptrace/bun"
)

type walletChallengeRow struct {
	bun.BaseModel `bun:"table:wallet_challenges"`
	Digest        string    `bun:"digest,pk"`
	SignedAt      time.Time `bun:"signed_at"`
}

type linkSignatureRow struct {
	bun.BaseModel `bun:"table:wallet_link_signatures"`
	Digest        string     `bun:"digest,pk"`
	SignedAt      *time.Time `bun:"signed_at"`
	UsedAt        time.Time  `bun:"used_at"`
}

type walletRow struct {
	bun.BaseModel `bun:"table:wallets"`
	WalletHash    string    `bun:"wallet_hash,pk"`
	AgentID       string    `bun:"agent_id"`
	SealedAddress []byte    `bun:"sealed_address"`
	CreatedAt     time.Time `bun:"created_at"`
}

type linkedWalletRow struct {
	bun.BaseModel `bun:"table:linked_wallets,alias:lw"`
	AgentID       string    `bun:"agent_id,pk"`
	WalletHash    string    `bun:"wallet_hash"`
	SealedAddress []byte    `bun:"sealed_address"`
	LinkedAt      time.Time `bun:"linked_at"`
}

// useChallenge claims a wallet challenge by its digest (the primary key
// makes a replay a unique violation, hence toolkit.Conflict) and deletes
// the challenges too old to be replayed.
func useChallenge(ctx context.Context, tx bun.Tx, digest []byte, signedAt, pruneBefore time.Time) error {
	row := walletChallengeRow{Digest: hex.EncodeToString(digest), SignedAt: signedAt.UTC()}
	if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewDelete().Model((*walletChallengeRow)(nil)).Where("signed_at < ?", pruneBefore.UTC()).Exec(ctx)
	return err
}

// useLinkSignature claims a link-wallet signature by its digest (a replay
// is a unique violation, hence toolkit.Conflict) and deletes the used
// signatures whose message time is before pruneBefore; those without a
// time are kept.
func useLinkSignature(ctx context.Context, tx bun.Tx, in agents.WalletLinkRecord) error {
	row := linkSignatureRow{Digest: hex.EncodeToString(in.SignatureDigest), UsedAt: in.At.UTC()}
	if !in.SignedAt.IsZero() {
		at := in.SignedAt.UTC()
		row.SignedAt = &at
	}
	if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewDelete().Model((*linkSignatureRow)(nil)).Where("signed_at < ?", in.PruneBefore.UTC()).Exec(ctx)
	return err
}

// errWalletRace is the cause when two first sign-ins of one wallet race:
// the loser's transaction rolls back (its challenge stays unused) and the
// client retries, which then rotates the winner's agent's key.
var errWalletRace = errors.New("a concurrent sign-in registered this wallet first")

// RegisterWallet implements agents.Store.
func (s *Store) RegisterWallet(ctx context.Context, in agents.WalletSignIn) (agents.Agent, bool, error) {
	const op = "bunstore.RegisterWallet"
	var (
		out     agents.Agent
		created bool
		rotated string // the agent whose key a sign-in rotates (a change to announce)
	)
	err := s.inChange(ctx, &rotated, func(ctx context.Context, tx bun.Tx) error {
		if err := useChallenge(ctx, tx, in.ChallengeDigest, in.SignedAt, in.PruneBefore); err != nil {
			return err
		}
		var w walletRow
		err := tx.NewSelect().Model(&w).Where("wallet_hash = ?", hex.EncodeToString(in.WalletHash)).Scan(ctx)
		switch {
		case err == nil:
			rotated = w.AgentID
			out, err = rotateWalletKey(ctx, tx, w.AgentID, in.KeyDigest, in.NewAgent.CreatedAt)
			return err
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		created = true
		if out, err = createWalletAgent(ctx, tx, in); err != nil {
			if isUniqueViolation(err) {
				return &toolkit.Error{Kind: toolkit.Unavailable, Op: op, RetryAfter: time.Second, Err: errWalletRace,
					Msg: "this wallet is being signed in by another request; retry in a second"}
			}
			return err
		}
		return nil
	})
	if err != nil {
		return agents.Agent{}, false, translate(op, err)
	}
	return out, created, nil
}

// rotateWalletKey gives the wallet's agent a new key digest, unless the
// agent is terminated (toolkit.Forbidden).
func rotateWalletKey(ctx context.Context, tx bun.Tx, agentID string, digest []byte, at time.Time) (agents.Agent, error) {
	var row agentRow
	if err := tx.NewSelect().Model(&row).Where("id = ?", agentID).Scan(ctx); err != nil {
		return agents.Agent{}, err
	}
	if row.Mode == string(agents.ModeTerminated) {
		return agents.Agent{}, toolkit.Errorf(toolkit.Forbidden, "agent %s is terminated", agentID)
	}
	row.KeyDigest, row.KeyCreatedAt, row.KeyUsedAt = hex.EncodeToString(digest), at.UTC(), nil
	if _, err := tx.NewUpdate().Model((*agentRow)(nil)).Set("key_digest = ?", row.KeyDigest).
		Set("key_created_at = ?", row.KeyCreatedAt).Set("key_used_at = NULL").Where("id = ?", agentID).Exec(ctx); err != nil {
		return agents.Agent{}, err
	}
	return row.agent()
}

// createWalletAgent stores a wallet's first agent: owner, agent, zero
// balances and the wallet mapping.
func createWalletAgent(ctx context.Context, tx bun.Tx, in agents.WalletSignIn) (agents.Agent, error) {
	a := in.NewAgent
	row, err := toAgentRow(a, in.KeyDigest)
	if err != nil {
		return agents.Agent{}, err
	}
	if _, err := tx.NewInsert().Model(newOwnerRow(a.OwnerID, row.CreatedAt, in.OwnerKeyHash)).Exec(ctx); err != nil {
		return agents.Agent{}, err
	}
	if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
		return agents.Agent{}, err
	}
	if _, err := tx.NewInsert().Model(&balanceRow{AgentID: a.ID, UpdatedAt: row.CreatedAt}).Exec(ctx); err != nil {
		return agents.Agent{}, err
	}
	_, err = tx.NewInsert().Model(&walletRow{WalletHash: hex.EncodeToString(in.WalletHash), AgentID: a.ID,
		SealedAddress: in.SealedWallet, CreatedAt: row.CreatedAt}).Exec(ctx)
	if err != nil {
		return agents.Agent{}, err
	}
	return row.agent()
}

// LinkWallet implements agents.Store.
func (s *Store) LinkWallet(ctx context.Context, in agents.WalletLinkRecord) (agents.Agent, error) {
	const op = "bunstore.LinkWallet"
	var row agentRow
	hash := hex.EncodeToString(in.WalletHash)
	id := in.AgentID
	err := s.inChange(ctx, &id, func(ctx context.Context, tx bun.Tx) error {
		if err := tx.NewSelect().Model(&row).Where("id = ?", in.AgentID).Scan(ctx); err != nil {
			return err
		}
		if err := useLinkSignature(ctx, tx, in); err != nil {
			return err
		}
		var prev linkedWalletRow
		err := tx.NewSelect().Model(&prev).Where("agent_id = ?", in.AgentID).Scan(ctx)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		switch {
		case in.Presale != nil:
			row.PresaleBuyer = *in.Presale
		case prev.WalletHash != hash:
			row.PresaleBuyer = false
		}
		if _, err := tx.NewUpdate().Model((*agentRow)(nil)).Set("presale_buyer = ?", row.PresaleBuyer).
			Where("id = ?", in.AgentID).Exec(ctx); err != nil {
			return err
		}
		_, err = tx.NewInsert().Model(&linkedWalletRow{AgentID: in.AgentID, WalletHash: hash,
			SealedAddress: in.SealedWallet, LinkedAt: in.At.UTC()}).
			On("CONFLICT (agent_id) DO UPDATE").
			Set("wallet_hash = EXCLUDED.wallet_hash").
			Set("sealed_address = EXCLUDED.sealed_address").
			Set("linked_at = EXCLUDED.linked_at").
			Exec(ctx)
		return err
	})
	if err != nil {
		return agents.Agent{}, translate(op, err)
	}
	a, err := row.agent()
	return a, translate(op, err)
}

// AgentWallets implements agents.Store.
func (s *Store) AgentWallets(ctx context.Context, agentID string) (agents.WalletRecords, error) {
	const op = "bunstore.AgentWallets"
	var (
		out agents.WalletRecords
		w   walletRow
		l   linkedWalletRow
	)
	err := s.db.NewSelect().Model(&w).Where("agent_id = ?", agentID).Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return out, translate(op, err)
	}
	out.Registered = w.SealedAddress
	err = s.db.NewSelect().Model(&l).Where("agent_id = ?", agentID).Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return out, translate(op, err)
	}
	out.Linked = l.SealedAddress
	return out, nil
}
