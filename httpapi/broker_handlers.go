package httpapi

import (
	"net/http"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents/broker"
)

// brokerRoutes are the broker connection's endpoints: read-only account
// access, never orders.
func (a *API) brokerRoutes() []route {
	return []route{
		{method: "GET", path: "/v1/broker/supported", id: "listBrokers", auth: authPublic, summary: "Known brokers, their connection parameters and whether this server can connect them",
			query: []queryParam{}, response: BrokerListResponse{}, status: http.StatusOK, handle: a.supportedBrokers},
		{method: "POST", path: "/v1/broker/connect", id: "connectBroker", auth: authAgent,
			summary: "Connect the caller's broker account (connection_params sealed at rest; sandbox agents: demo only); replaces a previous connection",
			request: bodyOf[ConnectRequest](), response: ConnectResponse{}, status: http.StatusOK, handle: a.connectBroker},
		{method: "POST", path: "/v1/broker/disconnect", id: "disconnectBroker", auth: authAgent, summary: "Disconnect the caller's broker",
			response: DisconnectResponse{}, status: http.StatusOK, errors: []toolkit.Kind{toolkit.NotFound}, handle: a.disconnectBroker},
		{method: "GET", path: "/v1/broker/account", id: "getBrokerAccount", auth: authAgent, summary: "The caller's connected account (the demo broker's is a deterministic paper account)",
			query: []queryParam{}, response: BrokerAccountResponse{}, status: http.StatusOK, errors: []toolkit.Kind{toolkit.NotFound}, handle: a.brokerAccount},
	}
}

func (a *API) supportedBrokers(w http.ResponseWriter, _ *http.Request) error {
	writeJSON(w, http.StatusOK, brokerListResponse(a.svc.Brokers.Supported()))
	return nil
}

func (a *API) connectBroker(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[ConnectRequest](a, r)
	if err != nil {
		return err
	}
	ag := agentFrom(r)
	c, err := a.svc.Brokers.Connect(r.Context(), ag, broker.ConnectInput{BrokerType: req.BrokerType, Params: req.ConnectionParams})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ConnectResponse{AgentID: c.AgentID, BrokerType: c.BrokerType, Connected: true,
		AccountID: c.Account.AccountID, Currency: c.Account.Currency, Equity: c.Account.Equity, BuyingPower: c.Account.BuyingPower,
		Paper: c.Account.Paper, Message: "Connected to " + c.BrokerType + " broker."})
	return nil
}

func (a *API) disconnectBroker(w http.ResponseWriter, r *http.Request) error {
	ag := agentFrom(r)
	if err := a.svc.Brokers.Disconnect(r.Context(), ag.ID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, DisconnectResponse{AgentID: ag.ID, Disconnected: true, Message: "Broker disconnected."})
	return nil
}

func (a *API) brokerAccount(w http.ResponseWriter, r *http.Request) error {
	v, err := a.svc.Brokers.Account(r.Context(), agentFrom(r).ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, brokerAccountResponse(v))
	return nil
}
