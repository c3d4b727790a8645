package memstore

import (
	"bytes"
	"context"

	"github.com/agentfinance/toolkit/agents/broker"
)

var _ broker.Store = (*Store)(nil)

// SaveBrokerConnection implements broker.Store.
func (s *Store) SaveBrokerConnection(ctx context.Context, c broker.ConnectionRecord) error {
	const op = "memstore.SaveBrokerConnection"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, err := s.usageOf(op, c.AgentID); err != nil {
		return err
	}
	c.Params, c.ConnectedAt = bytes.Clone(c.Params), asStored(c.ConnectedAt)
	s.ws.connections[c.AgentID] = c
	return nil
}

// BrokerConnection implements broker.Store.
func (s *Store) BrokerConnection(ctx context.Context, agentID string) (broker.ConnectionRecord, error) {
	const op = "memstore.BrokerConnection"
	if err := s.lock(ctx, op); err != nil {
		return broker.ConnectionRecord{}, err
	}
	defer s.mu.Unlock()
	c, ok := s.ws.connections[agentID]
	if !ok {
		return broker.ConnectionRecord{}, notFound(op)
	}
	c.Params = bytes.Clone(c.Params)
	return c, nil
}

// DeleteBrokerConnection implements broker.Store.
func (s *Store) DeleteBrokerConnection(ctx context.Context, agentID string) error {
	const op = "memstore.DeleteBrokerConnection"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.ws.connections[agentID]; !ok {
		return notFound(op)
	}
	delete(s.ws.connections, agentID)
	return nil
}
