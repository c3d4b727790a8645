package bunstore

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/bunstore/bunstoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePostgresTarget(t *testing.T) {
	for _, c := range []struct {
		dsn   string
		urls  []string
		attrs string
		err   string
	}{
		{dsn: "postgres://u@db.example:5433/toolkit?sslmode=disable",
			urls: []string{"postgres://u@db.example:5433/toolkit?sslmode=disable"}, attrs: "any"},
		{dsn: "postgres://u:pw@10.0.0.1,10.0.0.2:5433/toolkit?sslmode=disable&target_session_attrs=read-write",
			urls:  []string{"postgres://u:pw@10.0.0.1:5432/toolkit?sslmode=disable", "postgres://u:pw@10.0.0.2:5433/toolkit?sslmode=disable"},
			attrs: "read-write"},
		{dsn: "postgresql://[::1]:5432,[::1]/t?target_session_attrs=primary",
			urls: []string{"postgresql://[::1]:5432/t", "postgresql://[::1]:5432/t"}, attrs: "primary"},
		{dsn: "postgres://u@a,b?search_path=s1",
			urls: []string{"postgres://u@a:5432?search_path=s1", "postgres://u@b:5432?search_path=s1"}, attrs: "any"},
		{dsn: "postgres://u@a,,b/t", err: "an empty host"},
		{dsn: "postgres://u:secret@a,b/t?target_session_attrs=standby", err: "the store writes"},
		{dsn: "postgres://u@a/t?target_session_attrs=writable", err: "must be any, read-write or primary"},
	} {
		t.Run(c.dsn, func(t *testing.T) {
			got, err := parsePostgresTarget(c.dsn)
			if c.err != "" {
				require.ErrorContains(t, err, c.err)
				assert.NotContains(t, err.Error(), "secret", "no password in errors")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.urls, got.hostURLs)
			assert.Equal(t, c.attrs, got.attrs)
		})
	}
}

// fakeHost is one host of a list: down (Connect fails) or up, with a
// session that answers the target_session_attrs probes.
type fakeHost struct {
	down               bool
	readOnly, recovery bool
	connects           int
}

func (f *fakeHost) Connect(context.Context) (driver.Conn, error) {
	f.connects++
	if f.down {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	}
	return &fakeConn{host: f}, nil
}

func (f *fakeHost) Driver() driver.Driver { return nil }

type fakeConn struct {
	host   *fakeHost
	closed bool
}

func (c *fakeConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("not supported") }
func (c *fakeConn) Close() error                        { c.closed = true; return nil }
func (c *fakeConn) Begin() (driver.Tx, error)           { return nil, errors.New("not supported") }

func (c *fakeConn) QueryContext(_ context.Context, query string, _ []driver.NamedValue) (driver.Rows, error) {
	switch query {
	case "SHOW transaction_read_only":
		return &oneValue{v: map[bool][]byte{true: []byte("on"), false: []byte("off")}[c.host.readOnly]}, nil
	case "SELECT pg_is_in_recovery()":
		return &oneValue{v: c.host.recovery}, nil
	}
	return nil, errors.New("unexpected query " + query)
}

type oneValue struct {
	v    driver.Value
	done bool
}

func (r *oneValue) Columns() []string { return []string{"v"} }
func (r *oneValue) Close() error      { return nil }
func (r *oneValue) Next(dest []driver.Value) error {
	if r.done {
		return io.EOF
	}
	dest[0], r.done = r.v, true
	return nil
}

func TestMultiHostConnectorTakesTheFirstAcceptableHost(t *testing.T) {
	for _, c := range []struct {
		name  string
		attrs string
		hosts []*fakeHost
		want  int // index of the host connected to; -1: none
	}{
		{"first up", sessionReadWrite, []*fakeHost{{}, {}}, 0},
		{"primary down, standby promoted", sessionReadWrite, []*fakeHost{{down: true}, {}}, 1},
		{"primary down, standby not yet promoted", sessionReadWrite, []*fakeHost{{down: true}, {readOnly: true, recovery: true}}, -1},
		{"a standby listed first", sessionReadWrite, []*fakeHost{{readOnly: true, recovery: true}, {}}, 1},
		{"primary: read-only default but not in recovery", sessionPrimary, []*fakeHost{{readOnly: true}}, 0},
		{"primary: standby passed over", sessionPrimary, []*fakeHost{{recovery: true}, {}}, 1},
		{"any: a standby is taken", sessionAny, []*fakeHost{{down: true}, {readOnly: true, recovery: true}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			mc := &multiHostConnector{attrs: c.attrs}
			for i, h := range c.hosts {
				mc.hosts = append(mc.hosts, hostConnector{Connector: h, addr: "host" + string(rune('1'+i)) + ":5432"})
			}
			cn, err := mc.Connect(context.Background())
			if c.want < 0 {
				require.Error(t, err)
				assert.Equal(t, toolkit.Unavailable, toolkit.KindOf(translate("op", err)), "a failover under way is a passing condition")
				assert.Contains(t, err.Error(), "host1:5432: dial tcp: connection refused")
				assert.Contains(t, err.Error(), "host2:5432: the session is read-only")
				return
			}
			require.NoError(t, err)
			assert.Same(t, c.hosts[c.want], cn.(*fakeConn).host)
			for i := c.want + 1; i < len(c.hosts); i++ {
				assert.Zero(t, c.hosts[i].connects, "hosts after the chosen one are not tried")
			}
		})
	}
}

// A refused session's connection is closed, not leaked.
func TestMultiHostConnectorClosesRefusedSessions(t *testing.T) {
	standby := &fakeHost{readOnly: true, recovery: true}
	var opened []*fakeConn
	mc := &multiHostConnector{attrs: sessionReadWrite, hosts: []hostConnector{{Connector: recordingHost{standby, &opened}, addr: "s:5432"}}}
	_, err := mc.Connect(context.Background())
	require.ErrorIs(t, err, errReadOnlySession)
	require.Len(t, opened, 1)
	assert.True(t, opened[0].closed)
}

type recordingHost struct {
	*fakeHost
	opened *[]*fakeConn
}

func (r recordingHost) Connect(ctx context.Context) (driver.Conn, error) {
	cn, err := r.fakeHost.Connect(ctx)
	if err == nil {
		*r.opened = append(*r.opened, cn.(*fakeConn))
	}
	return cn, err
}

// On a real Postgres: a host list whose first host refuses connections
// opens on the second, and read-write accepts the primary.
func TestOpenMultiHostPostgres(t *testing.T) {
	dsn := bunstoretest.PostgresURL(t)
	schema := bunstoretest.FreshSchema(t, dsn)
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now
	q := u.Query()
	q.Set("target_session_attrs", "read-write")
	u.RawQuery = q.Encode()
	multi := strings.Replace(u.String(), "@"+u.Host, "@"+closed+","+u.Host, 1)
	require.NotEqual(t, u.String(), multi)
	s, err := Open(context.Background(), multi, Options{Schema: schema, MaxOpenConns: 2})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Ready(context.Background()))
}
