package agents

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
)

// WalletChallengeWindow is how far the timestamp of a signed wallet message
// may lie from server time, in either direction (spec: within 5 minutes).
const WalletChallengeWindow = 5 * time.Minute

// DefaultWalletService is the service name in wallet messages when none is
// configured.
const DefaultWalletService = "aft"

// maxWalletServiceLen bounds the configured service name.
const maxWalletServiceLen = 32

// The purposes of a wallet message: the second half of its first part.
const (
	purposeAuth = "auth" // register-wallet: "<service>-auth:<wallet>:<ts>"
	purposeLink = "link" // link-wallet: "<service>-link:<agent_id>:<wallet>:<ts>"
)

// WalletAuth builds and checks the exact texts a wallet signs:
//
//	register-wallet: <service>-auth:<wallet_address>:<unix seconds>
//	link-wallet:     <service>-link:<agent_id>:<wallet_address>:<unix seconds>
//
// Each text is parsed field by field (never matched by substring): the
// purpose must be this service's, the wallet and agent parts must equal the
// request's, and the timestamp (plain decimal unix seconds, no sign or
// leading zeros) must be within WalletChallengeWindow of server time.
type WalletAuth struct {
	service string
}

// NewWalletAuth returns a WalletAuth for a service name of 1 to 32
// characters from [A-Za-z0-9._-] ("" means DefaultWalletService).
func NewWalletAuth(service string) (*WalletAuth, error) {
	if service == "" {
		service = DefaultWalletService
	}
	if len(service) > maxWalletServiceLen {
		return nil, fmt.Errorf("agents: wallet service name longer than %d characters", maxWalletServiceLen)
	}
	for _, c := range service {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return nil, fmt.Errorf("agents: wallet service name %q may contain only letters, digits, '.', '_' and '-'", service)
		}
	}
	return &WalletAuth{service: service}, nil
}

// Service returns the service name used in messages.
func (a *WalletAuth) Service() string { return a.service }

// AuthChallenge returns the register-wallet challenge for wallet at time at.
func (a *WalletAuth) AuthChallenge(wallet WalletAddress, at time.Time) string {
	return fmt.Sprintf("%s-%s:%s:%d", a.service, purposeAuth, wallet, at.Unix())
}

// LinkMessage returns the link-wallet message binding wallet to agentID at
// time at.
func (a *WalletAuth) LinkMessage(agentID string, wallet WalletAddress, at time.Time) string {
	return fmt.Sprintf("%s-%s:%s:%s:%d", a.service, purposeLink, agentID, wallet, at.Unix())
}

// WalletMessage is a parsed wallet message.
type WalletMessage struct {
	// Purpose is "auth" (register-wallet) or "link" (link-wallet).
	Purpose string
	// AgentID is the agent being linked ("" for auth).
	AgentID string
	// Wallet is the wallet address text as signed.
	Wallet string
	// SignedAt is the message's timestamp.
	SignedAt time.Time
}

// ParseWalletMessage parses s as one of this service's wallet messages.
// field names the request field in the error (toolkit.Invalid).
func (a *WalletAuth) ParseWalletMessage(field, s string) (WalletMessage, error) {
	var m WalletMessage
	if s == "" {
		return m, invalid("%s: required (the exact signed text)", field)
	}
	if len(s) > MaxWalletMessageLen {
		return m, invalid("%s: at most %d bytes", field, MaxWalletMessageLen)
	}
	parts := strings.Split(s, ":")
	var ts string
	switch {
	case parts[0] == a.service+"-"+purposeAuth && len(parts) == 3:
		m.Purpose, m.Wallet, ts = purposeAuth, parts[1], parts[2]
	case parts[0] == a.service+"-"+purposeLink && len(parts) == 4:
		m.Purpose, m.AgentID, m.Wallet, ts = purposeLink, parts[1], parts[2], parts[3]
	default:
		return m, invalid("%s: must be %q or %q", field,
			a.service+"-auth:<wallet_address>:<unix seconds>", a.service+"-link:<agent_id>:<wallet_address>:<unix seconds>")
	}
	at, err := parseUnixSeconds(field, ts)
	if err != nil {
		return m, err
	}
	m.SignedAt = at
	return m, nil
}

// CheckAuthChallenge parses s as a register-wallet challenge and checks its
// wallet part against wallet and its timestamp against now.
func (a *WalletAuth) CheckAuthChallenge(field, s string, wallet WalletAddress, now time.Time) (WalletMessage, error) {
	if !a.hasShape(s, purposeAuth) {
		return WalletMessage{}, invalid("%s: must be exactly %q (the current unix time in seconds)", field,
			fmt.Sprintf("%s-%s:%s:<unix seconds>", a.service, purposeAuth, wallet))
	}
	m, err := a.ParseWalletMessage(field, s)
	if err != nil {
		return m, err
	}
	if m.Wallet != wallet.String() {
		return m, invalid("%s: its wallet part is not the wallet_address of the request", field)
	}
	return m, checkWindow(field, m.SignedAt, now)
}

// CheckLinkMessage parses s as a link-wallet message and checks its agent
// and wallet parts against agentID and wallet and its timestamp against now.
func (a *WalletAuth) CheckLinkMessage(field, s, agentID string, wallet WalletAddress, now time.Time) (WalletMessage, error) {
	if !a.hasShape(s, purposeLink) {
		return WalletMessage{}, invalid("%s: must be exactly %q (the current unix time in seconds)", field,
			fmt.Sprintf("%s-%s:%s:%s:<unix seconds>", a.service, purposeLink, agentID, wallet))
	}
	m, err := a.ParseWalletMessage(field, s)
	if err != nil {
		return m, err
	}
	if m.AgentID != agentID {
		return m, invalid("%s: names agent %s, not the calling agent %s", field, quoted(m.AgentID, 40), agentID)
	}
	if m.Wallet != wallet.String() {
		return m, invalid("%s: its wallet part is not the solana_wallet_address of the request", field)
	}
	return m, checkWindow(field, m.SignedAt, now)
}

// hasShape reports whether s starts with this service's purpose prefix and
// has the purpose's number of parts.
func (a *WalletAuth) hasShape(s, purpose string) bool {
	parts := 3
	if purpose == purposeLink {
		parts = 4
	}
	return strings.HasPrefix(s, a.service+"-"+purpose+":") && strings.Count(s, ":") == parts-1
}

// parseUnixSeconds parses a canonical decimal count of seconds: 1 to 12
// digits, no sign, no leading zeros (so one moment has one text, and one
// digest).
func parseUnixSeconds(field, s string) (time.Time, error) {
	const maxDigits = 12
	if len(s) == 13 && allDigits(s) {
		return time.Time{}, invalid("%s: the timestamp must be unix seconds, not milliseconds", field)
	}
	if s == "" || len(s) > maxDigits || !allDigits(s) || (len(s) > 1 && s[0] == '0') {
		return time.Time{}, invalid("%s: the timestamp must be unix seconds in plain digits", field)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, invalid("%s: the timestamp must be unix seconds in plain digits", field)
	}
	return time.Unix(n, 0).UTC(), nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// errOutsideWindow is the cause of a wallet message whose timestamp is
// outside WalletChallengeWindow (a security event: an old signature
// replayed, or a client clock far off).
var errOutsideWindow = errors.New("agents: wallet message outside its time window")

// checkWindow enforces |now − at| ≤ WalletChallengeWindow.
func checkWindow(field string, at, now time.Time) error {
	d := now.Sub(at)
	if d > WalletChallengeWindow || d < -WalletChallengeWindow {
		return &toolkit.Error{Kind: toolkit.Invalid, Err: errOutsideWindow, Msg: fmt.Sprintf(
			"%s: the timestamp %d is %d seconds from server time %d; it must be within %d minutes (sign a fresh message)",
			field, at.Unix(), int64(d.Abs()/time.Second), now.Unix(), int(WalletChallengeWindow/time.Minute))}
	}
	return nil
}
