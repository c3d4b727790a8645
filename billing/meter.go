package billing

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/agentfinance/toolkit"
)

// MaxIdempotencyKeyLen bounds the Idempotency-Key header.
const MaxIdempotencyKeyLen = 255

// MeterRequest describes one priced call.
type MeterRequest struct {
	Account   Account
	Operation string // price-table key; unlisted operations are free
	// IdempotencyKey, optional: a retry with the same key and the same
	// Body returns the stored response and is charged once; the same key
	// with a different body is toolkit.Conflict.
	IdempotencyKey string
	// Body is the request body the idempotency check compares.
	Body []byte
}

// Outcome is what a metered operation produced.
type Outcome struct {
	// Response is the serialised result returned to the caller.
	Response []byte
	// Chargeable is false for answers that must not be billed (such as an
	// insufficient-history answer).
	Chargeable bool
}

// Metered is the result of Meter.
type Metered struct {
	Response []byte
	// Charged is what was debited (0 when free, not chargeable or replayed).
	Charged toolkit.Amount
	// Balance is the balance right after the debit; nil when nothing was
	// debited.
	Balance *toolkit.Amount
	// Replayed is true when the response came from an idempotency key.
	Replayed bool
}

// Meter is the single metering point of the toolkit: every priced call,
// whether reached by a REST shortcut, POST /v1/tools/call or MCP, goes
// through it.
//
//  1. An idempotent retry returns the stored response (no run, no charge).
//  2. Balance, caps and consumption are read in one store query
//     (Store.ChargeCheck), or come from the Service's cache of it (see
//     check_cache.go). Spend caps and the allowed-operations list are
//     checked (toolkit.Forbidden naming the cap; nothing runs).
//  3. The balance of the account's class of funds is checked (test funds
//     for a sandbox account, real funds for a live one):
//     toolkit.InsufficientCredits with "Insufficient balance. Required:
//     $X, Available: $Y" and, when the other class holds money, why it
//     cannot pay; nothing runs.
//  4. run is called; an error is returned as is and nothing is charged.
//  5. A chargeable outcome is debited atomically (conditional UPDATE,
//     ledger row, usage row, idempotency record in one transaction). If the
//     balance was spent concurrently, the result is discarded and the call
//     fails with toolkit.InsufficientCredits; if the caps changed since
//     step 2, the call is checked against the new ones (toolkit.Forbidden,
//     result discarded, when it passes one) and charged again.
func (s *Service) Meter(ctx context.Context, req MeterRequest, run func(ctx context.Context) (Outcome, error)) (Metered, error) {
	const op = "billing.Meter"
	price := s.cfg.Prices.Micros(req.Operation, req.Account.Presale)
	if price == 0 {
		out, err := run(ctx)
		return Metered{Response: out.Response}, err
	}
	if len(req.IdempotencyKey) > MaxIdempotencyKeyLen {
		return Metered{}, toolkit.Errorf(toolkit.Invalid, "Idempotency-Key: at most %d characters", MaxIdempotencyKeyLen)
	}
	hash := requestHash(req.Operation, req.Body)
	if req.IdempotencyKey != "" {
		if m, ok, err := s.replay(ctx, req, hash); ok || err != nil {
			return m, err
		}
	}
	now := s.cfg.Now()
	check, err := s.admitCall(ctx, req, now, price)
	if err != nil {
		return Metered{}, err
	}
	out, err := run(ctx)
	if err != nil {
		return Metered{}, err
	}
	if !out.Chargeable {
		return Metered{Response: out.Response}, nil
	}
	txID, err := s.newTxID()
	if err != nil {
		return Metered{}, toolkit.WithOp(op, err)
	}
	funds := req.Account.Funds.normal()
	dayStart, monthStart := SpendWindows(now)
	charge := ChargeRequest{
		TxID: txID, AgentID: req.Account.AgentID, Operation: req.Operation, Funds: funds, Micros: price,
		At: now.UTC(), DayStart: dayStart, MonthStart: monthStart, Limits: check.Limits,
	}
	if req.IdempotencyKey != "" {
		charge.Idempotency = &IdempotentResponse{Key: req.IdempotencyKey, RequestHash: hash, Response: out.Response}
	}
	tx, err := s.charge(ctx, req, charge)
	switch {
	case err == nil:
		after := USD(tx.BalanceAfter)
		return Metered{Response: out.Response, Charged: USD(price), Balance: &after}, nil
	case toolkit.IsKind(err, toolkit.InsufficientCredits):
		cur, berr := s.store.Balance(ctx, req.Account.AgentID)
		if berr != nil {
			return Metered{}, toolkit.WithOp(op, berr)
		}
		return Metered{}, insufficient(price, cur, funds)
	case toolkit.IsKind(err, toolkit.Conflict) && req.IdempotencyKey != "":
		// A concurrent retry with the same key won; answer as it did.
		if m, ok, rerr := s.replay(ctx, req, hash); ok || rerr != nil {
			return m, rerr
		}
	}
	return Metered{}, toolkit.WithOp(op, err)
}

// replay returns the stored response for the request's idempotency key.
func (s *Service) replay(ctx context.Context, req MeterRequest, hash string) (Metered, bool, error) {
	stored, err := s.store.StoredResponse(ctx, req.Account.AgentID, req.IdempotencyKey)
	switch {
	case toolkit.IsKind(err, toolkit.NotFound):
		return Metered{}, false, nil
	case err != nil:
		return Metered{}, false, toolkit.WithOp("billing.Meter", err)
	case stored.RequestHash != hash:
		return Metered{}, false, toolkit.Errorf(toolkit.Conflict,
			"Idempotency-Key %q was already used with a different request body", req.IdempotencyKey)
	}
	return Metered{Response: stored.Response, Replayed: true}, true, nil
}

// checkCaps is the pre-run check of the spend caps; the store checks them
// again inside the debit transaction, so concurrent calls cannot overshoot.
func checkCaps(req MeterRequest, check ChargeCheck, price int64) error {
	limits := check.Limits
	if len(limits.AllowedOperations) > 0 && !slices.Contains(limits.AllowedOperations, req.Operation) {
		return toolkit.Errorf(toolkit.Forbidden, "Operation %s is not in this agent's allowed operations", req.Operation)
	}
	return CheckSpendCaps(limits, check.SpentDay, check.SpentMonth, price)
}

// CapExceeded is the error for a call that would exceed a spend cap. Stores
// use it too, so both checks read the same.
func CapExceeded(name string, capMicros, spentMicros, priceMicros int64) error {
	return toolkit.Errorf(toolkit.Forbidden, "%s spend limit of $%s would be exceeded: spent $%s, this call costs $%s",
		capitalize(name), USD(capMicros), USD(spentMicros), USD(priceMicros))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// insufficient is the 402 of a call the paying class of funds cannot
// cover. When the other class holds money it says why that money cannot
// pay: test funds never pay live calls, and real funds pay in live mode.
func insufficient(price int64, bal BalanceRecord, funds Funds) error {
	available := bal.Of(funds)
	msg := fmt.Sprintf("Insufficient balance. Required: $%s, Available: $%s", USD(price), USD(available))
	switch {
	case funds == FundsReal && bal.TestMicros > 0:
		msg += " (test funds are spendable in sandbox mode only)"
	case funds == FundsTest && bal.Micros > 0:
		msg += fmt.Sprintf(" in test funds (sandbox calls are paid from test funds; your $%s of real funds pay in live mode: PUT /v1/agents/mode {\"mode\":\"live\"})",
			USD(bal.Micros))
	}
	return &toolkit.Error{Kind: toolkit.InsufficientCredits, Msg: msg,
		Err: &Shortfall{Required: USD(price), Available: USD(available)}}
}

// Shortfall is the cause of an InsufficientCredits error from metering:
// what the call costs and what the paying balance holds (the class of
// funds the call is paid from). The HTTP layer sends both as numbers
// beside the message.
type Shortfall struct {
	Required  toolkit.Amount
	Available toolkit.Amount
}

// Error implements error.
func (s *Shortfall) Error() string {
	return fmt.Sprintf("required %s, available %s", s.Required, s.Available)
}

// requestHash identifies a request for idempotency: operation and body.
func requestHash(operation string, body []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s:", len(operation), operation)
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}
