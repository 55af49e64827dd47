#!/usr/bin/env bash
# shellcheck disable=SC2317,SC2016 # the part after "in the container" runs there, its checks quoted for eval
# Installs a goban-bridge .deb in a throwaway Debian container and checks what
# the package promises (docs/deploy.md "From the Debian package"): the goban
# user in dialout, the unit enabled, the config root:goban 0640, the sysusers
# file, a binary that runs, and a purge that leaves nothing of the package
# behind but the games (a journal in /var/lib/goban-bridge is kept).
#   deploy/debian/check-deb.sh target/debian/goban-bridge_<version>_amd64.deb
# Environment:
#   CONTAINER_ENGINE   podman or docker (default: whichever is installed)
#   BASE_IMAGE         a Debian bookworm image (default debian:bookworm-slim;
#                      deploy/container/build.sh --offline-base makes
#                      localhost/debian:bookworm-slim where none can be pulled)
#   CONTAINER_RUN_ARGS extra `run` options (see deploy/container/smoke.sh)
# Without a container engine it prints "skipped: ..." and exits 0 (exit 1 under CI=true).
set -euo pipefail

deb="${1:?usage: check-deb.sh path/to/goban-bridge_*.deb}"
[ -f "$deb" ] || { echo "check-deb: no file $deb" >&2; exit 2; }
engine="${CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}"
if [ -z "$engine" ]; then
  echo "skipped: no podman or docker on this machine (apt install podman)"
  [ "${CI:-}" = "true" ] && exit 1
  exit 0
fi
base="${BASE_IMAGE:-debian:bookworm-slim}"
read -r -a run_args <<<"${CONTAINER_RUN_ARGS:-}"

"$engine" run --rm "${run_args[@]}" -v "$(realpath "$deb"):/tmp/goban-bridge.deb:ro" \
  "$base" sh -eu -c "$(sed -n '/^# --- in the container ---$/,$p' "$0")"
exit $?

# --- in the container ---
export DEBIAN_FRONTEND=noninteractive
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1 ($2)"; exit 1; fi; }
apt-get update -qq
apt-get install -y -qq /tmp/goban-bridge.deb >/tmp/install.log 2>&1 || { cat /tmp/install.log; exit 1; }
echo "installed: $(sed -n 's/^Setting up \([^ :]*\).*/\1/p' /tmp/install.log | tr '\n' ' ')"
check "user goban exists, system uid" '[ "$(id -u goban)" -lt 1000 ]'
check "goban is in dialout" 'id -nG goban | grep -qw dialout'
check "goban has no login shell" 'getent passwd goban | grep -q nologin'
check "state directory owned by goban" '[ "$(stat -c %U:%a /var/lib/goban-bridge)" = goban:750 ]'
check "config root:goban 0640" '[ "$(stat -c %U:%G:%a /etc/goban-bridge/goban-bridge.toml)" = root:goban:640 ]'
check "config is a conffile" 'dpkg-query -W -f="\${Conffiles}" goban-bridge | grep -q /etc/goban-bridge/goban-bridge.toml'
unit="$(dpkg -L goban-bridge | grep '/systemd/system/goban-bridge.service$')"
check "unit installed at $unit" '[ -f "$unit" ]'
check "unit enabled for multi-user.target" '[ -L /etc/systemd/system/multi-user.target.wants/goban-bridge.service ]'
check "sysusers file" '[ -f /usr/lib/sysusers.d/goban-bridge.conf ]'
check "udev rules template" '[ -f /usr/share/goban-bridge/99-goban-bridge.rules ]'
check "broker templates" '[ -f /usr/share/goban-bridge/goban.acl ] && [ -f /usr/share/goban-bridge/bridge/central.conf ]'
echo "goban-bridge --version: $(goban-bridge --version)"
check "the default config checks, as goban" 'su -s /bin/sh goban -c "goban-bridge check-config /etc/goban-bridge/goban-bridge.toml"'
apt-get purge -y -qq goban-bridge >/tmp/purge.log 2>&1 || { cat /tmp/purge.log; exit 1; }
check "purge removes the binary" '[ ! -e /usr/bin/goban-bridge ]'
check "purge removes the unit" '[ ! -e "$unit" ] && [ ! -e /etc/systemd/system/multi-user.target.wants/goban-bridge.service ]'
check "purge removes /etc/goban-bridge and the templates" '[ ! -e /etc/goban-bridge ] && [ ! -e /usr/share/goban-bridge ]'
check "purge removes an empty state directory" '[ ! -e /var/lib/goban-bridge ]'
check "dpkg forgets the package" '! dpkg -s goban-bridge >/dev/null 2>&1'
check "the goban user stays (Debian policy)" 'getent passwd goban >/dev/null'
apt-get install -y -qq /tmp/goban-bridge.deb >/dev/null 2>&1
su -s /bin/sh goban -c "echo games > /var/lib/goban-bridge/goban-bridge.sqlite"
apt-get purge -y -qq goban-bridge >/tmp/purge.log 2>&1 || { cat /tmp/purge.log; exit 1; }
check "purge keeps a journal that holds games, and says so" '[ -f /var/lib/goban-bridge/goban-bridge.sqlite ] && grep -q "journal in /var/lib/goban-bridge is kept" /tmp/purge.log'
echo "check-deb: OK"
