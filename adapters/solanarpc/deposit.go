package solanarpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
)

const opVerify = "solanarpc.VerifyDeposit"

// solDecimals is the number of decimals of SOL (1 SOL = 10^9 lamports).
const solDecimals = 9

// reject is a failed deposit check: toolkit.Invalid naming tx_signature
// and the check.
func reject(format string, args ...any) error {
	return &toolkit.Error{Kind: toolkit.Invalid, Op: opVerify, Msg: "tx_signature: " + fmt.Sprintf(format, args...)}
}

// source is an account that paid into the transaction.
type source struct {
	owner  solana.PublicKey
	amount uint64
}

// VerifyDeposit fetches the transaction at finalized commitment (base64
// encoding, legacy and v0 transactions) and checks, in order:
//
//   - the node is on the configured network (its genesis hash, asked
//     for every verification);
//   - the transaction exists and is finalized, else toolkit.Unavailable;
//   - it succeeded (meta.err is null);
//   - it pays the expected asset into the treasury: for SOL, the treasury
//     wallet's own lamport balance grows; for an SPL token, the treasury's
//     associated token account for the configured mint and token program
//     grows. The amount is that net growth (post − pre, pre missing = 0),
//     so several transfers and transfers made by inner instructions count,
//     and a transaction that takes money out of the treasury or moves none
//     in is refused. The mint's decimals in the token balances must equal
//     the configured decimals;
//   - it is bound to the agent: an account that paid in (whose balance of
//     the asset fell; for SOL net of the fee) is owned by one of q.Wallets,
//     or an SPL Memo instruction's text is exactly q.AgentID.
//
// A failed check is toolkit.Invalid naming it; an RPC failure, timeout or
// inconsistent answer is toolkit.Unavailable.
func (c *Client) VerifyDeposit(ctx context.Context, q billing.DepositQuery) (billing.VerifiedDeposit, error) {
	var out billing.VerifiedDeposit
	sig, err := parseTxSignature(q.Signature)
	if err != nil {
		return out, err
	}
	if q.AgentID == "" {
		return out, toolkit.WithOp(opVerify, errors.New("no agent id"))
	}
	wallets := make(map[solana.PublicKey]bool, len(q.Wallets))
	for _, w := range q.Wallets {
		pk, err := solana.PublicKeyFromBase58(w)
		if err != nil {
			return out, toolkit.WithOp(opVerify, fmt.Errorf("agent %s wallet %q: %w", q.AgentID, w, err))
		}
		wallets[pk] = true
	}
	var tk *token
	if q.Asset != billing.SOL {
		if tk = c.set.tokens[q.Asset]; tk == nil {
			return out, &toolkit.Error{Kind: toolkit.Invalid, Op: opVerify, Msg: fmt.Sprintf("%s deposits are not accepted by this server", q.Asset)}
		}
	}
	if err := c.CheckNetwork(ctx); err != nil {
		return out, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.set.timeout)
	defer cancel()
	v0 := uint64(0)
	res, err := c.rpc.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{
		Encoding: solana.EncodingBase64, Commitment: rpc.CommitmentFinalized, MaxSupportedTransactionVersion: &v0})
	if errors.Is(err, rpc.ErrNotFound) {
		return out, &toolkit.Error{Kind: toolkit.Unavailable, Op: opVerify, Err: err,
			Msg: "tx_signature: the transaction is not found or not finalized yet (finalization takes about 15 seconds); nothing was recorded, retry in a minute"}
	}
	if err != nil {
		return out, rpcUnavailable(opVerify, "getTransaction", err)
	}
	return c.inspect(res, sig, q.AgentID, wallets, tk)
}

// parseTxSignature decodes a base58 transaction signature, bounding the
// text before decoding.
func parseTxSignature(s string) (solana.Signature, error) {
	bad := func(rule string) error {
		return &toolkit.Error{Kind: toolkit.Invalid, Op: opVerify, Msg: "tx_signature: " + rule}
	}
	switch {
	case s == "":
		return solana.Signature{}, bad("required (the base58 signature of the deposit transaction)")
	case len(s) > billing.MaxTxSignatureLen:
		return solana.Signature{}, bad(fmt.Sprintf("at most %d characters (a base58 transaction signature)", billing.MaxTxSignatureLen))
	}
	sig, err := solana.SignatureFromBase58(s)
	if err != nil {
		return solana.Signature{}, bad("must be a base58 transaction signature of 64 bytes")
	}
	return sig, nil
}

// inspect runs the checks on a fetched transaction; tk is nil for SOL.
func (c *Client) inspect(res *rpc.GetTransactionResult, sig solana.Signature, agentID string, wallets map[solana.PublicKey]bool, tk *token) (billing.VerifiedDeposit, error) {
	out := billing.VerifiedDeposit{Signature: sig.String(), Slot: res.Slot}
	if res.BlockTime != nil {
		out.BlockTime = res.BlockTime.Time().UTC()
	}
	v, err := readTransaction(res, sig)
	if err != nil {
		return out, err
	}
	if v.meta.Err != nil {
		return out, reject("the transaction failed on chain (%s), so it moved no funds", errorText(v.meta.Err))
	}
	changes, err := v.tokenChanges()
	if err != nil {
		return out, err
	}
	var sources []source
	if tk == nil {
		out.Asset, out.Decimals = billing.SOL, solDecimals
		out.BaseUnits, sources, err = c.solReceipt(v, changes)
	} else {
		out.Asset, out.Decimals = tk.Asset, tk.Decimals
		out.BaseUnits, sources, err = c.tokenReceipt(v, changes, tk)
	}
	if err != nil {
		return out, err
	}
	sort.SliceStable(sources, func(i, j int) bool { return sources[i].amount > sources[j].amount })
	for _, s := range sources {
		if wallets[s.owner] {
			out.Sender, out.BoundBy = s.owner.String(), billing.BoundByWallet
			return out, nil
		}
	}
	if len(sources) > 0 {
		out.Sender = sources[0].owner.String()
	}
	if v.hasMemo(agentID) {
		out.BoundBy = billing.BoundByMemo
		return out, nil
	}
	if len(sources) == 0 {
		return out, reject("the sender cannot be identified and no memo names agent %s; send from a wallet linked to the agent, or put the agent id in the transfer's memo", agentID)
	}
	return out, reject("the funds come from %s, which is not a wallet registered or linked to agent %s; link it with POST /v1/agents/link-wallet, or put the agent id in the transfer's memo",
		out.Sender, agentID)
}

// solReceipt returns the lamports the treasury wallet gained and who paid.
func (c *Client) solReceipt(v txView, changes []tokenChange) (uint64, []source, error) {
	treasury := c.set.treasury
	ti := v.index(treasury)
	var pre, post uint64
	if ti >= 0 {
		pre, post = v.lamports(ti)
	}
	if post <= pre {
		if post < pre {
			return 0, nil, reject("SOL moves out of the treasury wallet %s; a deposit must pay into it", treasury)
		}
		for _, ch := range changes {
			if ch.owner != nil && *ch.owner == treasury && ch.post > ch.pre {
				return 0, nil, reject("the transaction sends %s tokens (mint %s) to the treasury, not native SOL; use that token's deposit endpoint", c.ticker(ch.mint), ch.mint)
			}
		}
		return 0, nil, reject("the transaction sends no SOL to the treasury wallet %s", treasury)
	}
	var sources []source
	for i, k := range v.keys {
		before, after := v.lamports(i)
		if i == ti || after >= before {
			continue
		}
		paid := before - after
		if i == 0 { // the fee payer's loss includes the fee
			paid -= min(paid, v.meta.Fee)
		}
		if paid > 0 {
			sources = append(sources, source{owner: k, amount: paid})
		}
	}
	return post - pre, sources, nil
}

// tokenReceipt returns the base units the treasury's token account for tk
// gained and who paid.
func (c *Client) tokenReceipt(v txView, changes []tokenChange, tk *token) (uint64, []source, error) {
	treasury, asset := c.set.treasury, tk.Asset
	var dest *tokenChange
	for i := range changes {
		if changes[i].account == tk.treasuryATA {
			dest = &changes[i]
		}
	}
	if dest == nil || dest.post <= dest.pre || dest.mint != tk.mint {
		return 0, nil, c.noTokenReceipt(v, changes, tk, dest)
	}
	if dest.decimals != tk.Decimals {
		return 0, nil, toolkit.WithOp(opVerify,
			fmt.Errorf("the %s mint %s reports %d decimals, configured %d", asset, tk.mint, dest.decimals, tk.Decimals))
	}
	if dest.owner != nil && *dest.owner != treasury {
		return 0, nil, nodeFault("token account %s is owned by %s, not the treasury %s", dest.account, dest.owner, treasury)
	}
	var sources []source
	for _, ch := range changes {
		if ch.mint == tk.mint && ch.post < ch.pre && ch.owner != nil {
			sources = append(sources, source{owner: *ch.owner, amount: ch.pre - ch.post})
		}
	}
	return dest.post - dest.pre, sources, nil
}

// noTokenReceipt explains why the treasury's token account did not grow.
func (c *Client) noTokenReceipt(v txView, changes []tokenChange, tk *token, dest *tokenChange) error {
	treasury, asset := c.set.treasury, tk.Asset
	if dest != nil && dest.mint == tk.mint && dest.post < dest.pre {
		return reject("%s moves out of the treasury's token account %s; a deposit must pay into it", asset, tk.treasuryATA)
	}
	for _, ch := range changes {
		if ch.post > ch.pre && ch.mint != tk.mint && ch.owner != nil && *ch.owner == treasury {
			return reject("the transfer's mint is %s, expected the %s mint %s", ch.mint, asset, tk.mint)
		}
	}
	for _, ch := range changes {
		if ch.post > ch.pre && ch.mint == tk.mint {
			owner := "unknown"
			if ch.owner != nil {
				owner = ch.owner.String()
			}
			return reject("the %s transfer goes to token account %s (owner %s), not to the treasury's token account %s", asset, ch.account, owner, tk.treasuryATA)
		}
	}
	if ti := v.index(treasury); ti >= 0 {
		if pre, post := v.lamports(ti); post > pre {
			return reject("the transaction sends native SOL, not %s; use the SOL deposit endpoint", asset)
		}
	}
	return reject("the transaction moves no %s into the treasury's token account %s", asset, tk.treasuryATA)
}

// ticker names a mint by its configured asset, or "unconfigured".
func (c *Client) ticker(mint solana.PublicKey) string {
	for _, t := range c.set.tokens {
		if t.mint == mint {
			return string(t.Asset)
		}
	}
	return "unconfigured"
}

// errorText renders a transaction error (chain data) briefly.
func errorText(e any) string {
	b, err := json.Marshal(e)
	if err != nil || len(b) > 200 {
		return "see the transaction's status"
	}
	return string(b)
}
