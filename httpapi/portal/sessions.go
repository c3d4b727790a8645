package portal

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"sync"
	"time"
)

// cookieName is the session cookie.
const cookieName = "aft_portal"

// maxSessions bounds the sessions kept in memory; past it the least
// recently used one ends.
const maxSessions = 10_000

// session is one signed-in browser.
type session struct {
	// csrf is the token every write must carry.
	csrf string
	// operator sessions were opened with the admin key; owner sessions
	// with an owner key, whose keyed hash they keep.
	operator     bool
	ownerID      string
	ownerKeyHash []byte
	lastSeen     time.Time
	// flash is a message shown once on the next page.
	flash flash
}

// flash is a one-time message.
type flash struct {
	Text  string
	Error bool
}

// sessionStore keeps the sessions of this process by the SHA-256 of their
// token (a memory dump does not hand out usable cookies).
type sessionStore struct {
	mu   sync.Mutex
	byID map[string]*session
	now  func() time.Time
	idle time.Duration
	max  int
}

func newSessionStore(now func() time.Time, idle time.Duration, max int) *sessionStore {
	return &sessionStore{byID: map[string]*session{}, now: now, idle: idle, max: max}
}

func tokenID(token string) string {
	d := sha256.Sum256([]byte(token))
	return hex.EncodeToString(d[:])
}

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

// create stores s and returns its token.
func (st *sessionStore) create(s *session) string {
	token := randomToken()
	s.csrf, s.lastSeen = randomToken(), st.now()
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.byID) >= st.max {
		st.evictLocked()
	}
	st.byID[tokenID(token)] = s
	return token
}

// evictLocked ends expired sessions, or the least recently used one.
func (st *sessionStore) evictLocked() {
	now := st.now()
	var oldestID string
	var oldest time.Time
	for id, s := range st.byID {
		if now.Sub(s.lastSeen) > st.idle {
			delete(st.byID, id)
			continue
		}
		if oldestID == "" || s.lastSeen.Before(oldest) {
			oldestID, oldest = id, s.lastSeen
		}
	}
	if len(st.byID) >= st.max {
		delete(st.byID, oldestID)
	}
}

// get returns a copy of the token's live session and marks it used.
func (st *sessionStore) get(token string) (session, bool) {
	if token == "" {
		return session{}, false
	}
	id := tokenID(token)
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.byID[id]
	if !ok {
		return session{}, false
	}
	now := st.now()
	if now.Sub(s.lastSeen) > st.idle {
		delete(st.byID, id)
		return session{}, false
	}
	s.lastSeen = now
	out := *s
	s.flash = flash{}
	return out, true
}

// setFlash leaves a message for the session's next page.
func (st *sessionStore) setFlash(token string, f flash) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s, ok := st.byID[tokenID(token)]; ok {
		s.flash = f
	}
}

// end ends one session.
func (st *sessionStore) end(token string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	delete(st.byID, tokenID(token))
}

// endOwner ends every session of an owner (after an owner key rotation).
func (st *sessionStore) endOwner(ownerID string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for id, s := range st.byID {
		if !s.operator && s.ownerID == ownerID {
			delete(st.byID, id)
		}
	}
}

// validCSRF compares a submitted token with the session's in constant time.
func (s session) validCSRF(got string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.csrf)) == 1
}

// setCookie sends the session cookie: HttpOnly, SameSite=Strict, scoped
// to the portal, Secure under TLS (or when configured).
func (h *Handler) setCookie(w http.ResponseWriter, r *http.Request, token string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: token, Path: Prefix, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil || h.cfg.SecureCookies, MaxAge: maxAge})
}

// cookieToken is the request's session token ("" without one).
func cookieToken(r *http.Request) string {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return ""
	}
	return c.Value
}
