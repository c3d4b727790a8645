package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/stretchr/testify/require"
)

// contract validates responses against the API's own /v1/openapi.json:
// every response of the HTTP suites goes through it, so an undocumented
// field or status fails the test that produced it.
type contract struct {
	router routers.Router
}

func loadContract(t *testing.T, baseURL string, logs fmt.Stringer) *contract {
	t.Helper()
	res, err := http.Get(baseURL + "/v1/openapi.json")
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s\n%s", raw, logs)
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	require.NoError(t, err)
	require.True(t, doc.IsOpenAPI31OrLater())
	require.NoError(t, doc.Validate(context.Background()), "the OpenAPI document is valid")
	router, err := legacy.NewRouter(doc)
	require.NoError(t, err)
	return &contract{router: router}
}

// check validates one exchange. Routes outside the document (unknown
// paths, MCP, public text documents) are not part of the contract.
func (c *contract) check(t *testing.T, req *http.Request, reqBody []byte, res *http.Response, body []byte) {
	t.Helper()
	if !strings.HasPrefix(req.URL.Path, "/v1/") {
		return
	}
	if res.StatusCode == http.StatusMethodNotAllowed {
		// Every method in Allow is documented for this path.
		for _, m := range strings.Split(res.Header.Get("Allow"), ", ") {
			if m == http.MethodHead {
				continue
			}
			probe := req.Clone(req.Context())
			probe.Method = m
			_, _, err := c.router.FindRoute(probe)
			require.NoError(t, err, "405 for %s %s allows %s, which the document does not list", req.Method, req.URL.Path, m)
		}
		return
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		require.Equal(t, http.StatusNotFound, res.StatusCode, "undocumented route %s %s answered %d", req.Method, req.URL.Path, res.StatusCode)
		return
	}
	req.Body = io.NopCloser(bytes.NewReader(reqBody))
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true}}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.StatusCode, Header: res.Header,
		Options: in.Options}
	out.SetBodyBytes(body)
	require.NoError(t, openapi3filter.ValidateResponse(context.Background(), out),
		"%s %s -> %d does not match /v1/openapi.json: %s", req.Method, req.URL.Path, res.StatusCode, body)
}

// validate checks one answer to req against the document.
func (c *contract) validate(t *testing.T, req *http.Request, status int, body []byte) error {
	t.Helper()
	route, params, err := c.router.FindRoute(req)
	require.NoError(t, err)
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true}}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status,
		Header: http.Header{"Content-Type": {"application/json"}}, Options: in.Options}
	out.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(context.Background(), out)
}

// TestContractRejectsUndocumentedFieldsAndStatuses proves the contract
// check can fail.
func TestContractRejectsUndocumentedFieldsAndStatuses(t *testing.T) {
	e := newEnv(t)
	req, err := http.NewRequest("GET", e.srv.URL+"/v1/billing/balance", nil)
	require.NoError(t, err)
	route, params, err := e.contract.router.FindRoute(req)
	require.NoError(t, err)
	validate := func(status int, body string) error {
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true}}
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status,
			Header: http.Header{"Content-Type": {"application/json"}}, Options: in.Options}
		out.SetBodyBytes([]byte(body))
		return openapi3filter.ValidateResponse(context.Background(), out)
	}
	good := `{"agent_id":"agt_x","balance":"1.00","real_balance":"1.00","sandbox_balance":"0.00","pays_from":"real","is_low":false,"updated_at":"2026-11-22T10:00:00Z"}`
	require.NoError(t, validate(200, good))
	require.Error(t, validate(200, strings.Replace(good, `"is_low":false`, `"is_low":false,"extra":1`, 1)), "undocumented field")
	require.Error(t, validate(200, strings.Replace(good, `"1.00"`, `1.0`, 1)), "money must be a decimal string")
	require.Error(t, validate(418, `{"detail":"x","code":"y"}`), "undocumented status")
}
