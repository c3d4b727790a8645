package httpapi

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// TrustedProxy says where the client address is when the API sits behind
// a reverse proxy. The zero value trusts no header: the client address is
// the connection's peer.
type TrustedProxy struct {
	// Header carries the client address set by the proxy, such as
	// "X-Forwarded-For" (a list: the address the nearest untrusted hop
	// added is used) or "X-Real-IP" (one address). Empty: no header.
	Header string
	// Proxies are the peers allowed to set Header. Empty: every peer (only
	// safe when nothing but the proxy can reach the server).
	Proxies []netip.Prefix
}

// trusts reports whether a peer may set the client-address header.
func (p TrustedProxy) trusts(peer netip.Addr) bool {
	if len(p.Proxies) == 0 {
		return true
	}
	for _, pr := range p.Proxies {
		if pr.Contains(peer) {
			return true
		}
	}
	return false
}

// clientAddr returns the client address of r: the peer, or what a trusted
// proxy says. The zero Addr when nothing parses.
func (a *API) clientAddr(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, _ := netip.ParseAddr(host)
	peer = peer.Unmap()
	tp := a.opts.TrustedProxy
	if tp.Header == "" || !peer.IsValid() || !tp.trusts(peer) {
		return peer
	}
	values := r.Header.Values(tp.Header)
	if len(values) == 0 {
		return peer
	}
	// Walk the list from the nearest hop: the first address that is not a
	// trusted proxy is the client (earlier entries are client-supplied).
	hops := strings.Split(strings.Join(values, ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		addr, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return peer // a malformed hop: trust nothing beyond the peer
		}
		addr = addr.Unmap()
		if i == 0 || len(tp.Proxies) == 0 || !tp.trusts(addr) {
			return addr
		}
	}
	return peer
}

// clientNetwork is the key under which a client is rate limited and
// reported: its IPv4 address, or the /64 network of its IPv6 address (one
// subscriber usually holds a whole /64).
func clientNetwork(addr netip.Addr) string {
	switch {
	case !addr.IsValid():
		return "unknown"
	case addr.Is4():
		return addr.String()
	default:
		p, _ := addr.Prefix(64)
		return p.String()
	}
}
