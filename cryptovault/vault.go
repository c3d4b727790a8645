// Package cryptovault encrypts sensitive fields per agent and computes keyed
// hashes for lookups on them.
//
// Each field is sealed with the agent's own AEAD key (see KeyManager) and
// associated data that names the agent and the field, so a ciphertext moved
// to another row, another column or another agent fails to open. A failed
// Open is reported as an integrity failure (ErrTampered) and to an optional
// TamperObserver.
//
// Values that must be found again, or kept unique, while stored sealed (a
// deposit's transaction signature, a wallet address) get a keyed hash
// column next to the ciphertext: Vault.Hash is deterministic and does not
// change when the encryption keys rotate.
//
// The package holds no keys and imports no crypto library beyond the
// standard one: a KeyManager adapter (adapters/tinkkeys) provides them.
package cryptovault

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentfinance/toolkit"
)

// AEAD is authenticated encryption with associated data. tink.AEAD has this
// method set, so a Tink primitive satisfies it without this package
// importing Tink. Implementations must be safe for concurrent use.
type AEAD interface {
	// Encrypt seals plaintext, authenticating associatedData with it.
	Encrypt(plaintext, associatedData []byte) ([]byte, error)
	// Decrypt opens ciphertext; it fails unless ciphertext is unmodified
	// output of Encrypt under the same key and associatedData.
	Decrypt(ciphertext, associatedData []byte) ([]byte, error)
}

// KeyManager is the port a key adapter implements. Implementations must be
// safe for concurrent use.
type KeyManager interface {
	// AgentAEAD returns the agent's own AEAD (derived from the master key
	// and the agent id). It must be able to decrypt everything sealed for
	// the agent under earlier primary keys.
	AgentAEAD(ctx context.Context, agentID string) (AEAD, error)
	// LookupHash returns a keyed hash (PRF/HMAC-SHA256, HashSize bytes) of
	// data. It must be deterministic and stable across rotation of the
	// per-agent encryption keys: it backs unique indexes (deposit-signature
	// replay protection, wallet lookups).
	LookupHash(data []byte) ([]byte, error)
}

// TamperObserver is told about every Open that fails its integrity check,
// after the fact and synchronously, so it must be quick. The guardian
// package uses it to record a security event. It receives no ciphertext.
type TamperObserver func(ctx context.Context, agentID, field string)

// ErrTampered is the cause of every failed Open: the ciphertext was
// modified, truncated, belongs to another field or another agent, or was
// sealed under a key the KeyManager does not hold. Test it with errors.Is.
var ErrTampered = errors.New("cryptovault: ciphertext failed authentication")

// HashSize is the length in bytes of a lookup hash.
const HashSize = 32

// MaxPlaintext is the largest value Seal accepts and the largest value
// Hash accepts, in bytes. Requests are limited long before this; it bounds
// what reaches the vault if one is not.
const MaxPlaintext = 1 << 20

// maxName bounds agent ids and field names, which come from code, not
// clients.
const maxName = 256

// tamperMsg is the client-safe message of a failed Open.
const tamperMsg = "stored data failed its integrity check"

// Option configures a Vault.
type Option func(*Vault)

// WithTamperObserver sets the function told about every failed Open.
func WithTamperObserver(fn TamperObserver) Option {
	return func(v *Vault) { v.onTamper = fn }
}

// Vault seals and opens fields per agent. It is safe for concurrent use.
type Vault struct {
	keys     KeyManager
	onTamper TamperObserver
}

// New returns a Vault whose keys come from km.
func New(km KeyManager, opts ...Option) *Vault {
	v := &Vault{keys: km}
	for _, o := range opts {
		o(v)
	}
	return v
}

// Seal encrypts plaintext for agentID's field. The result is only opened by
// Open with the same agent id and field name.
func (v *Vault) Seal(ctx context.Context, agentID, field string, plaintext []byte) ([]byte, error) {
	const op = "cryptovault.Seal"
	if err := checkNames(op, agentID, field); err != nil {
		return nil, err
	}
	if len(plaintext) > MaxPlaintext {
		return nil, &toolkit.Error{Kind: toolkit.TooLarge, Op: op,
			Msg: fmt.Sprintf("%s must be at most %d bytes", field, MaxPlaintext)}
	}
	a, err := v.agentAEAD(ctx, op, agentID)
	if err != nil {
		return nil, err
	}
	ct, err := a.Encrypt(plaintext, fieldAD(agentID, field))
	if err != nil {
		return nil, &toolkit.Error{Kind: toolkit.Internal, Op: op,
			Err: fmt.Errorf("encrypt %s for agent %q: %w", field, agentID, err)}
	}
	return ct, nil
}

// Open decrypts a ciphertext made by Seal for agentID's field. If it fails
// authentication, Open returns an Internal *toolkit.Error whose cause is
// ErrTampered and tells the TamperObserver once.
func (v *Vault) Open(ctx context.Context, agentID, field string, ciphertext []byte) ([]byte, error) {
	const op = "cryptovault.Open"
	if err := checkNames(op, agentID, field); err != nil {
		return nil, err
	}
	a, err := v.agentAEAD(ctx, op, agentID)
	if err != nil {
		return nil, err
	}
	pt, err := a.Decrypt(ciphertext, fieldAD(agentID, field))
	if err != nil {
		if v.onTamper != nil {
			v.onTamper(ctx, agentID, field)
		}
		return nil, &toolkit.Error{Kind: toolkit.Internal, Op: op, Msg: tamperMsg,
			Err: fmt.Errorf("%w: agent %q field %s: %w", ErrTampered, agentID, field, err)}
	}
	if pt == nil {
		pt = []byte{} // success is never nil, even for an empty value
	}
	return pt, nil
}

// SealString is Seal for a string value.
func (v *Vault) SealString(ctx context.Context, agentID, field, plaintext string) ([]byte, error) {
	return v.Seal(ctx, agentID, field, []byte(plaintext))
}

// OpenString is Open returning a string value.
func (v *Vault) OpenString(ctx context.Context, agentID, field string, ciphertext []byte) (string, error) {
	pt, err := v.Open(ctx, agentID, field, ciphertext)
	if err != nil {
		return "", err
	}
	return string(pt), nil
}

// Hash returns the HashSize-byte keyed lookup hash of value under field.
// It is deterministic, independent of the agent and stable across key
// rotation, so it can back a unique index; the same value under two field
// names hashes differently.
func (v *Vault) Hash(field string, value []byte) ([]byte, error) {
	const op = "cryptovault.Hash"
	if field == "" || len(field) > maxName {
		return nil, &toolkit.Error{Kind: toolkit.Internal, Op: op,
			Err: fmt.Errorf("field name must be 1 to %d bytes, got %d", maxName, len(field))}
	}
	if len(value) > MaxPlaintext {
		return nil, &toolkit.Error{Kind: toolkit.TooLarge, Op: op,
			Msg: fmt.Sprintf("%s must be at most %d bytes", field, MaxPlaintext)}
	}
	h, err := v.keys.LookupHash(hashInput(field, value))
	if err != nil {
		return nil, &toolkit.Error{Kind: toolkit.Internal, Op: op,
			Err: fmt.Errorf("lookup hash of %s: %w", field, err)}
	}
	if len(h) != HashSize {
		return nil, &toolkit.Error{Kind: toolkit.Internal, Op: op,
			Err: fmt.Errorf("lookup hash of %s is %d bytes, want %d", field, len(h), HashSize)}
	}
	return h, nil
}

// agentAEAD asks the KeyManager for agentID's AEAD. A failure is Internal
// and never ErrTampered: nothing was decrypted.
func (v *Vault) agentAEAD(ctx context.Context, op, agentID string) (AEAD, error) {
	a, err := v.keys.AgentAEAD(ctx, agentID)
	if err == nil && a == nil {
		err = errors.New("key manager returned no AEAD")
	}
	if err != nil {
		return nil, &toolkit.Error{Kind: toolkit.Internal, Op: op,
			Err: fmt.Errorf("key for agent %q: %w", agentID, err)}
	}
	return a, nil
}

// checkNames refuses an empty or oversized agent id or field name: both
// come from code, so a bad one is a programming error.
func checkNames(op, agentID, field string) error {
	switch {
	case agentID == "" || len(agentID) > maxName:
		return &toolkit.Error{Kind: toolkit.Internal, Op: op,
			Err: fmt.Errorf("agent id must be 1 to %d bytes, got %d", maxName, len(agentID))}
	case field == "" || len(field) > maxName:
		return &toolkit.Error{Kind: toolkit.Internal, Op: op,
			Err: fmt.Errorf("field name must be 1 to %d bytes, got %d", maxName, len(field))}
	}
	return nil
}
