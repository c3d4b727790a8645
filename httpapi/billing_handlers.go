package httpapi

import (
	"net/http"

	"github.com/agentfinance/toolkit/billing"
)

func (a *API) pricing(w http.ResponseWriter, _ *http.Request) error {
	writeJSON(w, http.StatusOK, PricingResponse{Prices: a.svc.Billing.Prices(), Currency: billing.Currency})
	return nil
}

func (a *API) balance(w http.ResponseWriter, r *http.Request) error {
	b, err := a.svc.Billing.Balance(r.Context(), billing.AccountOf(agentFrom(r)))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, balanceResponse(b))
	return nil
}

func (a *API) deposit(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[DepositRequest](a, r)
	if err != nil {
		return err
	}
	b, err := a.svc.Billing.Deposit(r.Context(), billing.AccountOf(agentFrom(r)), billing.DepositInput{
		Amount: req.Amount, FundingPath: req.FundingPath, OnChainTxHash: req.OnChainTxHash,
	})
	a.opts.Metrics.deposit(req.FundingPath, err)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, balanceResponse(b))
	return nil
}

func (a *API) transactions(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", billing.DefaultTransactionsLimit, billing.MaxTransactionsLimit)
	if err != nil {
		return err
	}
	page, err := a.svc.Billing.Transactions(r.Context(), agentFrom(r).ID, limit, r.URL.Query().Get("cursor"))
	if err != nil {
		return err
	}
	out := TransactionsResponse{Transactions: make([]TransactionResponse, len(page.Transactions)), Count: len(page.Transactions),
		HasMore: page.HasMore}
	if page.HasMore {
		out.NextCursor = &page.NextCursor
	}
	for i, tx := range page.Transactions {
		out.Transactions[i] = transactionResponse(tx)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) usage(w http.ResponseWriter, r *http.Request) error {
	ag := agentFrom(r)
	lines, err := a.svc.Billing.Usage(r.Context(), ag.ID)
	if err != nil {
		return err
	}
	out := UsageResponse{AgentID: ag.ID, Operations: make(map[string]UsageEntry, len(lines))}
	for _, l := range lines {
		out.Operations[l.Operation] = UsageEntry{Count: l.Count, TotalCost: billing.USD(l.TotalMicros)}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) getLimits(w http.ResponseWriter, r *http.Request) error {
	l, err := a.svc.Billing.Limits(r.Context(), agentFrom(r).ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, limitsResponse(l))
	return nil
}

// setLimits lets an agent tighten its own limits (never loosen them).
func (a *API) setLimits(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[LimitsRequest](a, r)
	if err != nil {
		return err
	}
	l, err := a.svc.Billing.TightenLimits(r.Context(), agentFrom(r).ID, req.input())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, limitsResponse(l))
	return nil
}

// adminSetLimits sets any agent's limits, looser ones included.
func (a *API) adminSetLimits(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[LimitsRequest](a, r)
	if err != nil {
		return err
	}
	l, err := a.svc.Billing.SetLimits(r.Context(), r.PathValue("agent_id"), req.input())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, limitsResponse(l))
	return nil
}
