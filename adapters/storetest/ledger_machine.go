package storetest

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"pgregory.net/rapid"
)

func ledgerMachineCases() []Case {
	return []Case{{Name: "LedgerStateMachine", Test: testLedgerStateMachine}}
}

// LedgerSequencesEnv sets how many random sequences the ledger state
// machine runs (default 30; the fault suite runs 10,000).
const LedgerSequencesEnv = "TOOLKIT_LEDGER_SEQUENCES"

// testLedgerStateMachine drives billing.Service over the store with random
// sequences of self-credits, verified credits (with replays), metered
// charges (with idempotent retries and reused keys) and cap changes, and
// checks after every step that the books hold: each class's balance equals
// its ledger sum and its newest balance_after, no balance_after is
// negative, usage equals the consumption rows, a charge moves exactly its
// price or nothing, a replay answers the first answer and moves nothing,
// and a successful charge never takes the day's spending past its cap.
func testLedgerStateMachine(t *testing.T, h Harness) {
	s := openOne(t, h)
	n := 30
	if v, err := strconv.Atoi(os.Getenv(LedgerSequencesEnv)); err == nil && v > 0 {
		n = v
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	prices := suitePrices()
	bill, err := billing.NewService(s, billing.Config{SandboxSelfCredit: true, Prices: prices,
		SandboxCreditCap: toolkit.MustParseAmount("1000000"), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ops := prices.Operations()
	checks := flag.Lookup("rapid.checks")
	old := checks.Value.String()
	_ = checks.Value.Set(strconv.Itoa(n))
	defer func() { _ = checks.Value.Set(old) }()
	rapid.Check(t, func(rt *rapid.T) {
		m := &ledgerMachine{s: s, bill: bill, prices: prices, answers: map[string][]byte{}, caps: map[string]int64{}}
		for i, mode := range []agents.Mode{agents.ModeSandbox, agents.ModeLive} {
			k := seq.Add(1)
			a := agents.Agent{ID: fmt.Sprintf("agt_machine%08d", k), OwnerID: fmt.Sprintf("owner-m%d", k), Name: "m",
				Type: agents.TypeTrading, Mode: mode, CreatedAt: now}
			if err := s.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: digest(a.ID), NewOwner: true}); err != nil {
				rt.Fatal(err)
			}
			m.accounts[i] = billing.AccountOf(a)
		}
		steps := rapid.IntRange(1, 60).Draw(rt, "steps")
		for range steps {
			acct := m.accounts[rapid.IntRange(0, 1).Draw(rt, "agent")]
			before := m.balance(rt, acct.AgentID)
			switch rapid.IntRange(0, 5).Draw(rt, "action") {
			case 0:
				m.selfCredit(rt, acct, before, rapid.Int64Range(1, 5_000_000).Draw(rt, "micros"))
			case 1:
				ref := fmt.Sprintf("sig-%d", rapid.IntRange(0, 5).Draw(rt, "ref"))
				m.verifiedCredit(rt, acct, before, ref, rapid.Int64Range(1, 5_000_000).Draw(rt, "micros"), now)
			case 2, 3:
				op := rapid.SampledFrom(ops).Draw(rt, "operation")
				key := rapid.SampledFrom([]string{"", "", "k1", "k2", "k3"}).Draw(rt, "key")
				body := rapid.SampledFrom([]string{"a", "b"}).Draw(rt, "body")
				m.charge(rt, acct, before, op, key, body)
			case 4:
				m.setCap(rt, acct, rapid.SampledFrom([]int64{0, 5_000, 100_000, 3_000_000}).Draw(rt, "cap"))
			case 5:
				m.selfCredit(rt, acct, before, rapid.Int64Range(1, 100).Draw(rt, "micros"))
			}
			if err := booksHold(s, acct.AgentID); err != nil {
				rt.Fatal(err)
			}
		}
	})
}

// suitePrices are the price table of the suite's metered charges: the
// tool catalog's published prices, list and presale (80 %) exact.
func suitePrices() billing.Prices {
	p := func(s string) toolkit.Amount { return toolkit.MustParseAmount(s) }
	return billing.Prices{"position_sizing": p("0.003"), "risk_check": p("0.004"), "basic_eval": p("0.10"),
		"full_eval": p("0.50"), "comprehensive_eval": p("1.00"), "pre_trade_gate": p("0.01"),
		"assess_trading_system": p("2.00"), "run_monte_carlo": p("0.008"), "store_memory": p("0.002"),
		"search_memory": p("0.001"), "record_trade_journal": p("0.003")}
}

// ledgerMachine is the state of one random sequence: two agents (one
// paying from test funds, one from real funds) and the answers stored under
// each (agent, key).
type ledgerMachine struct {
	s        Store
	bill     *billing.Service
	prices   billing.Prices
	accounts [2]billing.Account
	answers  map[string][]byte // agent/key -> the stored answer
	caps     map[string]int64  // agent -> daily cap in micro-USD (0: none)
}

func (m *ledgerMachine) balance(t *rapid.T, agentID string) billing.BalanceRecord {
	b, err := m.s.Balance(ctx, agentID)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (m *ledgerMachine) selfCredit(t *rapid.T, acct billing.Account, before billing.BalanceRecord, micros int64) {
	_, err := m.bill.Deposit(ctx, acct, billing.DepositInput{Amount: toolkit.AmountFromMicros(micros), FundingPath: billing.FundingDirectTransfer})
	after := m.balance(t, acct.AgentID)
	switch {
	case !acct.Sandbox():
		if err == nil {
			t.Fatalf("a live agent self-credited %d", micros)
		}
	case err != nil:
		t.Fatalf("self-credit of %d: %v", micros, err)
	case after.TestMicros != before.TestMicros+micros || after.Micros != before.Micros:
		t.Fatalf("self-credit of %d moved %+v -> %+v", micros, before, after)
	}
}

func (m *ledgerMachine) verifiedCredit(t *rapid.T, acct billing.Account, before billing.BalanceRecord, ref string, micros int64, now time.Time) {
	ext := acct.AgentID + "/" + ref
	_, err := m.s.Credit(ctx, billing.CreditRequest{TxID: fmt.Sprintf("tx_m%d", seq.Add(1)), AgentID: acct.AgentID, Funds: billing.FundsReal,
		Micros: micros, FundingPath: billing.FundingDirectTransfer, ExternalRef: &ext, At: now})
	after := m.balance(t, acct.AgentID)
	switch {
	case err == nil && after.Micros != before.Micros+micros:
		t.Fatalf("credit of %d moved real funds %d -> %d", micros, before.Micros, after.Micros)
	case err != nil && !toolkit.IsKind(err, toolkit.Conflict):
		t.Fatalf("credit: %v", err)
	case err != nil && after != before:
		t.Fatalf("a replayed credit moved %+v -> %+v", before, after)
	}
}

func (m *ledgerMachine) charge(t *rapid.T, acct billing.Account, before billing.BalanceRecord, op, key, body string) {
	price := m.prices.Micros(op, acct.Presale)
	response := []byte(fmt.Sprintf(`{"op":%q,"body":%q}`, op, body))
	res, err := m.bill.Meter(ctx, billing.MeterRequest{Account: acct, Operation: op, IdempotencyKey: key, Body: []byte(body)},
		func(context.Context) (billing.Outcome, error) {
			return billing.Outcome{Response: response, Chargeable: true}, nil
		})
	after := m.balance(t, acct.AgentID)
	paid := before.Of(acct.Funds) - after.Of(acct.Funds)
	other := before.Of(otherFunds(acct.Funds)) - after.Of(otherFunds(acct.Funds))
	if other != 0 {
		t.Fatalf("a %s charge moved the other class by %d", acct.Funds, other)
	}
	stored, known := m.answers[acct.AgentID+"/"+key]
	switch {
	case err == nil && res.Replayed:
		if !known || !bytes.Equal(res.Response, stored) || paid != 0 {
			t.Fatalf("replay of %q answered %s (stored %s) and moved %d", key, res.Response, stored, paid)
		}
	case err == nil:
		if paid != price || !bytes.Equal(res.Response, response) {
			t.Fatalf("%s charged %d, price %d", op, paid, price)
		}
		if key != "" {
			m.answers[acct.AgentID+"/"+key] = response
		}
		if c := m.caps[acct.AgentID]; c > 0 && m.spent(t, acct.AgentID) > c {
			t.Fatalf("%s went past the daily cap of %d: spent %d", op, c, m.spent(t, acct.AgentID))
		}
	default:
		k := toolkit.KindOf(err)
		if paid != 0 || (k != toolkit.InsufficientCredits && k != toolkit.Forbidden && k != toolkit.Conflict) {
			t.Fatalf("failed %s (%v) moved %d", op, err, paid)
		}
		if k == toolkit.Conflict && !known {
			t.Fatalf("conflict without a stored key: %v", err)
		}
	}
}

func (m *ledgerMachine) setCap(t *rapid.T, acct billing.Account, capMicros int64) {
	var in billing.LimitsInput
	if capMicros > 0 {
		c := toolkit.AmountFromMicros(capMicros)
		in.DailyLimit = &c
	}
	if _, err := m.bill.SetLimits(ctx, acct.AgentID, in); err != nil {
		t.Fatalf("set cap %d: %v", capMicros, err)
	}
	m.caps[acct.AgentID] = capMicros
}

// spent is the agent's consumption (every step happens on one day).
func (m *ledgerMachine) spent(t *rapid.T, agentID string) int64 {
	txs, err := m.s.Transactions(ctx, billing.TransactionQuery{AgentID: agentID, Limit: billing.MaxTransactionsLimit})
	if err != nil {
		t.Fatal(err)
	}
	var spent int64
	for _, tx := range txs {
		if tx.Type == billing.TypeConsumption {
			spent -= tx.AmountMicros
		}
	}
	return spent
}

func otherFunds(f billing.Funds) billing.Funds {
	if f == billing.FundsTest {
		return billing.FundsReal
	}
	return billing.FundsTest
}

// booksHold checks an agent's invariants: every class's balance equals its
// ledger sum and its newest balance_after, no balance_after is negative,
// and usage equals the consumption rows.
func booksHold(s Store, agentID string) error {
	b, err := s.Balance(ctx, agentID)
	if err != nil {
		return err
	}
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: agentID, Limit: billing.MaxTransactionsLimit})
	if err != nil {
		return err
	}
	sum, newest := map[billing.Funds]int64{}, map[billing.Funds]int64{}
	count, total := map[string]int64{}, map[string]int64{}
	for _, tx := range txs {
		if _, seen := newest[tx.Funds]; !seen {
			newest[tx.Funds] = tx.BalanceAfter
		}
		sum[tx.Funds] += tx.AmountMicros
		if tx.BalanceAfter < 0 {
			return fmt.Errorf("%s: balance_after %d below zero", agentID, tx.BalanceAfter)
		}
		if tx.Type == billing.TypeConsumption {
			count[*tx.Operation]++
			total[*tx.Operation] -= tx.AmountMicros
		}
	}
	for _, f := range []billing.Funds{billing.FundsReal, billing.FundsTest} {
		if b.Of(f) != sum[f] {
			return fmt.Errorf("%s: %s balance %d, ledger sum %d", agentID, f, b.Of(f), sum[f])
		}
		if n, ok := newest[f]; ok && n != b.Of(f) {
			return fmt.Errorf("%s: %s balance %d, newest balance_after %d", agentID, f, b.Of(f), n)
		}
	}
	usage, err := s.Usage(ctx, agentID)
	if err != nil {
		return err
	}
	if len(usage) != len(count) {
		return fmt.Errorf("%s: %d usage lines, %d operations in the ledger", agentID, len(usage), len(count))
	}
	for _, u := range usage {
		if u.Count != count[u.Operation] || u.TotalMicros != total[u.Operation] {
			return fmt.Errorf("%s: usage of %s %d/%d, ledger %d/%d", agentID, u.Operation, u.Count, u.TotalMicros, count[u.Operation], total[u.Operation])
		}
	}
	return nil
}
