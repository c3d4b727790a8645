# Shared by scripts/cluster/{up,down,restart,status}: the cluster's layout
# and the helpers that start, stop and watch its processes. Sourced, not run.
#
# Environment (all optional):
#   TOOLKIT_CLUSTER_DIR      state directory: binary, logs, pid files, key file,
#                            admin key, haproxy.cfg (default ${TMPDIR:-/tmp}/toolkit-cluster)
#   TOOLKIT_CLUSTER_PORT     HAProxy's port (default 8080); server i listens on PORT+i,
#                            its Prometheus metrics on PORT+1000+i, the HAProxy stats page
#                            on PORT+10 and its admin socket on PORT+11
#   TOOLKIT_CLUSTER_SERVERS  how many servers (default 3, at most 9)
#   TOOLKIT_CLUSTER_DB       the Postgres URL every server uses (default: the database
#                            toolkit_cluster on 127.0.0.1:5432, created when missing)
#   TOOLKIT_CLUSTER_FLAGS    extra server flags, e.g. "-rate-key 1000/m"
#   TOOLKIT_ADMIN_KEY        the admin key of every server (default: generated once
#                            into $TOOLKIT_CLUSTER_DIR/admin.key)

set -euo pipefail

CLUSTER_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CLUSTER_DIR=${TOOLKIT_CLUSTER_DIR:-${TMPDIR:-/tmp}/toolkit-cluster}
CLUSTER_PORT=${TOOLKIT_CLUSTER_PORT:-8080}
CLUSTER_SERVERS=${TOOLKIT_CLUSTER_SERVERS:-3}
CLUSTER_STATS_PORT=$((CLUSTER_PORT + 10))
CLUSTER_ADMIN_PORT=$((CLUSTER_PORT + 11))

log() { printf '== %s\n' "$*"; }
die() { printf 'cluster: %s\n' "$*" >&2; exit 1; }

server_port() { echo $((CLUSTER_PORT + $1)); }
metrics_port() { echo $((CLUSTER_PORT + 1000 + $1)); }
server_pid_file() { echo "$CLUSTER_DIR/server-$1.pid"; }

# alive PIDFILE: the process named in PIDFILE runs.
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# need_package COMMAND PACKAGE: install a Debian package when its command is missing.
need_package() {
  command -v "$1" >/dev/null 2>&1 && return 0
  [ "$(id -u)" = 0 ] || die "$1 is missing: install the Debian package $2 (apt-get install $2) as root"
  log "installing $2 (Debian package) for $1"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 bash -c "apt-get update -qq && apt-get install -y -qq $2 >/dev/null" || die "installing $2 failed"
}

# wait_http URL SECONDS: wait until URL answers 200.
wait_http() {
  local deadline=$((SECONDS + $2))
  until curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}

# haproxy_admin COMMAND: send one command to HAProxy's admin socket and print the answer.
haproxy_admin() {
  local fd
  exec {fd}<>"/dev/tcp/127.0.0.1/$CLUSTER_ADMIN_PORT" || return 1
  printf '%s\n' "$1" >&$fd
  cat <&$fd
  exec {fd}>&-
}

# start_server I: start server I in the background and wait until it is ready.
start_server() {
  local i=$1 port flags
  port=$(server_port "$i")
  # shellcheck disable=SC2206
  flags=(${TOOLKIT_CLUSTER_FLAGS:-})
  TOOLKIT_ADMIN_KEY=$(cat "$CLUSTER_DIR/admin.key") nohup "$CLUSTER_DIR/server" \
    -addr "127.0.0.1:$port" -db "$(cat "$CLUSTER_DIR/db.url")" -keys "$CLUSTER_DIR/keys.json" \
    -rate-store -metrics-addr "127.0.0.1:$(metrics_port "$i")" \
    -trusted-proxy-header X-Forwarded-For -trusted-proxies 127.0.0.1/32 \
    -base-url "http://127.0.0.1:$CLUSTER_PORT" -allowed-hosts 127.0.0.1,localhost -log json \
    "${flags[@]}" >>"$CLUSTER_DIR/server-$i.log" 2>&1 &
  echo $! >"$(server_pid_file "$i")"
}

# wait_server I: wait until server I answers /readyz; a server that exits
# first (a port in use, a bad flag) fails at once with the end of its log.
wait_server() {
  local deadline=$((SECONDS + 60)) url
  url="http://127.0.0.1:$(server_port "$1")/readyz"
  until curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; do
    if ! alive "$(server_pid_file "$1")"; then
      tail -n 5 "$CLUSTER_DIR/server-$1.log" >&2
      die "server $1 exited before it was ready; see $CLUSTER_DIR/server-$1.log"
    fi
    [ $SECONDS -lt $deadline ] || die "server $1 is not ready after 60 s; see $CLUSTER_DIR/server-$1.log"
    sleep 0.2
  done
}

# stop_pid PIDFILE SECONDS [SIGNAL]: SIGNAL (default TERM: the server's
# graceful shutdown, in-flight requests finish), then SIGKILL after SECONDS.
stop_pid() {
  local pid deadline=$((SECONDS + $2))
  alive "$1" || { rm -f "$1"; return 0; }
  pid=$(cat "$1")
  kill -"${3:-TERM}" "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.1
  done
  rm -f "$1"
}
