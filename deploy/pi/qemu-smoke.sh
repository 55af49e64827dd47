#!/usr/bin/env bash
# Runs a cross-built arm64 goban-bridge on an x86-64 machine under qemu-user
# before it goes to a Raspberry Pi: `--version`, `check-config`, then `run`
# (in a private network namespace, so that its embedded broker and API meet no
# other) until GET /api/v1/health answers, SIGTERM (clean exit 0), and
# `backup` and `export` of the journal it wrote. Exercises tokio, axum, the
# embedded broker, rustls and SQLite on arm64.
#   deploy/pi/qemu-smoke.sh target/aarch64-unknown-linux-gnu/release/goban-bridge
# Needs root (unshare -n), qemu-user-static and libc6-dev-arm64-cross (the
# arm64 glibc that qemu loads from /usr/aarch64-linux-gnu).
# Not covered: the serial ports. qemu-user 7.2 (Debian bookworm) does not
# translate the termios2 ioctls that the serial crate uses, so opening a port
# fails with "Function not implemented" under qemu; check them on the Pi.
set -euo pipefail

binary="$(realpath "${1:?usage: qemu-smoke.sh path/to/aarch64/goban-bridge}")"
qemu="$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)"
if [ -z "$qemu" ]; then
  echo "skipped: no qemu-aarch64 (apt install qemu-user-static)"
  [ "${CI:-}" = "true" ] && exit 1
  exit 0
fi
export QEMU_LD_PREFIX="${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
run() { "$qemu" "$binary" "$@"; }

file "$binary"
run --version
cat >"$work/pi.toml" <<EOF
[server]
listen = "127.0.0.1:8080"
arbiter_tokens = ["smoke"]
[journal]
path = "$work/pi.sqlite"
[[board]]
id = "table-1"
board_port = "$work/absent-board"   # no device: the daemon runs on, reports it unavailable
clock_port = "$work/absent-clock"
EOF
run check-config "$work/pi.toml"

export qemu binary work
# shellcheck disable=SC2016 # expanded by the inner bash
unshare -n bash -euo pipefail -c '
  ip link set lo up
  "$qemu" "$binary" run --config "$work/pi.toml" >"$work/run.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 60); do
    curl -fsS http://127.0.0.1:8080/api/v1/health >"$work/health.json" 2>/dev/null && break
    sleep 1
  done
  grep -o "\"version\":\"[^\"]*\"" "$work/health.json"
  kill -TERM "$pid"
  wait "$pid"
  echo "qemu-smoke: run answered /api/v1/health, SIGTERM gave exit $?"
' || { tail -n 30 "$work/run.log" >&2; exit 1; }
grep -q "goban-bridge stopped" "$work/run.log"
run backup --journal "$work/pi.sqlite" --out "$work/backup.sqlite"
run export --journal "$work/backup.sqlite" --out "$work/archive"
ls "$work/archive"
echo "qemu-smoke: OK"
