package httpapi

import (
	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents/workspace"
)

// TradeListResponse is the body of GET /v1/journal/trades: one page of
// the caller's trades, newest first.
type TradeListResponse struct {
	Trades     []workspace.Trade `json:"trades"`
	Count      int               `json:"count"`
	HasMore    bool              `json:"has_more"`
	NextCursor *string           `json:"next_cursor"`
}

// JournalStatsResponse is the body of GET /v1/journal/stats.
type JournalStatsResponse struct {
	AgentID string `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	workspace.JournalStats
}

// RMultiplesResponse is the body of GET /v1/journal/r-multiples: the
// R-multiples of the latest trades, oldest first, ready for the R tools.
type RMultiplesResponse struct {
	AgentID    string         `json:"agent_id" example:"agt_k3v9x2m8q1w7p4z6"`
	RMultiples toolkit.Floats `json:"r_multiples"`
	Count      int            `json:"count"`
}

// DeletedMemoryResponse is the body of DELETE /v1/memory/{memory_id}.
type DeletedMemoryResponse struct {
	MemoryID string `json:"memory_id" example:"mem_q4x8n2k7w1z5c9v3"`
	Deleted  bool   `json:"deleted"`
}

func tradeListResponse(l workspace.TradeList) TradeListResponse {
	out := TradeListResponse{Trades: l.Trades, Count: len(l.Trades), HasMore: l.HasMore}
	if l.HasMore {
		c := l.NextCursor
		out.NextCursor = &c
	}
	return out
}
