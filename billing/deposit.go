package billing

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/guardian"
)

// Funding paths of the generic deposit.
const (
	FundingOnramp         = "onramp"
	FundingDirectTransfer = "direct_transfer"
	FundingX402           = "x402"
)

// FundingPaths lists the funding paths of the generic deposit (a fresh
// slice).
func FundingPaths() []string { return []string{FundingOnramp, FundingDirectTransfer, FundingX402} }

// VerifiedPayment is a payment confirmed by an onramp provider.
type VerifiedPayment struct {
	// Amount received, in USD.
	Amount toolkit.Amount
	// Ref uniquely identifies the payment (e.g. "onramp:pay_1"); a Ref is
	// credited at most once.
	Ref string
}

// OnrampVerifier confirms a card/onramp payment (implemented by a payment
// provider adapter; none is configured by default).
//
// Verifiers classify their errors as *toolkit.Error (toolkit.Invalid for a
// payment that does not qualify, toolkit.NotFound for an unknown payment,
// ...); any other error is taken as an outage and reported as
// toolkit.Unavailable.
type OnrampVerifier interface {
	VerifyOnramp(ctx context.Context, agentID string, amount toolkit.Amount) (VerifiedPayment, error)
}

// DepositInput is a generic deposit request.
type DepositInput struct {
	Amount        toolkit.Amount
	FundingPath   string
	OnChainTxHash string
}

// MaxTxHashLen bounds a transaction hash or signature (a Solana signature
// is 87 or 88 base58 characters).
const MaxTxHashLen = 128

// MaxDepositMicros bounds one generic deposit's amount: 1,000,000 USD.
const MaxDepositMicros int64 = 1_000_000 * toolkit.MicrosPerUnit

// Deposit credits a generic deposit and returns the new balances. Test
// money and real money never mix:
//
//   - a sandbox account without on_chain_tx_hash self-credits test funds
//     when Config.SandboxSelfCredit is on, up to Config.SandboxCreditCap
//     in total; test funds pay sandbox calls only;
//   - direct_transfer and x402 with on_chain_tx_hash are verified as a
//     USDC deposit to the treasury through Config.Deposits (the same
//     checks and the same replay index as POST /v1/billing/deposit-usdc):
//     the transaction must pay at least amount, and what it paid is
//     credited as real funds. Without a configured verifier the result is
//     toolkit.Unavailable naming the missing setup;
//   - onramp is verified by Config.Onramp and credited as real funds.
//
// A verification that fails is toolkit.Invalid naming the check; one that
// cannot be made now is toolkit.Unavailable and writes nothing. A payment
// already credited is toolkit.Conflict.
func (s *Service) Deposit(ctx context.Context, acct Account, in DepositInput) (Balance, error) {
	const op = "billing.Deposit"
	micros, err := validateDeposit(in)
	if err != nil {
		return Balance{}, err
	}
	switch {
	case acct.Sandbox() && s.cfg.SandboxSelfCredit && in.OnChainTxHash == "":
		req := CreditRequest{AgentID: acct.AgentID, Funds: FundsTest, Micros: micros, FundingPath: in.FundingPath,
			At: s.cfg.Now().UTC()}
		req.SelfCreditCapMicros, _ = s.cfg.SandboxCreditCap.Micros()
		if _, err := s.credit(ctx, op, req); err != nil {
			return Balance{}, err
		}
	case in.FundingPath == FundingOnramp:
		if err := s.depositOnramp(ctx, acct, in, micros); err != nil {
			return Balance{}, err
		}
	case in.OnChainTxHash == "":
		msg := fmt.Sprintf("on_chain_tx_hash: required for %s deposits (the payment is verified on chain before crediting)", in.FundingPath)
		if s.cfg.SandboxSelfCredit && !acct.Sandbox() {
			msg += "; self-credited test funds are for sandbox mode only"
		}
		return Balance{}, toolkit.Errorf(toolkit.Invalid, "%s", msg)
	default:
		if _, err := s.depositTransfer(ctx, acct, chainRequest{asset: USDC, field: "on_chain_tx_hash",
			signature: in.OnChainTxHash, fundingPath: in.FundingPath, atLeast: &in.Amount}); err != nil {
			return Balance{}, err
		}
	}
	return s.Balance(ctx, acct)
}

func validateDeposit(in DepositInput) (int64, error) {
	if in.Amount.Sign() <= 0 {
		return 0, toolkit.Errorf(toolkit.Invalid, "amount: must be greater than 0 (got %s)", in.Amount)
	}
	if in.Amount.Cmp(USD(MaxDepositMicros)) > 0 {
		return 0, toolkit.Errorf(toolkit.Invalid, "amount: at most %s per deposit", USD(MaxDepositMicros))
	}
	micros, err := in.Amount.Micros()
	if err != nil {
		return 0, toolkit.Errorf(toolkit.Invalid, "amount: at most 6 decimal places (got %s)", in.Amount)
	}
	switch in.FundingPath {
	case FundingOnramp, FundingDirectTransfer, FundingX402:
	default:
		return 0, toolkit.Errorf(toolkit.Invalid, "funding_path: must be one of onramp, direct_transfer, x402 (got %q)", in.FundingPath)
	}
	if len(in.OnChainTxHash) > MaxTxHashLen {
		return 0, toolkit.Errorf(toolkit.Invalid, "on_chain_tx_hash: at most %d characters", MaxTxHashLen)
	}
	return micros, nil
}

// depositOnramp credits a payment confirmed by the onramp provider.
func (s *Service) depositOnramp(ctx context.Context, acct Account, in DepositInput, micros int64) error {
	if s.cfg.Onramp == nil {
		return toolkit.Errorf(toolkit.Invalid,
			"funding_path: onramp deposits need an onramp payment provider, which this server has not configured")
	}
	paid, err := s.cfg.Onramp.VerifyOnramp(ctx, acct.AgentID, in.Amount)
	if err != nil {
		if toolkit.IsKind(err, toolkit.Invalid) { // the payment failed a check (an outage is not recorded)
			s.verificationFailed(ctx, acct.AgentID, "")
		}
		return verifierError(err)
	}
	if paid.Ref == "" {
		return toolkit.WithOp("billing.Deposit", errors.New("onramp verifier returned an empty payment reference"))
	}
	if paid.Amount.Cmp(in.Amount) != 0 {
		s.verificationFailed(ctx, acct.AgentID, "A deposit claimed another amount than the verified payment; nothing was credited")
		return toolkit.Errorf(toolkit.Invalid, "amount: the verified payment is %s, not %s", paid.Amount, in.Amount)
	}
	req := CreditRequest{AgentID: acct.AgentID, Funds: FundsReal, Micros: micros, FundingPath: in.FundingPath,
		ExternalRef: &paid.Ref, At: s.cfg.Now().UTC()}
	_, err = s.credit(ctx, "billing.Deposit", req)
	return err
}

// credit writes one deposit with a fresh transaction id. An external
// reference already credited is toolkit.Conflict ("already credited").
func (s *Service) credit(ctx context.Context, op string, req CreditRequest) (Transaction, error) {
	var err error
	if req.TxID, err = s.newTxID(); err != nil {
		return Transaction{}, toolkit.WithOp(op, err)
	}
	tx, err := s.store.Credit(ctx, req)
	if err != nil {
		if toolkit.IsKind(err, toolkit.Conflict) && req.ExternalRef != nil {
			s.cfg.Recorder.Record(ctx, guardian.Event{Type: guardian.TypeDepositReplay, AgentID: req.AgentID})
			return Transaction{}, &toolkit.Error{Kind: toolkit.Conflict, Op: op, Err: err,
				Msg: "This payment was already credited (replay refused)"}
		}
		return Transaction{}, toolkit.WithOp(op, err)
	}
	return tx, nil
}

// verificationFailed records a payment that failed verification (a
// security event; an outage is not one).
func (s *Service) verificationFailed(ctx context.Context, agentID, description string) {
	s.cfg.Recorder.Record(ctx, guardian.Event{Type: guardian.TypeDepositVerificationFailed, AgentID: agentID, Description: description})
}

// verifierError keeps the Kind a verifier gave its error (a payment it
// refuses is Invalid, one it cannot find NotFound, ...). An unclassified
// error means the verifier could not answer: toolkit.Unavailable, so the
// client retries instead of being told its request is wrong. An
// Unavailable error always carries a retry hint.
func verifierError(err error) error {
	var te *toolkit.Error
	if !errors.As(err, &te) {
		return &toolkit.Error{Kind: toolkit.Unavailable, Op: "billing.verify", RetryAfter: verifyRetryAfter,
			Msg: "payment verification is unavailable; nothing was recorded, retry later", Err: err}
	}
	if te.Kind == toolkit.Unavailable && te.RetryAfter == 0 {
		c := *te
		c.RetryAfter = verifyRetryAfter
		te = &c
	}
	return toolkit.WithOp("billing.verify", te)
}
