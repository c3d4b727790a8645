package toolcall

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/guardian/guardiantest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeMeter runs the call and records what it was asked to meter; a
// chargeable outcome of a priced operation is "charged" 0.003 with a
// balance of 0.997 after it.
type fakeMeter struct {
	mu   sync.Mutex
	reqs []billing.MeterRequest
	err  error // returned instead of running
}

func (f *fakeMeter) Meter(ctx context.Context, req billing.MeterRequest, run func(context.Context) (billing.Outcome, error)) (billing.Metered, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	if f.err != nil {
		return billing.Metered{}, f.err
	}
	out, err := run(ctx)
	if err != nil {
		return billing.Metered{}, err
	}
	m := billing.Metered{Response: out.Response}
	if req.Operation != "" && out.Chargeable {
		bal := toolkit.MustParseAmount("0.997")
		m.Charged, m.Balance = toolkit.MustParseAmount("0.003"), &bal
	}
	return m, nil
}

func (f *fakeMeter) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

type valueInput struct {
	Value toolkit.Amount `json:"value"`
	Wait  bool           `json:"wait,omitempty"`
}

// testTools holds tools for every path of the service.
func testTools(t *testing.T, started chan<- struct{}) *catalog.Catalog {
	t.Helper()
	tool := func(name, op string, run func(ctx context.Context, in valueInput) (any, error)) catalog.Tool {
		return catalog.NewTool(catalog.Spec{Name: name, Description: name, Category: "test", Operation: op},
			func(ctx context.Context, _ catalog.Call, in valueInput) (any, error) { return run(ctx, in) }, nil)
	}
	c, err := catalog.New(
		tool("echo", "position_sizing", func(_ context.Context, in valueInput) (any, error) {
			return map[string]any{"value": in.Value}, nil
		}),
		tool("panics", "", func(context.Context, valueInput) (any, error) { panic("boom") }),
		tool("overflows", "", func(_ context.Context, in valueInput) (any, error) {
			return map[string]any{"x": toolkit.Float(in.Value.Float64() * 1e308 * 10)}, nil
		}),
		tool("huge", "", func(context.Context, valueInput) (any, error) {
			return map[string]any{"s": strings.Repeat("x", 2000)}, nil
		}),
		tool("slow", "", func(ctx context.Context, in valueInput) (any, error) {
			if started != nil {
				started <- struct{}{}
			}
			<-ctx.Done()
			return nil, ctx.Err()
		}),
	)
	require.NoError(t, err)
	return c
}

var agent = agents.Agent{ID: "agt_1", Mode: agents.ModeSandbox}

func TestCallRunsMetersAndEncodes(t *testing.T) {
	m := &fakeMeter{}
	s := New(testTools(t, nil), m, Options{})
	res, err := s.Call(context.Background(), agent, Request{Tool: "echo", Arguments: []byte(`{"value":"1.5"}`), IdempotencyKey: "k1"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"value":"1.5"}`, string(res.Response))
	assert.Equal(t, "echo", res.Tool)
	assert.Equal(t, "position_sizing", res.Operation)
	assert.Equal(t, "0.003", res.Charged.String())
	assert.Equal(t, "0.997", res.Balance.String())
	require.Len(t, m.reqs, 1)
	assert.Equal(t, billing.Account{AgentID: "agt_1", Funds: billing.FundsTest}, m.reqs[0].Account, "a sandbox agent pays from test funds")
	assert.Equal(t, "k1", m.reqs[0].IdempotencyKey)
	assert.Equal(t, "echo\x00"+`{"value":"1.5"}`, string(m.reqs[0].Body), "the idempotency body names the tool")
}

func TestCallRefusesBeforeMetering(t *testing.T) {
	cases := []struct {
		name  string
		agent agents.Agent
		req   Request
		kind  toolkit.Kind
		want  string
	}{
		{"unknown tool", agent, Request{Tool: "nope"}, toolkit.NotFound, "Unknown tool: 'nope'. Available: echo, huge, overflows, panics, slow"},
		{"bad arguments", agent, Request{Tool: "echo", Arguments: []byte(`{"value":"x"}`)}, toolkit.Invalid, `value: "x" is not a number`},
		{"not an object", agent, Request{Tool: "echo", Arguments: []byte(`[1]`)}, toolkit.Invalid, "arguments must be a JSON object"},
		{"not authorized", agents.Agent{ID: "a", AuthorizedActions: []string{"risk_check"}}, Request{Tool: "echo", Arguments: []byte(`{"value":"1"}`)},
			toolkit.Forbidden, "Tool echo is not in this agent's authorized_actions"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := &fakeMeter{}
			_, err := New(testTools(t, nil), m, Options{}).Call(context.Background(), tc.agent, tc.req)
			require.Error(t, err)
			assert.Equal(t, tc.kind, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), tc.want)
			assert.Zero(t, m.calls(), "nothing reaches the meter")
		})
	}
}

func TestAuthorizedActionsMatchNameOperationOrCategory(t *testing.T) {
	for _, action := range []string{"echo", "position_sizing", "test"} {
		ag := agents.Agent{ID: "a", AuthorizedActions: []string{"other", action}}
		_, err := New(testTools(t, nil), &fakeMeter{}, Options{}).Call(context.Background(), ag, Request{Tool: "echo", Arguments: []byte(`{"value":"1"}`)})
		assert.NoError(t, err, action)
	}
}

func TestPublishedAliasesResolve(t *testing.T) {
	s := New(catalog.Default(), &fakeMeter{}, Options{})
	tool, err := s.Lookup("calculate_options_size")
	require.NoError(t, err)
	assert.Equal(t, "size_options_position", tool.Name)
}

func TestEvaluationTierFixedByTheCaller(t *testing.T) {
	m := &fakeMeter{}
	s := New(catalog.Default(), m, Options{})
	_, err := s.Call(context.Background(), agent, Request{Tool: "evaluate_performance", Tier: "full", Arguments: []byte(`{"r_multiples":["1","-1","2"]}`)})
	require.NoError(t, err)
	assert.Equal(t, "full_eval", m.reqs[0].Operation, "billed per tier")
	_, err = s.Call(context.Background(), agent, Request{Tool: "evaluate_performance", Tier: "full", Arguments: []byte(`{"r_multiples":["1","-1"],"tier":"basic"}`)})
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	assert.Contains(t, toolkit.MessageOf(err), "tier: this endpoint evaluates tier full")
}

func TestRunFailuresAreNotCharged(t *testing.T) {
	cases := []struct {
		tool string
		kind toolkit.Kind
		want string
	}{
		{"panics", toolkit.Internal, "internal error"},
		{"overflows", toolkit.Invalid, "too large to represent"},
		{"huge", toolkit.TooLarge, "The result of huge would be"},
		{"slow", toolkit.Unavailable, "slow did not finish within its time limit"},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			s := New(testTools(t, nil), &fakeMeter{}, Options{MaxResponseBytes: 1000, Timeout: 20 * time.Millisecond})
			res, err := s.Call(context.Background(), agent, Request{Tool: tc.tool, Arguments: []byte(`{"value":"1"}`)})
			require.Error(t, err)
			assert.Equal(t, tc.kind, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), tc.want)
			assert.Empty(t, res.Response)
		})
	}
	_, err := New(testTools(t, nil), &fakeMeter{}, Options{}).Call(context.Background(), agent, Request{Tool: "panics", Arguments: []byte(`{"value":"1"}`)})
	assert.Contains(t, err.Error(), "panic in tool panics: boom", "the cause carries the panic for the log line")
}

// A transport whose answer carries more than the result (MCP: as text and
// structuredContent) holds its answer's size to the cap: over it is
// TooLarge before the meter charges anything.
func TestAnswerSizeIsHeldToTheCap(t *testing.T) {
	m := &fakeMeter{}
	s := New(testTools(t, nil), m, Options{MaxResponseBytes: 40})
	require.Equal(t, 40, s.MaxResponseBytes())
	args := []byte(`{"value":"1.5"}`) // {"value":"1.5"}: 15 bytes
	twice := func(b []byte) int { return 2 * len(b) }
	thrice := func(b []byte) int { return 3 * len(b) }

	res, err := s.Call(context.Background(), agent, Request{Tool: "echo", Arguments: args, AnswerSize: twice})
	require.NoError(t, err)
	assert.Equal(t, "0.003", res.Charged.String(), "30 bytes fit")

	res, err = s.Call(context.Background(), agent, Request{Tool: "echo", Arguments: args, AnswerSize: thrice})
	require.Error(t, err)
	assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
	assert.Contains(t, toolkit.MessageOf(err), "The result of echo would be 45 bytes, more than the 40 allowed")
	assert.True(t, res.Charged.IsZero(), "not charged")
	assert.Equal(t, 2, m.calls(), "refused inside the metered run, before any charge")
}

// A caller that goes away stops the run; the error's cause says so, so the
// transport logs a disconnect instead of an outage.
func TestCallerGoneStopsTheRun(t *testing.T) {
	started := make(chan struct{}, 1)
	s := New(testTools(t, started), &fakeMeter{}, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := s.Call(ctx, agent, Request{Tool: "slow", Arguments: []byte(`{"value":"1"}`)})
	assert.ErrorIs(t, err, context.Canceled)
}

// Heavy calls share a bounded capacity; one that finds none is refused at
// once with a retry hint, and light calls are never held back.
func TestHeavyCallsAreBounded(t *testing.T) {
	started := make(chan struct{}, 1)
	s := New(testTools(t, started), &fakeMeter{}, Options{HeavyArgumentBytes: 100, HeavyCapacity: 1})
	heavy := []byte(`{"value":"1","wait":true` + strings.Repeat(" ", 200) + `}`)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, agent, Request{Tool: "slow", Arguments: heavy})
		done <- err
	}()
	<-started
	_, err := s.Call(context.Background(), agent, Request{Tool: "echo", Arguments: heavy})
	require.Error(t, err)
	assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(err))
	assert.Equal(t, time.Second, toolkit.RetryAfterOf(err))
	_, err = s.Call(context.Background(), agent, Request{Tool: "echo", Arguments: []byte(`{"value":"1"}`)})
	assert.NoError(t, err, "a light call passes while the capacity is held")
	cancel()
	require.True(t, errors.Is(<-done, context.Canceled))
	_, err = s.Call(context.Background(), agent, Request{Tool: "echo", Arguments: heavy})
	assert.NoError(t, err, "the capacity is released after the heavy call")
}

func TestMeterRefusalIsReturnedAndRecorded(t *testing.T) {
	m := &fakeMeter{err: toolkit.Errorf(toolkit.InsufficientCredits, "Insufficient balance. Required: $0.003, Available: $0.00")}
	rec := &guardiantest.Recorder{}
	svc := New(testTools(t, nil), m, Options{Recorder: rec})
	_, err := svc.Call(context.Background(), agent, Request{Tool: "echo", Arguments: []byte(`{"value":"1"}`)})
	assert.Equal(t, toolkit.InsufficientCredits, toolkit.KindOf(err))
	require.Len(t, rec.Events(), 1)
	assert.Equal(t, guardian.TypeInsufficientCredits, rec.Events()[0].Type)
	assert.Equal(t, agent.ID, rec.Events()[0].AgentID)

	m.err = toolkit.Errorf(toolkit.Forbidden, "over the daily limit")
	_, err = svc.Call(context.Background(), agent, Request{Tool: "echo", Arguments: []byte(`{"value":"1"}`)})
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err))
	_, err = svc.Call(context.Background(), agent, Request{Tool: "echo", Arguments: []byte(`{"value":"x"}`)})
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	assert.Len(t, rec.Events(), 1, "only 402s are recorded")
}
