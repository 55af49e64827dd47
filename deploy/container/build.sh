#!/usr/bin/env bash
# Builds the goban-bridge container image with podman (or docker).
#   deploy/container/build.sh                 multi-stage build from the sources
#   deploy/container/build.sh --prebuilt      uses the host's release build ($CARGO_TARGET_DIR or target/)
#   deploy/container/build.sh --offline-base  where no registry image can be pulled: the runtime base
#       is made by debootstrap from Debian's own mirror and imported as localhost/debian:bookworm-slim
#       (implies --prebuilt, since no Rust image can be pulled either)
# Then: deploy/container/smoke.sh runs it and waits for the health check.
set -euo pipefail
cd "$(dirname "$0")/../.."

# A base like Debian's bookworm-slim image, made by debootstrap from Debian's
# mirror: minbase, without documentation, manual pages, locales and apt's
# caches (the same dpkg excludes as the official slim image), security updates on.
make_offline_base() {
  local rootfs
  rootfs="$(mktemp -d)"
  debootstrap --variant=minbase bookworm "$rootfs" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'EXCLUDES'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
EXCLUDES
  cat >"$rootfs/etc/apt/sources.list" <<'SOURCES'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SOURCES
  find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$rootfs"/usr/share/{man,info,lintian}/* "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log
  find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
  tar -C "$rootfs" -c . | "$engine" import --change 'CMD ["bash"]' - "$1"
  rm -rf "$rootfs"
}

engine="${CONTAINER_ENGINE:-$(command -v podman || command -v docker)}"
tag="${IMAGE_TAG:-goban-bridge:latest}"
args=()
prebuilt=false
offline=false
for arg in "$@"; do
  case "$arg" in
    --prebuilt) prebuilt=true ;;
    --offline-base) offline=true; prebuilt=true ;;
    *) echo "unknown option $arg" >&2; exit 2 ;;
  esac
done

if $offline; then
  base=localhost/debian:bookworm-slim
  if ! "$engine" image inspect "$base" >/dev/null 2>&1; then
    make_offline_base "$base"
  fi
  args+=(--build-arg "RUNTIME_IMAGE=$base")
fi
if $prebuilt; then
  # The host's release build, stripped, staged where the build context sees it
  # (.dockerignore lets only this file of target/ through).
  binary="${CARGO_TARGET_DIR:-target}/release/goban-bridge"
  [ -x "$binary" ] || cargo build --release --locked -p goban-bridge
  install -D -m 0755 "$binary" target/container/goban-bridge
  strip target/container/goban-bridge
  args+=(--build-arg BINARY_STAGE=prebuilt)
fi
if [[ "$engine" == *podman ]]; then
  # podman inside a sandbox without user namespaces builds with chroot isolation;
  # the docker image format keeps the HEALTHCHECK (the OCI format drops it).
  args+=(--isolation "${BUILDAH_ISOLATION:-chroot}" --format docker)
fi
"$engine" build "${args[@]}" -t "$tag" .
"$engine" image ls "$tag"
