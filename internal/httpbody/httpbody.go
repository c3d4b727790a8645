// Package httpbody reads request bodies for the HTTP packages (httpapi and
// its MCP handler), translating the standard library's errors into
// toolkit errors.
package httpbody

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/agentfinance/toolkit"
)

// ErrReadTimeout is the cause of the error Read returns when the server's
// read deadline passed before the whole body arrived: the client is still
// connected and is owed an answer (408), not silence.
var ErrReadTimeout = errors.New("httpbody: the request body did not arrive within the read timeout")

// Read reads the (already size-capped, see http.MaxBytesReader) body of r
// into one buffer of the declared Content-Length, so a large body is held
// once and never copied while its buffer grows. Over the cap is
// toolkit.TooLarge; a read deadline passed is toolkit.Invalid caused by
// ErrReadTimeout; a *toolkit.Error from the body's reader (an admission
// budget) is returned as it is; any other read failure is toolkit.Invalid.
func Read(r *http.Request) ([]byte, error) {
	b, err := readAll(r.Body, r.ContentLength)
	var mbe *http.MaxBytesError
	var te *toolkit.Error
	var ne net.Error
	switch {
	case err == nil:
		return b, nil
	case errors.As(err, &mbe):
		return nil, toolkit.Errorf(toolkit.TooLarge, "Request body too large: at most %d bytes", mbe.Limit)
	case errors.As(err, &te):
		return nil, te
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return nil, &toolkit.Error{Kind: toolkit.Invalid, Msg: "Reading the request body timed out: send the whole body promptly",
			Err: ErrReadTimeout}
	}
	return nil, toolkit.Errorf(toolkit.Invalid, "reading the request body failed")
}

// readAll is io.ReadAll into a buffer sized for declared bytes (unknown:
// -1) and one more, to see the end without growing.
func readAll(body io.Reader, declared int64) ([]byte, error) {
	if declared < 0 || declared > 1<<30 {
		return io.ReadAll(body)
	}
	b := make([]byte, 0, declared+1)
	for {
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) { // more than declared: let io.ReadAll go on
			rest, err := io.ReadAll(body)
			return append(b, rest...), err
		}
	}
}
