package httpapi_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exampleAgentID is the agent the documented examples name (the wallet
// and chain fixtures' agent): the round trip makes the calling agent this
// one, so the examples are sent exactly as documented.
const exampleAgentID = "agt_k3v9x2m8q1w7p4z6"

// exampleTime is the time of the wallet fixtures' signatures (plus 90 s).
var exampleTime = time.Unix(1767225600+90, 0)

// documentedOperation is one operation of the document with its
// request examples.
type documentedOperation struct {
	method, path, id string
	auth             string // "public", "agent", "owner" or "admin"
	success          []int
	examples         map[string]any // name -> value
}

// documentedOperations reads every operation with a request body from
// the live document.
func documentedOperations(t *testing.T, doc map[string]any) []documentedOperation {
	t.Helper()
	var out []documentedOperation
	for path, item := range doc["paths"].(map[string]any) {
		for method, raw := range item.(map[string]any) {
			op := raw.(map[string]any)
			body, ok := op["requestBody"].(map[string]any)
			if !ok {
				continue
			}
			d := documentedOperation{method: strings.ToUpper(method), path: path, id: op["operationId"].(string), auth: "public"}
			for _, sec := range op["security"].([]any) {
				for scheme := range sec.(map[string]any) {
					d.auth = map[string]string{"ApiKey": "agent", "Bearer": "agent", "OwnerKey": "owner", "AdminKey": "admin"}[scheme]
				}
			}
			for status := range op["responses"].(map[string]any) {
				if n, _ := strconv.Atoi(status); n >= 200 && n < 300 {
					d.success = append(d.success, n)
				}
			}
			media := body["content"].(map[string]any)["application/json"].(map[string]any)
			examples, _ := media["examples"].(map[string]any)
			d.examples = map[string]any{}
			for name, e := range examples {
				d.examples[name] = e.(map[string]any)["value"]
			}
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b documentedOperation) int { return strings.Compare(a.id, b.id) })
	return out
}

// exampleServer is a fresh server (all 45 tools, a fake Solana node)
// whose clock is the wallet fixtures' time, with the documented example
// agent registered and funded with $50 of test credits.
type exampleServer struct {
	*env
	key      string // the example agent's API key
	ownerKey string // its owner's key (X-Owner-Key)
}

func newExampleServer(t *testing.T) exampleServer {
	t.Helper()
	e := newEnv(t, withFullCatalog, withChain)
	e.clock.Set(exampleTime)
	k := agents.DefaultKeyPrefix + "examplekey" + strings.Repeat("0", 30)
	require.NoError(t, e.store.CreateAgent(context.Background(), agents.Registration{NewOwner: true, KeyDigest: agents.KeyDigest(k),
		Agent: agents.Agent{ID: exampleAgentID, OwnerID: "acme-research", Name: "RiskBot", Type: agents.TypeTrading,
			Mode: agents.ModeSandbox, CreatedAt: exampleTime}}))
	e.fund(k, "50")
	status, m := e.do("POST", "/v1/admin/owners/acme-research/key", map[string]string{"X-Admin-Key": adminKey}, "")
	require.Equal(t, http.StatusOK, status, m)
	return exampleServer{env: e, key: k, ownerKey: m["owner_key"].(string)}
}

// pathFor fills the operation's path parameters with records it makes:
// a ticket, an alert, a memory of the example agent.
func (s exampleServer) pathFor(t *testing.T, path string) string {
	t.Helper()
	if strings.Contains(path, "{ticket_id}") {
		status, m := s.do("POST", "/v1/support/ticket", key(s.key),
			`{"subject":"x","description":"x","priority":"low","category":"other"}`)
		require.Equal(t, http.StatusCreated, status, m)
		path = strings.ReplaceAll(path, "{ticket_id}", m["ticket_id"].(string))
	}
	path = strings.ReplaceAll(path, "{agent_id}", exampleAgentID)
	return path
}

// TestDocumentedRequestExamplesWork sends every documented request
// example, exactly as documented, to a fresh server (all 45 tools; priced
// calls by a funded sandbox agent; wallet and chain examples against the
// fixtures they were made from) and requires a documented success status.
// Every operation with a body must document an example, and
// POST /v1/tools/call one per tool, named by the tool.
func TestDocumentedRequestExamplesWork(t *testing.T) {
	probe := newEnv(t, withFullCatalog)
	_, doc := probe.do("GET", "/v1/openapi.json", nil, "")
	_, tools := probe.do("GET", "/v1/tools/list", nil, "")
	ops := documentedOperations(t, doc)
	require.NotEmpty(t, ops)
	for _, op := range ops {
		t.Run(op.id, func(t *testing.T) {
			require.NotEmpty(t, op.examples, "%s %s documents no request example", op.method, op.path)
			if op.id == "callTool" {
				var names []string
				for _, tool := range tools["tools"].([]any) {
					names = append(names, tool.(map[string]any)["name"].(string))
				}
				assert.ElementsMatch(t, names, slices.Collect(maps.Keys(op.examples)), "one example per tool, named by the tool")
			}
			s := newExampleServer(t)
			path := s.pathFor(t, op.path)
			headers := map[string]string{}
			switch op.auth {
			case "agent":
				headers["X-API-Key"] = s.key
			case "owner":
				headers["X-Owner-Key"] = s.ownerKey
			case "admin":
				headers["X-Admin-Key"] = adminKey
			}
			if strings.HasPrefix(op.path, "/v1/billing/deposit-") {
				// The chain fixtures' transfers come from their agent
				// wallet: link it to the example agent first.
				status, m := s.link(s.key, exampleAgentID, depositWallet())
				require.Equal(t, http.StatusOK, status, m)
			}
			for _, name := range slices.Sorted(maps.Keys(op.examples)) {
				body, err := json.Marshal(op.examples[name])
				require.NoError(t, err)
				status, answer := s.do(op.method, path, headers, string(body))
				assert.Contains(t, op.success, status, "example %s: %s -> %v", name, body, answer)
			}
		})
	}
}
