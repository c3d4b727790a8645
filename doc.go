// Package toolkit holds the shared vocabulary of the Agent Finance Toolkit:
// exact money ([Amount]) and the one error type ([Error] with a [Kind]).
//
// The toolkit is used three ways: import the pure finance tools
// (package finance and its subpackages), mount the full /v1 API on any
// net/http mux (package httpapi), or run the reference server
// (examples/server). See the README for a walk-through.
package toolkit
