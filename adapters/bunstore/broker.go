package bunstore

import (
	"context"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents/broker"
	"github.com/uptrace/bun"
)

var _ broker.Store = (*Store)(nil)

type brokerConnectionRow struct {
	bun.BaseModel `bun:"table:broker_connections,alias:bc"`
	AgentID       string    `bun:"agent_id,pk"`
	ID            string    `bun:"id"`
	BrokerType    string    `bun:"broker_type"`
	Params        []byte    `bun:"params"`
	ConnectedAt   time.Time `bun:"connected_at"`
}

// SaveBrokerConnection implements broker.Store with one upsert on the
// agent id.
func (s *Store) SaveBrokerConnection(ctx context.Context, c broker.ConnectionRecord) error {
	row := brokerConnectionRow{AgentID: c.AgentID, ID: c.ID, BrokerType: c.BrokerType, Params: c.Params, ConnectedAt: c.ConnectedAt.UTC()}
	_, err := s.db.NewInsert().Model(&row).On("CONFLICT (agent_id) DO UPDATE").
		Set("id = EXCLUDED.id").Set("broker_type = EXCLUDED.broker_type").Set("params = EXCLUDED.params").
		Set("connected_at = EXCLUDED.connected_at").Exec(ctx)
	return translate("bunstore.SaveBrokerConnection", err)
}

// BrokerConnection implements broker.Store.
func (s *Store) BrokerConnection(ctx context.Context, agentID string) (broker.ConnectionRecord, error) {
	var row brokerConnectionRow
	if err := s.db.NewSelect().Model(&row).Where("agent_id = ?", agentID).Scan(ctx); err != nil {
		return broker.ConnectionRecord{}, translate("bunstore.BrokerConnection", err)
	}
	return broker.ConnectionRecord{AgentID: row.AgentID, ID: row.ID, BrokerType: row.BrokerType, Params: row.Params,
		ConnectedAt: row.ConnectedAt.UTC()}, nil
}

// DeleteBrokerConnection implements broker.Store.
func (s *Store) DeleteBrokerConnection(ctx context.Context, agentID string) error {
	const op = "bunstore.DeleteBrokerConnection"
	res, err := s.db.NewDelete().Model((*brokerConnectionRow)(nil)).Where("agent_id = ?", agentID).Exec(ctx)
	if err != nil {
		return translate(op, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err != nil {
			return translate(op, err)
		}
		return &toolkit.Error{Kind: toolkit.NotFound, Op: op, Msg: "not found"}
	}
	return nil
}
