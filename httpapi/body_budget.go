package httpapi

import (
	"io"
	"net/http"
	"time"

	"github.com/agentfinance/toolkit"
	"golang.org/x/sync/semaphore"
)

// bodyBudgetStep is how much a body sent without a Content-Length
// reserves at a time as its bytes arrive.
const bodyBudgetStep = 256 << 10

// bodyBudgetRetryAfter is the Retry-After of a request refused because the
// budget is spent: uploads in flight end within seconds.
const bodyBudgetRetryAfter = time.Second

// bodyBudget bounds the request body bytes that all requests in flight
// hold at once (Options.MaxBodyBytesInFlight), so concurrent large bodies
// cannot exhaust the server's memory. A request reserves its declared
// Content-Length before its handler reads a byte, or, sent without one,
// reserves step by step as its bytes arrive; one that does not fit is
// refused at once with 503 and a Retry-After, never queued. A declared
// body over the route's cap is refused with 413 before anything is read.
// Reservations end when the handler returns.
type bodyBudget struct {
	sem  *semaphore.Weighted
	size int64
}

// newBodyBudget returns the budget of inFlight bytes (default four
// bodies of maxBody; never less than one).
func newBodyBudget(inFlight, maxBody int64) *bodyBudget {
	if inFlight <= 0 {
		inFlight = 4 * maxBody
	}
	inFlight = max(inFlight, maxBody)
	return &bodyBudget{sem: semaphore.NewWeighted(inFlight), size: inFlight}
}

// admit reserves the body of r, capped at limit bytes, and returns the
// request to serve and the release of its reservation (to call when the
// handler returns).
func (b *bodyBudget) admit(w http.ResponseWriter, r *http.Request, limit int64) (*http.Request, func(), error) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return r, func() {}, nil
	}
	if r.ContentLength > limit {
		return r, func() {}, toolkit.Errorf(toolkit.TooLarge, "Request body too large: at most %d bytes", limit)
	}
	body := &budgetedBody{budget: b}
	if r.ContentLength > 0 {
		if !b.sem.TryAcquire(r.ContentLength) {
			return r, func() {}, errBodyBudgetSpent()
		}
		body.reserved = r.ContentLength
	}
	body.ReadCloser = http.MaxBytesReader(w, r.Body, limit)
	r2 := *r
	r2.Body = body
	return &r2, body.release, nil
}

// errBodyBudgetSpent refuses a request whose body does not fit the budget.
func errBodyBudgetSpent() error {
	return &toolkit.Error{Kind: toolkit.Unavailable, RetryAfter: bodyBudgetRetryAfter,
		Msg: "The server is receiving as many request bodies as it holds at once; retry shortly"}
}

// budgetedBody is a request body reserving its bytes as they arrive,
// beyond what its declared length reserved.
type budgetedBody struct {
	io.ReadCloser
	budget   *bodyBudget
	reserved int64
	read     int64
}

// Read reads on, reserving for what arrives; past the budget it fails
// with the 503 of errBodyBudgetSpent.
func (b *budgetedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	for b.read > b.reserved {
		if !b.budget.sem.TryAcquire(bodyBudgetStep) {
			return n, errBodyBudgetSpent()
		}
		b.reserved += bodyBudgetStep
	}
	return n, err
}

// release gives the reservation back.
func (b *budgetedBody) release() {
	if b.reserved > 0 {
		b.budget.sem.Release(b.reserved)
		b.reserved = 0
	}
}
