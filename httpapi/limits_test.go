package httpapi_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A 400 lists every violation found, detail keeping the first; an
// unknown argument's message lists the tool's arguments, closest first.
func TestBadRequestsListEveryViolation(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")

	status, m := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_free","arguments":{"value":"abc","fail":"yes"}}`)
	require.Equal(t, http.StatusBadRequest, status, m)
	assert.Equal(t, `value: "abc" is not a number like "1.5" or "1.5e-05"`, m["detail"])
	assert.Equal(t, []any{
		map[string]any{"field": "value", "rule": "pattern", "message": m["detail"]},
		map[string]any{"field": "fail", "rule": "type", "message": "fail: expected a boolean, got a string"},
	}, m["errors"])

	status, m = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"demo_free","arguments":{"valeu":"1"}}`)
	require.Equal(t, http.StatusBadRequest, status, m)
	assert.Equal(t, "Unknown argument: valeu (accepted arguments, closest first: value, fail)", m["detail"])
	assert.Equal(t, []any{map[string]any{"field": "valeu", "rule": "unknown", "message": m["detail"]}}, m["errors"])

	// An ordinary body too: every field's rule at once.
	status, m = e.do("POST", "/v1/agents/register", nil, `{"owner_id":"","agent_name":"x","agent_type":"nope"}`)
	require.Equal(t, http.StatusBadRequest, status, m)
	errs, _ := m["errors"].([]any)
	require.GreaterOrEqual(t, len(errs), 2, m)
	assert.Equal(t, errs[0].(map[string]any)["message"], m["detail"])

	// Errors that are not a validation's carry no list.
	status, m = e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"nope"}`)
	require.Equal(t, http.StatusNotFound, status, m)
	assert.NotContains(t, m, "errors")
}

// Regression (issue 23, finding 3): the arguments of /v1/tools/call are
// capped in keys; thousands of keys are refused at the cap (413), not
// checked one against all others.
func TestArgumentKeysAreCapped(t *testing.T) {
	e := newEnv(t, func(c *envConfig) { c.api.MaxBodyBytes = 1 << 20 })
	_, k := e.register("acme")
	var sb strings.Builder
	sb.WriteString(`{"tool_name":"demo_free","arguments":{"value":"1"`)
	for i := range 20_000 {
		fmt.Fprintf(&sb, `,"k%d":1`, i)
	}
	sb.WriteString("}}")
	status, m := e.do("POST", "/v1/tools/call", key(k), sb.String())
	assert.Equal(t, http.StatusRequestEntityTooLarge, status, m)
	assert.Equal(t, "arguments: an object holds more than 256 members", m["detail"])
	assert.Equal(t, "too_large", m["code"])
}

// countingBody counts the bytes read from it.
type countingBody struct {
	io.Reader
	read atomic.Int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.Reader.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func (c *countingBody) Close() error { return nil }

// Regression (issue 23, finding 4): a body declared over the cap is
// refused before a byte of it is read.
func TestDeclaredOversizeBodyIsRefusedUnread(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	body := &countingBody{Reader: strings.NewReader(strings.Repeat(" ", 100<<10))}
	req := httptest.NewRequest("POST", "/v1/tools/call", body)
	req.ContentLength = 100 << 10
	req.Header.Set("X-API-Key", k)
	rec := httptest.NewRecorder()
	e.srv.Config.Handler.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusRequestEntityTooLarge, rec.Code, rec.Body.String())
	assert.Contains(t, rec.Body.String(), "at most 65536 bytes")
	assert.Zero(t, body.read.Load(), "nothing was read")
}

// Regression (issue 23, finding 4): the request bodies held at once are
// bounded server-wide. While one request holds the whole budget, others
// are refused at once with 503 and a Retry-After (with or without a
// Content-Length); once it ends, they are served.
func TestBodyBudgetBoundsBodiesInFlight(t *testing.T) {
	e := newEnv(t, func(c *envConfig) { c.api.MaxBodyBytesInFlight = 64 << 10 })
	_, k := e.register("acme")

	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.CloseWithError(io.ErrUnexpectedEOF) }) // before the server closes
	held := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("POST", e.srv.URL+"/v1/tools/call", pr)
		req.ContentLength = 64 << 10 // the whole budget
		req.Header.Set("X-API-Key", k)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			held <- 0
			return
		}
		res.Body.Close()
		held <- res.StatusCode
	}()
	_, err := pw.Write([]byte(`{"tool_name":"demo_free","arguments":{"value":"1"}}`))
	require.NoError(t, err)

	small := `{"tool_name":"demo_free","arguments":{"value":"1"}}`
	require.Eventually(t, func() bool {
		status, h, m := e.exchange("POST", "/v1/tools/call", key(k), small)
		return status == http.StatusServiceUnavailable && h.Get("Retry-After") == "1" && m["code"] == "unavailable"
	}, 5*time.Second, 10*time.Millisecond, "a declared body that does not fit is refused")

	chunked, err := http.NewRequest("POST", e.srv.URL+"/v1/tools/call", io.MultiReader(strings.NewReader(small)))
	require.NoError(t, err)
	chunked.ContentLength = -1
	chunked.Header.Set("X-API-Key", k)
	res, err := http.DefaultClient.Do(chunked)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode, "a body without a length reserves as it arrives")

	_, _ = pw.Write([]byte(strings.Repeat(" ", (64<<10)-len(small))))
	require.NoError(t, pw.Close())
	assert.Equal(t, http.StatusOK, <-held)
	status, m := e.do("POST", "/v1/tools/call", key(k), small)
	assert.Equal(t, http.StatusOK, status, m, "the budget came back")
}

// Regression (issue 23, finding 6): a body that does not arrive within
// the server's read timeout is answered 408 and the connection closed;
// before, the cancelled request was answered 200 with an empty body.
func TestSlowBodyGets408(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	srv := httptest.NewUnstartedServer(e.srv.Config.Handler)
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /v1/tools/call HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"tool_name\":", k)
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	assert.Equal(t, http.StatusRequestTimeout, res.StatusCode, "%s", raw)
	assert.JSONEq(t, `{"detail":"Reading the request body timed out: send the whole body promptly","code":"request_timeout"}`, string(raw))
	assert.True(t, res.Close, "the connection is closed")
}

var _ = toolkit.MaxFieldErrors
