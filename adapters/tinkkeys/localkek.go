package tinkkeys

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/tink-crypto/tink-go/v2/aead"
	"github.com/tink-crypto/tink-go/v2/insecurecleartextkeyset"
	"github.com/tink-crypto/tink-go/v2/keyset"
	"github.com/tink-crypto/tink-go/v2/tink"
)

// A local KEK is a key-encryption key kept in a file instead of a KMS: a
// Tink AEAD keyset (AES-256-GCM) in Tink's cleartext JSON format, mode
// 0600. It protects a key file at rest when no KMS is available (the
// reference server's TOOLKIT_KEYS_KEK_FILE). Anyone who reads both files
// can decrypt everything, so keep the KEK on other storage than the key
// file and the database (a mounted secret, a separate volume). With a KMS,
// pass the KMS client's AEAD to CreateEncryptedKeys and LoadEncryptedKeys
// instead.

// CreateLocalKEK generates an AES-256-GCM keyset, writes it to a new file
// at path (mode 0600, atomically, never overwriting) and returns its AEAD.
func CreateLocalKEK(path string) (tink.AEAD, error) {
	if path == "" {
		return nil, errors.New("tinkkeys: KEK file path is empty")
	}
	h, err := keyset.NewHandle(aead.AES256GCMKeyTemplate())
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: new KEK: %w", err)
	}
	var buf bytes.Buffer
	if err := insecurecleartextkeyset.Write(h, keyset.NewJSONWriter(&buf)); err != nil {
		return nil, fmt.Errorf("tinkkeys: encode KEK: %w", err)
	}
	if err := writeFile(path, append(buf.Bytes(), '\n'), false); err != nil {
		return nil, err
	}
	return aead.New(h)
}

// LoadLocalKEK reads a KEK file written by CreateLocalKEK (or any Tink
// cleartext JSON AEAD keyset) and returns its AEAD. A file whose mode
// grants any group or other permission is refused (chmod 600).
func LoadLocalKEK(path string) (tink.AEAD, error) {
	if path == "" {
		return nil, errors.New("tinkkeys: KEK file path is empty")
	}
	data, err := (&keyFile{path: path}).read() // cleartext: the 0600 check applies
	if err != nil {
		return nil, err
	}
	h, err := insecurecleartextkeyset.Read(keyset.NewJSONReader(bytes.NewReader(data)))
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: %s is not a Tink JSON keyset: %w", path, err)
	}
	a, err := aead.New(h)
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: %s does not hold an AEAD keyset: %w", path, err)
	}
	return a, nil
}
