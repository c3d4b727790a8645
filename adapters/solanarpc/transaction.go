package solanarpc

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/agentfinance/toolkit"
	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
)

// memoPrograms are the SPL Memo programs (v2 and v1) whose instruction data
// is the memo text.
var memoPrograms = []solana.PublicKey{
	solana.MemoProgramID, // MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr
	solana.MustPublicKeyFromBase58("Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo"),
}

// txView is a fetched transaction with its full account list: the static
// keys, then the addresses loaded from lookup tables (writable, then
// readonly), which is the order every index in the status metadata uses.
// Building the list from meta.loadedAddresses avoids resolving lookup
// tables, which getTransaction does not return.
type txView struct {
	tx   *solana.Transaction
	meta *rpc.TransactionMeta
	keys []solana.PublicKey
}

// tokenChange is one token account's balance before and after.
type tokenChange struct {
	index    int // position in the account list
	account  solana.PublicKey
	owner    *solana.PublicKey // nil when the node does not report it
	mint     solana.PublicKey
	decimals uint8
	pre      uint64 // 0 when the account did not exist before
	post     uint64 // 0 when the account was closed
}

// nodeFault reports a node answer this package cannot use: the check is
// unavailable, not failed, so the client may retry.
func nodeFault(format string, args ...any) error {
	return &toolkit.Error{Kind: toolkit.Unavailable, Op: opVerify, Err: fmt.Errorf(format, args...),
		Msg: "tx_signature: the Solana node returned an unusable answer; nothing was recorded, retry later"}
}

// readTransaction decodes a base64 getTransaction result and checks that it
// is the requested transaction and that its metadata is consistent.
func readTransaction(res *rpc.GetTransactionResult, sig solana.Signature) (txView, error) {
	if res.Meta == nil || res.Transaction == nil {
		return txView{}, nodeFault("transaction %s has no meta or no transaction", sig)
	}
	tx, err := res.Transaction.GetTransaction()
	if err != nil || tx == nil {
		return txView{}, nodeFault("decoding transaction %s: %v", sig, err)
	}
	if len(tx.Signatures) == 0 || tx.Signatures[0] != sig {
		return txView{}, nodeFault("asked for transaction %s, got another one", sig)
	}
	v := txView{tx: tx, meta: res.Meta}
	loaded := res.Meta.LoadedAddresses
	var writable, readonly int
	for _, l := range tx.Message.AddressTableLookups {
		writable += len(l.WritableIndexes)
		readonly += len(l.ReadonlyIndexes)
	}
	if writable != len(loaded.Writable) || readonly != len(loaded.ReadOnly) {
		return txView{}, nodeFault("transaction %s: lookups name %d writable and %d readonly addresses, loadedAddresses has %d and %d",
			sig, writable, readonly, len(loaded.Writable), len(loaded.ReadOnly))
	}
	v.keys = make([]solana.PublicKey, 0, len(tx.Message.AccountKeys)+writable+readonly)
	v.keys = append(append(append(v.keys, tx.Message.AccountKeys...), loaded.Writable...), loaded.ReadOnly...)
	if len(res.Meta.PreBalances) != len(v.keys) || len(res.Meta.PostBalances) != len(v.keys) {
		return txView{}, nodeFault("transaction %s: %d accounts but %d/%d balances", sig, len(v.keys), len(res.Meta.PreBalances), len(res.Meta.PostBalances))
	}
	return v, nil
}

// index returns the position of key in the account list, or -1.
func (v txView) index(key solana.PublicKey) int {
	for i, k := range v.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// lamports returns the balance of account i before and after.
func (v txView) lamports(i int) (pre, post uint64) {
	return v.meta.PreBalances[i], v.meta.PostBalances[i]
}

// hasMemo reports whether a top-level or inner instruction of an SPL Memo
// program carries exactly text.
func (v txView) hasMemo(text string) bool {
	isMemo := func(programIndex uint16, data []byte) bool {
		if int(programIndex) >= len(v.keys) || string(data) != text {
			return false
		}
		for _, p := range memoPrograms {
			if v.keys[programIndex] == p {
				return true
			}
		}
		return false
	}
	for _, ix := range v.tx.Message.Instructions {
		if isMemo(ix.ProgramIDIndex, ix.Data) {
			return true
		}
	}
	for _, inner := range v.meta.InnerInstructions {
		for _, ix := range inner.Instructions {
			if isMemo(ix.ProgramIDIndex, ix.Data) {
				return true
			}
		}
	}
	return false
}

// tokenChanges pairs the pre and post token balances by account. A balance
// missing on one side is zero there (an account created or closed by the
// transaction).
func (v txView) tokenChanges() ([]tokenChange, error) {
	byIndex := map[uint16]*tokenChange{}
	add := func(b rpc.TokenBalance, post bool) error {
		if int(b.AccountIndex) >= len(v.keys) || b.UiTokenAmount == nil {
			return nodeFault("token balance of account index %d is out of range or has no amount", b.AccountIndex)
		}
		amount, err := strconv.ParseUint(b.UiTokenAmount.Amount, 10, 64)
		if err != nil {
			return nodeFault("token amount %q: %v", b.UiTokenAmount.Amount, err)
		}
		ch, ok := byIndex[b.AccountIndex]
		if !ok {
			ch = &tokenChange{index: int(b.AccountIndex), account: v.keys[b.AccountIndex], mint: b.Mint, owner: b.Owner, decimals: b.UiTokenAmount.Decimals}
			byIndex[b.AccountIndex] = ch
		} else if ch.mint != b.Mint {
			return nodeFault("token account %s changes mint", ch.account)
		}
		if b.Owner != nil {
			ch.owner = b.Owner
		}
		if post {
			ch.post = amount
		} else {
			ch.pre = amount
		}
		return nil
	}
	for _, b := range v.meta.PreTokenBalances {
		if err := add(b, false); err != nil {
			return nil, err
		}
	}
	for _, b := range v.meta.PostTokenBalances {
		if err := add(b, true); err != nil {
			return nil, err
		}
	}
	out := make([]tokenChange, 0, len(byIndex))
	for _, ch := range byIndex {
		out = append(out, *ch)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].index < out[j].index })
	return out, nil
}
