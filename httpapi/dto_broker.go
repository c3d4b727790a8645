package httpapi

import (
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents/broker"
	"github.com/google/jsonschema-go/jsonschema"
)

// BrokerListResponse is the body of GET /v1/broker/supported.
type BrokerListResponse struct {
	Brokers []BrokerInfo `json:"brokers"`
	Count   int          `json:"count"`
}

// BrokerInfo describes a broker the API knows.
type BrokerInfo struct {
	ID          string        `json:"id"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Params      []BrokerParam `json:"connection_params"`
	// Available is true when this server has an adapter for the broker.
	Available bool `json:"available"`
	// SandboxAllowed is true for the brokers sandbox agents may connect.
	SandboxAllowed bool `json:"sandbox_allowed"`
}

// BrokerParam is one connection parameter of a broker.
type BrokerParam struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
	Default     string `json:"default,omitempty"`
}

// BrokerPosition is one holding of a broker account.
type BrokerPosition struct {
	Symbol      string         `json:"symbol"`
	Quantity    toolkit.Amount `json:"quantity"`
	AvgPrice    toolkit.Amount `json:"avg_price"`
	MarketValue toolkit.Amount `json:"market_value"`
}

// ConnectRequest is the body of POST /v1/broker/connect.
type ConnectRequest struct {
	BrokerType string `json:"broker_type"`
	// ConnectionParams are sealed at rest; optional for demo.
	ConnectionParams map[string]string `json:"connection_params,omitempty"`
}

func (ConnectRequest) constrain(s *jsonschema.Schema) {
	enum(s, "broker_type", broker.IDs())
	p := s.Properties["connection_params"]
	p.MaxProperties = ptr(broker.MaxParams)
	p.Description = "the broker's connection parameters (see GET /v1/broker/supported), each value a string; sealed at rest"
	if p.AdditionalProperties != nil {
		p.AdditionalProperties.MaxLength = ptr(broker.MaxParamLen)
	}
}

// ConnectResponse is the body of POST /v1/broker/connect.
type ConnectResponse struct {
	AgentID     string         `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	BrokerType  string         `json:"broker_type"`
	Connected   bool           `json:"connected"`
	AccountID   string         `json:"account_id"`
	Currency    string         `json:"currency"`
	Equity      toolkit.Amount `json:"equity"`
	BuyingPower toolkit.Amount `json:"buying_power"`
	Paper       bool           `json:"paper"`
	Message     string         `json:"message"`
}

// DisconnectResponse is the body of POST /v1/broker/disconnect.
type DisconnectResponse struct {
	AgentID      string `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Disconnected bool   `json:"disconnected"`
	Message      string `json:"message"`
}

// BrokerAccountResponse is the body of GET /v1/broker/account.
type BrokerAccountResponse struct {
	AgentID     string           `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	Broker      string           `json:"broker"`
	AccountID   string           `json:"account_id"`
	Currency    string           `json:"currency"`
	Equity      toolkit.Amount   `json:"equity"`
	Cash        toolkit.Amount   `json:"cash"`
	BuyingPower toolkit.Amount   `json:"buying_power"`
	MarginUsed  toolkit.Amount   `json:"margin_used"`
	Paper       bool             `json:"paper"`
	Positions   []BrokerPosition `json:"positions"`
	// Label is the demo account's label; null when none.
	Label       *string   `json:"label"`
	ConnectedAt time.Time `json:"connected_at"`
}

func brokerListResponse(list []broker.Info) BrokerListResponse {
	out := BrokerListResponse{Brokers: make([]BrokerInfo, len(list)), Count: len(list)}
	for i, b := range list {
		info := BrokerInfo{ID: b.ID, Name: b.Name, Description: b.Description, Available: b.Available,
			SandboxAllowed: b.SandboxAllowed, Params: make([]BrokerParam, len(b.Params))}
		for j, p := range b.Params {
			info.Params[j] = BrokerParam(p)
		}
		out.Brokers[i] = info
	}
	return out
}

func brokerAccountResponse(v broker.AccountView) BrokerAccountResponse {
	acct := v.Account
	out := BrokerAccountResponse{AgentID: v.AgentID, Broker: v.BrokerType, AccountID: acct.AccountID, Currency: acct.Currency,
		Equity: acct.Equity, Cash: acct.Cash, BuyingPower: acct.BuyingPower, MarginUsed: acct.MarginUsed, Paper: acct.Paper,
		Positions: make([]BrokerPosition, len(acct.Positions)), ConnectedAt: v.ConnectedAt}
	for i, p := range acct.Positions {
		out.Positions[i] = BrokerPosition(p)
	}
	if acct.Label != "" {
		l := acct.Label
		out.Label = &l
	}
	return out
}
