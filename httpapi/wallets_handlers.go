package httpapi

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
)

func (a *API) registerWallet(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[RegisterWalletRequest](a, r)
	if err != nil {
		return err
	}
	res, err := a.svc.Agents.RegisterWallet(r.Context(), agents.WalletRegistration{
		WalletAddress: req.WalletAddress, Signature: req.Signature, Chain: req.Chain, Message: req.Message,
		Timestamp: req.Timestamp, AgentName: req.AgentName, AgentType: req.AgentType,
	})
	if err != nil {
		return err
	}
	ag, status := res.Agent, http.StatusCreated
	if !res.Created {
		a.mcp.CloseAgent(ag.ID) // the old key stopped working
		status = http.StatusOK
	}
	b, err := a.svc.Billing.Balance(r.Context(), billing.AccountOf(ag))
	if err != nil {
		return err
	}
	writeJSON(w, status, RegisterWalletResponse{RegisterResponse: registerResponse(ag, res.APIKey, res.OwnerKey),
		Balance: b.Balance, RealBalance: b.RealBalance, SandboxBalance: b.SandboxBalance, PaysFrom: string(b.PaysFrom), Created: res.Created})
	return nil
}

func (a *API) linkWallet(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[LinkWalletRequest](a, r)
	if err != nil {
		return err
	}
	res, err := a.svc.Agents.LinkWallet(r.Context(), agentFrom(r), agents.WalletLink{
		WalletAddress: req.SolanaWalletAddress, Signature: req.Signature, Message: req.Message,
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, LinkWalletResponse{AgentID: res.Agent.ID, SolanaWalletAddress: res.Wallet.String(),
		IsPresaleBuyer: res.Agent.PresaleBuyer, Message: res.Message})
	return nil
}

// chainDeposit serves the deposit endpoint of one stablecoin or SOL.
func (a *API) chainDeposit(asset billing.Asset) func(w http.ResponseWriter, r *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		req, err := decodeBody[ChainDepositRequest](a, r)
		if err != nil {
			return err
		}
		d, err := a.svc.Billing.DepositOnChain(r.Context(), billing.AccountOf(agentFrom(r)), asset, req.TxSignature)
		if err != nil {
			return err
		}
		if asset == billing.SOL {
			writeJSON(w, http.StatusOK, SolDepositResponse{AgentID: d.AgentID, Currency: string(d.Asset), Amount: d.Quantity,
				SolPriceUSD: *d.PriceUSD, ComputeCredits: d.Credited, DepositBalances: depositBalances(d.Balances), TxID: d.TxID, TxSignature: d.Signature})
			return nil
		}
		writeJSON(w, http.StatusOK, StablecoinDepositResponse{AgentID: d.AgentID, Currency: string(d.Asset), Amount: d.Quantity.Trim(2),
			ComputeCredits: d.Credited, DepositBalances: depositBalances(d.Balances), TxID: d.TxID, TxSignature: d.Signature})
		return nil
	}
}

// nativeDeposit serves the native-token deposit (and its ticker alias).
func (a *API) nativeDeposit(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[ChainDepositRequest](a, r)
	if err != nil {
		return err
	}
	d, err := a.svc.Billing.DepositOnChain(r.Context(), billing.AccountOf(agentFrom(r)), a.svc.Billing.NativeToken(), req.TxSignature)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, NativeDepositResponse{AgentID: d.AgentID, Currency: string(d.Asset), OSRAmount: d.Quantity.Trim(0),
		USDCredited: d.Credited, RatePerToken: *d.Rate, IsPresaleBuyer: d.Presale, DepositBalances: depositBalances(d.Balances),
		TxID: d.TxID, TxSignature: d.Signature})
	return nil
}

// depositRoutes are the on-chain deposit endpoints: one per stablecoin,
// SOL, and the native token under deposit-native and its ticker's alias
// (deposit-osr for the published token).
func (a *API) depositRoutes() []route {
	var rs []route
	for _, asset := range append(append([]billing.Asset{}, billing.Stablecoins...), billing.SOL) {
		var resp any = StablecoinDepositResponse{}
		summary := "Credit a " + string(asset) + " transfer to the treasury 1:1 as real funds (verified on chain, once)"
		if asset == billing.SOL {
			resp = SolDepositResponse{}
			summary = "Credit a SOL transfer to the treasury at the market price, rounded down to the micro-USD (verified on chain, once)"
		}
		rs = append(rs, route{method: "POST", path: "/v1/billing/deposit-" + strings.ToLower(string(asset)),
			id: "deposit" + tickerID(asset), auth: authAgent, summary: summary, request: bodyOf[ChainDepositRequest](), examples: chainDepositExample(asset),
			response: resp, status: http.StatusOK, errors: []toolkit.Kind{toolkit.Conflict}, handle: a.chainDeposit(asset)})
	}
	native := a.svc.Billing.NativeToken()
	ids := map[string]string{"/v1/billing/deposit-native": "depositNative"}
	if alias := "/v1/billing/deposit-" + strings.ToLower(string(native)); ids[alias] == "" {
		ids[alias] = "deposit" + tickerID(native)
	}
	for _, p := range slices.Sorted(maps.Keys(ids)) {
		rs = append(rs, route{method: "POST", path: p, id: ids[p], auth: authAgent,
			summary: "Credit a " + string(native) + " transfer to the treasury at the native rate (presale rate for presale buyers), rounded down to the micro-USD (verified on chain, once)",
			request: bodyOf[ChainDepositRequest](), examples: chainDepositExample(native), response: NativeDepositResponse{}, status: http.StatusOK,
			errors: []toolkit.Kind{toolkit.Conflict}, handle: a.nativeDeposit})
	}
	return rs
}

// tickerID is a ticker in an operationId: "USDC" is "Usdc".
func tickerID(a billing.Asset) string {
	s := strings.ToLower(string(a))
	return strings.ToUpper(s[:1]) + s[1:]
}
