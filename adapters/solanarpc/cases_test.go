package solanarpc_test

import (
	"github.com/gagliardetto/solana-go"
)

// Token accounts of the fixtures.
var (
	treasury   = treasuryKey.PublicKey()
	tUSDC      = classicATA(treasuryKey, usdcMint)
	tUSDT      = classicATA(treasuryKey, usdtMint)
	tOSR       = classicATA(treasuryKey, osrMint)
	tPYUSD     = ata(treasury, pyusdMint, solana.Token2022ProgramID)
	aUSDC      = classicATA(agentWallet, usdcMint)
	aUSDT      = classicATA(agentWallet, usdtMint)
	aOSR       = classicATA(agentWallet, osrMint)
	aPYUSD     = ata(agentWallet.PublicKey(), pyusdMint, solana.Token2022ProgramID)
	fUSDC      = classicATA(foreignWallet, usdcMint)
	oUSDC      = classicATA(otherWallet, usdcMint)
	classic    = solana.TokenProgramID
	token2022  = solana.Token2022ProgramID
	agentPK    = agentWallet.PublicKey()
	foreignPK  = foreignWallet.PublicKey()
	otherPK    = otherWallet.PublicKey()
	ataRentFee = int64(2_039_280)
)

// usdcMove is a USDC balance change of an account owned by owner.
func usdcMove(account, owner solana.PublicKey, pre, post uint64) balance {
	return balance{account: account, owner: owner, mint: usdcMint, program: classic, decimals: 6, pre: amt(pre), post: amt(post)}
}

// fixtures are realistic transactions and the status metadata a node
// reports for them, by name.
func fixtures() map[string]fixture {
	return map[string]fixture{
		// Accepted deposits.
		"usdc_v0_lookup_table": {
			slot: 312_000_101, signers: []solana.PrivateKey{agentWallet},
			ixs:    []solana.Instruction{transferChecked(classic, usdcMint, aUSDC, tUSDC, agentWallet, 25_000_000, 6)},
			table:  solana.PublicKeySlice{tUSDC, usdcMint, tUSDT},
			tokens: []balance{usdcMove(aUSDC, agentPK, 100_000_000, 75_000_000), usdcMove(tUSDC, treasury, 5_000_000, 30_000_000)},
		},
		"usdc_legacy_creates_treasury_account": {
			slot: 312_000_102, signers: []solana.PrivateKey{agentWallet},
			ixs: []solana.Instruction{
				createATA(agentWallet, treasury, usdcMint, classic),
				transferChecked(classic, usdcMint, aUSDC, tUSDC, agentWallet, 10_000_000, 6),
			},
			tokens: []balance{usdcMove(aUSDC, agentPK, 10_000_000, 0),
				{account: tUSDC, owner: treasury, mint: usdcMint, program: classic, decimals: 6, post: amt(10_000_000)}},
			lamports: map[solana.PublicKey]int64{agentPK: -ataRentFee, tUSDC: ataRentFee},
		},
		"sol_legacy": {
			slot: 312_000_103, signers: []solana.PrivateKey{agentWallet},
			ixs:      []solana.Instruction{solTransfer(agentWallet, treasury, 1_500_000_000)},
			lamports: map[solana.PublicKey]int64{agentPK: -1_500_000_000, treasury: 1_500_000_000},
		},
		"sol_v0_treasury_in_lookup_table": {
			slot: 312_000_104, signers: []solana.PrivateKey{agentWallet},
			ixs:      []solana.Instruction{solTransfer(agentWallet, treasury, 250_000_000), memo(solana.MemoProgramID, "thanks", agentWallet)},
			table:    solana.PublicKeySlice{otherPK, treasury},
			lamports: map[solana.PublicKey]int64{agentPK: -250_000_000, treasury: 250_000_000},
		},
		"pyusd_token2022": {
			slot: 312_000_105, signers: []solana.PrivateKey{agentWallet},
			ixs: []solana.Instruction{transferChecked(token2022, pyusdMint, aPYUSD, tPYUSD, agentWallet, 12_500_000, 6)},
			tokens: []balance{
				{account: aPYUSD, owner: agentPK, mint: pyusdMint, program: token2022, decimals: 6, pre: amt(50_000_000), post: amt(37_500_000)},
				{account: tPYUSD, owner: treasury, mint: pyusdMint, program: token2022, decimals: 6, pre: amt(0), post: amt(12_500_000)},
			},
		},
		"usdc_two_transfers": {
			slot: 312_000_106, signers: []solana.PrivateKey{agentWallet},
			ixs: []solana.Instruction{
				transferChecked(classic, usdcMint, aUSDC, tUSDC, agentWallet, 7_000_000, 6),
				transferChecked(classic, usdcMint, aUSDC, tUSDC, agentWallet, 3_000_000, 6),
			},
			tokens: []balance{usdcMove(aUSDC, agentPK, 10_000_000, 0), usdcMove(tUSDC, treasury, 1, 10_000_001)},
		},
		"usdc_inner_instruction": {
			slot: 312_000_107, signers: []solana.PrivateKey{agentWallet},
			ixs: []solana.Instruction{solana.NewInstruction(routerProgram, solana.AccountMetaSlice{
				solana.Meta(aUSDC).WRITE(), solana.Meta(usdcMint), solana.Meta(tUSDC).WRITE(),
				solana.Meta(agentPK).SIGNER(), solana.Meta(classic),
			}, []byte{7})},
			inner:  map[int][]solana.Instruction{0: {transferChecked(classic, usdcMint, aUSDC, tUSDC, agentWallet, 4_000_000, 6)}},
			tokens: []balance{usdcMove(aUSDC, agentPK, 4_000_000, 0), usdcMove(tUSDC, treasury, 0, 4_000_000)},
		},
		"usdc_memo_foreign_sender": {
			slot: 312_000_108, signers: []solana.PrivateKey{foreignWallet},
			ixs: []solana.Instruction{
				transferChecked(classic, usdcMint, fUSDC, tUSDC, foreignWallet, 20_000_000, 6),
				memo(solana.MemoProgramID, fixtureAgentID, foreignWallet),
			},
			tokens: []balance{usdcMove(fUSDC, foreignPK, 20_000_000, 0), usdcMove(tUSDC, treasury, 0, 20_000_000)},
		},
		"usdc_memo_v1_foreign_sender": {
			slot: 312_000_109, signers: []solana.PrivateKey{foreignWallet},
			ixs: []solana.Instruction{
				memo(memoV1, fixtureAgentID, foreignWallet),
				transferChecked(classic, usdcMint, fUSDC, tUSDC, foreignWallet, 2_000_000, 6),
			},
			tokens: []balance{usdcMove(fUSDC, foreignPK, 2_000_000, 0), usdcMove(tUSDC, treasury, 0, 2_000_000)},
		},
		"osr_native_token": {
			slot: 312_000_110, signers: []solana.PrivateKey{agentWallet},
			ixs: []solana.Instruction{transferChecked(classic, osrMint, aOSR, tOSR, agentWallet, 10_000_000_000_000, 9)},
			tokens: []balance{
				{account: aOSR, owner: agentPK, mint: osrMint, program: classic, decimals: 9, pre: amt(10_000_000_000_000), post: amt(0)},
				{account: tOSR, owner: treasury, mint: osrMint, program: classic, decimals: 9, pre: amt(0), post: amt(10_000_000_000_000)},
			},
		},
		"usdt_to_treasury": {
			slot: 312_000_111, signers: []solana.PrivateKey{agentWallet},
			ixs: []solana.Instruction{transferChecked(classic, usdtMint, aUSDT, tUSDT, agentWallet, 9_000_000, 6)},
			tokens: []balance{
				{account: aUSDT, owner: agentPK, mint: usdtMint, program: classic, decimals: 6, pre: amt(9_000_000), post: amt(0)},
				{account: tUSDT, owner: treasury, mint: usdtMint, program: classic, decimals: 6, pre: amt(0), post: amt(9_000_000)},
			},
		},

		// Refused deposits.
		"usdc_wrong_destination": {
			slot: 312_000_201, signers: []solana.PrivateKey{agentWallet},
			ixs:    []solana.Instruction{transferChecked(classic, usdcMint, aUSDC, oUSDC, agentWallet, 5_000_000, 6)},
			tokens: []balance{usdcMove(aUSDC, agentPK, 5_000_000, 0), usdcMove(oUSDC, otherPK, 0, 5_000_000)},
		},
		"usdc_failed_on_chain": {
			slot: 312_000_202, signers: []solana.PrivateKey{agentWallet},
			ixs:    []solana.Instruction{transferChecked(classic, usdcMint, aUSDC, tUSDC, agentWallet, 5_000_000, 6)},
			tokens: []balance{usdcMove(aUSDC, agentPK, 1_000_000, 1_000_000), usdcMove(tUSDC, treasury, 0, 0)},
			err:    map[string]any{"InstructionError": []any{0, map[string]any{"Custom": 1}}},
		},
		"usdc_zero_amount": {
			slot: 312_000_203, signers: []solana.PrivateKey{agentWallet},
			ixs:    []solana.Instruction{transferChecked(classic, usdcMint, aUSDC, tUSDC, agentWallet, 0, 6)},
			tokens: []balance{usdcMove(aUSDC, agentPK, 1_000_000, 1_000_000), usdcMove(tUSDC, treasury, 3_000_000, 3_000_000)},
		},
		"usdc_out_of_treasury": {
			slot: 312_000_204, signers: []solana.PrivateKey{treasuryKey},
			ixs:    []solana.Instruction{transferChecked(classic, usdcMint, tUSDC, aUSDC, treasuryKey, 8_000_000, 6)},
			tokens: []balance{usdcMove(tUSDC, treasury, 8_000_000, 0), usdcMove(aUSDC, agentPK, 0, 8_000_000)},
		},
		"usdc_foreign_sender": {
			slot: 312_000_205, signers: []solana.PrivateKey{foreignWallet},
			ixs:    []solana.Instruction{transferChecked(classic, usdcMint, fUSDC, tUSDC, foreignWallet, 6_000_000, 6)},
			tokens: []balance{usdcMove(fUSDC, foreignPK, 6_000_000, 0), usdcMove(tUSDC, treasury, 0, 6_000_000)},
		},
		"usdc_memo_for_another_agent": {
			slot: 312_000_206, signers: []solana.PrivateKey{foreignWallet},
			ixs: []solana.Instruction{
				transferChecked(classic, usdcMint, fUSDC, tUSDC, foreignWallet, 6_000_000, 6),
				memo(solana.MemoProgramID, "agt_someoneelse00000", foreignWallet),
			},
			tokens: []balance{usdcMove(fUSDC, foreignPK, 6_000_000, 0), usdcMove(tUSDC, treasury, 0, 6_000_000)},
		},
		"usdc_wrong_decimals": {
			slot: 312_000_207, signers: []solana.PrivateKey{agentWallet},
			ixs: []solana.Instruction{transferChecked(classic, usdcMint, aUSDC, tUSDC, agentWallet, 1_000_000_000, 9)},
			tokens: []balance{
				{account: aUSDC, owner: agentPK, mint: usdcMint, program: classic, decimals: 9, pre: amt(1_000_000_000), post: amt(0)},
				{account: tUSDC, owner: treasury, mint: usdcMint, program: classic, decimals: 9, pre: amt(0), post: amt(1_000_000_000)},
			},
		},
	}
}
