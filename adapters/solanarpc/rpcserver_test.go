package solanarpc_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

const (
	mainnetGenesis = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d"
	devnetGenesis  = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG"
)

// fakeNode is a Solana JSON-RPC node over httptest. It answers with the
// exact envelope {"jsonrpc":"2.0","result":…,"id":…} (solana-go refuses
// extra keys), a null result for unknown transactions and accounts, and
// records every call.
type fakeNode struct {
	srv *httptest.Server

	mu       sync.Mutex
	genesis  string
	txs      map[string]json.RawMessage // signature -> getTransaction result
	accounts map[string]json.RawMessage // address -> getAccountInfo value
	calls    []rpcCall
	// fail, when set, answers every call instead: an HTTP status code
	// (>= 400) or a JSON-RPC error code (< 0).
	fail int
	// hang blocks every call until the client gives up.
	hang bool
}

type rpcCall struct {
	Method string
	Params []json.RawMessage
}

func newFakeNode(t testing.TB) *fakeNode {
	n := &fakeNode{genesis: mainnetGenesis, txs: map[string]json.RawMessage{}, accounts: map[string]json.RawMessage{}}
	n.srv = httptest.NewServer(http.HandlerFunc(n.serve))
	t.Cleanup(n.srv.Close)
	return n
}

func (n *fakeNode) serve(w http.ResponseWriter, r *http.Request) {
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
	n.calls = append(n.calls, rpcCall{Method: req.Method, Params: req.Params})
	fail, hang := n.fail, n.hang
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

func (n *fakeNode) result(method string, params []json.RawMessage) json.RawMessage {
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

// callsTo returns the recorded calls of method.
func (n *fakeNode) callsTo(method string) []rpcCall {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []rpcCall
	for _, c := range n.calls {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

func (n *fakeNode) set(f func(n *fakeNode)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	f(n)
}
