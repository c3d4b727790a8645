// Package httpbody reads request bodies for the HTTP packages (httpapi and
// its MCP handler), translating the standard library's errors into
// toolkit errors.
package httpbody

import (
	"errors"
	"io"
	"net/http"

	"github.com/agentfinance/toolkit"
)

// Read reads the (already size-capped, see http.MaxBytesReader) body of r.
// Over the cap is toolkit.TooLarge; any other read failure is
// toolkit.Invalid.
func Read(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return nil, toolkit.Errorf(toolkit.TooLarge, "Request body too large: at most %d bytes", mbe.Limit)
	}
	if err != nil {
		return nil, toolkit.Errorf(toolkit.Invalid, "reading the request body failed")
	}
	return b, nil
}
