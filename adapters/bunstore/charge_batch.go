package bunstore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/uptrace/bun"
)

// Group commit: Charge hands its request to a committer goroutine, which
// takes every charge queued meanwhile (up to maxChargeBatch) and commits
// them in one transaction, each under its own savepoint so that each
// succeeds or fails on its own balance, caps, transaction id and
// idempotency key. An uncontended charge waits for nobody: a free
// committer takes it at once.
const (
	// maxChargeBatch bounds the charges committed in one transaction.
	maxChargeBatch = 64
	// defaultChargeQueue bounds the charges waiting for a committer; when
	// it is full, Charge answers toolkit.Unavailable with a Retry-After.
	defaultChargeQueue = 4096
	// defaultPostgresCommitters is how many batches commit at once on
	// Postgres. SQLite has one committer: the single writer.
	defaultPostgresCommitters = 4
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

// chargeBatcher is the queue and the committers of a store.
type chargeBatcher struct {
	queue  chan *pendingCharge
	mu     sync.RWMutex // held for reading while enqueueing, for writing while closing
	closed bool
	stop   chan struct{}
	wg     sync.WaitGroup
}

// startCharges starts n committers, each committing batches with commit.
func startCharges(queue, n int, commit func(batch []*pendingCharge)) *chargeBatcher {
	b := &chargeBatcher{queue: make(chan *pendingCharge, queue), stop: make(chan struct{})}
	for range n {
		b.wg.Add(1)
		go b.run(commit)
	}
	return b
}

// run is one committer: it takes a first charge, then whatever else is
// queued, and commits them together.
func (b *chargeBatcher) run(commit func(batch []*pendingCharge)) {
	defer b.wg.Done()
	batch := make([]*pendingCharge, 0, maxChargeBatch)
	for {
		batch = batch[:0]
		select {
		case <-b.stop:
			return
		case p := <-b.queue:
			batch = appendTaken(batch, p)
		}
	more:
		for len(batch) < maxChargeBatch {
			select {
			case p := <-b.queue:
				batch = appendTaken(batch, p)
			default:
				break more
			}
		}
		if len(batch) > 0 {
			commit(batch)
		}
	}
}

// appendTaken adds p to the batch unless its caller withdrew it.
func appendTaken(batch []*pendingCharge, p *pendingCharge) []*pendingCharge {
	if p.state.CompareAndSwap(chargeQueued, chargeTaken) {
		return append(batch, p)
	}
	return batch
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

// close stops the committers after their current batch and fails every
// charge still queued (none of them is charged).
func (b *chargeBatcher) close() {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.closed = true
	b.mu.Unlock()
	close(b.stop)
	b.wg.Wait()
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
	const op = "bunstore.Charge"
	if err := ctx.Err(); err != nil {
		return billing.Transaction{}, translate(op, err)
	}
	p := &pendingCharge{req: req, result: make(chan chargeResult, 1)}
	if err := s.charges.enqueue(p); err != nil {
		return billing.Transaction{}, err
	}
	select {
	case r := <-p.result:
		return r.tx, r.err
	case <-ctx.Done():
		if p.state.CompareAndSwap(chargeQueued, chargeWithdrawn) {
			return billing.Transaction{}, translate(op, ctx.Err())
		}
		r := <-p.result
		return r.tx, r.err
	}
}

// commitCharges commits one batch and answers every caller in it. The
// charges are applied in agent order (stable, so one agent's keep their
// arrival order): two batches, even of two servers, then lock balance rows
// in the same order and cannot deadlock.
func (s *Store) commitCharges(batch []*pendingCharge) {
	const op = "bunstore.Charge"
	ctx := context.Background() // a caller's context never cuts a batch short
	slices.SortStableFunc(batch, func(a, b *pendingCharge) int { return strings.Compare(a.req.AgentID, b.req.AgentID) })
	results := make([]chargeResult, len(batch))
	committed, err := s.runChargeBatch(ctx, batch, results)
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
func (s *Store) runChargeBatch(ctx context.Context, batch []*pendingCharge, results []chargeResult) (committed bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	var written *billing.ChargeRequest // the last charge applied
	for i, p := range batch {
		step := chargeNext
		switch {
		case len(batch) == 1:
			step = chargeAlone
		case i == 0:
			step = chargeFirst
		}
		var out chargeOutcome
		if s.postgres {
			out, err = applyChargePostgres(ctx, tx, p.req, step)
		} else {
			out, err = applyChargeSQLite(ctx, tx, p.req, step)
		}
		var broken *batchBroken
		if errors.As(err, &broken) {
			_ = tx.Rollback() // nothing of the batch commits: on a dead connection the server rolls back
			return false, broken.err
		}
		if err != nil {
			results[i].err = err
			continue
		}
		if results[i].tx, err = out.row.transaction(); err != nil {
			_ = tx.Rollback()
			return false, err
		}
		written = &p.req
	}
	if written == nil {
		// Every charge was refused: whatever a refused charge alone in its
		// transaction wrote is undone.
		return false, tx.Rollback()
	}
	if err := tx.Commit(); err != nil {
		committed, cerr := s.ledgerHasTx(written)
		if cerr != nil {
			return false, errors.Join(errOutcomeUnknown, err, cerr)
		}
		return committed, err
	}
	return true, nil
}

// ledgerHasTx reports whether a charge's ledger row is in the database,
// after a commit whose answer was lost. It first takes the charge's
// balance row lock (Postgres; on SQLite the immediate transaction takes
// the write lock), so a commit still under way is waited for. It tries a
// few times over about two seconds.
func (s *Store) ledgerHasTx(req *billing.ChargeRequest) (bool, error) {
	var err error
	for _, wait := range []time.Duration{0, 200 * time.Millisecond, 600 * time.Millisecond, 1200 * time.Millisecond} {
		time.Sleep(wait)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var n int64
		err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if s.postgres {
				lock := tx.NewSelect().Model((*balanceRow)(nil)).ColumnExpr("1").Where("agent_id = ?", req.AgentID).For("UPDATE")
				if _, err := lock.Exec(ctx); err != nil {
					return err
				}
			}
			var err error
			n, err = tx.NewSelect().Model((*ledgerRow)(nil)).Where("tx_id = ?", req.TxID).Count(ctx)
			return err
		})
		cancel()
		if err == nil {
			return n > 0, nil
		}
	}
	return false, err
}
