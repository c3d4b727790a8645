// Package toolcall is the one call path of every tool: REST shortcuts,
// POST /v1/tools/call and MCP are thin adapters over Service.Call.
//
// A call resolves the tool name (published aliases included), checks the
// agent's authorized_actions, validates and decodes the arguments (a 400
// never costs anything and never hides behind a 402), meters the call
// through billing (402 means nothing ran and nothing was charged), runs
// the tool under a deadline and a server-wide limit on concurrent heavy
// calls, encodes the result, and charges only a successful, chargeable
// answer. A panic inside a tool becomes an Internal error with one log
// line at the transport; it is never charged.
package toolcall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/finance"
	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/guardian"
	"golang.org/x/sync/semaphore"
)

// Tools is what the service needs of a tool catalog (*catalog.Catalog).
type Tools interface {
	// Resolve finds a tool by name or published alias.
	Resolve(name string) (catalog.Tool, bool)
	// Names lists the tool names, for the unknown-tool message.
	Names() []string
}

// Meter is what the service needs of billing (*billing.Service): the single
// metering point.
type Meter interface {
	Meter(ctx context.Context, req billing.MeterRequest, run func(ctx context.Context) (billing.Outcome, error)) (billing.Metered, error)
}

// Request is one tool call.
type Request struct {
	// Tool is the tool's name or a published alias.
	Tool string
	// Arguments is the JSON object of arguments (empty or null: {}).
	Arguments json.RawMessage
	// Tier, set by the evaluation shortcuts, fixes evaluate_performance's
	// tier; arguments naming another tier are refused.
	Tier string
	// IdempotencyKey, optional: a retry with the same key and arguments
	// returns the stored answer and is charged once.
	IdempotencyKey string
	// AnswerSize, when set, is the size of the transport's answer
	// carrying an encoded result (an MCP answer may carry it twice: as
	// text and as structuredContent). That size, not the result's, is
	// held to Options.MaxResponseBytes, so an answer over the cap is
	// TooLarge before anything is charged. Nil: the result's length.
	AnswerSize func(result []byte) int
}

// Result is a successful call.
type Result struct {
	// Tool is the canonical name of the tool that ran.
	Tool string
	// Response is the JSON-encoded result.
	Response []byte
	// Operation is the billed operation ("" for a free tool).
	Operation string
	// Charged is what this call debited (0 when free, not chargeable or
	// replayed).
	Charged toolkit.Amount
	// Balance is the balance after the debit; nil when nothing was debited.
	Balance *toolkit.Amount
	// Replayed is true when the answer came from an idempotency key.
	Replayed bool
}

// Options tune a Service. Zero fields take the defaults.
type Options struct {
	// Timeout bounds one tool run (default 30 s); tools that loop observe
	// the deadline and stop.
	Timeout time.Duration
	// HeavyArgumentBytes is the size from which a call counts as heavy
	// (default 64 KiB). Heavy calls hold a share of HeavyCapacity while
	// they run: one unit per started MiB of arguments.
	HeavyArgumentBytes int
	// HeavyCapacity is the number of units heavy calls may hold at once
	// (default 4 × GOMAXPROCS). A heavy call that finds no room is refused
	// at once with Unavailable and a Retry-After, never queued.
	HeavyCapacity int64
	// MaxResponseBytes caps an encoded result, or the answer carrying it
	// (Request.AnswerSize) (default catalog.MaxResultBytes, 16 MiB); a
	// larger one is TooLarge and not charged.
	MaxResponseBytes int
	// Recorder receives a security event for every call refused for
	// insufficient credits (402); bursts are aggregated by the recorder
	// (default: discarded).
	Recorder guardian.Recorder
	// Observe, when set, is told of every call once it has ended, with its
	// result or its error: the guardian's tool-call count and the charge
	// metrics hang here, so every caller of Call is counted alike.
	Observe func(res Result, err error)
}

// Service runs tool calls. It is safe for concurrent use.
type Service struct {
	tools Tools
	meter Meter
	opts  Options
	heavy *semaphore.Weighted
}

// New returns a Service over a tool catalog and the metering point.
func New(tools Tools, meter Meter, opts Options) *Service {
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.HeavyArgumentBytes <= 0 {
		opts.HeavyArgumentBytes = 64 << 10
	}
	if opts.HeavyCapacity <= 0 {
		opts.HeavyCapacity = 4 * int64(runtime.GOMAXPROCS(0))
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = catalog.MaxResultBytes
	}
	opts.Recorder = guardian.OrDiscard(opts.Recorder)
	return &Service{tools: tools, meter: meter, opts: opts, heavy: semaphore.NewWeighted(opts.HeavyCapacity)}
}

// Call runs one tool for agent ag (which the caller has authenticated and
// found active). Options.Observe is told of the outcome.
func (s *Service) Call(ctx context.Context, ag agents.Agent, req Request) (Result, error) {
	res, err := s.call(ctx, ag, req)
	if s.opts.Observe != nil {
		s.opts.Observe(res, err)
	}
	return res, err
}

func (s *Service) call(ctx context.Context, ag agents.Agent, req Request) (Result, error) {
	t, err := s.Lookup(req.Tool)
	if err != nil {
		return Result{}, err
	}
	args := req.Arguments
	if req.Tier != "" {
		if args, err = catalog.WithTier(args, req.Tier); err != nil {
			return Result{}, err
		}
	}
	op := t.BilledOperation(args)
	if err := authorize(ag, t, op); err != nil {
		return Result{}, err
	}
	undo := &catalog.Compensation{}
	run, err := t.Prepare(catalog.Call{AgentID: ag.ID, Limits: tradingLimits(ag), Arguments: args, Undo: undo})
	if err != nil {
		return Result{}, err
	}
	release, err := s.admit(len(args))
	if err != nil {
		return Result{}, err
	}
	defer release()
	answered := false // the tool's answer is what the meter charges or returns
	m, err := s.meter.Meter(ctx, billing.MeterRequest{
		Account: billing.AccountOf(ag), Operation: op, IdempotencyKey: req.IdempotencyKey,
		Body: append([]byte(t.Name+"\x00"), args...),
	}, func(ctx context.Context) (billing.Outcome, error) {
		out, err := s.run(ctx, t, run, req.AnswerSize)
		answered = err == nil
		return out, err
	})
	s.settleWrites(ctx, ag, t.Name, undo, answered, m, err)
	if toolkit.IsKind(err, toolkit.InsufficientCredits) {
		s.opts.Recorder.Record(ctx, guardian.Event{Type: guardian.TypeInsufficientCredits, AgentID: ag.ID})
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Tool: t.Name, Response: m.Response, Operation: op, Charged: m.Charged, Balance: m.Balance, Replayed: m.Replayed}, nil
}

// settleWrites takes back the writes of a call whose answer was discarded:
// the tool failed after writing, its answer was not charged (balance spent
// meanwhile, a cap, an idempotency conflict) or a concurrent retry with
// the same key answered instead. Writes stand when the answer was
// delivered, and when the charge failed in a way that may still have
// committed it (a store fault), so a paid write is never taken back. A
// failed undo is recorded as a guardian event.
func (s *Service) settleWrites(ctx context.Context, ag agents.Agent, tool string, undo *catalog.Compensation, answered bool, m billing.Metered, err error) {
	if !undo.Pending() || (err == nil && !m.Replayed) {
		return
	}
	if answered && err != nil && !refusedCharge(err) {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), undoTimeout)
	defer cancel()
	if uerr := undo.Run(ctx); uerr != nil {
		s.opts.Recorder.Record(ctx, guardian.Event{Type: guardian.TypeUnchargedWriteKept, AgentID: ag.ID,
			Description: fmt.Sprintf("A write of an uncharged %s call could not be undone: %v", tool, uerr)})
	}
}

// undoTimeout bounds the undo of an uncharged call's writes.
const undoTimeout = 5 * time.Second

// refusedCharge reports whether a metering error after a successful run is
// a charge the store refused or never took, so nothing was debited: short
// funds, a cap, an idempotency conflict, or the caller's context ending
// before the store took the charge (billing.Store.Charge's contract).
func refusedCharge(err error) bool {
	return toolkit.IsKind(err, toolkit.InsufficientCredits) || toolkit.IsKind(err, toolkit.Forbidden) ||
		toolkit.IsKind(err, toolkit.Conflict) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Lookup resolves a tool name or published alias; an unknown name is
// NotFound listing the available tools.
func (s *Service) Lookup(name string) (catalog.Tool, error) {
	if t, ok := s.tools.Resolve(name); ok {
		return t, nil
	}
	return catalog.Tool{}, toolkit.Errorf(toolkit.NotFound, "Unknown tool: '%s'. Available: %s",
		name, strings.Join(s.tools.Names(), ", "))
}

// authorize applies the agent's authorized_actions: when set, an action
// must match the tool's name, billed operation or category.
func authorize(ag agents.Agent, t catalog.Tool, operation string) error {
	if len(ag.AuthorizedActions) == 0 {
		return nil
	}
	if slices.Contains(ag.AuthorizedActions, t.Name) || slices.Contains(ag.AuthorizedActions, t.Category) ||
		(operation != "" && slices.Contains(ag.AuthorizedActions, operation)) {
		return nil
	}
	return toolkit.Errorf(toolkit.Forbidden, "Tool %s is not in this agent's authorized_actions", t.Name)
}

// admit takes a heavy call's share of the server-wide capacity, or refuses
// it at once when the capacity is in use.
func (s *Service) admit(argBytes int) (release func(), err error) {
	if argBytes < s.opts.HeavyArgumentBytes {
		return func() {}, nil
	}
	units := min(int64(1+argBytes>>20), s.opts.HeavyCapacity)
	if !s.heavy.TryAcquire(units) {
		return nil, &toolkit.Error{Kind: toolkit.Unavailable, RetryAfter: time.Second,
			Msg: "The server is busy with other large calls; retry in a second"}
	}
	return func() { s.heavy.Release(units) }, nil
}

// run computes and encodes the result under the deadline. A panic becomes
// an Internal error carrying the panic value as its cause, for the
// transport's one log line; a result that cannot be encoded because a
// statistic overflowed is Invalid; a result whose answer (answerSize, nil:
// the result's length) is over the cap is TooLarge.
func (s *Service) run(ctx context.Context, t catalog.Tool, run catalog.Prepared, answerSize func([]byte) int) (out billing.Outcome, err error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			out, err = billing.Outcome{}, &toolkit.Error{Kind: toolkit.Internal, Op: "toolcall.run",
				Err: fmt.Errorf("panic in tool %s: %v", t.Name, p)}
		}
	}()
	res, err := run(ctx)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return billing.Outcome{}, stopped(t, ctxErr) // whatever the tool answered, it is discarded
	}
	if err != nil {
		return billing.Outcome{}, err
	}
	b, err := json.Marshal(res)
	switch {
	case errors.Is(err, toolkit.ErrNonFinite):
		return billing.Outcome{}, toolkit.Errorf(toolkit.Invalid,
			"The inputs give a result too large to represent (a statistic overflowed); use smaller values for %s", t.Name)
	case err != nil:
		return billing.Outcome{}, toolkit.AsInternal("toolcall.run", err)
	}
	size := len(b)
	if answerSize != nil {
		size = answerSize(b)
	}
	if size > s.opts.MaxResponseBytes {
		return billing.Outcome{}, toolkit.Errorf(toolkit.TooLarge,
			"The result of %s would be %d bytes, more than the %d allowed; send fewer items", t.Name, size, s.opts.MaxResponseBytes)
	}
	return billing.Outcome{Response: b, Chargeable: catalog.IsChargeable(res)}, nil
}

// MaxResponseBytes is the cap of an encoded result, or of the answer
// carrying it (Options.MaxResponseBytes).
func (s *Service) MaxResponseBytes() int { return s.opts.MaxResponseBytes }

// stopped is the error of a run whose context ended: its deadline passed
// (Unavailable naming the tool) or the caller went away (Unavailable whose
// cause is context.Canceled, which the transports log as a disconnect).
func stopped(t catalog.Tool, ctxErr error) error {
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		return &toolkit.Error{Kind: toolkit.Unavailable, Err: ctxErr,
			Msg: fmt.Sprintf("%s did not finish within its time limit; send fewer items or simulations", t.Name)}
	}
	return &toolkit.Error{Kind: toolkit.Unavailable, Err: ctxErr, Msg: "the call was canceled"}
}

// tradingLimits are the agent's trading limits as the finance tools read
// them.
func tradingLimits(ag agents.Agent) finance.AgentLimits {
	return finance.AgentLimits{
		MaxPositionSizePct:    ag.MaxPositionSizePct,
		MaxDailyLossPct:       ag.MaxDailyLossPct,
		AuthorizedInstruments: ag.AuthorizedInstruments,
	}
}
