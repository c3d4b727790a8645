package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testCA is a certificate authority made for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool
	pem  []byte
}

var certSerial atomic.Int64

func newTestCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(certSerial.Add(1)), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &testCA{cert: cert, key: key, pool: pool, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue signs a leaf certificate: a server certificate for localhost and
// 127.0.0.1, or a client certificate. It returns the PEM certificate and
// key and the tls.Certificate.
func (ca *testCA) issue(t *testing.T, name string, client bool) (certPEM, keyPEM []byte, pair tls.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(certSerial.Add(1)), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
	}
	if client {
		tmpl.ExtKeyUsage, tmpl.DNSNames, tmpl.IPAddresses = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, nil, nil
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
	pair, err = tls.X509KeyPair(certPEM, keyPEM)
	require.NoError(t, err)
	return certPEM, keyPEM, pair
}

// writeServerCert writes a server certificate of ca to dir/server.pem and
// dir/server-key.pem (replacing any) and returns the certificate's serial.
func (ca *testCA) writeServerCert(t *testing.T, dir string) *big.Int {
	t.Helper()
	certPEM, keyPEM, pair := ca.issue(t, "toolkit server", false)
	// Written beside and renamed, as certificate tools do, so a reload
	// never reads half a file.
	for name, b := range map[string][]byte{"server.pem": certPEM, "server-key.pem": keyPEM} {
		tmp := filepath.Join(dir, name+".new")
		require.NoError(t, os.WriteFile(tmp, b, 0o600))
		require.NoError(t, os.Rename(tmp, filepath.Join(dir, name)))
	}
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	require.NoError(t, err)
	return leaf.SerialNumber
}

// startTLSServer runs the reference server over HTTPS with a certificate
// of ca (extra args appended) and returns it with the directory of its
// certificate files.
func startTLSServer(t *testing.T, ca *testCA, args ...string) (*server, string) {
	t.Helper()
	dir := t.TempDir()
	ca.writeServerCert(t, dir)
	args = append([]string{"-db", filepath.Join(dir, "toolkit.db"),
		"-tls-cert", filepath.Join(dir, "server.pem"), "-tls-key", filepath.Join(dir, "server-key.pem")}, args...)
	return startServerWith(t, httpsClient(ca, tls.VersionTLS12, 0), args...), dir
}

// httpsClient trusts ca, offers HTTP/2, and uses versions min..max.
func httpsClient(ca *testCA, minVersion, maxVersion uint16, certs ...tls.Certificate) *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{ForceAttemptHTTP2: true,
		TLSClientConfig: &tls.Config{RootCAs: ca.pool, MinVersion: minVersion, MaxVersion: maxVersion, Certificates: certs}}}
}

// TestTLSVersions: a TLS 1.1 client is refused at the handshake; TLS 1.2
// and 1.3 clients are served, over HTTP/2.
func TestTLSVersions(t *testing.T) {
	ca := newTestCA(t, "versions CA")
	s, _ := startTLSServer(t, ca)
	require.True(t, strings.HasPrefix(s.base, "https://"))
	assert.Contains(t, s.out.String(), "listening on https://")

	_, err := httpsClient(ca, tls.VersionTLS10, tls.VersionTLS11).Get(s.base + "/v1/billing/pricing")
	require.Error(t, err, "TLS 1.1 is refused")
	assert.Contains(t, err.Error(), "protocol version")

	for _, v := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		res, err := httpsClient(ca, v, v).Get(s.base + "/v1/billing/pricing")
		require.NoError(t, err, tls.VersionName(v))
		res.Body.Close()
		assert.Equal(t, http.StatusOK, res.StatusCode, tls.VersionName(v))
		assert.Equal(t, v, res.TLS.Version, tls.VersionName(v))
		assert.Equal(t, 2, res.ProtoMajor, "%s: HTTP/2", tls.VersionName(v))
	}
}

// TestTLSReloadKeepsConnections: SIGHUP swaps the certificate for new
// handshakes while a connection opened before keeps working with the old
// one; a broken file keeps the certificate in use.
func TestTLSReloadKeepsConnections(t *testing.T) {
	ca := newTestCA(t, "reload CA")
	s, dir := startTLSServer(t, ca)
	old := httpsClient(ca, tls.VersionTLS12, 0)
	serialOf := func(c *http.Client) *big.Int {
		t.Helper()
		res, err := c.Get(s.base + "/v1/billing/pricing")
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode)
		return res.TLS.PeerCertificates[0].SerialNumber
	}
	first := serialOf(old)

	second := ca.writeServerCert(t, dir)
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
	require.Eventually(t, func() bool {
		fresh := httpsClient(ca, tls.VersionTLS12, 0)
		defer fresh.CloseIdleConnections()
		return serialOf(fresh).Cmp(second) == 0
	}, 5*time.Second, 20*time.Millisecond, "new handshakes get the new certificate")
	assert.Equal(t, 0, serialOf(old).Cmp(first), "the open connection keeps its certificate and still works")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "server.pem"), []byte("not a certificate"), 0o600))
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
	time.Sleep(100 * time.Millisecond)
	fresh := httpsClient(ca, tls.VersionTLS12, 0)
	assert.Equal(t, 0, serialOf(fresh).Cmp(second), "a broken file keeps the certificate in use")
}

// TestTLSClientCAGuardsAdminAndMetrics: with -tls-client-ca an admin
// request needs a client certificate of that CA (403 without one, even
// with the right admin key), agent and public routes need none, and the
// metrics listener serves HTTPS to certified clients only.
func TestTLSClientCAGuardsAdminAndMetrics(t *testing.T) {
	ca := newTestCA(t, "server CA")
	operators := newTestCA(t, "operators CA")
	caFile := filepath.Join(t.TempDir(), "operators.pem")
	require.NoError(t, os.WriteFile(caFile, operators.pem, 0o600))
	s, _ := startTLSServer(t, ca, "-tls-client-ca", caFile, "-metrics-addr", "127.0.0.1:0")
	_, _, operator := operators.issue(t, "operator", true)
	_, _, stranger := newTestCA(t, "other CA").issue(t, "stranger", true)

	get := func(c *http.Client, url string, headers map[string]string) (int, error) {
		req, err := http.NewRequest("GET", url, nil)
		require.NoError(t, err)
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		res.Body.Close()
		return res.StatusCode, nil
	}
	admin := map[string]string{"X-Admin-Key": testAdminKey}
	status, err := get(httpsClient(ca, tls.VersionTLS12, 0), s.base+"/v1/guardian/metrics", admin)
	require.NoError(t, err)
	assert.Equal(t, http.StatusForbidden, status, "the admin key alone is not enough")
	status, err = get(httpsClient(ca, tls.VersionTLS12, 0, operator), s.base+"/v1/guardian/metrics", admin)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, status, "admin key and operator certificate")
	pushy := httpsClient(ca, tls.VersionTLS12, 0)
	pushy.Transport.(*http.Transport).TLSClientConfig.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
		return &stranger, nil // sent even though the server asks for another CA
	}
	_, err = get(pushy, s.base+"/v1/guardian/metrics", admin)
	require.Error(t, err, "a certificate of another CA fails the handshake")
	status, err = get(httpsClient(ca, tls.VersionTLS12, 0), s.base+"/v1/billing/pricing", nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, status, "public routes need no certificate")

	m := metricsURL.FindStringSubmatch(s.out.String())
	require.Len(t, m, 2, s.out.String())
	_, err = get(httpsClient(ca, tls.VersionTLS12, 0), m[1], nil)
	require.Error(t, err, "metrics need an operator certificate")
	status, err = get(httpsClient(ca, tls.VersionTLS13, 0, operator), m[1], nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, status)
}

func TestParseConfigTLS(t *testing.T) {
	noEnv := func(string) string { return "" }
	for args, want := range map[string]string{
		"-tls-cert c.pem":                 "-tls-cert and -tls-key go together",
		"-tls-key k.pem":                  "-tls-cert and -tls-key go together",
		"-tls-client-ca ca.pem":           "-tls-client-ca needs -tls-cert and -tls-key",
		"-tls-cert c.pem -tls-key k.pem":  "",
		"-tls-cert c.pem -tls-key k.pem ": "",
	} {
		_, err := parseConfig(strings.Fields(args), noEnv)
		if want == "" {
			assert.NoError(t, err, args)
			continue
		}
		assert.ErrorContains(t, err, want, args)
	}
	cfg, err := parseConfig(nil, func(k string) string {
		return map[string]string{"TOOLKIT_TLS_CERT": "c.pem", "TOOLKIT_TLS_KEY": "k.pem"}[k]
	})
	require.NoError(t, err)
	assert.True(t, cfg.ops.tls.on())

	dir := t.TempDir()
	cfg, err = parseConfig([]string{"-db", filepath.Join(dir, "t.db"), "-keys", filepath.Join(dir, "k.json"), "-metrics-addr", "off",
		"-tls-cert", filepath.Join(dir, "missing.pem"), "-tls-key", filepath.Join(dir, "missing-key.pem")}, noEnv)
	require.NoError(t, err)
	err = run(context.Background(), cfg, nil, &syncBuffer{})
	assert.ErrorContains(t, err, "-tls-cert/-tls-key", "a missing certificate fails at start")
}

// metricsURL finds the metrics URL in the server's output.
var metricsURL = regexp.MustCompile(`metrics on (https?://\S+/metrics)`)
