#!/usr/bin/env bash
# Runs the goban-bridge image built by deploy/container/build.sh and checks what
# an operator relies on: the HEALTHCHECK passes, the process is not root, and
# the journal on the volume survives a restart of the container (the games
# finished before the restart are still listed by GET /api/v1/games after it).
#   deploy/container/smoke.sh
# Environment:
#   CONTAINER_ENGINE   podman or docker (default: whichever is installed)
#   IMAGE_TAG          the image (default goban-bridge:latest)
#   CONTAINER_RUN_ARGS extra `run` options; a sandbox without user namespaces
#                      and with low limits needs, with podman:
#                      "--runtime runc --ulimit nofile=20000:20000 --ulimit nproc=4096:4096"
# Without a container engine it prints "skipped: ..." and exits 0 (exit 1 under CI=true).
# It takes a few minutes (the demo plays until a game finishes), so it is not
# part of `cargo test`; docs/deploy.md describes it.
set -euo pipefail

engine="${CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}"
if [ -z "$engine" ]; then
  echo "skipped: no podman or docker on this machine (apt install podman)"
  [ "${CI:-}" = "true" ] && exit 1
  exit 0
fi
tag="${IMAGE_TAG:-goban-bridge:latest}"
read -r -a run_args <<<"${CONTAINER_RUN_ARGS:-}"
name="goban-bridge-smoke-$$"
volume="goban-bridge-smoke-$$"
port="${SMOKE_PORT:-18080}"

cleanup() {
  "$engine" rm -f "$name" >/dev/null 2>&1 || true
  "$engine" volume rm -f "$volume" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() { echo "smoke: FAILED: $*" >&2; "$engine" logs --tail 30 "$name" >&2 || true; exit 1; }
api() { "$engine" exec "$name" curl -fsS "http://127.0.0.1:8080/api/v1/$1"; }

# The demo: simulated tables, the embedded broker, the journal kept on the
# volume. A high speed so that a game finishes within minutes.
"$engine" volume create "$volume" >/dev/null
"$engine" run -d --name "$name" "${run_args[@]}" \
  -v "$volume:/var/lib/goban-bridge" -p "127.0.0.1:$port:8080" \
  "$tag" demo --listen 0.0.0.0:8080 --boards 2 --speed "${SMOKE_SPEED:-200}" \
  --journal /var/lib/goban-bridge/demo.sqlite >/dev/null

wait_healthy() {
  for _ in $(seq 1 60); do
    if "$engine" healthcheck run "$name" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  return 1
}
wait_healthy || fail "the HEALTHCHECK never passed"
echo "smoke: healthcheck passes ($engine healthcheck run $name)"

user="$("$engine" exec "$name" id -un)"
uid="$("$engine" exec "$name" id -u)"
[ "$uid" != 0 ] || fail "the daemon runs as root"
echo "smoke: runs as $user (uid $uid), not root"

finished_games() { api games | grep -o '"game":"[^"]*"' | sort; }
before=""
for _ in $(seq 1 "${SMOKE_WAIT_S:-300}"); do
  before="$(finished_games || true)"
  [ -n "$before" ] && break
  sleep 1
done
[ -n "$before" ] || fail "no game finished in the demo"
echo "smoke: before the restart, finished games: $(echo "$before" | wc -l)"

"$engine" restart "$name" >/dev/null
wait_healthy || fail "the HEALTHCHECK never passed after the restart"
after="$(finished_games)"
missing="$(comm -23 <(echo "$before") <(echo "$after"))"
[ -z "$missing" ] || fail "games lost across the restart: $missing"
echo "smoke: after the restart, finished games: $(echo "$after" | wc -l), none lost"
"$engine" exec "$name" ls -l /var/lib/goban-bridge/demo.sqlite
echo "smoke: OK"
