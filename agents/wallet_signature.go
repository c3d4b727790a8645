package agents

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"fmt"

	"github.com/mr-tron/base58"
)

// Bounds on wallet proof inputs, checked before any decoding.
const (
	// MaxWalletAddressLen is the longest base58 text of a 32-byte key.
	MaxWalletAddressLen = 44
	// MaxWalletSignatureLen is the longest accepted signature text: 88
	// characters covers a 64-byte signature in base58 (at most 88) and in
	// padded base64 (exactly 88).
	MaxWalletSignatureLen = 88
	// MaxWalletMessageLen bounds a signed message, in bytes.
	MaxWalletMessageLen = 512
)

// WalletAddress is a Solana wallet address: a 32-byte Ed25519 public key.
// Its text form is base58.
type WalletAddress [32]byte

// String returns the base58 text of the address.
func (w WalletAddress) String() string { return base58.Encode(w[:]) }

// ParseWalletAddress decodes a base58 wallet address of exactly 32 bytes.
// field names the request field in the error, which is toolkit.Invalid.
// The text length is bounded before decoding.
func ParseWalletAddress(field, s string) (WalletAddress, error) {
	var w WalletAddress
	if s == "" {
		return w, invalid("%s: required (a base58 Solana wallet address)", field)
	}
	if len(s) > MaxWalletAddressLen {
		return w, invalid("%s: at most %d characters (a base58 Solana wallet address)", field, MaxWalletAddressLen)
	}
	b, err := base58.Decode(s)
	if err != nil {
		return w, invalid("%s: not valid base58", field)
	}
	if len(b) != len(w) {
		return w, invalid("%s: must decode to 32 bytes (got %d)", field, len(b))
	}
	copy(w[:], b)
	return w, nil
}

// WalletFields names the request fields of a wallet proof, so that error
// messages name what the client sent.
type WalletFields struct {
	Address   string // the wallet address field
	Signature string // the signature field
	Message   string // the signed text, as the client knows it
}

// The field names of the two wallet endpoints.
var (
	// RegisterWalletFields are the fields of POST /v1/agents/register-wallet.
	RegisterWalletFields = WalletFields{Address: "wallet_address", Signature: "signature", Message: "challenge"}
	// LinkWalletFields are the fields of POST /v1/agents/link-wallet.
	LinkWalletFields = WalletFields{Address: "solana_wallet_address", Signature: "signature", Message: "message"}
)

// VerifyWalletSignature checks that signature is the wallet's Ed25519
// signature over the exact bytes of message (a raw detached signature, as
// wallet signMessage returns; not the Solana off-chain message envelope).
//
// The signature is base58 (the standard form) or standard base64, padded or
// not. Every length is bounded before decoding and the decoded key and
// signature lengths are checked before ed25519.Verify, so no input panics.
// Every failure is toolkit.Invalid naming the field of f. It returns the
// decoded address.
func VerifyWalletSignature(f WalletFields, address, signature, message string) (WalletAddress, error) {
	w, err := ParseWalletAddress(f.Address, address)
	if err != nil {
		return w, err
	}
	_, err = verifySignature(f, w, signature, message)
	return w, err
}

// verifySignature is VerifyWalletSignature for a parsed address; it
// returns the 64 signature bytes that verified.
func verifySignature(f WalletFields, w WalletAddress, signature, message string) ([]byte, error) {
	if message == "" {
		return nil, invalid("%s: required (the exact text that was signed)", f.Message)
	}
	if len(message) > MaxWalletMessageLen {
		return nil, invalid("%s: at most %d bytes", f.Message, MaxWalletMessageLen)
	}
	sigs, err := decodeWalletSignature(f.Signature, signature)
	if err != nil {
		return nil, err
	}
	for _, sig := range sigs {
		if ed25519.Verify(ed25519.PublicKey(w[:]), []byte(message), sig) {
			return sig, nil
		}
	}
	return nil, invalid("%s: does not verify for %s over the %s", f.Signature, f.Address, f.Message)
}

// decodeWalletSignature returns the 64-byte readings of s: base58 first,
// then base64 (padded or raw). A text can be valid in both alphabets, so
// every reading of the right length is returned and tried; none can be
// forged, so accepting any that verifies is safe.
func decodeWalletSignature(field, s string) ([][]byte, error) {
	if s == "" {
		return nil, invalid("%s: required (a base58 Ed25519 signature)", field)
	}
	if len(s) > MaxWalletSignatureLen {
		return nil, invalid("%s: at most %d characters (a base58 or base64 Ed25519 signature of 64 bytes)", field, MaxWalletSignatureLen)
	}
	var out [][]byte
	if b, err := base58.Decode(s); err == nil && len(b) == ed25519.SignatureSize {
		out = append(out, b)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
		if b, err := enc.Strict().DecodeString(s); err == nil && len(b) == ed25519.SignatureSize {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return nil, invalid("%s: must be a base58 (or base64) Ed25519 signature of 64 bytes", field)
	}
	return out, nil
}

// ChallengeDigest returns the SHA-256 digest of a signed wallet message.
// Stores keep it under a unique index so that each signed message is
// accepted once.
func ChallengeDigest(message string) []byte {
	d := sha256.Sum256([]byte(message))
	return d[:]
}

// quoted returns s quoted for an error message, or a length note when s is
// too long to echo.
func quoted(s string, max int) string {
	if len(s) > max {
		return fmt.Sprintf("a text of %d bytes", len(s))
	}
	return fmt.Sprintf("%q", s)
}
