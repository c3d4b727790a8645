package solanarpc

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentfinance/toolkit/agents"
	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
)

// presaleDataSlice limits the returned record data: only its presence is
// read, so the node sends at most 8 bytes whatever the record's size.
var presaleDataSlice = &rpc.DataSlice{Offset: ptr(uint64(0)), Length: ptr(uint64(8))}

func ptr[T any](v T) *T { return &v }

// PresaleRecord returns the address of wallet's presale purchase record:
// the program-derived address of the presale program for the seeds
// [PresaleSeed, wallet]. It fails when no presale program is configured.
func (c *Client) PresaleRecord(wallet agents.WalletAddress) (solana.PublicKey, error) {
	if c.set.presaleProgram.IsZero() {
		return solana.PublicKey{}, errors.New("solanarpc: no presale program configured")
	}
	pda, _, err := solana.FindProgramAddress([][]byte{c.set.presaleSeed, wallet[:]}, c.set.presaleProgram)
	return pda, err
}

// IsPresaleBuyer reports whether wallet bought in the presale: its
// purchase record (see PresaleRecord) exists at finalized commitment, is
// owned by the presale program (an account anyone funded with SOL at that
// address is owned by the system program and does not count) and holds
// data. Without a configured presale program no wallet is a buyer. A
// failed lookup is toolkit.Unavailable.
func (c *Client) IsPresaleBuyer(ctx context.Context, wallet agents.WalletAddress) (bool, error) {
	const op = "solanarpc.IsPresaleBuyer"
	if c.set.presaleProgram.IsZero() {
		return false, nil
	}
	pda, err := c.PresaleRecord(wallet)
	if err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	if err := c.CheckNetwork(ctx); err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.set.timeout)
	defer cancel()
	res, err := c.rpc.GetAccountInfoWithOpts(ctx, pda, &rpc.GetAccountInfoOpts{
		Encoding: solana.EncodingBase64, Commitment: rpc.CommitmentFinalized, DataSlice: presaleDataSlice})
	if errors.Is(err, rpc.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, rpcUnavailable(op, "getAccountInfo", err)
	}
	acct := res.Value
	return acct.Owner.Equals(c.set.presaleProgram) && acct.Data != nil && len(acct.Data.GetBinary()) > 0, nil
}
