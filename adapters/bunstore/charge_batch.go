package bunstore

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/uptrace/bun"
)

// Group commit: a charge joins a queue, and whichever caller holds one of
// the committer slots (one on SQLite, the single writer; a few on
// Postgres) takes every charge queued meanwhile (up to maxChargeBatch),
// its own or others', and commits them in one transaction, each under its
// own savepoint so that each succeeds or fails on its own balance, caps,
// transaction id and idempotency key. An uncontended charge waits for
// nobody and changes no goroutine: its caller finds a slot free and
// commits it at once.
const (
	// maxChargeBatch bounds the charges committed in one transaction (on
	// Postgres one subtransaction each: at most the 64 a backend caches).
	maxChargeBatch = 64
	// defaultChargeQueue bounds the charges waiting for a committer; when
	// it is full, Charge answers toolkit.Unavailable with a Retry-After.
	defaultChargeQueue = 4096
	// defaultPostgresCommitters is how many batches commit at once on
	// Postgres: one, since batches on one hot balance row wait for each
	// other's row lock anyway and a single committer makes them larger
	// (measured with BenchmarkCharge: 1 beat 2 and 4). SQLite has one
	// committer: the single writer.
	defaultPostgresCommitters = 1
)

// The states of a pending charge: a committer takes it, or its caller
// withdraws it (its context ended first); whichever comes first wins.
const (
	chargeQueued int32 = iota
	chargeTaken
	chargeWithdrawn
)

// pendingCharge is a charge waiting for, or in, a batch.
type pendingCharge struct {
	req    billing.ChargeRequest
	state  atomic.Int32
	result chan chargeResult // buffered: the committer never blocks on it
}

// chargeResult is one caller's answer.
type chargeResult struct {
	tx  billing.Transaction
	err error
}

// committerSlot is the right to commit a batch, and what the committer
// keeps between batches: its own connection with the charge statements
// prepared (nil until first used, and after a fault): conn on Postgres
// (where the statement is bunstore_charge_batch, created by a migration),
// sqlite on SQLite.
type committerSlot struct {
	conn   *bun.Conn
	sqlite *sqliteWriter
}

// drop closes the slot's connection, if any.
func (slot *committerSlot) drop() {
	if slot.conn != nil {
		_ = slot.conn.Close()
		slot.conn = nil
	}
	if slot.sqlite != nil {
		slot.sqlite.close()
		slot.sqlite = nil
	}
}

// chargeBatcher is the queue and the committer slots of a store.
type chargeBatcher struct {
	queue  chan *pendingCharge
	slots  chan *committerSlot // the free slots; a caller holding one commits a batch
	commit func(slot *committerSlot, batch []*pendingCharge)
	mu     sync.RWMutex // held for reading while enqueueing, for writing while closing
	closed bool
}

// newChargeBatcher returns a batcher with room for queue waiting charges
// and committers slots, committing batches with commit.
func newChargeBatcher(queue, committers int, commit func(slot *committerSlot, batch []*pendingCharge)) *chargeBatcher {
	b := &chargeBatcher{queue: make(chan *pendingCharge, queue), slots: make(chan *committerSlot, committers), commit: commit}
	for range committers {
		b.slots <- &committerSlot{}
	}
	return b
}

// commitQueued commits one batch of what is queued, while the caller
// holds a slot, and frees the slot. One batch only: a caller never works
// for others for long, and every caller waiting is a committer in turn.
func (b *chargeBatcher) commitQueued(slot *committerSlot) {
	defer func() { b.slots <- slot }()
	batch := make([]*pendingCharge, 0, min(len(b.queue), maxChargeBatch))
	for len(batch) < maxChargeBatch {
		select {
		case p := <-b.queue:
			if p.state.CompareAndSwap(chargeQueued, chargeTaken) {
				batch = append(batch, p)
			}
		default:
			if len(batch) > 0 {
				b.commitSafely(slot, batch)
			}
			return
		}
	}
	b.commitSafely(slot, batch)
}

// commitSafely commits batch. If the commit panics, every caller of the
// batch not answered yet gets an Internal error (its charge may or may
// not have been recorded), the slot's connection is dropped, and the
// panic goes on to the committing caller, whose own recover turns it into
// one log line and a 500: no caller waits forever.
func (b *chargeBatcher) commitSafely(slot *committerSlot, batch []*pendingCharge) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		slot.drop()
		for _, p := range batch {
			select {
			case p.result <- chargeResult{err: &toolkit.Error{Kind: toolkit.Internal, Op: "bunstore.Charge",
				Err: fmt.Errorf("panic while committing a batch of charges: %v", v)}}:
			default: // answered before the panic
			}
		}
		panic(v)
	}()
	b.commit(slot, batch)
}

// enqueue queues p, or refuses it at once when the queue is full or the
// store is closed (nothing is charged).
func (b *chargeBatcher) enqueue(p *pendingCharge) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: "bunstore.Charge", Msg: "the store is closed"}
	}
	select {
	case b.queue <- p:
		return nil
	default:
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: "bunstore.Charge",
			Msg: "too many charges are waiting; retry later", RetryAfter: time.Second}
	}
}

// wait returns p's answer, committing batches (p's among them) whenever
// a committer slot is free. A charge still queued when ctx ends is
// withdrawn; once taken, its outcome is the commit's.
func (b *chargeBatcher) wait(ctx context.Context, p *pendingCharge) chargeResult {
	for {
		select {
		case r := <-p.result:
			return r
		case slot := <-b.slots:
			b.commitQueued(slot)
		case <-ctx.Done():
			if p.state.CompareAndSwap(chargeQueued, chargeWithdrawn) {
				return chargeResult{err: translate("bunstore.Charge", ctx.Err())}
			}
			return <-p.result
		}
	}
}

// close waits for the batches being committed, takes every slot for
// good (closing its connection), and fails every charge still queued
// (none of them is charged).
func (b *chargeBatcher) close() {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.closed = true
	b.mu.Unlock()
	for range cap(b.slots) {
		(<-b.slots).drop()
	}
	for {
		select {
		case p := <-b.queue:
			if p.state.CompareAndSwap(chargeQueued, chargeTaken) {
				p.result <- chargeResult{err: &toolkit.Error{Kind: toolkit.Unavailable, Op: "bunstore.Charge", Msg: "the store is closed"}}
			}
		default:
			return
		}
	}
}

// Charge implements billing.Store through group commit (see
// chargeBatcher). Once a committer took the charge, its outcome is the
// commit's: the caller's context ending meanwhile neither loses nor
// doubles it. A charge still queued when the context ends is withdrawn.
func (s *Store) Charge(ctx context.Context, req billing.ChargeRequest) (billing.Transaction, error) {
	if err := ctx.Err(); err != nil {
		return billing.Transaction{}, translate("bunstore.Charge", err)
	}
	p := &pendingCharge{req: req, result: make(chan chargeResult, 1)}
	if err := s.charges.enqueue(p); err != nil {
		return billing.Transaction{}, err
	}
	r := s.charges.wait(ctx, p)
	return r.tx, r.err
}

// commitCharges commits one batch and answers every caller in it. The
// charges are applied in agent order (stable, so one agent's keep their
// arrival order): two batches, even of two servers, then lock balance rows
// in the same order and cannot deadlock.
func (s *Store) commitCharges(slot *committerSlot, batch []*pendingCharge) {
	const op = "bunstore.Charge"
	ctx := context.Background() // a caller's context never cuts a batch short
	slices.SortStableFunc(batch, func(a, b *pendingCharge) int { return strings.Compare(a.req.AgentID, b.req.AgentID) })
	results := make([]chargeResult, len(batch))
	committed, err := s.runChargeBatch(ctx, slot, batch, results)
	for i, p := range batch {
		r := results[i]
		switch {
		case r.err != nil:
			// refused: nothing of it was written, whatever the commit did
		case err == nil, committed:
			// committed (perhaps with its answer lost): the charge stands
		case errors.Is(err, errOutcomeUnknown):
			r = chargeResult{err: &toolkit.Error{Kind: toolkit.Unavailable, Op: op,
				Msg: "the database stopped answering while this charge was committed: it may have been recorded; retry with the same Idempotency-Key", Err: err}}
		default:
			r = chargeResult{err: translate(op, err)}
		}
		p.result <- r
	}
}

// errOutcomeUnknown marks a commit whose outcome could not be found out.
var errOutcomeUnknown = errors.New("the outcome of the commit is unknown")

// runChargeBatch applies the batch in one transaction, filling results
// (a ledger transaction or a refusal per charge). err is nil when the
// transaction committed; otherwise committed tells whether its writes are
// in the database nonetheless (a commit whose answer was lost), and err
// wraps errOutcomeUnknown when even that could not be found out.
//
// On Postgres, a batch that failed because the committer's connection
// did (killed, or closed by the server while idle) and is known not to
// have committed is run once more on a fresh connection.
func (s *Store) runChargeBatch(ctx context.Context, slot *committerSlot, batch []*pendingCharge, results []chargeResult) (committed bool, err error) {
	if !s.postgres {
		return s.runSQLiteBatch(ctx, slot, batch, results)
	}
	committed, err = s.runPostgresBatch(ctx, slot, batch, results)
	if err != nil && !committed && slot.conn == nil && isConnectionError(err) && !errors.Is(err, errOutcomeUnknown) {
		clear(results)
		committed, err = s.runPostgresBatch(ctx, slot, batch, results)
	}
	return committed, err
}

// committerConn returns the slot's connection, taking one from the pool
// and making sure it answers when the slot has none. A pooled connection
// the server has ended is discarded and the next one tried (the pool may
// hold several after a restart).
func (s *Store) committerConn(ctx context.Context, slot *committerSlot) (*bun.Conn, error) {
	if slot.conn != nil {
		return slot.conn, nil
	}
	for attempt := 1; ; attempt++ {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		err = conn.PingContext(ctx)
		if err == nil {
			slot.conn = &conn
			return slot.conn, nil
		}
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		conn.Close()
		if !isConnectionError(err) || attempt == maxCommitterConnAttempts {
			return nil, err
		}
	}
}

// maxCommitterConnAttempts bounds the pooled connections committerConn
// tries.
const maxCommitterConnAttempts = 32

// batchStep is the step of the i-th charge of a batch (see chargeStep).
func batchStep(batch []*pendingCharge, i int) chargeStep {
	switch {
	case len(batch) > 1 && i == 0:
		return chargeFirst
	case len(batch) > 1:
		return chargeNext
	}
	return chargeAlone
}

// resolveCommit finds out whether a batch whose commit failed with err
// committed nonetheless, by looking for written, one of its charges.
func (s *Store) resolveCommit(written *billing.ChargeRequest, err error) (committed bool, _ error) {
	row, rerr := s.committedCharge(written, err)
	return row != nil, rerr
}

// committedCharge returns a charge's ledger row (nil if it is not in the
// ledger) after a commit whose answer was lost to err, with err itself,
// wrapped with errOutcomeUnknown when the ledger cannot be read (see
// lookupCommitted).
func (s *Store) committedCharge(req *billing.ChargeRequest, err error) (*ledgerRow, error) {
	rows, lookup := s.lookupCommitted([]string{req.AgentID}, []string{req.TxID})
	switch {
	case lookup != nil:
		return nil, errors.Join(errOutcomeUnknown, err, lookup)
	case len(rows) == 0:
		return nil, err
	}
	return &rows[0], err
}

// lookupCommitted reads the ledger rows of txIDs after a commit whose
// answer was lost. It first takes the balance row locks of agentIDs, in
// agent order (Postgres; on SQLite the immediate transaction takes the
// write lock), so a commit still under way is waited for, and it tries a
// few times over about two seconds; the error is the last try's.
func (s *Store) lookupCommitted(agentIDs, txIDs []string) ([]ledgerRow, error) {
	var lookup error
	for _, wait := range []time.Duration{0, 200 * time.Millisecond, 600 * time.Millisecond, 1200 * time.Millisecond} {
		time.Sleep(wait)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var rows []ledgerRow
		lookup = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if s.postgres {
				lock := tx.NewSelect().Model((*balanceRow)(nil)).ColumnExpr("1").Where("agent_id IN (?)", bun.List(agentIDs)).
					Order("agent_id").For("UPDATE")
				if _, err := lock.Exec(ctx); err != nil {
					return err
				}
			}
			return tx.NewSelect().Model(&rows).Where("tx_id IN (?)", bun.List(txIDs)).Scan(ctx)
		})
		cancel()
		if lookup == nil {
			return rows, nil
		}
	}
	return nil, lookup
}
