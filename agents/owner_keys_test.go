package agents_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOwnerKeyFollowsTheKeyPrefix(t *testing.T) {
	e := newWalletEnv(t, func(c *agents.Config) { c.KeyPrefix = "sr_agent_" })
	ctx := context.Background()
	reg, err := e.svc.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "x", AgentType: "risk"}, "")
	require.NoError(t, err)
	assert.Equal(t, "sr_owner_", e.svc.OwnerKeyPrefix())
	assert.True(t, strings.HasPrefix(reg.OwnerKey, "sr_owner_") && len(reg.OwnerKey) == len("sr_owner_")+40, reg.OwnerKey)
	o, err := e.svc.AuthenticateOwner(ctx, reg.OwnerKey)
	require.NoError(t, err)
	assert.Equal(t, "acme", o.ID)
	require.NotNil(t, o.KeyCreatedAt)

	sibling, err := e.svc.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "y", AgentType: "risk"}, reg.APIKey)
	require.NoError(t, err)
	assert.Empty(t, sibling.OwnerKey, "only the registration that creates the owner shows its key")
	for _, bad := range []string{"", reg.APIKey, "sr_owner_" + strings.Repeat("a", 40), reg.OwnerKey + "x", strings.Replace(reg.OwnerKey, "sr_owner_", "aft_owner_", 1)} {
		_, err := e.svc.AuthenticateOwner(ctx, bad)
		assert.Equal(t, toolkit.Unauthenticated, toolkit.KindOf(err), "%q", bad)
	}
}

func TestOwnerKeysNeedAVault(t *testing.T) {
	svc := newService(t, agents.Config{})
	ctx := context.Background()
	reg, err := svc.Register(ctx, agents.RegisterInput{OwnerID: "novault", AgentName: "x", AgentType: "risk"}, "")
	require.NoError(t, err)
	assert.Empty(t, reg.OwnerKey, "without a vault no owner key can be stored, so none is shown")
	_, err = svc.AuthenticateOwner(ctx, "aft_owner_"+strings.Repeat("a", 40))
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
	_, err = svc.IssueOwnerKey(ctx, "novault")
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
}

func TestOwnerReachesOnlyItsOwnAgents(t *testing.T) {
	e := newWalletEnv(t)
	ctx := context.Background()
	mine, err := e.svc.Register(ctx, agents.RegisterInput{OwnerID: "mine", AgentName: "x", AgentType: "risk"}, "")
	require.NoError(t, err)
	theirs, err := e.svc.Register(ctx, agents.RegisterInput{OwnerID: "theirs", AgentName: "y", AgentType: "risk"}, "")
	require.NoError(t, err)
	owner, err := e.svc.AuthenticateOwner(ctx, mine.OwnerKey)
	require.NoError(t, err)

	_, err = e.svc.OwnerAgent(ctx, owner, theirs.Agent.ID)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err), "another owner's agent looks unknown")
	_, err = e.svc.OwnerSetMode(ctx, owner, theirs.Agent.ID, "suspended")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
	_, err = e.svc.OwnerRotateKey(ctx, owner, theirs.Agent.ID)
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
	_, err = e.svc.Authenticate(ctx, theirs.APIKey)
	assert.NoError(t, err, "nothing happened to it")

	a, err := e.svc.OwnerSetMode(ctx, owner, mine.Agent.ID, "suspended")
	require.NoError(t, err)
	assert.Equal(t, agents.ModeSuspended, a.Mode)
	_, err = e.svc.OwnerSetMode(ctx, owner, mine.Agent.ID, "sandbox")
	require.NoError(t, err, "the owner can lift a suspension")

	_, err = e.svc.IssueOwnerKey(ctx, "not an id!")
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	_, err = e.svc.IssueOwnerKey(ctx, "nobody")
	assert.Equal(t, toolkit.NotFound, toolkit.KindOf(err))
}

func TestKeyUseIsRecordedAtMostOncePerResolution(t *testing.T) {
	e := newWalletEnv(t)
	ctx := context.Background()
	reg, err := e.svc.Register(ctx, agents.RegisterInput{OwnerID: "busy", AgentName: "x", AgentType: "risk"}, "")
	require.NoError(t, err)
	start := e.now
	_, err = e.svc.Authenticate(ctx, reg.APIKey)
	require.NoError(t, err)
	e.now = start.Add(30 * time.Second)
	_, err = e.svc.Authenticate(ctx, reg.APIKey)
	require.NoError(t, err)
	a, err := e.svc.Me(ctx, reg.Agent.ID)
	require.NoError(t, err)
	require.NotNil(t, a.KeyUsedAt)
	assert.True(t, a.KeyUsedAt.Equal(start.UTC()), "the second use within a minute is not written: %v", a.KeyUsedAt)

	e.now = start.Add(2 * time.Minute)
	_, err = e.svc.Authenticate(ctx, reg.APIKey)
	require.NoError(t, err)
	a, err = e.svc.Me(ctx, reg.Agent.ID)
	require.NoError(t, err)
	assert.True(t, a.KeyUsedAt.Equal(e.now.UTC()), "a use after the resolution is")
}
