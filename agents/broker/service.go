package broker

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/cryptovault"
)

// Connection parameter limits.
const (
	// MaxParams bounds the connection parameters of one connect.
	MaxParams = 16
	// MaxParamLen bounds one parameter value in characters.
	MaxParamLen = 512
	// MaxParamNameLen bounds a parameter name in characters.
	MaxParamNameLen = 64
)

// fieldParams is the sealed field of a connection's parameters, bound to
// the connection id.
const fieldParams = "broker.connection_params"

// ConnectionRecord is an agent's broker connection as stored.
type ConnectionRecord struct {
	AgentID string
	// ID identifies this connection; the sealed parameters are bound to
	// it.
	ID         string
	BrokerType string
	// Params is the sealed JSON object of the connection parameters.
	Params      []byte
	ConnectedAt time.Time
}

// Store persists broker connections, one per agent. Every method is one
// transaction. Errors are *toolkit.Error values.
type Store interface {
	// SaveBrokerConnection stores c as the agent's connection, replacing
	// any previous one. An unknown agent is toolkit.NotFound.
	SaveBrokerConnection(ctx context.Context, c ConnectionRecord) error
	// BrokerConnection returns the agent's connection (toolkit.NotFound
	// when it has none).
	BrokerConnection(ctx context.Context, agentID string) (ConnectionRecord, error)
	// DeleteBrokerConnection removes the agent's connection
	// (toolkit.NotFound when it has none).
	DeleteBrokerConnection(ctx context.Context, agentID string) error
}

// Config configures a Service. Vault is required.
type Config struct {
	// Vault seals connection parameters.
	Vault *cryptovault.Vault
	// Brokers are the installed adapters by broker id (ids of the
	// catalogue, see IDs). The demo broker is always installed.
	Brokers map[string]Broker
	// Now returns the current time (default time.Now).
	Now func() time.Time
	// Random is the source of connection ids (default crypto/rand).
	Random io.Reader
}

// Service manages broker connections. It is safe for concurrent use.
type Service struct {
	store   Store
	vault   *cryptovault.Vault
	brokers map[string]Broker
	now     func() time.Time
	random  io.Reader
}

// NewService returns a Service over store.
func NewService(store Store, cfg Config) (*Service, error) {
	if store == nil {
		return nil, errors.New("broker: a Store is required")
	}
	if cfg.Vault == nil {
		return nil, errors.New("broker: a Vault is required: connection parameters are sealed at rest")
	}
	brokers := map[string]Broker{Demo: DemoBroker{}}
	for id, b := range cfg.Brokers {
		if _, ok := lookup(id); !ok || b == nil {
			return nil, fmt.Errorf("broker: no broker %q in the catalogue (known: %s)", id, strings.Join(IDs(), ", "))
		}
		brokers[id] = b
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	return &Service{store: store, vault: cfg.Vault, brokers: brokers, now: cfg.Now, random: cfg.Random}, nil
}

// Supported lists every known broker and whether this server can connect
// it.
func (s *Service) Supported() []Info {
	out := make([]Info, len(catalogue))
	for i, b := range catalogue {
		b.Params = slices.Clone(b.Params)
		_, b.Available = s.brokers[b.ID]
		out[i] = b
	}
	return out
}

// ConnectInput is a connect request.
type ConnectInput struct {
	BrokerType string
	// Params are the broker's connection parameters (see Info.Params).
	Params map[string]string
}

// Connected is the answer of Connect.
type Connected struct {
	AgentID    string
	BrokerType string
	Account    Account
}

// Connect checks the parameters with the broker (reading the account)
// and stores the connection, sealed, replacing the agent's previous one.
// Sandbox agents may connect only the demo broker (toolkit.Forbidden).
func (s *Service) Connect(ctx context.Context, ag agents.Agent, in ConnectInput) (Connected, error) {
	const op = "broker.Connect"
	info, ok := lookup(in.BrokerType)
	if !ok {
		return Connected{}, toolkit.Errorf(toolkit.Invalid, "broker_type: must be one of %s (got %s)", strings.Join(IDs(), ", "), quote(in.BrokerType))
	}
	if ag.Mode == agents.ModeSandbox && !info.SandboxAllowed {
		return Connected{}, toolkit.Errorf(toolkit.Forbidden,
			"broker_type: sandbox agents may connect only the demo broker; switch the agent to live mode (PUT /v1/agents/mode) to connect %s", info.ID)
	}
	b, ok := s.brokers[info.ID]
	if !ok {
		return Connected{}, toolkit.Errorf(toolkit.Invalid,
			"broker_type: %s is known but this server has no adapter for it; available: %s", info.ID, strings.Join(s.available(), ", "))
	}
	if err := checkParams(info, in.Params); err != nil {
		return Connected{}, err
	}
	acct, err := b.Account(ctx, Connection{AgentID: ag.ID, Params: in.Params})
	if err != nil {
		return Connected{}, toolkit.WithOp(op, err)
	}
	id, err := s.newID()
	if err != nil {
		return Connected{}, toolkit.WithOp(op, err)
	}
	params := in.Params
	if params == nil {
		params = map[string]string{}
	}
	plain, err := json.Marshal(params)
	if err != nil {
		return Connected{}, toolkit.AsInternal(op, err)
	}
	sealed, err := s.vault.Seal(ctx, ag.ID, fieldParams+":"+id, plain)
	if err != nil {
		return Connected{}, toolkit.WithOp(op, err)
	}
	rec := ConnectionRecord{AgentID: ag.ID, ID: id, BrokerType: info.ID, Params: sealed, ConnectedAt: s.now().UTC().Truncate(time.Microsecond)}
	if err := s.store.SaveBrokerConnection(ctx, rec); err != nil {
		return Connected{}, toolkit.WithOp(op, err)
	}
	return Connected{AgentID: ag.ID, BrokerType: info.ID, Account: acct}, nil
}

// Disconnect removes the agent's connection (toolkit.NotFound when it has
// none).
func (s *Service) Disconnect(ctx context.Context, agentID string) error {
	if err := s.store.DeleteBrokerConnection(ctx, agentID); err != nil {
		return notConnected(err, "broker.Disconnect")
	}
	return nil
}

// AccountView is an agent's connected account.
type AccountView struct {
	AgentID     string
	BrokerType  string
	ConnectedAt time.Time
	Account     Account
}

// Account reads the agent's connected account, opening its parameters at
// the point of use. Without a connection it is toolkit.NotFound.
func (s *Service) Account(ctx context.Context, agentID string) (AccountView, error) {
	const op = "broker.Account"
	rec, err := s.store.BrokerConnection(ctx, agentID)
	if err != nil {
		return AccountView{}, notConnected(err, op)
	}
	b, ok := s.brokers[rec.BrokerType]
	if !ok {
		return AccountView{}, toolkit.Errorf(toolkit.Unavailable, "the %s adapter is no longer installed on this server; connect again", rec.BrokerType)
	}
	plain, err := s.vault.Open(ctx, agentID, fieldParams+":"+rec.ID, rec.Params)
	if err != nil {
		return AccountView{}, toolkit.WithOp(op, err)
	}
	var params map[string]string
	if err := json.Unmarshal(plain, &params); err != nil {
		return AccountView{}, toolkit.AsInternal(op, err)
	}
	acct, err := b.Account(ctx, Connection{AgentID: agentID, Params: params})
	if err != nil {
		return AccountView{}, toolkit.WithOp(op, err)
	}
	return AccountView{AgentID: agentID, BrokerType: rec.BrokerType, ConnectedAt: rec.ConnectedAt, Account: acct}, nil
}

// available lists the brokers with an adapter, in catalogue order.
func (s *Service) available() []string {
	var out []string
	for _, b := range catalogue {
		if _, ok := s.brokers[b.ID]; ok {
			out = append(out, b.ID)
		}
	}
	return out
}

// checkParams checks the parameter names against the broker's, the
// required ones, and the size of every value.
func checkParams(info Info, params map[string]string) error {
	if len(params) > MaxParams {
		return toolkit.Errorf(toolkit.TooLarge, "connection_params: at most %d parameters are accepted, got %d", MaxParams, len(params))
	}
	names := make([]string, len(info.Params))
	for i, p := range info.Params {
		names[i] = p.Name
		if _, ok := params[p.Name]; p.Required && !ok {
			return toolkit.Errorf(toolkit.Invalid, "connection_params.%s: required for %s", p.Name, info.ID)
		}
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(names, k) {
			return toolkit.Errorf(toolkit.Invalid, "connection_params: unknown parameter %s for %s (allowed: %s)", quote(k), info.ID, strings.Join(names, ", "))
		}
		v := params[k]
		if !utf8.ValidString(v) || utf8.RuneCountInString(v) > MaxParamLen || strings.ContainsFunc(v, unicode.IsControl) {
			return toolkit.Errorf(toolkit.Invalid, "connection_params.%s: at most %d characters, without control characters", k, MaxParamLen)
		}
	}
	return nil
}

// notConnected turns a store's NotFound into the client's message.
func notConnected(err error, op string) error {
	if toolkit.IsKind(err, toolkit.NotFound) {
		return toolkit.Errorf(toolkit.NotFound, "No broker connected; connect one with POST /v1/broker/connect")
	}
	return toolkit.WithOp(op, err)
}

// newID returns a connection id (toolkit.NewID).
func (s *Service) newID() (string, error) {
	return toolkit.NewID(s.random, "brk_")
}

// quote quotes a client-supplied value for a message, cut to 40 bytes.
func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return fmt.Sprintf("%q", s)
}
