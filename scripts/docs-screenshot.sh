#!/usr/bin/env bash
# Renders the reference server's /docs page (and its / landing page) in
# headless Chromium and saves screenshots, to look at the human docs as a
# reader sees them.
#
#   scripts/docs-screenshot.sh [output-dir]     # default: current directory
#
# It builds and starts examples/server on a free port with a throwaway
# SQLite file and key file, waits until it answers, and writes docs.png
# and landing.png. Needs the Debian package chromium (apt-get install
# chromium); TOOLKIT_CHROMIUM overrides the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-.}")
mkdir -p "$out"
chromium=${TOOLKIT_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
  echo "chromium not found: apt-get install chromium (or set TOOLKIT_CHROMIUM)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'kill "${server_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT

go build -o "$work/server" ./examples/server
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$work/server" -addr "127.0.0.1:$port" -db "$work/docs.db" -keys "$work/keys.json" >"$work/server.out" 2>"$work/server.log" &
server_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done

# The flags headless Chromium needs on a machine without a network or a
# sandbox-capable kernel: no background connections, a fresh profile.
shot() {
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-dev-shm-usage \
    --user-data-dir="$work/profile-$1" --hide-scrollbars --window-size=1280,"$2" --virtual-time-budget=20000 \
    --screenshot="$out/$1.png" "$3" 2>>"$work/chromium.log"
}
shot docs 2400 "$base/docs/"
shot landing 1100 "$base/"
echo "wrote $out/docs.png and $out/landing.png"
