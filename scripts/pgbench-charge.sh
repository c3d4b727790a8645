#!/usr/bin/env bash
# Compares BenchmarkCharge (Go, bunstore, group commit) with pgbench
# running the transaction of one unbatched charge on the same Postgres,
# on one hot balance row.
#   scripts/pgbench-charge.sh [postgres-url]   (default: TOOLKIT_TEST_POSTGRES_URL or the local test database)
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:-${TOOLKIT_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}}
seconds=${SECONDS_PER_RUN:-10}

go run ./scripts/pgbench-charge -db "$url" -schema pgbench_charge
for clients in 1 8; do
  echo "== pgbench, $clients client(s), ${seconds}s"
  PGOPTIONS="-c search_path=pgbench_charge" pgbench -n -M prepared -c "$clients" -j "$clients" -T "$seconds" \
    -f scripts/pgbench-charge/charge.sql "$url" | grep -E "^(tps|latency average)"
done
echo "== go test -bench Charge/postgres (sequential = 1 client, parallel = 8 goroutines per core, group commit)"
TOOLKIT_TEST_POSTGRES_URL="$url" go test -run '^$' -bench '^BenchmarkCharge$/postgres' -benchtime "${seconds}s" ./adapters/bunstore/ \
  | grep -E "^Benchmark"
