#!/usr/bin/env bash
# Measures the reference server over HTTP on SQLite and on Postgres with
# scripts/loadtest: free GET /v1/billing/pricing, metered
# POST /v1/sizing/calculate from 8 agents and from 1 agent, 32 connections,
# 8 s each; req/s, p50/p99, status counts and the metered/pricing ratios.
#   scripts/load-metered.sh [postgres-url]
# (default: TOOLKIT_TEST_POSTGRES_URL or the local test database; the run
# uses a fresh schema "loadtest" in it). STORES="sqlite" or "postgres"
# runs one store; CONNS, DURATION, WARMUP and AGENTS override 32, 8s, 1s
# and 8. A summary of both stores closes the run. CI runs it briefly and
# only reports it (.ci/run): the figures are never asserted.
# The server runs with the rate limits off and sandbox self-credit raised
# so the agents can pay for every call. The load generator shares the
# machine with the server: compare figures from the same run only.
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:-${TOOLKIT_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}}
stores=${STORES:-sqlite postgres}
conns=${CONNS:-32}
duration=${DURATION:-8s}
agents=${AGENTS:-8}
warmup=${WARMUP:-1s}
port=${PORT:-18080}
fund=100000

work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/server" ./examples/server
go build -o "$work/loadtest" ./scripts/loadtest

# start_server DB: runs the server on $port against DB and waits for it.
start_server() {
  "$work/server" -addr "127.0.0.1:$port" -db "$1" -keys "$work/keys.json" -log json -metrics-addr off \
    -rate-key off -rate-ip off -rate-register off -rate-auth-failures off \
    -sandbox-credit=true -sandbox-credit-cap "$fund" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    if curl -fsS "http://127.0.0.1:$port/v1/billing/pricing" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "the server did not start; its log:" >&2
  cat "$work/server.log" >&2
  exit 1
}

stop_server() {
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

for store in $stores; do
  case $store in
  sqlite) db="$work/toolkit.db" ;;
  postgres)
    psql -q -v ON_ERROR_STOP=1 "$url" -c 'SET client_min_messages = warning' -c 'DROP SCHEMA IF EXISTS loadtest CASCADE' -c 'CREATE SCHEMA loadtest'
    case $url in *\?*) db="$url&search_path=loadtest" ;; *) db="$url?search_path=loadtest" ;; esac
    ;;
  *) echo "unknown store $store (sqlite or postgres)" >&2; exit 2 ;;
  esac
  start_server "$db"
  "$work/loadtest" -url "http://127.0.0.1:$port" -label "$store" -c "$conns" -d "$duration" -warmup "$warmup" \
    -agents "$agents" -fund "$fund" | tee -a "$work/results.txt"
  stop_server
done
echo
echo "== summary ($conns connections, $duration per scenario; metered = POST /v1/sizing/calculate)"
grep -v ' connections, ' "$work/results.txt"
