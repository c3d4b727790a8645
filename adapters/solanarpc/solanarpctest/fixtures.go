package solanarpctest

import (
	"crypto/ed25519"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"path"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/adapters/solanarpc"
	"github.com/gagliardetto/solana-go"
)

// transactions are the getTransaction results of the fixtures, written by
// adapters/solanarpc's tests (go test ./adapters/solanarpc -update), which
// build and sign them with solana-go.
//
//go:embed testdata/transactions/*.json
var transactions embed.FS

// Key returns the deterministic keypair of the fixtures for label.
func Key(label string) solana.PrivateKey {
	seed := sha256.Sum256([]byte("solanarpc fixture " + label))
	return solana.PrivateKey(ed25519.NewKeyFromSeed(seed[:]))
}

// The actors of the fixtures. Their mints are the real mainnet mints, so
// the default token configuration applies.
var (
	// AgentWallet sends most deposits; register or link it to bind them.
	AgentWallet = Key("agent wallet")
	// ForeignWallet sends deposits bound only by a memo naming AgentID.
	ForeignWallet = Key("foreign wallet")
	// TreasuryKey owns the treasury receiving the deposits.
	TreasuryKey = Key("treasury")
	// OtherWallet receives misdirected transfers.
	OtherWallet = Key("other wallet")
)

// AgentID is the agent id written in the memo fixtures.
const AgentID = "agt_k3v9x2m8q1w7p4z6"

// Fixture is a stored transaction: its signature and the node's
// getTransaction result (encoding base64).
type Fixture struct {
	Name      string          `json:"-"`
	Signature string          `json:"signature"`
	Result    json.RawMessage `json:"result"`
}

// Fixtures returns every fixture, sorted by name.
func Fixtures(tb testing.TB) []Fixture {
	tb.Helper()
	entries, err := transactions.ReadDir("testdata/transactions")
	if err != nil {
		tb.Fatal(err)
	}
	var out []Fixture
	for _, e := range entries {
		out = append(out, MustFixture(tb, strings.TrimSuffix(e.Name(), ".json")))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// MustFixture returns the fixture name (a file of testdata/transactions
// without .json), failing the test when it does not exist.
func MustFixture(tb testing.TB, name string) Fixture {
	tb.Helper()
	b, err := transactions.ReadFile(path.Join("testdata/transactions", name+".json"))
	if err != nil {
		tb.Fatalf("solanarpctest: no fixture %q: %v", name, err)
	}
	var f Fixture
	if err := json.Unmarshal(b, &f); err != nil {
		tb.Fatalf("solanarpctest: fixture %q: %v", name, err)
	}
	f.Name = name
	return f
}

// NativeToken is the native token of the fixtures: the published OSR
// mint with 9 decimals.
var NativeToken = solanarpc.PublishedNativeToken

// Config returns a mainnet client configuration for a node at url: the
// fixtures' treasury, the default stablecoins and the native token.
func Config(url string) solanarpc.Config {
	return solanarpc.Config{RPCURL: url, Treasury: TreasuryKey.PublicKey().String(),
		Tokens: append(solanarpc.DefaultTokens(), NativeToken), Timeout: 5 * time.Second}
}

// PresaleRecord returns wallet's presale purchase record for program and
// seed: the account a node must hold for IsPresaleBuyer to answer true.
func PresaleRecord(program, wallet solana.PublicKey, seed string) solana.PublicKey {
	pda, _, err := solana.FindProgramAddress([][]byte{[]byte(seed), wallet[:]}, program)
	if err != nil {
		panic(err)
	}
	return pda
}

// AccountValue is a getAccountInfo value as a node encodes it (base64):
// an account owned by owner holding data.
func AccountValue(owner solana.PublicKey, data []byte) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"data": []string{base64.StdEncoding.EncodeToString(data), "base64"}, "executable": false,
		"lamports": 1_461_600, "owner": owner.String(), "rentEpoch": uint64(18446744073709551615), "space": len(data),
	})
	return b
}
