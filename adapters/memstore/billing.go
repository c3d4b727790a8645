package memstore

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
)

// ledgerEntry is one stored ledger row.
type ledgerEntry struct {
	tx              billing.Transaction
	externalRef     *string
	sealedSignature []byte
}

// idempotencyKey is the unique key of a stored response: (agent, key).
type idempotencyKey struct{ agentID, key string }

// out returns a copy of the entry's transaction that shares no pointer
// with the store.
func (e ledgerEntry) out() billing.Transaction {
	tx := e.tx
	tx.Operation = clonePtr(tx.Operation)
	tx.FundingPath = clonePtr(tx.FundingPath)
	tx.Currency = clonePtr(tx.Currency)
	tx.Quantity = clonePtr(tx.Quantity) // Amount is immutable: a value copy is deep
	tx.PriceUSD = clonePtr(tx.PriceUSD)
	return tx
}

// Balance implements billing.Store.
func (s *Store) Balance(ctx context.Context, agentID string) (billing.BalanceRecord, error) {
	const op = "memstore.Balance"
	if err := s.lock(ctx, op); err != nil {
		return billing.BalanceRecord{}, err
	}
	defer s.mu.Unlock()
	b, ok := s.balances[agentID]
	if !ok {
		return billing.BalanceRecord{}, notFound(op)
	}
	return b, nil
}

// ChargeCheck implements billing.Store from the running totals: a
// window later than the agent's latest charge has nothing spent yet.
func (s *Store) ChargeCheck(ctx context.Context, agentID string, dayStart, monthStart time.Time) (billing.ChargeCheck, error) {
	const op = "memstore.ChargeCheck"
	if err := s.lock(ctx, op); err != nil {
		return billing.ChargeCheck{}, err
	}
	defer s.mu.Unlock()
	b, ok := s.balances[agentID]
	if !ok {
		return billing.ChargeCheck{}, notFound(op)
	}
	out := billing.ChargeCheck{Balance: b, Limits: cloneLimits(s.limits[agentID])}
	out.SpentDay, out.SpentMonth = s.spend[agentID].Spent(dayStart, monthStart)
	return out, nil
}

// Charge implements billing.Store. Every rule is checked before anything
// is written, in bunstore's order: the balance of the request's class of
// funds (toolkit.InsufficientCredits, also when the agent has no balance),
// the spend caps against the running totals
// (toolkit.Forbidden), then the unique transaction id and idempotency key
// (toolkit.Conflict).
func (s *Store) Charge(ctx context.Context, req billing.ChargeRequest) (billing.Transaction, error) {
	const op = "memstore.Charge"
	if err := s.lock(ctx, op); err != nil {
		return billing.Transaction{}, err
	}
	defer s.mu.Unlock()
	if s.limits[req.AgentID].Version != req.Limits.Version {
		return billing.Transaction{}, limitsChanged(op)
	}
	bal, ok := s.balances[req.AgentID]
	funds := fundsOf(req.Funds)
	if !ok || bal.Of(funds) < req.Micros {
		return billing.Transaction{}, toolkit.Errorf(toolkit.InsufficientCredits, "insufficient balance")
	}
	spentDay, spentMonth := s.spend[req.AgentID].Spent(req.DayStart, req.MonthStart)
	if err := billing.CheckSpendCaps(req.Limits, spentDay, spentMonth, req.Micros); err != nil {
		return billing.Transaction{}, err
	}
	if _, dup := s.txIDs[req.TxID]; dup {
		return billing.Transaction{}, conflict(op, "transaction id "+req.TxID+" already exists")
	}
	var idem idempotencyKey
	if req.Idempotency != nil {
		idem = idempotencyKey{req.AgentID, req.Idempotency.Key}
		if _, dup := s.idempotency[idem]; dup {
			return billing.Transaction{}, conflict(op, "idempotency key already stored")
		}
	}

	at := req.At.UTC()
	operation := req.Operation
	after := addFunds(&bal, funds, -req.Micros)
	bal.UpdatedAt = at
	entry := ledgerEntry{tx: billing.Transaction{TxID: req.TxID, AgentID: req.AgentID, Type: billing.TypeConsumption,
		Funds: funds, AmountMicros: -req.Micros, BalanceAfter: after, Operation: &operation, CreatedAt: at}}
	s.balances[req.AgentID] = bal
	s.spend[req.AgentID] = s.spend[req.AgentID].Add(req.DayStart, req.MonthStart, req.Micros)
	s.appendLedger(&entry)
	usage := s.usage[req.AgentID]
	if usage == nil {
		usage = map[string]billing.UsageLine{}
		s.usage[req.AgentID] = usage
	}
	line := usage[req.Operation]
	line.Operation = req.Operation
	line.Count++
	line.TotalMicros += req.Micros
	usage[req.Operation] = line
	if req.Idempotency != nil {
		s.idempotency[idem] = storedResponse{at: req.At, IdempotentResponse: billing.IdempotentResponse{Key: req.Idempotency.Key,
			RequestHash: req.Idempotency.RequestHash, Response: bytes.Clone(req.Idempotency.Response)}}
	}
	return entry.out(), nil
}

// spentSince sums the agent's consumption created at or after since.
func (s *Store) spentSince(agentID string, since time.Time) int64 {
	var spent int64
	for _, e := range s.ledgers[agentID] {
		if e.tx.Type == billing.TypeConsumption && !e.tx.CreatedAt.Before(since) {
			spent -= e.tx.AmountMicros
		}
	}
	return spent
}

func (s *Store) appendLedger(e *ledgerEntry) {
	s.ledgerSeq++
	e.tx.Seq = s.ledgerSeq
	s.ledgers[e.tx.AgentID] = append(s.ledgers[e.tx.AgentID], *e)
	s.txIDs[e.tx.TxID] = struct{}{}
	if e.externalRef != nil {
		s.externalRef[*e.externalRef] = struct{}{}
	}
}

// fundsOf reads an empty class as real funds, as billing does.
func fundsOf(f billing.Funds) billing.Funds {
	if f == billing.FundsTest {
		return billing.FundsTest
	}
	return billing.FundsReal
}

// addFunds adds micros to one class of b and returns that class's new
// balance.
func addFunds(b *billing.BalanceRecord, f billing.Funds, micros int64) int64 {
	if f == billing.FundsTest {
		b.TestMicros += micros
		return b.TestMicros
	}
	b.Micros += micros
	return b.Micros
}

// Spent implements billing.Store.
func (s *Store) Spent(ctx context.Context, agentID string, since time.Time) (int64, error) {
	if err := s.lock(ctx, "memstore.Spent"); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	return s.spentSince(agentID, since), nil
}

// Credit implements billing.Store. A missing balance is toolkit.NotFound;
// a self-credit over its cap is toolkit.Forbidden; a reused transaction id
// or external reference is toolkit.Conflict. Nothing is written on error.
func (s *Store) Credit(ctx context.Context, req billing.CreditRequest) (billing.Transaction, error) {
	const op = "memstore.Credit"
	if err := s.lock(ctx, op); err != nil {
		return billing.Transaction{}, err
	}
	defer s.mu.Unlock()
	bal, ok := s.balances[req.AgentID]
	if !ok {
		return billing.Transaction{}, notFound(op)
	}
	funds := fundsOf(req.Funds)
	if req.SelfCreditCapMicros > 0 {
		var credited int64
		for _, e := range s.ledgers[req.AgentID] {
			if e.tx.Type == billing.TypeDeposit && e.tx.Funds == billing.FundsTest {
				credited += e.tx.AmountMicros
			}
		}
		if credited+req.Micros > req.SelfCreditCapMicros {
			return billing.Transaction{}, toolkit.Errorf(toolkit.Forbidden,
				"amount: sandbox test credits are capped at $%s per agent ($%s already credited)",
				billing.USD(req.SelfCreditCapMicros), billing.USD(credited))
		}
	}
	if _, dup := s.txIDs[req.TxID]; dup {
		return billing.Transaction{}, conflict(op, "transaction id "+req.TxID+" already exists")
	}
	if req.ExternalRef != nil {
		if _, dup := s.externalRef[*req.ExternalRef]; dup {
			return billing.Transaction{}, conflict(op, "external reference already credited")
		}
	}

	at := req.At.UTC()
	path := req.FundingPath
	after := addFunds(&bal, funds, req.Micros)
	bal.UpdatedAt = at
	entry := ledgerEntry{tx: billing.Transaction{TxID: req.TxID, AgentID: req.AgentID, Type: billing.TypeDeposit,
		Funds: funds, AmountMicros: req.Micros, BalanceAfter: after, FundingPath: &path,
		Currency: clonePtr(req.Currency), Quantity: clonePtr(req.Quantity), PriceUSD: clonePtr(req.PriceUSD), CreatedAt: at},
		externalRef: clonePtr(req.ExternalRef), sealedSignature: bytes.Clone(req.SealedSignature)}
	s.balances[req.AgentID] = bal
	s.appendLedger(&entry)
	return entry.out(), nil
}

// Transactions implements billing.Store: newest first, older than
// q.BeforeSeq when set. A limit <= 0 returns every row, as bunstore does.
func (s *Store) Transactions(ctx context.Context, q billing.TransactionQuery) ([]billing.Transaction, error) {
	if err := s.lock(ctx, "memstore.Transactions"); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	ledger := s.ledgers[q.AgentID]
	if q.AgentID == "" {
		ledger = s.mergedLedgers(q.AgentIDs)
	}
	if q.BeforeSeq > 0 { // rows are appended in Seq order
		ledger = ledger[:sort.Search(len(ledger), func(i int) bool { return ledger[i].tx.Seq >= q.BeforeSeq })]
	}
	out := make([]billing.Transaction, limitRows(len(ledger), q.Limit))
	for i := range out {
		out[i] = ledger[len(ledger)-1-i].out()
	}
	return out, nil
}

// Usage implements billing.Store: totals by operation, in byte order.
func (s *Store) Usage(ctx context.Context, agentID string) ([]billing.UsageLine, error) {
	if err := s.lock(ctx, "memstore.Usage"); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := make([]billing.UsageLine, 0, len(s.usage[agentID]))
	for _, line := range s.usage[agentID] {
		out = append(out, line)
	}
	slices.SortFunc(out, func(x, y billing.UsageLine) int { return strings.Compare(x.Operation, y.Operation) })
	return out, nil
}

// StoredResponse implements billing.Store.
func (s *Store) StoredResponse(ctx context.Context, agentID, key string) (billing.IdempotentResponse, error) {
	const op = "memstore.StoredResponse"
	if err := s.lock(ctx, op); err != nil {
		return billing.IdempotentResponse{}, err
	}
	defer s.mu.Unlock()
	r, ok := s.idempotency[idempotencyKey{agentID, key}]
	if !ok {
		return billing.IdempotentResponse{}, notFound(op)
	}
	out := r.IdempotentResponse
	out.Response = bytes.Clone(out.Response)
	return out, nil
}

// storedResponse is an idempotency record with the time it was stored.
type storedResponse struct {
	billing.IdempotentResponse
	at time.Time
}

// PruneStoredResponses implements billing.Store.
func (s *Store) PruneStoredResponses(ctx context.Context, before time.Time) (int64, error) {
	if err := s.lock(ctx, "memstore.PruneStoredResponses"); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	var n int64
	for k, r := range s.idempotency {
		if r.at.Before(before) {
			delete(s.idempotency, k)
			n++
		}
	}
	return n, nil
}

// SpendLimits implements billing.Store.
func (s *Store) SpendLimits(ctx context.Context, agentID string) (billing.SpendLimits, error) {
	if err := s.lock(ctx, "memstore.SpendLimits"); err != nil {
		return billing.SpendLimits{}, err
	}
	defer s.mu.Unlock()
	return cloneLimits(s.limits[agentID]), nil
}

// SetSpendLimits implements billing.Store. The limits belong to an agent:
// an unknown agent is toolkit.NotFound.
func (s *Store) SetSpendLimits(ctx context.Context, agentID string, l billing.SpendLimits) error {
	const op = "memstore.SetSpendLimits"
	if err := s.lock(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.agents[agentID]; !ok {
		return notFound(op)
	}
	if s.limits[agentID].Version != l.Version {
		return conflict(op, "the spend limits changed meanwhile")
	}
	l.Version++
	s.limits[agentID] = cloneLimits(l)
	s.changed(agentID)
	return nil
}

// cloneLimits copies l; like a database round trip, an empty allowed list
// comes back nil.
func cloneLimits(l billing.SpendLimits) billing.SpendLimits {
	l.DailyMicros = clonePtr(l.DailyMicros)
	l.MonthlyMicros = clonePtr(l.MonthlyMicros)
	if len(l.AllowedOperations) == 0 {
		l.AllowedOperations = nil
	} else {
		l.AllowedOperations = slices.Clone(l.AllowedOperations)
	}
	l.Ceilings.DailyMicros = clonePtr(l.Ceilings.DailyMicros)
	l.Ceilings.MonthlyMicros = clonePtr(l.Ceilings.MonthlyMicros)
	if len(l.Ceilings.AllowedOperations) == 0 {
		l.Ceilings.AllowedOperations = nil
	} else {
		l.Ceilings.AllowedOperations = slices.Clone(l.Ceilings.AllowedOperations)
	}
	return l
}

// limitsChanged is the refusal of a charge checked against limits that
// have changed since (billing.ErrLimitsChanged).
func limitsChanged(op string) error {
	return &toolkit.Error{Kind: toolkit.Conflict, Op: op, Msg: "the spend limits changed during the call; retry", Err: billing.ErrLimitsChanged}
}
