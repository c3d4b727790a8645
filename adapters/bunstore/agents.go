package bunstore

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/uptrace/bun"
)

var _ agents.Store = (*Store)(nil)

type ownerRow struct {
	bun.BaseModel `bun:"table:owners"`
	OwnerID       string     `bun:"owner_id,pk"`
	CreatedAt     time.Time  `bun:"created_at"`
	KeyHash       *string    `bun:"key_hash"`
	KeyCreatedAt  *time.Time `bun:"key_created_at"`
}

// newOwnerRow is the row of a new owner with an optional key hash.
func newOwnerRow(id string, at time.Time, hash []byte) *ownerRow {
	row := &ownerRow{OwnerID: id, CreatedAt: at}
	if len(hash) > 0 {
		h := hex.EncodeToString(hash)
		row.KeyHash, row.KeyCreatedAt = &h, &at
	}
	return row
}

type agentRow struct {
	bun.BaseModel         `bun:"table:agents"`
	ID                    string     `bun:"id,pk"`
	OwnerID               string     `bun:"owner_id"`
	Name                  string     `bun:"name"`
	Type                  string     `bun:"type"`
	Description           *string    `bun:"description"`
	Mode                  string     `bun:"mode"`
	CreatedAt             time.Time  `bun:"created_at"`
	AuthorizedInstruments string     `bun:"authorized_instruments"`
	AuthorizedActions     string     `bun:"authorized_actions"`
	MaxPositionSizePct    *string    `bun:"max_position_size_pct"`
	MaxDailyLossPct       *string    `bun:"max_daily_loss_pct"`
	KeyDigest             string     `bun:"key_digest"`
	KeyCreatedAt          time.Time  `bun:"key_created_at"`
	KeyUsedAt             *time.Time `bun:"key_used_at"`
	PresaleBuyer          bool       `bun:"presale_buyer"`
}

type balanceRow struct {
	bun.BaseModel `bun:"table:balances"`
	AgentID       string    `bun:"agent_id,pk"`
	Micros        int64     `bun:"micros"`
	TestMicros    int64     `bun:"test_micros"`
	UpdatedAt     time.Time `bun:"updated_at"`
}

func toAgentRow(a agents.Agent, digest []byte) (agentRow, error) {
	instruments, err := json.Marshal(nonNil(a.AuthorizedInstruments))
	if err != nil {
		return agentRow{}, err
	}
	actions, err := json.Marshal(nonNil(a.AuthorizedActions))
	if err != nil {
		return agentRow{}, err
	}
	return agentRow{
		ID: a.ID, OwnerID: a.OwnerID, Name: a.Name, Type: string(a.Type), Description: a.Description,
		Mode: string(a.Mode), CreatedAt: a.CreatedAt.UTC(),
		AuthorizedInstruments: string(instruments), AuthorizedActions: string(actions),
		MaxPositionSizePct: amountText(a.MaxPositionSizePct), MaxDailyLossPct: amountText(a.MaxDailyLossPct),
		KeyDigest: hex.EncodeToString(digest), KeyCreatedAt: a.CreatedAt.UTC(), // a new row's key is as old as the agent
		PresaleBuyer: a.PresaleBuyer,
	}, nil
}

func (r agentRow) agent() (agents.Agent, error) {
	a := agents.Agent{
		ID: r.ID, OwnerID: r.OwnerID, Name: r.Name, Type: agents.Type(r.Type), Description: r.Description,
		Mode: agents.Mode(r.Mode), CreatedAt: r.CreatedAt.UTC(), PresaleBuyer: r.PresaleBuyer,
		KeyCreatedAt: r.KeyCreatedAt.UTC(),
	}
	if r.KeyUsedAt != nil {
		t := r.KeyUsedAt.UTC()
		a.KeyUsedAt = &t
	}
	if err := json.Unmarshal([]byte(r.AuthorizedInstruments), &a.AuthorizedInstruments); err != nil {
		return a, err
	}
	if err := json.Unmarshal([]byte(r.AuthorizedActions), &a.AuthorizedActions); err != nil {
		return a, err
	}
	var err error
	if a.MaxPositionSizePct, err = parseAmountText(r.MaxPositionSizePct); err != nil {
		return a, err
	}
	a.MaxDailyLossPct, err = parseAmountText(r.MaxDailyLossPct)
	return a, err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func amountText(a *toolkit.Amount) *string {
	if a == nil {
		return nil
	}
	s := a.String()
	return &s
}

func parseAmountText(s *string) (*toolkit.Amount, error) {
	if s == nil {
		return nil, nil
	}
	a, err := toolkit.ParseAmount(*s)
	return &a, err
}

// CreateAgent implements agents.Store.
func (s *Store) CreateAgent(ctx context.Context, r agents.Registration) error {
	const op = "bunstore.CreateAgent"
	a := r.Agent
	row, err := toAgentRow(a, r.KeyDigest)
	if err != nil {
		return translate(op, err)
	}
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if r.NewOwner {
			if _, err := tx.NewInsert().Model(newOwnerRow(a.OwnerID, row.CreatedAt, r.OwnerKeyHash)).Exec(ctx); err != nil {
				return err
			}
		} else if exists, err := tx.NewSelect().Model((*ownerRow)(nil)).Where("owner_id = ?", a.OwnerID).Exists(ctx); err != nil {
			return err
		} else if !exists {
			return toolkit.Errorf(toolkit.NotFound, "owner %q does not exist", a.OwnerID)
		}
		if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(&balanceRow{AgentID: a.ID, UpdatedAt: row.CreatedAt}).Exec(ctx); err != nil {
			return err
		}
		if r.LimitsFrom == "" {
			return nil
		}
		var parent spendLimitsRow
		err := tx.NewSelect().Model(&parent).Where("agent_id = ?", r.LimitsFrom).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // the parent has no caps to pass on
		}
		if err != nil {
			return err
		}
		parent.AgentID, parent.Version = a.ID, 1
		_, err = tx.NewInsert().Model(&parent).Exec(ctx)
		return err
	})
	return translate(op, err)
}

// AgentByKeyDigest implements agents.Store.
func (s *Store) AgentByKeyDigest(ctx context.Context, digest []byte) (agents.Agent, error) {
	return s.agentWhere(ctx, "bunstore.AgentByKeyDigest", "key_digest = ?", hex.EncodeToString(digest))
}

// AgentByID implements agents.Store.
func (s *Store) AgentByID(ctx context.Context, id string) (agents.Agent, error) {
	return s.agentWhere(ctx, "bunstore.AgentByID", "id = ?", id)
}

func (s *Store) agentWhere(ctx context.Context, op, where string, arg any) (agents.Agent, error) {
	var row agentRow
	if err := s.db.NewSelect().Model(&row).Where(where, arg).Limit(1).Scan(ctx); err != nil {
		return agents.Agent{}, translate(op, err)
	}
	a, err := row.agent()
	return a, translate(op, err)
}

// ListAgentsByOwner implements agents.Store.
func (s *Store) ListAgentsByOwner(ctx context.Context, ownerID string, limit int) ([]agents.Agent, error) {
	const op = "bunstore.ListAgentsByOwner"
	var rows []agentRow
	err := s.db.NewSelect().Model(&rows).Where("owner_id = ?", ownerID).
		Order("created_at ASC", "id ASC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, translate(op, err)
	}
	out := make([]agents.Agent, 0, len(rows))
	for _, r := range rows {
		a, err := r.agent()
		if err != nil {
			return nil, translate(op, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// SetMode implements agents.Store: one conditional UPDATE that never
// touches a terminated agent, announced to every instance.
func (s *Store) SetMode(ctx context.Context, id string, mode agents.Mode) (agents.Agent, error) {
	const op = "bunstore.SetMode"
	var row agentRow
	err := s.inChange(ctx, &id, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*agentRow)(nil)).Set("mode = ?", string(mode)).
			Where("id = ?", id).Where("mode <> ?", string(agents.ModeTerminated)).Exec(ctx)
		if err != nil {
			return err
		}
		if err := tx.NewSelect().Model(&row).Where("id = ?", id).Scan(ctx); err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return toolkit.Errorf(toolkit.Conflict, "agent %s is terminated", id)
		}
		return nil
	})
	if err != nil {
		return agents.Agent{}, translate(op, err)
	}
	a, err := row.agent()
	return a, translate(op, err)
}

// ReplaceKeyDigest implements agents.Store, announced to every instance:
// the old key stops working everywhere.
func (s *Store) ReplaceKeyDigest(ctx context.Context, id string, digest []byte, at time.Time) error {
	const op = "bunstore.ReplaceKeyDigest"
	err := s.inChange(ctx, &id, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*agentRow)(nil)).Set("key_digest = ?", hex.EncodeToString(digest)).
			Set("key_created_at = ?", at.UTC()).Set("key_used_at = NULL").
			Where("id = ?", id).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return toolkit.Errorf(toolkit.NotFound, "agent %s not found", id)
		}
		return nil
	})
	return translate(op, err)
}
