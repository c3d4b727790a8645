package bunstore

import "github.com/uptrace/bun"

// DB exposes the Bun handle to this adapter's own tests.
func (s *Store) DB() *bun.DB { return s.db }
