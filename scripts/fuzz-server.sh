#!/usr/bin/env bash
# Fuzzes a running reference server over REST and MCP for a while and
# reports its peak memory (robustness issue: "the reference server survives
# 10 minutes of the fuzz target over MCP with RSS under 500 MiB").
#
#   scripts/fuzz-server.sh [duration]     # default 10m
#
# It builds and starts examples/server on a free port with a throwaway
# SQLite file, registers and funds an agent, runs FuzzToolSurfaces against
# it (TOOLKIT_FUZZ_URL / TOOLKIT_FUZZ_KEY) with the rate limits off (a
# 429 would answer before the decoders run), samples the server's RSS every
# second, and prints the peak. The server must still answer at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10m}
work=$(mktemp -d)
trap 'kill "${server_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT

go build -o "$work/server" ./examples/server
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
TOOLKIT_SANDBOX_CREDIT_CAP=1000000 "$work/server" -addr "127.0.0.1:$port" -db "$work/fuzz.db" -log json \
  -rate-key off -rate-ip off -rate-register off -metrics-addr off \
  >"$work/server.out" 2>"$work/server.log" &
server_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 50); do curl -sf "$base/v1/billing/pricing" >/dev/null && break; sleep 0.2; done

key=$(curl -sf -X POST "$base/v1/agents/register" -H 'Content-Type: application/json' \
  -d '{"owner_id":"fuzz","agent_name":"fuzz","agent_type":"trading"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["api_key"])')
curl -sf -X POST "$base/v1/billing/deposit" -H "X-API-Key: $key" \
  -d '{"amount":"1000000","funding_path":"direct_transfer"}' >/dev/null

peak=0
( while kill -0 "$server_pid" 2>/dev/null; do
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$server_pid/status" 2>/dev/null || echo 0)
    echo "$rss"; sleep 1
  done ) >"$work/rss" &

TOOLKIT_FUZZ_URL=$base TOOLKIT_FUZZ_KEY=$key \
  go test ./httpapi -run '^$' -fuzz '^FuzzToolSurfaces$' -fuzztime "$duration" -parallel 2 | tail -3

curl -sf "$base/v1/billing/pricing" >/dev/null || { echo "FAIL: the server stopped answering"; exit 1; }
peak=$(sort -n "$work/rss" | tail -1)
echo "server alive after $duration; peak RSS $((peak / 1024)) MiB"
