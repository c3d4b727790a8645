package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/agentfinance/toolkit/httpapi"
)

// tlsOptions are the TLS flags: the server's certificate and key (PEM)
// and, for mutual TLS on the admin routes and the metrics listener, the
// CA that signs the operators' client certificates.
type tlsOptions struct {
	certFile, keyFile, clientCAFile string
}

// on reports whether the server terminates TLS itself.
func (o tlsOptions) on() bool { return o.certFile != "" }

// tlsFlags declares the TLS flags on fs and returns the function that
// checks them once parsed.
func tlsFlags(fs *flag.FlagSet, env func(k, def string) string) func() (tlsOptions, error) {
	var o tlsOptions
	fs.StringVar(&o.certFile, "tls-cert", env("TOOLKIT_TLS_CERT", ""),
		"PEM certificate (chain) to serve HTTPS with, TLS 1.2 or higher and HTTP/2; reloaded on SIGHUP (TOOLKIT_TLS_CERT)")
	fs.StringVar(&o.keyFile, "tls-key", env("TOOLKIT_TLS_KEY", ""), "PEM private key of -tls-cert (TOOLKIT_TLS_KEY)")
	fs.StringVar(&o.clientCAFile, "tls-client-ca", env("TOOLKIT_TLS_CLIENT_CA", ""),
		"PEM CA of operator client certificates: admin routes and the metrics listener then need one (mutual TLS) (TOOLKIT_TLS_CLIENT_CA)")
	return func() (tlsOptions, error) {
		switch {
		case (o.certFile == "") != (o.keyFile == ""):
			return o, errors.New("-tls-cert and -tls-key go together (TOOLKIT_TLS_CERT, TOOLKIT_TLS_KEY)")
		case o.clientCAFile != "" && !o.on():
			return o, errors.New("-tls-client-ca needs -tls-cert and -tls-key: mutual TLS needs the server to terminate TLS")
		}
		return o, nil
	}
}

// serverTLS is the running TLS setup: the current certificate, swapped in
// place on reload, and the client CA pool.
type serverTLS struct {
	opts      tlsOptions
	cert      atomic.Pointer[tls.Certificate]
	clientCAs *x509.CertPool
	logger    *slog.Logger
}

// openTLS loads the certificate and the client CA; nil when TLS is off.
func openTLS(o tlsOptions, logger *slog.Logger) (*serverTLS, error) {
	if !o.on() {
		return nil, nil
	}
	s := &serverTLS{opts: o, logger: logger}
	if err := s.reload(); err != nil {
		return nil, err
	}
	if o.clientCAFile != "" {
		pem, err := os.ReadFile(o.clientCAFile)
		if err != nil {
			return nil, fmt.Errorf("-tls-client-ca: %w", err)
		}
		s.clientCAs = x509.NewCertPool()
		if !s.clientCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("-tls-client-ca: %s holds no PEM certificate", o.clientCAFile)
		}
	}
	return s, nil
}

// reload reads the certificate and key files again. On failure the
// certificate in use stays; new handshakes get the new one, and open
// connections keep theirs.
func (s *serverTLS) reload() error {
	c, err := tls.LoadX509KeyPair(s.opts.certFile, s.opts.keyFile)
	if err != nil {
		return fmt.Errorf("-tls-cert/-tls-key: %w", err)
	}
	s.cert.Store(&c)
	return nil
}

// config is the tls.Config of a listener: TLS 1.2 at least, HTTP/2 and
// HTTP/1.1 offered, the certificate read at each handshake. clientCerts
// says how a configured client CA applies: tls.VerifyClientCertIfGiven for
// the API (only admin requests must present one), tls.RequireAndVerifyClientCert
// for the metrics listener.
func (s *serverTLS) config(clientCerts tls.ClientAuthType) *tls.Config {
	c := &tls.Config{
		MinVersion: tls.VersionTLS12,
		NextProtos: []string{"h2", "http/1.1"},
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
			return s.cert.Load(), nil
		},
	}
	if s.clientCAs != nil {
		c.ClientCAs, c.ClientAuth = s.clientCAs, clientCerts
	}
	return c
}

// reloadOnHangup reloads the certificate on every SIGHUP until ctx ends.
// The signal is registered before it returns, so a SIGHUP sent after the
// server started never ends the process.
func (s *serverTLS) reloadOnHangup(ctx context.Context) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hup)
		defer func() {
			if p := recover(); p != nil {
				s.logger.Error("TLS reload stopped", "panic", fmt.Sprint(p))
			}
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				if err := s.reload(); err != nil {
					s.logger.Error("TLS certificate reload failed; the previous certificate stays in use", "error", err.Error())
					continue
				}
				s.logger.Info("TLS certificate reloaded", "cert", s.opts.certFile)
			}
		}
	}()
}

// scheme is the URL scheme of the listeners.
func (s *serverTLS) scheme() string {
	if s == nil {
		return "http"
	}
	return "https"
}

// handler wraps the API for mutual TLS on the admin routes when a client
// CA is configured (httpapi.RequireAdminClientCert).
func (s *serverTLS) handler(h http.Handler) http.Handler {
	if s == nil || s.clientCAs == nil {
		return h
	}
	return httpapi.RequireAdminClientCert(h)
}

// serve serves srv on ln: HTTPS (HTTP/2 and HTTP/1.1) with clientCerts
// applying a configured client CA, or plain HTTP when TLS is off.
func (s *serverTLS) serve(srv *http.Server, ln net.Listener, clientCerts tls.ClientAuthType) error {
	if s == nil {
		return srv.Serve(ln)
	}
	srv.TLSConfig = s.config(clientCerts)
	return srv.ServeTLS(ln, "", "") // the certificate comes from GetCertificate
}
