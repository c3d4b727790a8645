package tinkkeys

import (
	"errors"
	"fmt"

	"github.com/tink-crypto/tink-go/v2/keyset"
)

// Rotate adds a new master key, makes it the primary, rewrites the key file
// atomically and switches this KeyManager to the new keyset. Data sealed
// before stays readable; data sealed after carries the new key id. It
// returns the new key id. With several processes sharing the key file use
// AddKey and Promote instead (see the package documentation).
func (km *KeyManager) Rotate() (uint32, error) {
	return km.change(func(m *keyset.Manager) (uint32, error) {
		id, err := addMasterKey(m)
		if err != nil {
			return 0, err
		}
		return id, m.SetPrimary(id)
	})
}

// AddKey adds a new master key that is not yet the primary, rewrites the
// key file and switches this KeyManager to the new keyset: the first step
// of a rotation across several processes. Once every process has loaded
// the file, Promote makes the key the primary. It returns the new key id.
func (km *KeyManager) AddKey() (uint32, error) {
	return km.change(addMasterKey)
}

// Promote makes the master key keyID (from AddKey) the primary, rewrites
// the key file and switches this KeyManager to the new keyset.
func (km *KeyManager) Promote(keyID uint32) error {
	_, err := km.change(func(m *keyset.Manager) (uint32, error) {
		return keyID, m.SetPrimary(keyID)
	})
	return err
}

func addMasterKey(m *keyset.Manager) (uint32, error) {
	tmpl, err := masterTemplate()
	if err != nil {
		return 0, err
	}
	return m.Add(tmpl)
}

// change applies edit to a copy of the master keyset, checks the result,
// writes the key file and only then installs the new keyset with an empty
// cache. On any error nothing changes, on disk or in memory.
func (km *KeyManager) change(edit func(*keyset.Manager) (uint32, error)) (uint32, error) {
	if km.file == nil {
		return 0, errors.New("tinkkeys: this KeyManager has no key file (built by New): " +
			"rotate the keysets where they are stored")
	}
	km.mu.Lock()
	defer km.mu.Unlock()
	m := keyset.NewManagerFromHandle(km.state.Load().handle)
	id, err := edit(m)
	if err != nil {
		return 0, fmt.Errorf("tinkkeys: change master keyset: %w", err)
	}
	h, err := m.Handle()
	if err != nil {
		return 0, fmt.Errorf("tinkkeys: change master keyset: %w", err)
	}
	s, err := km.newState(h)
	if err != nil {
		return 0, err
	}
	data, err := km.file.encode(h, km.lookupKS)
	if err != nil {
		return 0, err
	}
	if err := writeFile(km.file.path, data, true); err != nil {
		return 0, err
	}
	km.state.Store(s)
	return id, nil
}
