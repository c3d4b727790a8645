package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/agentfinance/toolkit/guardian"
	"github.com/agentfinance/toolkit/httpapi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answer is one real error answer.
type answer struct {
	status int
	header http.Header
	body   map[string]any
}

// sizingCall is POST /v1/tools/call of calculate_position_size with its
// documented example arguments.
const sizingCall = `{"tool_name":"calculate_position_size","arguments":{"equity":"25000","entry_price":"10.30","stop_price":"10.20","direction":"long"}}`

// errorRecipes provoke the answer each documented error example shows,
// by the example's name, each on a fresh server.
var errorRecipes = map[string]func(t *testing.T) answer{
	"missing_field": func(t *testing.T) answer {
		e := newEnv(t, withDefaultCatalog)
		_, k := e.register("acme")
		return exchange(e, "POST", "/v1/tools/call", key(k), `{}`)
	},
	"missing_argument": func(t *testing.T) answer {
		e := newEnv(t, withDefaultCatalog)
		_, k := e.register("acme")
		return exchange(e, "POST", "/v1/tools/call", key(k), strings.Replace(sizingCall, `,"direction":"long"`, "", 1))
	},
	"api_key": func(t *testing.T) answer {
		return exchange(newEnv(t), "GET", "/v1/agents/me", nil, "")
	},
	"admin_key": func(t *testing.T) answer {
		return exchange(newEnv(t), "GET", "/v1/guardian/metrics", nil, "")
	},
	"balance_short": func(t *testing.T) answer {
		e := newEnv(t, withDefaultCatalog)
		_, k := e.register("acme")
		return exchange(e, "POST", "/v1/tools/call", key(k), sizingCall)
	},
	"operation_not_allowed": func(t *testing.T) answer {
		e := newEnv(t, withDefaultCatalog)
		_, k := e.register("acme")
		e.fund(k, "10")
		status, m := e.do("PUT", "/v1/agents/limits", key(k), `{"allowed_operations":["risk_check"]}`)
		require.Equal(t, http.StatusOK, status, m)
		return exchange(e, "POST", "/v1/tools/call", key(k), sizingCall)
	},
	"suspended": func(t *testing.T) answer {
		e := newEnv(t)
		id, k := e.register("acme")
		status, m := e.do("PUT", "/v1/admin/agents/"+id+"/mode", admin(), `{"mode":"suspended"}`)
		require.Equal(t, http.StatusOK, status, m)
		return exchange(e, "GET", "/v1/agents/me", key(k), "")
	},
	"ticket": func(t *testing.T) answer {
		e := newEnv(t)
		_, k := e.register("acme")
		return exchange(e, "GET", "/v1/support/ticket/SR-000142", key(k), "")
	},
	"route": func(t *testing.T) answer {
		e := newEnv(t)
		_, k := e.register("acme")
		return exchange(e, "GET", "/v1/agents/profile", key(k), "")
	},
	"idempotency_key_reused": func(t *testing.T) answer {
		e := newEnv(t, withDefaultCatalog)
		_, k := e.register("acme")
		e.fund(k, "10")
		h := map[string]string{"X-API-Key": k, "Idempotency-Key": "order-1042"}
		status, m := e.do("POST", "/v1/tools/call", h, sizingCall)
		require.Equal(t, http.StatusOK, status, m)
		return exchange(e, "POST", "/v1/tools/call", h, strings.Replace(sizingCall, "25000", "26000", 1))
	},
	"body": func(t *testing.T) answer {
		e := newEnv(t)
		_, k := e.register("acme")
		return exchange(e, "POST", "/v1/support/ticket", key(k), `{"subject":"`+strings.Repeat("x", 70_000)+`"}`)
	},
	"per_key": func(t *testing.T) answer {
		e := newEnv(t, withRateLimits(httpapi.RateLimits{PerKey: guardian.NewLimit(2, time.Minute)}))
		_, k := e.register("acme")
		var last answer
		for range 3 {
			last = exchange(e, "GET", "/v1/billing/balance", key(k), "")
		}
		return last
	},
	"chain_not_configured": func(t *testing.T) answer {
		e := newEnv(t)
		_, k := e.register("acme")
		return exchange(e, "POST", "/v1/billing/deposit-sol", key(k),
			`{"tx_signature":"3XxyhUwDYcougDfKZg3Xn8fVZnv3WXemUC22UjsH7Z19e2Q3H6P87wWiM3p5dTQgorv7JLrGKKWYPynZd6ajUPhi"}`)
	},
	"internal": func(t *testing.T) answer {
		broken := catalog.NewTool(catalog.Spec{Name: "broken", Description: "Fails unexpectedly.", Category: "demo"},
			func(context.Context, catalog.Call, struct{}) (any, error) { return nil, errors.New("disk on fire") }, nil)
		c, err := catalog.New(broken)
		require.NoError(t, err)
		e := newEnv(t, func(cfg *envConfig) { cfg.catalog = c })
		_, k := e.register("acme")
		return exchange(e, "POST", "/v1/tools/call", key(k), `{"tool_name":"broken"}`)
	},
}

func exchange(e *env, method, path string, headers map[string]string, body string) answer {
	status, h, m := e.exchange(method, path, headers, body)
	return answer{status: status, header: h, body: m}
}

// TestDocumentedErrorExamplesAreRealAnswers provokes every documented
// error example on a server and requires the documented status with the
// same code and detail (and, for 402, the same required and available),
// and the headers the status documents: Retry-After on 429,
// WWW-Authenticate on 401. An example without a recipe fails.
func TestDocumentedErrorExamplesAreRealAnswers(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, doc := e.do("GET", "/v1/openapi.json", nil, "")
	responses := doc["components"].(map[string]any)["responses"].(map[string]any)
	statusOf := map[string]int{}
	for _, item := range doc["paths"].(map[string]any) {
		for _, op := range item.(map[string]any) {
			for status, r := range op.(map[string]any)["responses"].(map[string]any) {
				if ref, ok := r.(map[string]any)["$ref"].(string); ok {
					statusOf[strings.TrimPrefix(ref, "#/components/responses/")], _ = strconv.Atoi(status)
				}
			}
		}
	}
	require.Len(t, responses, 10, "one shared response per error kind")
	for name, r := range responses {
		media := r.(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)
		examples, _ := media["examples"].(map[string]any)
		require.NotEmpty(t, examples, "%s documents no example", name)
		for exampleName, ex := range examples {
			want := ex.(map[string]any)["value"].(map[string]any)
			t.Run(name+"/"+exampleName, func(t *testing.T) {
				recipe, ok := errorRecipes[exampleName]
				require.True(t, ok, "no recipe provokes the documented example %s of %s", exampleName, name)
				got := recipe(t)
				assert.Equal(t, statusOf[name], got.status, "%v", got.body)
				for _, field := range []string{"code", "detail", "required", "available"} {
					assert.Equal(t, want[field], got.body[field], field)
				}
				switch got.status {
				case http.StatusTooManyRequests:
					assert.Regexp(t, `^[0-9]+$`, got.header.Get("Retry-After"))
				case http.StatusUnauthorized:
					assert.NotEmpty(t, got.header.Get("WWW-Authenticate"))
				}
			})
		}
	}
}
