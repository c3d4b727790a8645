package bunstore

import (
	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
)

// chargeSavepoint is the savepoint each charge of a batch runs under, so
// that a refused charge is undone without touching the others.
const chargeSavepoint = "charge"

// chargeOutcome is what applying one charge inside a transaction wrote.
type chargeOutcome struct {
	row        ledgerRow
	dayTotal   int64 // the agent's daily total including this charge
	monthTotal int64 // the agent's monthly total including this charge
}

// errInsufficient is the refusal of a charge its balance cannot cover.
func errInsufficient() error {
	return toolkit.Errorf(toolkit.InsufficientCredits, "insufficient balance")
}

// errLimitsChanged is the refusal of a charge checked against spend
// limits that have changed since (billing.ErrLimitsChanged).
func errLimitsChanged() error {
	return &toolkit.Error{Kind: toolkit.Conflict, Msg: "the spend limits changed during the call; retry", Err: billing.ErrLimitsChanged}
}

// chargeStep says where a charge stands in its batch's transaction.
type chargeStep int

const (
	// chargeAlone is the only charge of its transaction: it needs no
	// savepoint, since a failure rolls the whole transaction back.
	chargeAlone chargeStep = iota
	// chargeFirst is the first of several: it runs under its savepoint.
	chargeFirst
	// chargeNext is a later one: it runs under its savepoint too.
	chargeNext
)

// batchBroken wraps an error after which a batch's transaction cannot go
// on: it is rolled back and nothing in it is charged.
type batchBroken struct{ err error }

func (b *batchBroken) Error() string { return b.err.Error() }
func (b *batchBroken) Unwrap() error { return b.err }
