package httpapi

import (
	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/google/jsonschema-go/jsonschema"
)

// Schema constraints of the request bodies. They are published in the
// OpenAPI document and enforced while the body is scanned, so an
// oversized array or string is refused before it is decoded. The bounds
// are the domain's own constants.

// maxToolNameLen bounds a tool name in POST /v1/tools/call.
const maxToolNameLen = 64

func (RegisterRequest) constrain(s *jsonschema.Schema) {
	text(s, "owner_id", 1, agents.MaxOwnerIDLen)
	text(s, "agent_name", 1, agents.MaxNameLen)
	text(s, "description", 0, agents.MaxDescriptionLen)
	enum(s, "agent_type", agents.Types())
	for _, list := range []string{"authorized_instruments", "authorized_actions"} {
		p := s.Properties[list]
		p.MaxItems = ptr(agents.MaxListItems)
		p.Items.MinLength, p.Items.MaxLength = ptr(1), ptr(agents.MaxListItemLen)
	}
	for _, pct := range []string{"max_position_size_pct", "max_daily_loss_pct"} {
		s.Properties[pct].ExclusiveMinimum, s.Properties[pct].Maximum = ptr(0.0), ptr(100.0)
	}
}

func (ModeRequest) constrain(s *jsonschema.Schema) { enum(s, "mode", agents.Modes()) }

func (DepositRequest) constrain(s *jsonschema.Schema) {
	s.Properties["amount"].ExclusiveMinimum = ptr(0.0)
	s.Properties["amount"].Maximum = ptr(float64(billing.MaxDepositMicros / toolkit.MicrosPerUnit))
	enum(s, "funding_path", billing.FundingPaths())
	text(s, "on_chain_tx_hash", 1, billing.MaxTxSignatureLen)
}

func (LimitsRequest) constrain(s *jsonschema.Schema) {
	for _, c := range []string{"daily_limit", "monthly_limit"} {
		s.Properties[c].ExclusiveMinimum = ptr(0.0)
	}
	p := s.Properties["allowed_operations"]
	p.MaxItems = ptr(billing.MaxAllowedOperations)
	p.Items.MinLength, p.Items.MaxLength = ptr(1), ptr(billing.MaxOperationLen)
}

func (ToolCallRequest) constrain(s *jsonschema.Schema) {
	text(s, "tool_name", 1, maxToolNameLen)
	text(s, "tool", 1, maxToolNameLen)
}

func (ToolCallRequest) argumentMembers() []string { return []string{"arguments", "params"} }

// text bounds the length of a string property in characters.
func text(s *jsonschema.Schema, name string, minLen, maxLen int) {
	p := s.Properties[name]
	if minLen > 0 {
		p.MinLength = ptr(minLen)
	}
	p.MaxLength = ptr(maxLen)
}

// enum lists the values of a string property.
func enum[T ~string](s *jsonschema.Schema, name string, values []T) {
	p := s.Properties[name]
	p.Enum = make([]any, len(values))
	for i, v := range values {
		p.Enum[i] = string(v)
	}
}

func ptr[T any](v T) *T { return &v }
