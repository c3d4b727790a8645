package bunstore

import (
	"slices"

	"github.com/agentfinance/toolkit/billing"
	"github.com/uptrace/bun"
)

// DB exposes the Bun handle to this adapter's own tests.
func (s *Store) DB() *bun.DB { return s.db }

// CommitTogether commits reqs as one batch of the group commit, in one
// transaction, and returns each charge's answer.
func (s *Store) CommitTogether(reqs []billing.ChargeRequest) ([]billing.Transaction, []error) {
	batch := make([]*pendingCharge, len(reqs))
	for i, r := range reqs {
		batch[i] = &pendingCharge{req: r, result: make(chan chargeResult, 1)}
	}
	slot := <-s.charges.slots
	s.commitCharges(slot, slices.Clone(batch))
	s.charges.slots <- slot
	txs, errs := make([]billing.Transaction, len(reqs)), make([]error, len(reqs))
	for i, p := range batch {
		r := <-p.result
		txs[i], errs[i] = r.tx, r.err
	}
	return txs, errs
}

// QueuedCharges is how many charges wait for a committer.
func (s *Store) QueuedCharges() int { return len(s.charges.queue) }

// Translate is translate, for the adapter's own tests.
func Translate(op string, err error) error { return translate(op, err) }
