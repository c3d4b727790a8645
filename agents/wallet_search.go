package agents

import (
	"crypto/ed25519"
	"iter"
	"runtime"
	"strconv"
	"time"

	"github.com/agentfinance/toolkit"
)

// MaxChallengeSearch is the most challenges a register-wallet request
// without message and timestamp costs: one per second of the accepted
// window, ±WalletChallengeWindow around server time (601 for 5 minutes).
const MaxChallengeSearch = 2*int(WalletChallengeWindow/time.Second) + 1

// searchRetryAfter is the retry hint when every search slot is taken.
const searchRetryAfter = time.Second

// DefaultWalletSearches is the default bound on concurrent challenge
// searches: half the CPUs (at least one), so a flood of bad signatures
// leaves the other half to everything else.
func DefaultWalletSearches() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// findAuthChallenge finds the second at which wallet signed its
// register-wallet challenge: it verifies sig against the challenge of
// each second of the accepted window, searching outward from now (now,
// now−1, now+1, now−2, ...), so an honest client that signed a few seconds
// before sending costs a few verifications and a bad signature at most
// MaxChallengeSearch. It returns the challenge and its time, or false.
func (a *WalletAuth) findAuthChallenge(wallet WalletAddress, sig []byte, now time.Time) (string, time.Time, bool) {
	prefix := a.service + "-" + purposeAuth + ":" + wallet.String() + ":"
	buf := make([]byte, 0, len(prefix)+20)
	buf = append(buf, prefix...)
	pub := ed25519.PublicKey(wallet[:])
	for ts := range challengeSeconds(now) {
		msg := strconv.AppendInt(buf[:len(prefix)], ts, 10)
		if ed25519.Verify(pub, msg, sig) {
			return string(msg), time.Unix(ts, 0).UTC(), true
		}
	}
	return "", time.Time{}, false
}

// challengeSeconds yields the unix seconds of the accepted window in
// search order: now, now−1, now+1, now−2, now+2, ... out to
// ±WalletChallengeWindow (MaxChallengeSearch seconds; none before 1970).
func challengeSeconds(now time.Time) iter.Seq[int64] {
	return func(yield func(int64) bool) {
		t0, window := now.Unix(), int64(WalletChallengeWindow/time.Second)
		if t0 > 0 && !yield(t0) {
			return
		}
		for d := int64(1); d <= window; d++ {
			if t0-d > 0 && !yield(t0-d) {
				return
			}
			if t0+d > 0 && !yield(t0+d) {
				return
			}
		}
	}
}

// searchRegistration verifies a register-wallet request that carries
// neither message nor timestamp by finding its challenge (see
// findAuthChallenge). The signature is read once: base58 when the text
// decodes to 64 bytes in base58, base64 otherwise, so the search costs at
// most MaxChallengeSearch verifications whatever the text.
func (a *WalletAuth) searchRegistration(w WalletAddress, signature string, now time.Time) (WalletProof, error) {
	f := RegisterWalletFields
	sigs, err := decodeWalletSignature(f.Signature, signature)
	if err != nil {
		return WalletProof{}, err
	}
	msg, at, ok := a.findAuthChallenge(w, sigs[0], now)
	if !ok {
		return WalletProof{}, invalid("%s: does not verify for %s over the challenge %q of any second within %d minutes of server time %d; "+
			"sign the challenge with the current unix time (or send the signed text in message)",
			f.Signature, f.Address, a.service+"-auth:"+w.String()+":<unix seconds>", int(WalletChallengeWindow/time.Minute), now.Unix())
	}
	return WalletProof{Wallet: w, Message: msg, Digest: ChallengeDigest(msg), SignedAt: at, Signature: sigs[0]}, nil
}

// searchSlots bounds the challenge searches running at once in one
// process (Config.WalletSearches).
type searchSlots chan struct{}

// acquire takes a slot, or answers toolkit.Unavailable with a retry hint
// when all are taken: a search is never queued.
func (s searchSlots) acquire() (release func(), err error) {
	select {
	case s <- struct{}{}:
		return func() { <-s }, nil
	default:
		return nil, &toolkit.Error{Kind: toolkit.Unavailable, Op: "agents.RegisterWallet", RetryAfter: searchRetryAfter,
			Msg: "too many wallet sign-ins without a timestamp are being checked right now; retry in a second, " +
				"or send the signed challenge in message (checked at once)"}
	}
}
