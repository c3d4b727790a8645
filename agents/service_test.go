package agents_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/guardian/guardiantest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newService(t *testing.T, cfg agents.Config) *agents.Service {
	t.Helper()
	svc, err := agents.NewService(memstore.New(), cfg)
	require.NoError(t, err)
	return svc
}

func TestRegisterIssuesKeyOnceAndStartsInSandbox(t *testing.T) {
	now := time.Date(2026, 11, 22, 9, 30, 0, 0, time.FixedZone("X", 3600))
	svc := newService(t, agents.Config{KeyPrefix: "sr_agent_", Now: func() time.Time { return now }})
	ctx := context.Background()
	reg1, err := svc.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "Bot", AgentType: "composite"}, "")
	a, key := reg1.Agent, reg1.APIKey
	require.NoError(t, err)
	assert.Equal(t, agents.ModeSandbox, a.Mode)
	assert.True(t, strings.HasPrefix(key, "sr_agent_"))
	assert.Len(t, key, len("sr_agent_")+40)
	assert.True(t, a.CreatedAt.Equal(now))
	assert.Equal(t, time.UTC, a.CreatedAt.Location())

	got, err := svc.Authenticate(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, a.ID, got.ID)
	_, err = svc.Authenticate(ctx, "aft_agent_"+key[len("sr_agent_"):]+"x")
	assert.Equal(t, toolkit.Unauthenticated, toolkit.KindOf(err), "other prefixes are refused")

	reg2, err := svc.Register(ctx, agents.RegisterInput{OwnerID: "other", AgentName: "Bot", AgentType: "risk"}, "")
	key2 := reg2.APIKey
	require.NoError(t, err)
	assert.NotEqual(t, key, key2)
}

func TestRegisterValidation(t *testing.T) {
	svc := newService(t, agents.Config{})
	pct := func(s string) *toolkit.Amount { a := toolkit.MustParseAmount(s); return &a }
	long := strings.Repeat("é", 101)
	desc := strings.Repeat("d", 501)
	cases := map[string]agents.RegisterInput{
		"agent_name: must be 1 to 100":           {OwnerID: "o", AgentName: long, AgentType: "trading"},
		"agent_name: must not start or end":      {OwnerID: "o", AgentName: " x", AgentType: "trading"},
		"agent_type: must be one of":             {OwnerID: "o", AgentName: "x", AgentType: "Trading"},
		"description: at most 500":               {OwnerID: "o", AgentName: "x", AgentType: "risk", Description: &desc},
		"max_position_size_pct: must be":         {OwnerID: "o", AgentName: "x", AgentType: "risk", MaxPositionSizePct: pct("-1")},
		"max_daily_loss_pct: must be":            {OwnerID: "o", AgentName: "x", AgentType: "risk", MaxDailyLossPct: pct("100.01")},
		"authorized_actions[1]: must be 1 to 64": {OwnerID: "o", AgentName: "x", AgentType: "risk", AuthorizedActions: []string{"a", ""}},
	}
	for want, in := range cases {
		_, err := svc.Register(context.Background(), in, "")
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), want)
		assert.Contains(t, toolkit.MessageOf(err), want)
	}
	okName := strings.Repeat("é", 100)
	_, err := svc.Register(context.Background(), agents.RegisterInput{OwnerID: "o", AgentName: okName, AgentType: "risk",
		MaxPositionSizePct: pct("100")}, "")
	assert.NoError(t, err, "100 characters (not bytes) and 100 %% are allowed")
}

func TestSuspendedKeyCannotRegisterForItsOwner(t *testing.T) {
	svc := newService(t, agents.Config{})
	ctx := context.Background()
	reg4, err := svc.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "x", AgentType: "risk"}, "")
	a, key := reg4.Agent, reg4.APIKey
	require.NoError(t, err)
	_, err = svc.SetMode(ctx, a, "suspended")
	require.NoError(t, err)
	_, err = svc.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "y", AgentType: "risk"}, key)
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err))
}

func TestSecurityEventsOfRegistrationAndModes(t *testing.T) {
	rec := &guardiantest.Recorder{}
	svc := newService(t, agents.Config{Recorder: rec})
	ctx := guardian.WithSource(context.Background(), "203.0.113.7")
	reg6, err := svc.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "Bot", AgentType: "trading"}, "")
	a, key := reg6.Agent, reg6.APIKey
	require.NoError(t, err)
	_, err = svc.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "Intruder", AgentType: "trading"}, "")
	require.Equal(t, toolkit.Conflict, toolkit.KindOf(err))
	_, err = svc.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "Sibling", AgentType: "risk"}, key)
	require.NoError(t, err, "a member adding an agent is no refused claim")

	_, err = svc.SetMode(ctx, a, "live")
	require.NoError(t, err)
	_, err = svc.AdminSetMode(ctx, a.ID, "suspended")
	require.NoError(t, err)
	_, err = svc.AdminSetMode(ctx, a.ID, "terminated")
	require.NoError(t, err)
	_, err = svc.AdminSetMode(ctx, a.ID, "live")
	require.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "terminated is final")

	got := rec.Events()
	require.Equal(t, []guardian.Type{guardian.TypeOwnerClaimRefused, guardian.TypeAgentSuspended, guardian.TypeAgentTerminated}, rec.Types(),
		"sandbox and live are not security events; a refused change records nothing")
	assert.Contains(t, got[0].Description, `"acme"`)
	assert.Equal(t, "203.0.113.7", got[0].Source)
	assert.Equal(t, a.ID, got[1].AgentID)
	assert.Equal(t, "Agent suspended by an admin", got[1].Description)
	assert.Equal(t, "Agent terminated by an admin", got[2].Description)

	reg9, err := svc.Register(ctx, agents.RegisterInput{OwnerID: "solo", AgentName: "Bot", AgentType: "trading"}, "")
	b := reg9.Agent
	require.NoError(t, err)
	_, err = svc.SetMode(ctx, b, "suspended")
	require.NoError(t, err)
	last := rec.Events()[len(rec.Events())-1]
	assert.Equal(t, "Agent suspended by the agent itself", last.Description)
}

// Regression (robustness finding 9): look-alike owner ids do not create
// distinct owners: compatibility forms fold to one id and invisible or
// foreign-script characters are refused.
func TestOwnerIDsAreNormalised(t *testing.T) {
	svc := newService(t, agents.Config{})
	ctx := context.Background()
	reg10, err := svc.Register(ctx, agents.RegisterInput{OwnerID: "ａｃｍｅ", AgentName: "x", AgentType: "risk"}, "")
	a := reg10.Agent
	require.NoError(t, err)
	assert.Equal(t, "acme", a.OwnerID, "full-width letters fold to ASCII")
	_, err = svc.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "y", AgentType: "risk"}, "")
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "the same owner, already claimed")
	for _, bad := range []string{"ac\u200bme", "аcme", "acme corp", "acme/1", ""} {
		_, err := svc.Register(ctx, agents.RegisterInput{OwnerID: bad, AgentName: "z", AgentType: "risk"}, "")
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), "%q", bad)
		assert.Contains(t, toolkit.MessageOf(err), "owner_id:", "%q", bad)
	}
	for _, ok := range []string{"acme-2", "team.alpha", "me@example.com", "wallet:ab12"} {
		_, err := agents.NormalizeOwnerID(ok)
		assert.NoError(t, err, ok)
	}
}
