package httpapi

import (
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
)

// RegisterRequest is the body of POST /v1/agents/register.
type RegisterRequest struct {
	OwnerID               string          `json:"owner_id"`
	AgentName             string          `json:"agent_name"`
	AgentType             string          `json:"agent_type"`
	Description           *string         `json:"description,omitempty"`
	AuthorizedInstruments []string        `json:"authorized_instruments,omitempty"`
	AuthorizedActions     []string        `json:"authorized_actions,omitempty"`
	MaxPositionSizePct    *toolkit.Amount `json:"max_position_size_pct,omitempty"`
	MaxDailyLossPct       *toolkit.Amount `json:"max_daily_loss_pct,omitempty"`
}

// RegisterResponse is the 201 body of a registration. APIKey is shown
// once; OwnerKey, the owner's key for the owner API and the portal, is
// present (and shown once) only on the first registration of an owner_id.
type RegisterResponse struct {
	AgentID   string    `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	OwnerID   string    `json:"owner_id" example:"acme-capital"`
	AgentName string    `json:"agent_name"`
	AgentType string    `json:"agent_type"`
	Mode      string    `json:"mode"`
	APIKey    string    `json:"api_key" example:"aft_agent_7Hq2Kx9Lm4Np8Rs1Tv6Wy3Zb5Cd0Fg2Jk7Mn4Pq9"`
	OwnerKey  string    `json:"owner_key,omitempty" example:"aft_owner_Xb7Qm2Kp9Lt4Wn8Rz1Vc6Hs3Jd5Gf0Ny2Ta7Pe4Uk"`
	CreatedAt time.Time `json:"created_at"`
}

// AgentResponse is an agent record (GET /v1/agents/me and friends).
type AgentResponse struct {
	AgentID               string          `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	OwnerID               string          `json:"owner_id" example:"acme-capital"`
	AgentName             string          `json:"agent_name"`
	AgentType             string          `json:"agent_type"`
	Mode                  string          `json:"mode"`
	IsActive              bool            `json:"is_active"`
	CreatedAt             time.Time       `json:"created_at"`
	Description           *string         `json:"description"`
	AuthorizedInstruments []string        `json:"authorized_instruments"`
	AuthorizedActions     []string        `json:"authorized_actions"`
	MaxPositionSizePct    *toolkit.Amount `json:"max_position_size_pct"`
	MaxDailyLossPct       *toolkit.Amount `json:"max_daily_loss_pct"`
}

// AgentListResponse is the body of GET /v1/agents/list.
type AgentListResponse struct {
	Agents []AgentResponse `json:"agents"`
	Count  int             `json:"count"`
}

// ModeRequest is the body of the mode endpoints.
type ModeRequest struct {
	Mode string `json:"mode"`
}

// RotateKeyResponse carries the new key, shown once.
type RotateKeyResponse struct {
	AgentID string `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	APIKey  string `json:"api_key" example:"aft_agent_7Hq2Kx9Lm4Np8Rs1Tv6Wy3Zb5Cd0Fg2Jk7Mn4Pq9"`
}

func agentResponse(a agents.Agent) AgentResponse {
	return AgentResponse{
		AgentID: a.ID, OwnerID: a.OwnerID, AgentName: a.Name, AgentType: string(a.Type), Mode: string(a.Mode),
		IsActive: a.IsActive(), CreatedAt: a.CreatedAt.UTC(), Description: a.Description,
		AuthorizedInstruments: nonNil(a.AuthorizedInstruments), AuthorizedActions: nonNil(a.AuthorizedActions),
		MaxPositionSizePct: a.MaxPositionSizePct, MaxDailyLossPct: a.MaxDailyLossPct,
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func registerResponse(ag agents.Agent, apiKey, ownerKey string) RegisterResponse {
	return RegisterResponse{AgentID: ag.ID, OwnerID: ag.OwnerID, AgentName: ag.Name, AgentType: string(ag.Type),
		Mode: string(ag.Mode), APIKey: apiKey, OwnerKey: ownerKey, CreatedAt: ag.CreatedAt}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (RegisterResponse) Enums() map[string][]string {
	return map[string][]string{"agent_type": stringsOf(agents.Types()), "mode": stringsOf(agents.Modes())}
}

// Enums lists the values of the enumerated fields (openapi.Enumerated).
func (AgentResponse) Enums() map[string][]string {
	return map[string][]string{"agent_type": stringsOf(agents.Types()), "mode": stringsOf(agents.Modes())}
}

// strings converts a list of named strings.
func stringsOf[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}
