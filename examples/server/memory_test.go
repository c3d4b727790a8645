//go:build memory

// The memory suite (issue 23, item 7): the reference server runs as its own
// process and one sandbox agent attacks it from many concurrent clients
// with each payload of the issue; the server's peak resident memory
// (VmHWM in /proc/<pid>/status) must stay under 400 MiB and the server
// must answer afterwards. It prints the figures:
//
//	go test -tags memory -run Memory -v ./examples/server
//
// TOOLKIT_MEMORY_SERVER names a server binary to measure instead of one
// built from this tree (to measure another version). .ci/run runs the
// suite time-boxed.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// peakLimit is the most resident memory the server may reach under any
// attack; killAt ends a server far past it, to spare the machine.
const (
	peakLimit = 400 << 20
	killAt    = 2 << 30
)

// memServer is the reference server running as a child process.
type memServer struct {
	cmd    *exec.Cmd
	base   string
	out    bytes.Buffer
	mu     sync.Mutex
	peak   int64 // the highest VmRSS sampled, in bytes
	killed bool
	done   chan struct{}
}

// serverBinary builds the reference server once per run (or takes
// TOOLKIT_MEMORY_SERVER).
var serverBinary = sync.OnceValues(func() (string, error) {
	if bin := os.Getenv("TOOLKIT_MEMORY_SERVER"); bin != "" {
		return bin, nil
	}
	dir, err := os.MkdirTemp("", "toolkit-memory")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "server")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v: %s", err, out)
	}
	return bin, nil
})

// startMemServer starts a fresh server (its own database and keys) and
// samples its resident memory until it ends.
func startMemServer(t *testing.T) *memServer {
	t.Helper()
	bin, err := serverBinary()
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	dir := t.TempDir()
	s := &memServer{base: "http://" + addr, done: make(chan struct{})}
	s.cmd = exec.Command(bin, "-addr", addr, "-db", filepath.Join(dir, "toolkit.db"), "-keys", filepath.Join(dir, "keys.json"),
		"-metrics-addr", "off", "-rate-key", "off", "-rate-ip", "off", "-rate-register", "off")
	s.cmd.Env = append(os.Environ(), "TOOLKIT_ADMIN_KEY="+testAdminKey)
	s.cmd.Stdout, s.cmd.Stderr = &lockedWriter{w: &s.out, mu: &s.mu}, &lockedWriter{w: &s.out, mu: &s.mu}
	require.NoError(t, s.cmd.Start())
	go s.sample()
	t.Cleanup(s.stop)
	for i := 0; ; i++ {
		if res, err := http.Get(s.base + "/healthz"); err == nil {
			res.Body.Close()
			break
		}
		require.Less(t, i, 200, "the server never answered")
		time.Sleep(50 * time.Millisecond)
	}
	return s
}

// lockedWriter serializes the server's output into one buffer.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// sample reads the server's VmRSS every 20 ms, keeps the highest, and
// kills a server past killAt.
func (s *memServer) sample() {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
		rss, err := statusBytes(s.cmd.Process.Pid, "VmRSS")
		if err != nil {
			continue
		}
		s.mu.Lock()
		s.peak = max(s.peak, rss)
		if rss > killAt && !s.killed {
			s.killed = true
			_ = s.cmd.Process.Kill()
		}
		s.mu.Unlock()
	}
}

// peakRSS is the server's high-water mark of resident memory: VmHWM, or
// the highest sample of a server that was killed.
func (s *memServer) peakRSS() (int64, bool) {
	hwm, err := statusBytes(s.cmd.Process.Pid, "VmHWM")
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil || s.killed {
		return s.peak, s.killed
	}
	return max(hwm, s.peak), false
}

func (s *memServer) stop() {
	select {
	case <-s.done:
		return
	default:
	}
	close(s.done)
	_ = s.cmd.Process.Signal(os.Interrupt)
	exited := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-exited
	}
}

// statusBytes reads a "<field>: <n> kB" line of /proc/<pid>/status.
func statusBytes(pid int, field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("%s: no %s", f.Name(), field)
}

// attacker is the attacking agent: one sandbox key, many connections.
type attacker struct {
	base, key string
	http      *http.Client
}

func newAttacker(t *testing.T, s *memServer) *attacker {
	t.Helper()
	c := &attacker{base: s.base, http: &http.Client{Timeout: 3 * time.Minute,
		Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}}}
	status, body := c.post("/v1/agents/register", nil, `{"owner_id":"memory","agent_name":"bot","agent_type":"trading"}`)
	require.Equal(t, http.StatusCreated, status, body)
	var reg struct {
		APIKey string `json:"api_key"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &reg))
	c.key = reg.APIKey
	status, body = c.post("/v1/billing/deposit", nil, `{"amount":"100","funding_path":"direct_transfer"}`)
	require.Equal(t, http.StatusOK, status, body)
	return c
}

// post sends a body and returns the status and at most 1 KiB of the
// answer (the rest is drained).
func (c *attacker) post(path string, headers map[string]string, body string) (int, string) {
	status, _, answer := c.send(path, headers, strings.NewReader(body))
	return status, answer
}

// send sends body, with a Content-Length when it is a *strings.Reader.
func (c *attacker) send(path string, headers map[string]string, body io.Reader) (int, http.Header, string) {
	req, err := http.NewRequest("POST", c.base+path, body)
	if err != nil {
		return 0, nil, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.key != "" {
		req.Header.Set("X-API-Key", c.key)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err.Error()
	}
	defer res.Body.Close()
	head, _ := io.ReadAll(io.LimitReader(res.Body, 1<<10))
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode, res.Header, string(head)
}

// mcpSession opens a streamable MCP session of protocol version and
// returns its headers.
func (c *attacker) mcpSession(t *testing.T, version string) map[string]string {
	t.Helper()
	status, h, body := c.send("/mcp", nil, strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+
		version+`","capabilities":{},"clientInfo":{"name":"memory-suite","version":"1"}}}`))
	require.Equal(t, http.StatusOK, status, body)
	headers := map[string]string{"Mcp-Session-Id": h.Get("Mcp-Session-Id"), "MCP-Protocol-Version": version}
	status, body = c.post("/mcp", headers, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Less(t, status, 300, body)
	return headers
}

// attack is one payload of the issue, sent by `clients` concurrent
// clients of one key.
type attack struct {
	name    string
	clients int
	// prepare runs before the measured part (sessions, say) and returns
	// what each request needs.
	prepare func(t *testing.T, c *attacker) []map[string]string
	path    string
	body    func() string
	// chunked sends the body without a Content-Length.
	chunked bool
	// refused, when set, lists the statuses every request must get: the
	// payload's refusal, and 503 where the body budget is spent first.
	refused []int
}

// bars is a calculate_indicators call just under the 8 MiB body cap.
func bars() string {
	return `{"tool_name":"calculate_indicators","arguments":{"indicator":"macd","bars":[` +
		repeatJoin(`{"open":"101.25","high":"102.75","low":"100.5","close":"101.875","volume":"123456.5"}`, 95_000, ",") + `]}}`
}

func repeatJoin(item string, n int, sep string) string {
	return strings.TrimSuffix(strings.Repeat(item+sep, n), sep)
}

var attacks = []attack{
	{name: "mcp batch of tools/list, 200 KB", clients: 16, path: "/mcp",
		prepare: oldSessions, // the SDK answers batches up to protocol version 2025-03-26
		body: func() string {
			return "[" + repeatJoin(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 4500, ",") + "]"
		}, refused: []int{http.StatusBadRequest}},
	{name: "mcp tools/call with an 8 MB _meta", clients: 16, path: "/mcp",
		prepare: sessions,
		body: func() string {
			return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculate_pnl","arguments":{},"_meta":{"pad":[` +
				repeatJoin(`{"k":"v"}`, 800_000, ",") + `]}}}`
		}, refused: []int{http.StatusBadRequest, http.StatusServiceUnavailable}},
	{name: "mcp initialize with 8 MB capabilities", clients: 16, path: "/mcp",
		body: func() string {
			return `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"m","version":"1"},` +
				`"capabilities":{"experimental":{"pad":[` + repeatJoin(`{"k":"v"}`, 800_000, ",") + `]}}}}`
		}, refused: []int{http.StatusBadRequest, http.StatusServiceUnavailable}},
	{name: "mcp tools/call of 8 MB (95,000 bars)", clients: 16, path: "/mcp", prepare: sessions,
		body: func() string {
			return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculate_indicators","arguments":` +
				strings.TrimSuffix(strings.TrimPrefix(bars(), `{"tool_name":"calculate_indicators","arguments":`), "}") + `}}`
		}},
	{name: "tools/call with 200,000 argument keys", clients: 16, path: "/v1/tools/call",
		body: func() string {
			var sb strings.Builder
			sb.WriteString(`{"tool_name":"calculate_pnl","arguments":{"k0":1`)
			for i := 1; i < 200_000; i++ {
				fmt.Fprintf(&sb, `,"k%d":1`, i)
			}
			sb.WriteString("}}")
			return sb.String()
		}},
	{name: "48 bodies over the 8 MiB cap", clients: 48, path: "/v1/tools/call",
		body: func() string {
			return `{"tool_name":"calculate_pnl","arguments":{"pad":"` + strings.Repeat("x", 9<<20) + `"}}`
		}},
	{name: "48 tool calls of 8 MB (95,000 bars)", clients: 48, path: "/v1/tools/call", body: bars},
	{name: "48 tool calls of 8 MB, no Content-Length", clients: 48, path: "/v1/tools/call", body: bars, chunked: true},
	{name: "analyze_greeks with 80,000 options", clients: 16, path: "/v1/tools/call",
		body: func() string {
			return `{"tool_name":"analyze_greeks","arguments":{"underlying_price":"185.5","as_of":"2024-02-15","chain":[` +
				repeatJoin(`{"symbol":"AAPL240315C00185000","strike":"185","expiration":"2024-03-15","option_type":"CALL","implied_volatility":"0.25"}`, 80_000, ",") + `]}}`
		}},
}

// sessions opens an MCP session of the current protocol version.
func sessions(t *testing.T, c *attacker) []map[string]string {
	return []map[string]string{c.mcpSession(t, "2025-06-18")}
}

// oldSessions opens an MCP session of protocol version 2025-03-26, whose
// clients may send batches.
func oldSessions(t *testing.T, c *attacker) []map[string]string {
	return []map[string]string{c.mcpSession(t, "2025-03-26")}
}

// TestMemoryUnderAttack runs every attack against a fresh server and
// checks its peak resident memory and that it still answers.
func TestMemoryUnderAttack(t *testing.T) {
	var report []string
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			s := startMemServer(t)
			c := newAttacker(t, s)
			headers := make([]map[string]string, a.clients)
			for i := range headers {
				if a.prepare != nil {
					headers[i] = a.prepare(t, c)[0]
				}
			}
			before, _ := s.peakRSS()
			body := a.body()
			statuses := map[int]int{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			start := time.Now()
			for i := range a.clients {
				wg.Go(func() {
					var r io.Reader = strings.NewReader(body)
					if a.chunked {
						r = io.MultiReader(r) // hides the length
					}
					status, _, _ := c.send(a.path, headers[i], r)
					mu.Lock()
					statuses[status]++
					mu.Unlock()
				})
			}
			wg.Wait()
			took := time.Since(start)
			peak, killed := s.peakRSS()
			line := fmt.Sprintf("%-40s clients %2d  body %6.2f MB  peak RSS %6.0f MiB (before %4.0f)  %6.2fs  statuses %v",
				a.name, a.clients, float64(len(body))/1e6, float64(peak)/(1<<20), float64(before)/(1<<20), took.Seconds(), statuses)
			if killed {
				line += "  KILLED past " + strconv.Itoa(killAt>>20) + " MiB"
			}
			t.Log(line)
			report = append(report, line)
			assert.False(t, killed, "the server was killed past %d MiB", killAt>>20)
			assert.Less(t, peak, int64(peakLimit), "peak RSS")
			if a.refused != nil {
				for status := range statuses {
					assert.Contains(t, a.refused, status, "every request is refused")
				}
			}
			if !killed {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				req, _ := http.NewRequestWithContext(ctx, "GET", s.base+"/v1/billing/balance", nil)
				req.Header.Set("X-API-Key", c.key)
				res, err := http.DefaultClient.Do(req)
				require.NoError(t, err, "the server still answers")
				res.Body.Close()
				assert.Equal(t, http.StatusOK, res.StatusCode, "the server still answers")
			}
		})
	}
	fmt.Println("\nmemory suite (peak RSS limit " + strconv.Itoa(peakLimit>>20) + " MiB):\n" + strings.Join(report, "\n"))
}
