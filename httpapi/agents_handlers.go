package httpapi

import (
	"net/http"

	"github.com/agentfinance/toolkit/agents"
)

func (a *API) register(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[RegisterRequest](a, r)
	if err != nil {
		return err
	}
	reg, err := a.svc.Agents.Register(r.Context(), agents.RegisterInput{
		OwnerID: req.OwnerID, AgentName: req.AgentName, AgentType: req.AgentType, Description: req.Description,
		AuthorizedInstruments: req.AuthorizedInstruments, AuthorizedActions: req.AuthorizedActions,
		MaxPositionSizePct: req.MaxPositionSizePct, MaxDailyLossPct: req.MaxDailyLossPct,
	}, apiKey(r))
	if err != nil {
		return err
	}
	ag := reg.Agent
	writeJSON(w, http.StatusCreated, registerResponse(ag, reg.APIKey, reg.OwnerKey))
	return nil
}

func (a *API) me(w http.ResponseWriter, r *http.Request) error {
	ag, err := a.svc.Agents.Me(r.Context(), agentFrom(r).ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, agentResponse(ag))
	return nil
}

func (a *API) listAgents(w http.ResponseWriter, r *http.Request) error {
	list, err := a.svc.Agents.ListByOwner(r.Context(), agentFrom(r))
	if err != nil {
		return err
	}
	out := AgentListResponse{Agents: make([]AgentResponse, len(list)), Count: len(list)}
	for i, ag := range list {
		out.Agents[i] = agentResponse(ag)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) setMode(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[ModeRequest](a, r)
	if err != nil {
		return err
	}
	ag, err := a.svc.Agents.SetMode(r.Context(), agentFrom(r), req.Mode)
	if err != nil {
		return err
	}
	a.releaseSessions(ag)
	writeJSON(w, http.StatusOK, agentResponse(ag))
	return nil
}

func (a *API) adminSetMode(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeBody[ModeRequest](a, r)
	if err != nil {
		return err
	}
	ag, err := a.svc.Agents.AdminSetMode(r.Context(), r.PathValue("agent_id"), req.Mode)
	if err != nil {
		return err
	}
	a.releaseSessions(ag)
	writeJSON(w, http.StatusOK, agentResponse(ag))
	return nil
}

func (a *API) rotateKey(w http.ResponseWriter, r *http.Request) error {
	ag := agentFrom(r)
	key, err := a.svc.Agents.RotateKey(r.Context(), ag)
	if err != nil {
		return err
	}
	a.mcp.CloseAgent(ag.ID)
	writeJSON(w, http.StatusOK, RotateKeyResponse{AgentID: ag.ID, APIKey: key})
	return nil
}

// releaseSessions ends the MCP sessions of an agent that can no longer
// call (suspended or terminated).
func (a *API) releaseSessions(ag agents.Agent) {
	if !ag.IsActive() {
		a.mcp.CloseAgent(ag.ID)
	}
}
