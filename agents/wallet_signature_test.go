package agents_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents"
	"github.com/mr-tron/base58"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walletFixtures is testdata/walletsig/walletsig.json, made by gen.js with
// tweetnacl and bs58 (an independent Ed25519 and base58 implementation).
type walletFixtures struct {
	Service   string `json:"service"`
	Timestamp int64  `json:"timestamp"`
	AgentID   string `json:"agent_id"`
	Keys      []struct {
		Label         string `json:"label"`
		SeedHex       string `json:"seed_hex"`
		WalletAddress string `json:"wallet_address"`
	} `json:"keys"`
	Messages map[string]string `json:"messages"`
	Cases    []struct {
		Name          string `json:"name"`
		WalletAddress string `json:"wallet_address"`
		Message       string `json:"message"`
		Signature     string `json:"signature"`
		Encoding      string `json:"encoding"`
		Verifies      bool   `json:"verifies"`
	} `json:"cases"`
}

func loadWalletFixtures(t *testing.T) walletFixtures {
	t.Helper()
	b, err := os.ReadFile("testdata/walletsig/walletsig.json")
	require.NoError(t, err)
	var f walletFixtures
	require.NoError(t, json.Unmarshal(b, &f))
	require.Len(t, f.Keys, 2)
	require.NotEmpty(t, f.Cases)
	return f
}

// TestWalletSignatureFixtures verifies signatures made by tweetnacl.
func TestWalletSignatureFixtures(t *testing.T) {
	f := loadWalletFixtures(t)
	valid := 0
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			w, err := agents.VerifyWalletSignature(agents.LinkWalletFields, c.WalletAddress, c.Signature, c.Message)
			if c.Verifies {
				valid++
				require.NoError(t, err)
				assert.Equal(t, c.WalletAddress, w.String())
				return
			}
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), "%v", err)
		})
	}
	assert.GreaterOrEqual(t, valid, 12, "the fixture has valid signatures in all three encodings")
}

// TestWalletKeysMatchGoSigning: Go derives the same public keys from the
// fixture seeds and, Ed25519 being deterministic, the same signatures.
func TestWalletKeysMatchGoSigning(t *testing.T) {
	f := loadWalletFixtures(t)
	seed, err := hex.DecodeString(f.Keys[0].SeedHex)
	require.NoError(t, err)
	priv := ed25519.NewKeyFromSeed(seed)
	assert.Equal(t, f.Keys[0].WalletAddress, base58.Encode(priv.Public().(ed25519.PublicKey)))
	checked := 0
	for _, c := range f.Cases {
		if c.Verifies && c.Encoding == "base58" {
			assert.Equal(t, c.Signature, base58.Encode(ed25519.Sign(priv, []byte(c.Message))), c.Name)
			checked++
		}
	}
	assert.Equal(t, len(f.Messages), checked)
}

func TestParseWalletAddress(t *testing.T) {
	zero := strings.Repeat("1", 32) // 32 zero bytes: the shortest text
	tests := []struct {
		in, msg string
	}{
		{"8V7PHrV8LGrb4UCmrCR2Yuvcm73e65LSTzmvAP8RB7XZ", ""},
		{zero, ""},
		{"", "wallet_address: required"},
		{strings.Repeat("z", 45), "wallet_address: at most 44 characters"},
		{"8V7PHrV8LGrb4UCmrCR2Yuvcm73e65LSTzmvAP8RB7X0", "wallet_address: not valid base58"},
		{zero[1:], "wallet_address: must decode to 32 bytes (got 31)"},
		{"1" + zero, "wallet_address: must decode to 32 bytes (got 33)"},
		{" 8V7PHrV8LGrb4UCmrCR2Yuvcm73e65LSTzmvAP8RB7X", "wallet_address: not valid base58"},
	}
	for _, tt := range tests {
		w, err := agents.ParseWalletAddress("wallet_address", tt.in)
		if tt.msg == "" {
			require.NoError(t, err, tt.in)
			assert.Equal(t, tt.in, w.String(), "round trip")
			continue
		}
		require.Error(t, err, tt.in)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), tt.msg, tt.in)
	}
}

// TestVerifyWalletSignatureRejects covers the size and shape rules and the
// client message of a failed verification.
func TestVerifyWalletSignatureRejects(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(make([]byte, 32))
	addr := base58.Encode(priv.Public().(ed25519.PublicKey))
	sig := ed25519.Sign(priv, []byte("hello"))
	tests := []struct {
		name, sig, msg, want string
	}{
		{"ok base58", base58.Encode(sig), "hello", ""},
		{"ok base64", base64.StdEncoding.EncodeToString(sig), "hello", ""},
		{"wrong message", base58.Encode(sig), "hellO", "signature: does not verify for solana_wallet_address over the message"},
		{"empty signature", "", "hello", "signature: required"},
		{"signature too long", base58.Encode(sig) + "1", "hello", "signature: at most 88 characters"},
		{"signature of 32 bytes", base58.Encode(sig[:32]), "hello", "signature: must be a base58 (or base64) Ed25519 signature of 64 bytes"},
		{"empty message", base58.Encode(sig), "", "message: required"},
		{"message too long", base58.Encode(sig), strings.Repeat("x", agents.MaxWalletMessageLen+1), "message: at most 512 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := agents.VerifyWalletSignature(agents.LinkWalletFields, addr, tt.sig, tt.msg)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.True(t, strings.HasPrefix(toolkit.MessageOf(err), tt.want), toolkit.MessageOf(err))
		})
	}
}

// TestVerifyWalletSignatureRefusesBase64URL: only the standard base64
// alphabet is accepted besides base58.
func TestVerifyWalletSignatureRefusesBase64URL(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(make([]byte, 32))
	addr := base58.Encode(priv.Public().(ed25519.PublicKey))
	for i := 0; ; i++ {
		msg := "hello " + strings.Repeat("!", i)
		std := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(msg)))
		if !strings.ContainsAny(std, "+/") {
			continue
		}
		_, err := agents.VerifyWalletSignature(agents.LinkWalletFields, addr, std, msg)
		require.NoError(t, err)
		url := strings.NewReplacer("+", "-", "/", "_").Replace(std)
		_, err = agents.VerifyWalletSignature(agents.LinkWalletFields, addr, url, msg)
		assert.True(t, toolkit.IsKind(err, toolkit.Invalid), "%v", err)
		return
	}
}

func TestChallengeDigest(t *testing.T) {
	assert.Len(t, agents.ChallengeDigest("aft-auth:x:1"), 32)
	assert.NotEqual(t, agents.ChallengeDigest("aft-auth:x:1"), agents.ChallengeDigest("aft-auth:x:2"))
	assert.Equal(t, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", hex.EncodeToString(agents.ChallengeDigest("abc")))
}

// FuzzVerifyWalletSignature: arbitrary address, signature and message
// texts never panic and fail only with toolkit.Invalid.
func FuzzVerifyWalletSignature(f *testing.F) {
	b, err := os.ReadFile("testdata/walletsig/walletsig.json")
	if err != nil {
		f.Fatal(err)
	}
	var fx walletFixtures
	if err := json.Unmarshal(b, &fx); err != nil {
		f.Fatal(err)
	}
	for _, c := range fx.Cases {
		f.Add(c.WalletAddress, c.Signature, c.Message)
	}
	f.Add("", "", "")
	f.Add(strings.Repeat("1", 44), strings.Repeat("1", 88), "x")
	f.Add(strings.Repeat("z", 44), strings.Repeat("z", 88), "x")
	f.Add("\xff", "====", "\x00")
	f.Fuzz(func(t *testing.T, address, signature, message string) {
		w, err := agents.VerifyWalletSignature(agents.RegisterWalletFields, address, signature, message)
		if err != nil {
			if k := toolkit.KindOf(err); k != toolkit.Invalid {
				t.Fatalf("kind %v for (%q, %q, %q): %v", k, address, signature, message, err)
			}
			return
		}
		if w.String() != address {
			t.Fatalf("accepted address %q reads back as %q", address, w.String())
		}
	})
}
