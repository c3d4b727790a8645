package bunstore

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/uptrace/bun/driver/pgdriver"
)

// Multi-host PostgreSQL URLs. pgdriver reads one host from a URL; libpq
// also accepts several, postgres://user@h1:5432,h2:5433/db, trying them in
// order for every new connection and keeping the first whose session
// target_session_attrs accepts. With a primary and a standby listed and
// target_session_attrs=read-write, the store's connections follow a
// promotion by themselves: the dead primary refuses, the standby is
// refused while it is read-only, and it is taken once promoted.

// The values of target_session_attrs the store accepts: it writes, so a
// read-only session is never what it wants.
const (
	sessionAny       = "any"
	sessionReadWrite = "read-write"
	sessionPrimary   = "primary"
)

// postgresTarget is a Postgres URL split into its hosts.
type postgresTarget struct {
	// hostURLs are the URL once per host, in the order given, without
	// target_session_attrs (pgdriver would send it as a SET).
	hostURLs []string
	// hosts are the host:port of each, for error messages.
	hosts []string
	// attrs is target_session_attrs: any (default), read-write or primary.
	attrs string
}

// parsePostgresTarget splits a postgres:// URL naming one host or several
// (comma-separated, each with an optional port, default 5432) and reads
// target_session_attrs.
func parsePostgresTarget(dsn string) (postgresTarget, error) {
	scheme, rest, ok := strings.Cut(dsn, "://")
	if !ok {
		return postgresTarget{}, fmt.Errorf("postgres URL %q: no scheme", redact(dsn))
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	userinfo, hostPart := "", authority
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		userinfo, hostPart = authority[:at+1], authority[at+1:]
	}
	u, err := url.Parse(scheme + "://x" + tail)
	if err != nil {
		return postgresTarget{}, fmt.Errorf("postgres URL %q: %w", redact(dsn), err)
	}
	q := u.Query()
	attrs := q.Get("target_session_attrs")
	switch attrs {
	case "":
		attrs = sessionAny
	case sessionAny, sessionReadWrite, sessionPrimary:
	case "read-only", "standby", "prefer-standby":
		return postgresTarget{}, fmt.Errorf("target_session_attrs=%s: the store writes, so it takes any, read-write or primary", attrs)
	default:
		return postgresTarget{}, fmt.Errorf("target_session_attrs=%q: must be any, read-write or primary", attrs)
	}
	q.Del("target_session_attrs")
	u.RawQuery = q.Encode()
	tail = strings.TrimPrefix(u.String(), scheme+"://x")
	var t postgresTarget
	t.attrs = attrs
	for h := range strings.SplitSeq(hostPart, ",") {
		if h == "" && hostPart != "" {
			return postgresTarget{}, fmt.Errorf("postgres URL %q: an empty host in the host list", redact(dsn))
		}
		if _, _, err := net.SplitHostPort(h); err != nil && h != "" {
			h = net.JoinHostPort(strings.Trim(h, "[]"), "5432")
		}
		t.hosts = append(t.hosts, h)
		t.hostURLs = append(t.hostURLs, scheme+"://"+userinfo+h+tail)
	}
	return t, nil
}

// redact hides a password in a URL for an error message.
func redact(dsn string) string {
	if i := strings.Index(dsn, "://"); i >= 0 {
		if at := strings.LastIndex(dsn, "@"); at > i {
			if colon := strings.Index(dsn[i+3:at], ":"); colon >= 0 {
				return dsn[:i+3+colon+1] + "xxxxx" + dsn[at:]
			}
		}
	}
	return dsn
}

// postgresConnector returns the connector of a Postgres URL: pgdriver's
// own for one host and any session, otherwise one that tries each host in
// turn (see multiHostConnector). opts apply to every host.
func postgresConnector(dsn string, opts ...pgdriver.Option) (driver.Connector, error) {
	t, err := parsePostgresTarget(dsn)
	if err != nil {
		return nil, err
	}
	if len(t.hostURLs) == 1 && t.attrs == sessionAny {
		return pgdriver.NewConnector(append([]pgdriver.Option{pgdriver.WithDSN(dsn)}, opts...)...), nil
	}
	c := &multiHostConnector{attrs: t.attrs}
	for i, hostURL := range t.hostURLs {
		c.hosts = append(c.hosts, hostConnector{addr: t.hosts[i],
			Connector: pgdriver.NewConnector(append([]pgdriver.Option{pgdriver.WithDSN(hostURL)}, opts...)...)})
	}
	return c, nil
}

// hostConnector connects to one host of a list.
type hostConnector struct {
	driver.Connector
	addr string
}

// multiHostConnector opens each new connection on the first host, in the
// order of the URL, that answers and whose session attrs accepts, as
// libpq does. It holds no state between connections: after a failover
// the next connection finds the new primary.
type multiHostConnector struct {
	hosts []hostConnector
	attrs string
}

var _ driver.Connector = (*multiHostConnector)(nil)

// Connect returns a connection to the first acceptable host; when there
// is none, a *noHostError naming why each was passed over.
func (c *multiHostConnector) Connect(ctx context.Context) (driver.Conn, error) {
	var errs []error
	for _, h := range c.hosts {
		cn, err := h.Connect(ctx)
		if err == nil {
			if err = acceptSession(ctx, cn, c.attrs); err == nil {
				return cn, nil
			}
			_ = cn.Close()
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		errs = append(errs, fmt.Errorf("%s: %w", h.addr, err))
	}
	return nil, &noHostError{attrs: c.attrs, err: errors.Join(errs...)}
}

// Driver returns pgdriver's driver.
func (c *multiHostConnector) Driver() driver.Driver { return c.hosts[0].Driver() }

// errReadOnlySession passes over a host whose session is read-only (a
// standby, or default_transaction_read_only on) for read-write.
var errReadOnlySession = errors.New("the session is read-only")

// errStandby passes over a host in recovery (a standby) for primary.
var errStandby = errors.New("the server is in recovery (a standby)")

// acceptSession reports whether cn's session is what attrs asks for:
// read-write asks transaction_read_only = off (as libpq does), primary
// asks pg_is_in_recovery() = false.
func acceptSession(ctx context.Context, cn driver.Conn, attrs string) error {
	query, refused := "SHOW transaction_read_only", "on"
	wrong := errReadOnlySession
	switch attrs {
	case sessionAny:
		return nil
	case sessionPrimary:
		query, refused, wrong = "SELECT pg_is_in_recovery()", "true", errStandby
	}
	q, ok := cn.(driver.QueryerContext)
	if !ok {
		return fmt.Errorf("bunstore: the driver cannot check target_session_attrs")
	}
	rows, err := q.QueryContext(ctx, query, nil)
	if err != nil {
		return err
	}
	defer rows.Close()
	v := make([]driver.Value, 1)
	if err := rows.Next(v); err != nil {
		return err
	}
	text := fmt.Sprint(v[0])
	if b, ok := v[0].([]byte); ok {
		text = string(b)
	}
	if text == refused {
		return wrong
	}
	return nil
}

// noHostError is a connection that no host of a multi-host URL could
// give: a passing condition (a failover under way), so the store answers
// toolkit.Unavailable.
type noHostError struct {
	attrs string
	err   error
}

// Error says why each host was passed over.
func (e *noHostError) Error() string {
	return fmt.Sprintf("no host gave a %s session: %v", e.attrs, strings.ReplaceAll(e.err.Error(), "\n", "; "))
}

// Unwrap returns each host's error.
func (e *noHostError) Unwrap() error { return e.err }
