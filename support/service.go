package support

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/cryptovault"
)

// Config configures a Service. Vault is required; zero fields take
// defaults.
type Config struct {
	// Vault seals what agents write before it is stored.
	Vault *cryptovault.Vault
	// Now returns the current time (default time.Now).
	Now func() time.Time
	// Random is the source of record ids (default crypto/rand).
	Random io.Reader
}

// Service is the support desk.
type Service struct {
	store  Store
	vault  *cryptovault.Vault
	now    func() time.Time
	random io.Reader
}

// NewService returns a Service over store.
func NewService(store Store, cfg Config) (*Service, error) {
	if store == nil {
		return nil, errors.New("support: a Store is required")
	}
	if cfg.Vault == nil {
		return nil, errors.New("support: a Vault is required: support records are sealed at rest")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	return &Service{store: store, vault: cfg.Vault, now: cfg.Now, random: cfg.Random}, nil
}

// timestamp is the current time as stored: UTC, microseconds (the
// precision of both databases).
func (s *Service) timestamp() time.Time {
	return s.now().UTC().Truncate(time.Microsecond)
}

// newID returns a record id with prefix (toolkit.NewID).
func (s *Service) newID(prefix string) (string, error) {
	return toolkit.NewID(s.random, prefix)
}

// validRecordID reports whether id has the shape of an id made by newID.
func validRecordID(id string) bool {
	prefix, _, ok := strings.Cut(id, "_")
	if !ok || len(prefix) == 0 || len(prefix) > 8 || strings.Trim(prefix, toolkit.IDAlphabet) != "" {
		return false
	}
	return toolkit.ValidID(prefix+"_", id)
}

// Ticket references.
const (
	ticketRefPrefix = "SR-"
	ticketRefDigits = 6  // at least; larger numbers take more digits
	maxTicketRefLen = 22 // "SR-" + the 19 digits of the largest int64
)

// TicketRef formats a ticket number as its reference, e.g. 142 ->
// "SR-000142".
func TicketRef(number int64) string {
	return fmt.Sprintf("%s%0*d", ticketRefPrefix, ticketRefDigits, number)
}

// ParseTicketRef parses a ticket reference made by TicketRef. Anything
// else is toolkit.Invalid naming the ticket_id field.
func ParseTicketRef(ref string) (int64, error) {
	digits, ok := strings.CutPrefix(ref, ticketRefPrefix)
	if ok && len(ref) <= maxTicketRefLen && len(digits) >= ticketRefDigits {
		n, err := strconv.ParseInt(digits, 10, 64)
		if err == nil && n > 0 && TicketRef(n) == ref {
			return n, nil
		}
	}
	return 0, invalid("ticket_id: must be a ticket reference like SR-000142 (got %s)", quoteShort(ref))
}

// quoteShort quotes a client-supplied value for a message, cut to 40
// bytes.
func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}
