package billing

import (
	"context"
	"errors"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/internal/changecache"
)

// The pre-charge check of a priced call reads the agent's balances, caps
// and running totals (Store.ChargeCheck). With a store that implements
// agents.ChangeFeed the Service caches that check per agent, so that a
// metered call makes one store round trip, the charge:
//
//   - a cached check only ever lets a call run: a refusal (a cap, short
//     funds) is confirmed with a fresh read before it is answered, so a
//     deposit or a raised cap made elsewhere never causes a false refusal;
//   - the charge stays the authority: the store debits only what the
//     balance holds, and applies the caps only at the limits version the
//     check read (ErrLimitsChanged otherwise: the meter reads the current
//     limits, checks the call against them and charges again), so a stale
//     check can never spend money that is not there or lift a limit;
//   - the meter updates the cached balance and totals with its own
//     charges; a change of the agent's limits (or of the agent) on any
//     instance drops the entry through the feed; the maximum age bounds
//     the rest (another instance's charges and deposits).

// cachedCheck is a cached ChargeCheck and the cap windows it was read for.
// Its limits are shared by every reader and never modified.
type cachedCheck struct {
	check                ChargeCheck
	dayStart, monthStart time.Time
}

// newCheckCache returns the cache of pre-charge checks subscribed to
// store's change feed: nil (no cache) when the store has none or cfg
// turns it off.
func newCheckCache(store Store, cfg agents.CacheConfig, now func() time.Time) *changecache.Cache[string, cachedCheck] {
	feed, ok := store.(agents.ChangeFeed)
	if !ok || cfg.MaxAge < 0 {
		return nil
	}
	c := changecache.New[string, cachedCheck](cfg.MaxAge, cfg.MaxEntries, now)
	feed.Subscribe(c)
	return c
}

// chargeCheck returns the agent's check for the cap windows of now, from
// the cache unless fresh is set; cached reports where it came from.
func (s *Service) chargeCheck(ctx context.Context, agentID string, now time.Time, fresh bool) (check ChargeCheck, cached bool, err error) {
	day, month := SpendWindows(now)
	if s.checks == nil {
		check, err = s.store.ChargeCheck(ctx, agentID, day, month)
		return check, false, err
	}
	if c, ok := s.checks.Get(agentID); ok && !fresh && c.dayStart.Equal(day) && c.monthStart.Equal(month) {
		return c.check, true, nil
	}
	ticket := s.checks.Begin()
	check, err = s.store.ChargeCheck(ctx, agentID, day, month)
	if err == nil {
		s.checks.Put(ticket, agentID, agentID, cachedCheck{check: check, dayStart: day, monthStart: month})
	}
	return check, false, err
}

// admitCall is the pre-run check of a priced call: the caps, then the
// paying class's balance. A refusal of a cached check is confirmed with a
// fresh one. It returns the check the call was admitted on.
func (s *Service) admitCall(ctx context.Context, req MeterRequest, now time.Time, price int64) (ChargeCheck, error) {
	check, cached, err := s.chargeCheck(ctx, req.Account.AgentID, now, false)
	if err != nil {
		return ChargeCheck{}, toolkit.WithOp("billing.Meter", err)
	}
	err = refusal(req, check, price)
	if err != nil && cached {
		if check, _, err = s.chargeCheck(ctx, req.Account.AgentID, now, true); err != nil {
			return ChargeCheck{}, toolkit.WithOp("billing.Meter", err)
		}
		err = refusal(req, check, price)
	}
	return check, err
}

// refusal is why check does not let the call run, or nil.
func refusal(req MeterRequest, check ChargeCheck, price int64) error {
	if err := checkCaps(req, check, price); err != nil {
		return err
	}
	funds := req.Account.Funds.normal()
	if check.Balance.Of(funds) < price {
		return insufficient(price, check.Balance, funds)
	}
	return nil
}

// charge debits a call that ran. When the agent's limits changed since
// they were read, the call is checked against the current ones (a cap
// now passed refuses it: nothing is charged) and charged again.
func (s *Service) charge(ctx context.Context, req MeterRequest, charge ChargeRequest) (Transaction, error) {
	for attempt := 0; ; attempt++ {
		tx, err := s.store.Charge(ctx, charge)
		if err == nil {
			s.noteCharge(charge, tx)
			return tx, nil
		}
		if s.checks != nil {
			s.checks.Drop(charge.AgentID) // whatever it said, the store disagreed
		}
		if !errors.Is(err, ErrLimitsChanged) || attempt == maxLimitRetries {
			return tx, err
		}
		check, _, cerr := s.chargeCheck(ctx, charge.AgentID, charge.At, true)
		if cerr != nil {
			return Transaction{}, cerr
		}
		if err := checkCaps(req, check, charge.Micros); err != nil {
			return Transaction{}, err
		}
		charge.Limits = check.Limits
	}
}

// noteCharge brings the cached check up to date with a debit the store
// applied: the class's balance right after it, and the totals of the
// windows it was counted in.
func (s *Service) noteCharge(charge ChargeRequest, tx Transaction) {
	if s.checks == nil {
		return
	}
	s.checks.Update(charge.AgentID, func(c cachedCheck) cachedCheck {
		if !c.dayStart.Equal(charge.DayStart) || !c.monthStart.Equal(charge.MonthStart) {
			return c
		}
		if charge.Funds.normal() == FundsTest {
			c.check.Balance.TestMicros = tx.BalanceAfter
		} else {
			c.check.Balance.Micros = tx.BalanceAfter
		}
		c.check.SpentDay += charge.Micros
		c.check.SpentMonth += charge.Micros
		return c
	})
}
