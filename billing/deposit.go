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

// VerifiedPayment is a payment confirmed by a verifier.
type VerifiedPayment struct {
	// Amount received, in USD.
	Amount toolkit.Amount
	// Ref uniquely identifies the payment (e.g. "solana:<signature>");
	// a Ref is credited at most once.
	Ref string
}

// ChainVerifier confirms an on-chain payment to the service's treasury by
// its transaction hash (implemented by the Solana adapter).
//
// Verifiers classify their errors as *toolkit.Error (toolkit.Invalid for a
// payment that does not qualify, toolkit.NotFound for an unknown
// transaction, ...); any other error is taken as an outage and reported
// as toolkit.Unavailable.
type ChainVerifier interface {
	VerifyPayment(ctx context.Context, agentID, txHash string) (VerifiedPayment, error)
}

// OnrampVerifier confirms a card/onramp payment (implemented by a payment
// provider adapter; none is configured by default). Its errors follow the
// ChainVerifier rules.
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

// MaxDepositMicros bounds one deposit: 1,000,000 USD.
const MaxDepositMicros int64 = 1_000_000 * toolkit.MicrosPerUnit

// Deposit credits a generic deposit and returns the new balance. It never
// credits an unverified amount in live use:
//
//   - a sandbox agent may self-credit test funds when Config.SandboxSelfCredit
//     is on, up to Config.SandboxCreditCap in total;
//   - otherwise direct_transfer and x402 need on_chain_tx_hash, verified by
//     the ChainVerifier; onramp is verified by the OnrampVerifier. A path
//     without a configured verifier is refused (toolkit.Invalid naming the
//     missing setup). A verifier's error keeps its Kind; a verifier that
//     cannot answer is toolkit.Unavailable. A payment already credited is
//     toolkit.Conflict.
func (s *Service) Deposit(ctx context.Context, acct Account, in DepositInput) (Balance, error) {
	const op = "billing.Deposit"
	micros, err := validateDeposit(in)
	if err != nil {
		return Balance{}, err
	}
	req := CreditRequest{AgentID: acct.AgentID, Micros: micros, FundingPath: in.FundingPath, At: s.cfg.Now().UTC()}
	if acct.Sandbox && s.cfg.SandboxSelfCredit && in.OnChainTxHash == "" {
		req.SelfCreditCapMicros, _ = s.cfg.SandboxCreditCap.Micros()
	} else {
		paid, err := s.verify(ctx, acct.AgentID, in)
		if err != nil {
			return Balance{}, err
		}
		if paid.Amount.Cmp(in.Amount) != 0 {
			s.cfg.Recorder.Record(ctx, guardian.Event{Type: guardian.TypeDepositVerificationFailed, AgentID: acct.AgentID,
				Description: "A deposit claimed another amount than the verified payment; nothing was credited"})
			return Balance{}, toolkit.Errorf(toolkit.Invalid,
				"amount: the verified payment is %s, not %s", paid.Amount, in.Amount)
		}
		req.ExternalRef = &paid.Ref
	}
	if req.TxID, err = s.newTxID(); err != nil {
		return Balance{}, toolkit.WithOp(op, err)
	}
	if _, err := s.store.Credit(ctx, req); err != nil {
		if toolkit.IsKind(err, toolkit.Conflict) {
			if req.ExternalRef != nil {
				s.cfg.Recorder.Record(ctx, guardian.Event{Type: guardian.TypeDepositReplay, AgentID: acct.AgentID})
			}
			return Balance{}, &toolkit.Error{Kind: toolkit.Conflict, Op: op, Err: err,
				Msg: "This payment was already credited (replay refused)"}
		}
		return Balance{}, toolkit.WithOp(op, err)
	}
	return s.Balance(ctx, acct.AgentID)
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

func (s *Service) verify(ctx context.Context, agentID string, in DepositInput) (VerifiedPayment, error) {
	var (
		paid VerifiedPayment
		err  error
	)
	switch in.FundingPath {
	case FundingOnramp:
		if s.cfg.Onramp == nil {
			return paid, toolkit.Errorf(toolkit.Invalid,
				"funding_path: onramp deposits need an onramp payment provider, which this server has not configured")
		}
		paid, err = s.cfg.Onramp.VerifyOnramp(ctx, agentID, in.Amount)
	default:
		if in.OnChainTxHash == "" {
			return paid, toolkit.Errorf(toolkit.Invalid,
				"on_chain_tx_hash: required for %s deposits (the payment is verified on chain before crediting)", in.FundingPath)
		}
		if s.cfg.Chain == nil {
			return paid, toolkit.Errorf(toolkit.Invalid,
				"funding_path: %s deposits need on-chain verification, which this server has not configured", in.FundingPath)
		}
		paid, err = s.cfg.Chain.VerifyPayment(ctx, agentID, in.OnChainTxHash)
	}
	if err != nil {
		if toolkit.IsKind(err, toolkit.Invalid) { // the payment failed a check (an outage is not recorded)
			s.cfg.Recorder.Record(ctx, guardian.Event{Type: guardian.TypeDepositVerificationFailed, AgentID: agentID})
		}
		return paid, verifierError(err)
	}
	if paid.Ref == "" {
		return paid, toolkit.WithOp("billing.verify", fmt.Errorf("verifier returned an empty payment reference"))
	}
	return paid, nil
}

// verifierError keeps the Kind a verifier gave its error (a payment it
// refuses is Invalid, one it cannot find NotFound, ...). An unclassified
// error means the verifier could not answer: toolkit.Unavailable, so the
// client retries instead of being told its request is wrong.
func verifierError(err error) error {
	var te *toolkit.Error
	if errors.As(err, &te) {
		return toolkit.WithOp("billing.verify", err)
	}
	return &toolkit.Error{Kind: toolkit.Unavailable, Op: "billing.verify",
		Msg: "payment verification is unavailable; retry later", Err: err}
}
