#!/usr/bin/env bash
# Makes the release artifacts of goban-bridge in dist/: per target, a tarball
# (stripped binary, unit, sysusers, default config, templates, docs/deploy.md)
# and a .deb, then SHA256SUMS over all of them.
#   deploy/release.sh                                   this machine's target
#   deploy/release.sh x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu
# A target other than the host's is cross-built as docs/deploy.md section 6 says
# (rustup target add ...; apt install gcc-aarch64-linux-gnu). Needs cargo-deb.
# Set SKIP_BUILD=1 to package binaries already built in $CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

host="$(rustc -vV | sed -n 's/^host: //p')"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("$host")
target_dir="${CARGO_TARGET_DIR:-target}"
mkdir -p dist

# The GNU tool prefix of a target (aarch64-unknown-linux-gnu -> aarch64-linux-gnu).
gnu_prefix() { echo "${1%%-*}-linux-gnu"; }

build() {
  local target="$1" env_name
  if [ "$target" = "$host" ]; then
    cargo build --release --locked -p goban-bridge
    return
  fi
  env_name="$(echo "$target" | tr 'a-z-' 'A-Z_')"
  env "CARGO_TARGET_${env_name}_LINKER=$(gnu_prefix "$target")-gcc" \
    "CC_${target//-/_}=$(gnu_prefix "$target")-gcc" \
    "AR_${target//-/_}=$(gnu_prefix "$target")-ar" \
    cargo build --release --locked -p goban-bridge --target "$target"
}

package() {
  local target="$1" binary strip_tool name stage
  if [ "$target" = "$host" ]; then
    binary="$target_dir/release/goban-bridge"
    strip_tool="strip"
    cargo deb -p goban-bridge --no-build --output dist/
  else
    binary="$target_dir/$target/release/goban-bridge"
    strip_tool="$(gnu_prefix "$target")-strip"
    cargo deb -p goban-bridge --no-build --target "$target" --output dist/
  fi
  name="goban-bridge-$version-$target"
  stage="$(mktemp -d)/$name"
  mkdir -p "$stage"
  "$strip_tool" -o "$stage/goban-bridge" "$binary"
  cp -r deploy/goban-bridge.service deploy/goban-bridge.sysusers deploy/goban-bridge.toml \
    deploy/99-goban-bridge.rules deploy/mosquitto.conf deploy/goban.acl deploy/bridge \
    docs/deploy.md "$stage/"
  tar -C "$(dirname "$stage")" -czf "dist/$name.tar.gz" "$name"
  rm -rf "$(dirname "$stage")"
}

for target in "${targets[@]}"; do
  [ -n "${SKIP_BUILD:-}" ] || build "$target"
  package "$target"
done
(cd dist && sha256sum -- *.tar.gz *.deb >SHA256SUMS)
ls -l dist
