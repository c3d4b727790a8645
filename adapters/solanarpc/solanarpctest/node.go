// Package solanarpctest serves a fake Solana JSON-RPC node over httptest,
// with signed deposit transactions built by solana-go as fixtures. Tests
// of adapters/solanarpc and of the layers above it (httpapi, the
// reference server) verify deposits against it offline.
//
//	node := solanarpctest.NewNode(t, solanarpctest.Fixtures(t)...)
//	client, _ := solanarpc.New(solanarpctest.Config(node.URL()))
package solanarpctest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Genesis hashes of the public clusters, as getGenesisHash returns them.
const (
	MainnetGenesis = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d"
	DevnetGenesis  = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG"
)

// Node is a Solana JSON-RPC node over httptest. It answers with the exact
// envelope {"jsonrpc":"2.0","result":…,"id":…} (solana-go refuses extra
// keys), a null result for unknown transactions and accounts, and records
// every call. It is safe for concurrent use.
type Node struct {
	srv *httptest.Server

	mu       sync.Mutex
	genesis  string
	txs      map[string]json.RawMessage // signature -> getTransaction result
	accounts map[string]json.RawMessage // address -> getAccountInfo value
	calls    []Call
	fail     int
	failOnly string // the method fail applies to; "" for every method
	hang     bool
}

// Call is one recorded JSON-RPC call.
type Call struct {
	Method string
	Params []json.RawMessage
}

// NewNode starts a mainnet node serving the given transactions; it stops
// when the test ends.
func NewNode(tb testing.TB, fixtures ...Fixture) *Node {
	tb.Helper()
	n := &Node{genesis: MainnetGenesis, txs: map[string]json.RawMessage{}, accounts: map[string]json.RawMessage{}}
	for _, f := range fixtures {
		n.txs[f.Signature] = f.Result
	}
	n.srv = httptest.NewServer(http.HandlerFunc(n.serve))
	tb.Cleanup(n.srv.Close)
	return n
}

// URL is the node's JSON-RPC endpoint.
func (n *Node) URL() string { return n.srv.URL }

// SetGenesis sets the genesis hash the node reports (its network).
func (n *Node) SetGenesis(hash string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.genesis = hash
}

// AddTransaction serves result for getTransaction of signature.
func (n *Node) AddTransaction(signature string, result json.RawMessage) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.txs[signature] = result
}

// AddAccount serves value for getAccountInfo of address.
func (n *Node) AddAccount(address string, value json.RawMessage) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.accounts[address] = value
}

// Fail makes every later call fail: an HTTP status code (>= 400) or a
// JSON-RPC error code (< 0); 0 answers normally again.
func (n *Node) Fail(code int) { n.FailMethod("", code) }

// FailMethod makes every later call of method fail as Fail does (method
// "": every method); the other methods answer normally.
func (n *Node) FailMethod(method string, code int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.fail, n.failOnly = code, method
}

// Hang makes every later call block until its client gives up.
func (n *Node) Hang(on bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.hang = on
}

// Calls returns the recorded calls of method, or of every method when
// method is "".
func (n *Node) Calls(method string) []Call {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []Call
	for _, c := range n.calls {
		if method == "" || c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

func (n *Node) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		JSONRPC string            `json:"jsonrpc"`
		ID      json.RawMessage   `json:"id"`
		Method  string            `json:"method"`
		Params  []json.RawMessage `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.JSONRPC != "2.0" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	n.mu.Lock()
	n.calls = append(n.calls, Call{Method: req.Method, Params: req.Params})
	fail, hang := n.fail, n.hang
	if n.failOnly != "" && n.failOnly != req.Method {
		fail = 0
	}
	n.mu.Unlock()
	if hang {
		<-r.Context().Done()
		return
	}
	if fail >= 400 {
		http.Error(w, "upstream exploded", fail)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if fail < 0 {
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID,
			"error": map[string]any{"code": fail, "message": "Node is behind by 170 slots"}})
		return
	}
	result := n.result(req.Method, req.Params)
	_ = json.NewEncoder(w).Encode(struct {
		JSONRPC string          `json:"jsonrpc"`
		Result  json.RawMessage `json:"result"`
		ID      json.RawMessage `json:"id"`
	}{"2.0", result, req.ID})
}

func (n *Node) result(method string, params []json.RawMessage) json.RawMessage {
	n.mu.Lock()
	defer n.mu.Unlock()
	key := ""
	if len(params) > 0 {
		_ = json.Unmarshal(params[0], &key)
	}
	switch method {
	case "getGenesisHash":
		b, _ := json.Marshal(n.genesis)
		return b
	case "getTransaction":
		if tx, ok := n.txs[key]; ok {
			return tx
		}
	case "getAccountInfo":
		value := json.RawMessage("null")
		if a, ok := n.accounts[key]; ok {
			value = a
		}
		b, _ := json.Marshal(map[string]any{"context": map[string]any{"apiVersion": "2.1.21", "slot": 312_000_999}, "value": value})
		return b
	}
	return json.RawMessage("null")
}
