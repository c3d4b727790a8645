// Package broker connects agents to brokerage accounts, read-only: an
// agent connects one broker (its connection parameters sealed at rest
// with its own key), reads the account, and disconnects.
//
// A Broker adapter reads an account; the port has no method to place,
// change or cancel an order, by design: the toolkit is decision support
// and never trades. The demo broker (a deterministic paper account) is
// always installed; adapters for real brokers are added through
// Config.Brokers. Sandbox agents may connect only the demo broker.
package broker

import (
	"context"

	"github.com/agentfinance/toolkit"
)

// Demo is the id of the built-in paper broker.
const Demo = "demo"

// Broker is the port of a brokerage adapter. Implementations must be safe
// for concurrent use and answer with *toolkit.Error values: parameters or
// credentials the broker refuses are toolkit.Invalid naming the parameter
// (never Unauthenticated, which means the caller's API key), an
// unreachable broker is toolkit.Unavailable.
//
// There is deliberately no order method.
type Broker interface {
	// Account reads the account the connection opens. Connect calls it to
	// check the parameters before anything is stored.
	Account(ctx context.Context, conn Connection) (Account, error)
}

// Connection is what an adapter gets to reach one agent's account: the
// agent and its opened connection parameters.
type Connection struct {
	AgentID string
	Params  map[string]string
}

// Account is a brokerage account's figures in its currency.
type Account struct {
	AccountID   string
	Currency    string
	Equity      toolkit.Amount
	Cash        toolkit.Amount
	BuyingPower toolkit.Amount
	MarginUsed  toolkit.Amount
	// Paper is true for a simulated account.
	Paper     bool
	Positions []Position
	// Label is the demo account's optional label, echoed back.
	Label string
}

// Position is one holding of an account.
type Position struct {
	Symbol      string         `json:"symbol"`
	Quantity    toolkit.Amount `json:"quantity"`
	AvgPrice    toolkit.Amount `json:"avg_price"`
	MarketValue toolkit.Amount `json:"market_value"`
}

// Info describes a broker the API knows.
type Info struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Params      []Param `json:"connection_params"`
	// Available is true when this server has an adapter for the broker.
	Available bool `json:"available"`
	// SandboxAllowed is true for the brokers sandbox agents may connect.
	SandboxAllowed bool `json:"sandbox_allowed"`
}

// Param is one connection parameter of a broker.
type Param struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
	Default     string `json:"default,omitempty"`
}

// catalogue lists the brokers the API knows, demo first. Parameters are
// the published ones.
var catalogue = []Info{
	{ID: Demo, Name: "Demo paper account", SandboxAllowed: true,
		Description: "Paper trading account with deterministic figures; no credentials. Always available.",
		Params: []Param{
			{Name: "starting_equity", Description: "paper equity in USD, 1 to 1,000,000,000 with at most 2 decimals", Default: "100000.00"},
			{Name: "account_label", Description: "a name for the paper account, up to 100 characters"},
		}},
	{ID: "alpaca", Name: "Alpaca", Description: "US stocks and crypto through the Alpaca API.",
		Params: []Param{
			{Name: "api_key", Description: "Alpaca API key id", Required: true},
			{Name: "api_secret", Description: "Alpaca API secret key", Required: true},
			{Name: "paper", Description: "true for the paper environment", Default: "true"},
		}},
	{ID: "ibkr", Name: "Interactive Brokers", Description: "Interactive Brokers through a local TWS or IB Gateway.",
		Params: []Param{
			{Name: "host", Description: "gateway host", Default: "127.0.0.1"},
			{Name: "port", Description: "gateway port: 4002 paper, 4001 live", Default: "4002"},
			{Name: "client_id", Description: "API client id", Default: "1"},
		}},
	{ID: "schwab", Name: "Charles Schwab", Description: "Charles Schwab through its trader API (OAuth).",
		Params: []Param{
			{Name: "app_key", Description: "application key", Required: true},
			{Name: "app_secret", Description: "application secret", Required: true},
			{Name: "callback_url", Description: "OAuth callback URL", Default: "https://127.0.0.1:8182"},
		}},
	{ID: "binance", Name: "Binance", Description: "Binance spot accounts.",
		Params: []Param{
			{Name: "api_key", Description: "API key", Required: true},
			{Name: "api_secret", Description: "API secret", Required: true},
			{Name: "testnet", Description: "true for the spot testnet", Default: "false"},
		}},
}

// IDs lists the ids of the known brokers, in catalogue order.
func IDs() []string {
	ids := make([]string, len(catalogue))
	for i, b := range catalogue {
		ids[i] = b.ID
	}
	return ids
}

// lookup returns the catalogue entry of id.
func lookup(id string) (Info, bool) {
	for _, b := range catalogue {
		if b.ID == id {
			return b, true
		}
	}
	return Info{}, false
}
