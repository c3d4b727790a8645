// Package billing meters priced tool calls against prepaid credit
// balances, in exact money.
//
// # Money
//
// Balances are int64 micro-USD in the store (1 credit = 1 USD = 1 USDC)
// and toolkit.Amount everywhere else; float64 never touches money. Each
// agent has two balances that never mix: real credits (verified deposits)
// and test credits (sandbox self-credit). [AccountOf] decides which one an
// agent's calls are paid from (sandbox agents from test funds, live agents
// from real funds) and at which prices (presale buyers pay 80 %, exact to
// the micro-USD: [Prices] refuses a table whose discount would round).
//
// # One metering point
//
// [Service.Meter] is the only way a priced call is charged: replay an
// Idempotency-Key's stored answer, check spend caps and the balance in one
// store round trip ([Store.ChargeCheck]; 402 means nothing ran), run the
// tool, then debit in one transaction ([Store.Charge]: a conditional
// UPDATE ... WHERE micros >= price, the ledger row, the usage row, the
// running spend totals and the idempotency record). Failed calls are never
// charged; a lost race for the last credits answers 402 and discards the
// result. billing/toolcall is the call path that uses it for every
// surface.
//
// # Deposits
//
// [Service.Deposit] takes sandbox self-credit (test money, capped) or an
// on-ramp payment; [Service.DepositOnChain] verifies a Solana transaction
// through the [DepositVerifier] port (finalized, right mint, to the
// treasury, never seen before: a unique index on the signature's keyed
// hash makes every deposit exactly-once) and credits stablecoins 1:1, SOL
// at the [PriceOracle]'s price (rounded down to the micro-USD) and the
// native token at its rate (the presale rate for presale buyers).
//
// # Ledger, usage, caps
//
// [Service.Transactions] pages the ledger newest first; [Service.Usage]
// totals calls and cost per operation; daily and monthly spend caps and
// allowed operations ([Service.SetLimits], [Service.TightenLimits]) are
// enforced inside the charge, so no race can exceed them.
package billing
