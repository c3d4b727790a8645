package tinkkeys

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/tink-crypto/tink-go/v2/insecurecleartextkeyset"
	"github.com/tink-crypto/tink-go/v2/keyset"
	"github.com/tink-crypto/tink-go/v2/tink"
)

// fileFormat names version 1 of the key file.
const fileFormat = "agentfin-keys-v1"

// The protections a key file can have.
const (
	protectionCleartext = "cleartext"
	protectionKEK       = "kek"
)

// maxFileSize bounds a key file; one holding hundreds of master keys is
// well under it.
const maxFileSize = 1 << 20

// fileMode is the mode of every key file written.
const fileMode = 0o600

// fileContents is the JSON of a key file.
type fileContents struct {
	Format     string          `json:"format"`
	Protection string          `json:"protection"`
	Master     json.RawMessage `json:"master"`
	Lookup     json.RawMessage `json:"lookup"`
}

// keyFile is where and how a KeyManager's keysets are stored.
type keyFile struct {
	path string
	kek  tink.AEAD // nil: cleartext
	ad   []byte
}

func (f *keyFile) protection() string {
	if f.kek == nil {
		return protectionCleartext
	}
	return protectionKEK
}

// keysetAD is the associated data a keyset of the given role ("master" or
// "lookup") is encrypted with, so the two cannot be swapped.
func (f *keyFile) keysetAD(role string) []byte {
	return append([]byte(fileFormat+"/"+role+"/"), f.ad...)
}

// LoadOrCreateDevKeys loads the cleartext key file at path, creating it
// with fresh keysets if it does not exist. It is for development: the keys
// sit unencrypted on disk. The file is created atomically with mode 0600
// (missing parent directories with 0700) and is never overwritten, so two
// processes starting at once end up with the same keys. An existing file
// whose mode grants any group or other permission is refused (chmod 600);
// a KEK-protected file is refused (use LoadEncryptedKeys).
func LoadOrCreateDevKeys(path string, opts ...Option) (*KeyManager, error) {
	f := &keyFile{path: path}
	if path == "" {
		return nil, errors.New("tinkkeys: key file path is empty")
	}
	km, err := f.load(opts)
	if !errors.Is(err, fs.ErrNotExist) {
		return km, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("tinkkeys: key file directory: %w", err)
	}
	km, err = f.create(opts)
	if errors.Is(err, fs.ErrExist) { // another process created it first
		return f.load(opts)
	}
	return km, err
}

// CreateEncryptedKeys generates fresh keysets, writes them to a new key
// file at path encrypted under kek with the deployment name ad (non-empty),
// and returns their KeyManager. It refuses to overwrite an existing file.
func CreateEncryptedKeys(path string, kek tink.AEAD, ad []byte, opts ...Option) (*KeyManager, error) {
	f, err := encryptedFile(path, kek, ad)
	if err != nil {
		return nil, err
	}
	return f.create(opts)
}

// LoadEncryptedKeys loads a key file written by CreateEncryptedKeys or
// ExportEncrypted. A wrong kek or ad fails; a cleartext file is refused.
func LoadEncryptedKeys(path string, kek tink.AEAD, ad []byte, opts ...Option) (*KeyManager, error) {
	f, err := encryptedFile(path, kek, ad)
	if err != nil {
		return nil, err
	}
	return f.load(opts)
}

// ExportEncrypted writes km's current keysets to a new key file at path,
// encrypted under kek with the deployment name ad, refusing to overwrite an
// existing file. It moves a development key file, and the data sealed
// under it, to production protection; the KeyManager keeps using its own
// file.
func (km *KeyManager) ExportEncrypted(path string, kek tink.AEAD, ad []byte) error {
	f, err := encryptedFile(path, kek, ad)
	if err != nil {
		return err
	}
	km.mu.Lock()
	defer km.mu.Unlock()
	data, err := f.encode(km.state.Load().handle, km.lookupKS)
	if err != nil {
		return err
	}
	return writeFile(path, data, false)
}

func encryptedFile(path string, kek tink.AEAD, ad []byte) (*keyFile, error) {
	switch {
	case path == "":
		return nil, errors.New("tinkkeys: key file path is empty")
	case kek == nil:
		return nil, errors.New("tinkkeys: a key-encryption key (KEK) is required")
	case len(ad) == 0:
		return nil, errors.New("tinkkeys: associated data is required: name the deployment, e.g. \"prod/agentfin-keys\"")
	}
	return &keyFile{path: path, kek: kek, ad: bytes.Clone(ad)}, nil
}

// create writes fresh keysets to a new file and returns their KeyManager.
func (f *keyFile) create(opts []Option) (*KeyManager, error) {
	master, lookup, err := NewKeysets()
	if err != nil {
		return nil, err
	}
	km, err := New(master, lookup, opts...)
	if err != nil {
		return nil, err
	}
	data, err := f.encode(master, lookup)
	if err != nil {
		return nil, err
	}
	if err := writeFile(f.path, data, false); err != nil {
		return nil, err
	}
	km.file = f
	return km, nil
}

// load reads the file and returns its KeyManager. A missing file gives an
// error matching fs.ErrNotExist.
func (f *keyFile) load(opts []Option) (*KeyManager, error) {
	data, err := f.read()
	if err != nil {
		return nil, err
	}
	var c fileContents
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("tinkkeys: %s is not a key file: %w", f.path, err)
	}
	if c.Format != fileFormat {
		return nil, fmt.Errorf("tinkkeys: %s has format %q, want %q", f.path, c.Format, fileFormat)
	}
	switch {
	case c.Protection == protectionKEK && f.kek == nil:
		return nil, fmt.Errorf("tinkkeys: %s is encrypted under a KEK: load it with LoadEncryptedKeys", f.path)
	case c.Protection == protectionCleartext && f.kek != nil:
		return nil, fmt.Errorf("tinkkeys: %s holds cleartext keys: load it with LoadOrCreateDevKeys, "+
			"or move it to KEK protection with ExportEncrypted", f.path)
	case c.Protection != protectionKEK && c.Protection != protectionCleartext:
		return nil, fmt.Errorf("tinkkeys: %s has unknown protection %q", f.path, c.Protection)
	}
	master, err := f.readKeyset(c.Master, "master")
	if err != nil {
		return nil, err
	}
	lookup, err := f.readKeyset(c.Lookup, "lookup")
	if err != nil {
		return nil, err
	}
	km, err := New(master, lookup, opts...)
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: %s: %w", f.path, err)
	}
	km.file = f
	return km, nil
}

// read returns the file's bytes. A cleartext file must not be readable or
// writable by group or others.
func (f *keyFile) read() ([]byte, error) {
	file, err := os.Open(f.path)
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: open key file: %w", err)
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: key file: %w", err)
	}
	if f.kek == nil && runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("tinkkeys: key file %s has mode %04o; it holds cleartext keys and "+
			"must be readable by its owner only (chmod 600)", f.path, st.Mode().Perm())
	}
	data, err := io.ReadAll(io.LimitReader(file, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: read key file: %w", err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("tinkkeys: key file %s is larger than %d bytes", f.path, maxFileSize)
	}
	return data, nil
}

func (f *keyFile) readKeyset(raw json.RawMessage, role string) (*keyset.Handle, error) {
	r := keyset.NewJSONReader(bytes.NewReader(raw))
	if f.kek == nil {
		h, err := insecurecleartextkeyset.Read(r)
		if err != nil {
			return nil, fmt.Errorf("tinkkeys: %s: %s keyset: %w", f.path, role, err)
		}
		return h, nil
	}
	h, err := keyset.ReadWithAssociatedData(r, f.kek, f.keysetAD(role))
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: %s: cannot decrypt the %s keyset (wrong KEK or associated data?): %w",
			f.path, role, err)
	}
	return h, nil
}

// encode returns the file contents for the two keysets.
func (f *keyFile) encode(master, lookup *keyset.Handle) ([]byte, error) {
	c := fileContents{Format: fileFormat, Protection: f.protection()}
	var err error
	if c.Master, err = f.writeKeyset(master, "master"); err != nil {
		return nil, err
	}
	if c.Lookup, err = f.writeKeyset(lookup, "lookup"); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: encode key file: %w", err)
	}
	return append(data, '\n'), nil
}

func (f *keyFile) writeKeyset(h *keyset.Handle, role string) (json.RawMessage, error) {
	var buf bytes.Buffer
	w := keyset.NewJSONWriter(&buf)
	var err error
	if f.kek == nil {
		err = insecurecleartextkeyset.Write(h, w)
	} else {
		err = h.WriteWithAssociatedData(w, f.kek, f.keysetAD(role))
	}
	if err != nil {
		return nil, fmt.Errorf("tinkkeys: write %s keyset: %w", role, err)
	}
	return buf.Bytes(), nil
}

// writeFile writes data to path atomically with mode 0600: to a temporary
// file in the same directory, synced, then renamed over path (replace) or
// hard-linked to path, which fails with fs.ErrExist if path exists.
func writeFile(path string, data []byte, replace bool) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("tinkkeys: write key file: %w", err)
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name()) // gone already after a rename; the link's source otherwise
	}()
	if err := tmp.Chmod(fileMode); err != nil {
		return fmt.Errorf("tinkkeys: write key file: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("tinkkeys: write key file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("tinkkeys: write key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("tinkkeys: write key file: %w", err)
	}
	if replace {
		err = os.Rename(tmp.Name(), path)
	} else {
		err = os.Link(tmp.Name(), path)
	}
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("tinkkeys: key file %s already exists: %w", path, fs.ErrExist)
		}
		return fmt.Errorf("tinkkeys: write key file: %w", err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename or link durable where the platform allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // not supported everywhere; the data itself is synced
		d.Close()
	}
}
