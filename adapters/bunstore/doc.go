// Package bunstore implements the toolkit's stores (agents.Store,
// billing.Store, support.Store, guardian.Store, workspace.Store,
// broker.Store) and their change feed (agents.ChangeFeed) with Bun on
// SQLite (the embedded default) or PostgreSQL, from one DSN. Migrations
// are compiled in and run at Open.
//
// # SQLite driver
//
// SQLite runs in process through github.com/ncruces/go-sqlite3: SQLite
// translated to Go by wasm2go, no cgo, so `go run` and CGO_ENABLED=0
// builds work wherever Go does. The build tags sqlite_modernc
// (modernc.org/sqlite, the default until November 2026) and sqlite_mattn
// (github.com/mattn/go-sqlite3, cgo) link the others instead; all three
// pass the store suite (adapters/storetest). Measured on the 2-core
// machine under bun, the code of this package alike (CPU per charge is
// perf's task-clock over 2,700 charges of BenchmarkCharge/sqlite, the
// median of three runs; the machine was shared, so compare columns, not
// runs):
//
//	driver                      module cache  CPU/charge   CPU/charge   cgo
//	                            (unpacked +   sequential   parallel
//	                            zips)
//	ncruces/go-sqlite3 v0.37.0     10 MB        159 µs       106 µs     no
//	modernc.org/sqlite v1.46.1    395 MB        187 µs       186 µs     no
//	mattn/go-sqlite3 v1.14.34      14 MB        123 µs        93 µs     yes
//
// mattn is the fastest, but needs a C compiler at build time (a plain
// `go run` on a machine without one fails) and cannot cross-compile
// without one: not a wide enough margin for that. ncruces is within 1.3x
// of it, spends 15 % less CPU than modernc on a lone charge and 43 % less
// under concurrency, and is 40 times smaller to download (its SQLite is
// one large generated package: about 40 s of one core to compile once).
// docs/operations.md has the HTTP figures and the cold-start times.
//
// SQLite's charges are written by one committer on its own connection
// with every statement prepared once (charge_sqlite.go). Reads go through
// a pool of connections kept open; the reads of the metered hot path
// (the agent behind a key, the pre-charge check) are served from the
// services' caches, kept fresh by the change feed (changes.go), so the
// pool's page caches, emptied by SQLite whenever another connection has
// committed, are rarely used.
//
// # Postgres
//
// Charges are group-committed on one connection, a batch of any size in
// one round trip: its transaction control and one call of the
// bunstore_charge_batch function, which a migration creates
// (charge_batch.go, charge_postgres.go); agent changes are
// announced with NOTIFY inside their transaction and heard on one LISTEN
// connection per store.
package bunstore
