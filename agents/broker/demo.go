package broker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/agentfinance/toolkit"
)

// demoEquity is the default and demoMaxEquity the largest paper equity.
var (
	demoEquity    = toolkit.MustParseAmount("100000.00")
	demoMaxEquity = toolkit.MustParseAmount("1000000000")
)

// maxLabelLen bounds the demo account's label in characters.
const maxLabelLen = 100

// DemoBroker is the built-in paper broker. Its account is deterministic:
// the id is "DEMO-" and the first 8 hex digits of SHA-256 of the agent id,
// equity and cash are starting_equity (default 100,000.00 USD), buying
// power is twice the equity (2:1 margin), nothing is used or held.
type DemoBroker struct{}

var _ Broker = DemoBroker{}

// Account implements Broker.
func (DemoBroker) Account(_ context.Context, conn Connection) (Account, error) {
	equity := demoEquity
	if s, ok := conn.Params["starting_equity"]; ok {
		v, err := toolkit.ParseAmount(s)
		rounded, rerr := v.Round(2, toolkit.RoundHalfEven)
		if err != nil || rerr != nil || rounded.Cmp(v) != 0 || v.Cmp(toolkit.AmountFromInt(1)) < 0 || v.Cmp(demoMaxEquity) > 0 {
			return Account{}, toolkit.Errorf(toolkit.Invalid,
				"connection_params.starting_equity: must be a decimal from 1 to 1000000000 with at most 2 decimals")
		}
		equity = rounded
	}
	label := conn.Params["account_label"]
	if utf8.RuneCountInString(label) > maxLabelLen || !utf8.ValidString(label) {
		return Account{}, toolkit.Errorf(toolkit.Invalid, "connection_params.account_label: at most %d characters", maxLabelLen)
	}
	equity, _ = equity.Round(2, toolkit.RoundHalfEven)
	sum := sha256.Sum256([]byte(conn.AgentID))
	zero := toolkit.AmountFromMicros(0).Trim(2)
	return Account{
		AccountID: "DEMO-" + strings.ToUpper(hex.EncodeToString(sum[:4])), Currency: "USD",
		Equity: equity, Cash: equity, BuyingPower: equity.Add(equity), MarginUsed: zero,
		Paper: true, Positions: []Position{}, Label: label,
	}, nil
}
