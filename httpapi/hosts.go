package httpapi

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agentfinance/toolkit"
)

// defaultAllowedHosts are served when Options.AllowedHosts is empty.
var defaultAllowedHosts = []string{"localhost", "127.0.0.1", "::1"}

// allowedHosts normalises Options.AllowedHosts (host names or host:port,
// compared without the port and case-insensitively) and adds the host of
// Options.BaseURL.
func allowedHosts(opts Options) []string {
	hosts := opts.AllowedHosts
	if len(hosts) == 0 {
		hosts = defaultAllowedHosts
	}
	out := make([]string, 0, len(hosts)+1)
	for _, h := range hosts {
		out = append(out, hostOnly(h))
	}
	if u, err := url.Parse(opts.BaseURL); err == nil && u.Host != "" {
		out = append(out, hostOnly(u.Host))
	}
	return out
}

// hostOnly strips a port and brackets and lowers the case.
func hostOnly(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	return strings.ToLower(strings.Trim(h, "[]"))
}

// checkHost refuses a request whose Host header is not one of the allowed
// hosts: the guard against DNS rebinding (MCP) and against documents that
// would point clients, and their API keys, at a host an attacker chose.
func (a *API) checkHost(r *http.Request) error {
	if slices.Contains(a.hosts, "*") || slices.Contains(a.hosts, hostOnly(r.Host)) {
		return nil
	}
	return toolkit.Errorf(toolkit.Forbidden,
		"Host %q is not served here; the operator can add it to the allowed hosts (-allowed-hosts) or set the public base URL (-base-url)", r.Host)
}

// baseURL is Options.BaseURL, or the request's own scheme and Host (and
// the mount prefix) when that host is allowed.
func (a *API) baseURL(r *http.Request) (string, error) {
	if a.opts.BaseURL != "" {
		return strings.TrimSuffix(a.opts.BaseURL, "/"), nil
	}
	if err := a.checkHost(r); err != nil {
		return "", err
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + a.prefix, nil
}
