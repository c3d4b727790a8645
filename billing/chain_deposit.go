package billing

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
)

// TxSignatureField is the vault field of a deposit's transaction
// signature: it is sealed per agent under this name, and its keyed hash
// under this name is the ledger's replay key on every deposit endpoint.
const TxSignatureField = "tx_signature"

// verifyRetryAfter is the retry hint of a deposit that cannot be verified
// now (the node is down, or the transaction is not finalized yet: that
// takes about 15 seconds on Solana).
const verifyRetryAfter = 30 * time.Second

// ChainDeposit is a credited on-chain deposit.
type ChainDeposit struct {
	AgentID string
	// TxID is the ledger row's id.
	TxID string
	// Signature is the transaction signature (base58).
	Signature string
	// Asset is the asset received.
	Asset Asset
	// Quantity is the tokens received, in whole tokens.
	Quantity toolkit.Amount
	// Credited is the USD credited as real funds.
	Credited toolkit.Amount
	// PriceUSD is the SOL price used (SOL deposits only).
	PriceUSD *toolkit.Amount
	// Rate is the USD credited per native token (native deposits only).
	Rate *toolkit.Amount
	// Presale reports whether the presale rate applied (native deposits).
	Presale bool
	// Balances are the account's balances right after the credit (the
	// real funds as the credit left them, the test funds read just after):
	// Balances.Balance is what its calls are paid from, which for a
	// sandbox account is the test funds, not this credit's class.
	Balances Balance
	// Sender is the wallet the funds came from.
	Sender string
}

// NativeToken returns the configured native token's ticker.
func (s *Service) NativeToken() Asset { return s.cfg.NativeToken.Asset }

// NativeRates returns the configured native token and its rates.
func (s *Service) NativeRates() NativeToken { return s.cfg.NativeToken }

// DepositOnChain verifies a deposit transaction of asset to the treasury
// and credits it to the account as real funds, exactly once across every
// deposit endpoint:
//
//   - stablecoins (USDC, USDT, PYUSD) are credited 1:1;
//   - SOL at the oracle's current price;
//   - the native token at NativeToken.Rate per token, or PresaleRate for
//     a presale account.
//
// SOL and native-token credits are rounded DOWN to the micro-USD
// (quantity × price, truncated at the sixth decimal), so a deposit never
// credits more than it is worth; the price or rate used is recorded on
// the ledger row. The signature is stored sealed for the agent; its keyed
// hash is the replay key.
//
// A failed check is toolkit.Invalid naming it (nothing written); a
// verification or price that cannot be had now is toolkit.Unavailable
// with a retry hint (nothing written, the signature stays usable); a
// signature already credited, by any endpoint and to any agent, is
// toolkit.Conflict. Without a configured verifier (or, for SOL, oracle)
// the result is toolkit.Unavailable naming the missing setup.
func (s *Service) DepositOnChain(ctx context.Context, acct Account, asset Asset, signature string) (ChainDeposit, error) {
	if !asset.IsStablecoin() && asset != SOL && asset != s.cfg.NativeToken.Asset {
		return ChainDeposit{}, toolkit.Errorf(toolkit.Invalid, "%s deposits are not accepted by this server", asset)
	}
	return s.depositTransfer(ctx, acct, chainRequest{asset: asset, field: TxSignatureField, signature: signature,
		fundingPath: FundingDirectTransfer})
}

// chainRequest is one on-chain deposit to verify and credit.
type chainRequest struct {
	asset       Asset
	field       string // the request field carrying the signature
	signature   string
	fundingPath string
	// atLeast, when set, is the least quantity the transaction must pay
	// (the generic deposit's amount).
	atLeast *toolkit.Amount
}

// depositTransfer verifies, values and credits one on-chain deposit.
func (s *Service) depositTransfer(ctx context.Context, acct Account, r chainRequest) (ChainDeposit, error) {
	const op = "billing.DepositOnChain"
	if r.signature == "" {
		return ChainDeposit{}, toolkit.Errorf(toolkit.Invalid, "%s: required (the base58 signature of the deposit transaction)", r.field)
	}
	if len(r.signature) > MaxTxSignatureLen {
		return ChainDeposit{}, toolkit.Errorf(toolkit.Invalid, "%s: at most %d characters (a base58 Solana transaction signature)", r.field, MaxTxSignatureLen)
	}
	if s.cfg.Deposits == nil {
		return ChainDeposit{}, notConfigured("on-chain deposits are not set up on this server: it has no Solana RPC endpoint configured")
	}
	if r.asset == SOL && s.cfg.Oracle == nil {
		return ChainDeposit{}, notConfigured("SOL deposits are not set up on this server: it has no SOL price feed configured")
	}
	d, err := s.verifyTransfer(ctx, acct.AgentID, r)
	if err != nil {
		return ChainDeposit{}, err
	}
	out := ChainDeposit{AgentID: acct.AgentID, Signature: d.Signature, Asset: d.Asset, Sender: d.Sender}
	if out.Quantity, err = d.Quantity(); err != nil {
		return ChainDeposit{}, toolkit.AsInternal(op, err)
	}
	if r.atLeast != nil && out.Quantity.Cmp(*r.atLeast) < 0 {
		s.verificationFailed(ctx, acct.AgentID, "A deposit claimed more than its transaction paid; nothing was credited")
		return ChainDeposit{}, toolkit.Errorf(toolkit.Invalid, "amount: the transaction pays %s %s, less than the %s claimed; nothing was credited",
			out.Quantity.Trim(2), d.Asset, r.atLeast)
	}
	price, err := s.unitPrice(ctx, acct, &out)
	if err != nil {
		return ChainDeposit{}, err
	}
	micros, err := creditMicros(r.field, out.Quantity.Mul(price))
	if err != nil {
		return ChainDeposit{}, err
	}
	hash, err := s.cfg.Vault.Hash(TxSignatureField, []byte(d.Signature))
	if err != nil {
		return ChainDeposit{}, toolkit.WithOp(op, err)
	}
	sealed, err := s.cfg.Vault.Seal(ctx, acct.AgentID, TxSignatureField, []byte(d.Signature))
	if err != nil {
		return ChainDeposit{}, toolkit.WithOp(op, err)
	}
	ref, currency := hex.EncodeToString(hash), string(d.Asset)
	req := CreditRequest{AgentID: acct.AgentID, Funds: FundsReal, Micros: micros, FundingPath: r.fundingPath,
		ExternalRef: &ref, SealedSignature: sealed, Currency: &currency, Quantity: &out.Quantity, At: s.cfg.Now().UTC()}
	if !d.Asset.IsStablecoin() {
		req.PriceUSD = &price
	}
	tx, err := s.credit(ctx, op, req)
	if toolkit.IsKind(err, toolkit.Conflict) {
		return ChainDeposit{}, &toolkit.Error{Kind: toolkit.Conflict, Op: op, Err: err,
			Msg: r.field + ": this transaction was already credited (replay refused)"}
	}
	if err != nil {
		return ChainDeposit{}, err
	}
	rec, err := s.store.Balance(ctx, acct.AgentID)
	if err != nil {
		return ChainDeposit{}, toolkit.WithOp(op, err)
	}
	rec.Micros = tx.BalanceAfter // the real funds as this credit left them
	out.TxID, out.Credited, out.Balances = tx.TxID, USD(micros), s.balanceOf(rec, acct.Funds)
	return out, nil
}

// verifyTransfer asks the verifier about the transaction, binding it to
// the agent by its wallets or memo, and checks the answer is the asked
// asset.
func (s *Service) verifyTransfer(ctx context.Context, agentID string, r chainRequest) (VerifiedDeposit, error) {
	q := DepositQuery{Signature: r.signature, Asset: r.asset, AgentID: agentID}
	if s.cfg.Wallets != nil {
		wallets, err := s.cfg.Wallets.AgentWallets(ctx, agentID)
		if err != nil {
			return VerifiedDeposit{}, toolkit.WithOp("billing.DepositOnChain", err)
		}
		q.Wallets = wallets
	}
	d, err := s.cfg.Deposits.VerifyDeposit(ctx, q)
	if err != nil {
		if toolkit.IsKind(err, toolkit.Invalid) { // the transaction failed a check (an outage is not recorded)
			s.verificationFailed(ctx, agentID, "")
		}
		return VerifiedDeposit{}, renameField(verifierError(err), r.field)
	}
	if d.Asset != r.asset || d.BaseUnits == 0 || d.Signature == "" {
		return VerifiedDeposit{}, toolkit.AsInternal("billing.DepositOnChain",
			fmt.Errorf("verifier answered %d units of %s for signature %q, asked %s", d.BaseUnits, d.Asset, d.Signature, r.asset))
	}
	return d, nil
}

// unitPrice returns the USD credited per whole token of the deposit and
// records it on out: 1 for a stablecoin, the oracle's price for SOL, the
// native rate (presale or standard) for the native token.
func (s *Service) unitPrice(ctx context.Context, acct Account, out *ChainDeposit) (toolkit.Amount, error) {
	switch {
	case out.Asset.IsStablecoin():
		return toolkit.AmountFromInt(1), nil
	case out.Asset == SOL:
		p, err := s.cfg.Oracle.PriceUSD(ctx, SOL)
		if err != nil {
			return toolkit.Amount{}, verifierError(err)
		}
		if p.Asset != SOL || p.USD.Sign() <= 0 || !p.USD.IsFinite() {
			return toolkit.Amount{}, toolkit.AsInternal("billing.DepositOnChain", fmt.Errorf("oracle answered %s at %s for SOL", p.Asset, p.USD))
		}
		out.PriceUSD = &p.USD
		return p.USD, nil
	default:
		rate := s.cfg.NativeToken.Rate
		if acct.Presale {
			rate = s.cfg.NativeToken.PresaleRate
		}
		out.Rate, out.Presale = &rate, acct.Presale
		return rate, nil
	}
}

// creditMicros rounds a USD value down to the micro-USD (the rounding
// rule of SOL and native-token deposits; stablecoin values are already
// whole micros) and refuses a value worth nothing or too large to hold.
func creditMicros(field string, usd toolkit.Amount) (int64, error) {
	down, err := usd.Round(6, toolkit.RoundDown)
	if err != nil {
		return 0, toolkit.Errorf(toolkit.Invalid, "%s: the deposit is too large to credit; contact support", field)
	}
	micros, err := down.Micros()
	if err != nil {
		return 0, toolkit.Errorf(toolkit.Invalid, "%s: the deposit is too large to credit; contact support", field)
	}
	if micros <= 0 {
		return 0, toolkit.Errorf(toolkit.Invalid, "%s: the deposit is worth less than $0.000001 and cannot be credited", field)
	}
	return micros, nil
}

// notConfigured is the 503 of a deposit the server is not set up for.
func notConfigured(msg string) error {
	return toolkit.Errorf(toolkit.Unavailable, "%s; the operator must configure it, nothing was recorded", msg)
}

// renameField makes a verifier's message, which names tx_signature, name
// the request's own field (on_chain_tx_hash for the generic deposit).
func renameField(err error, field string) error {
	const prefix = TxSignatureField + ": "
	msg := toolkit.MessageOf(err)
	if field == TxSignatureField || !strings.HasPrefix(msg, prefix) {
		return err
	}
	return &toolkit.Error{Kind: toolkit.KindOf(err), Op: "billing.verify", Msg: field + ": " + strings.TrimPrefix(msg, prefix),
		Err: err, RetryAfter: toolkit.RetryAfterOf(err)}
}
