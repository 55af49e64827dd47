#!/usr/bin/env bash
# Builds the goban-bridge container image with podman (or docker).
#   deploy/container/build.sh                 multi-stage build from the sources
#   deploy/container/build.sh --prebuilt      uses target/release/goban-bridge (cargo build --release first)
#   deploy/container/build.sh --offline-base  where no registry image can be pulled: the runtime base
#       is made by debootstrap from Debian's own mirror and imported as localhost/debian:bookworm-slim
#       (implies --prebuilt, since no Rust image can be pulled either)
# Then: deploy/container/smoke.sh runs it and waits for the health check.
set -euo pipefail
cd "$(dirname "$0")/../.."

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
  if ! "$engine" image exists "$base" 2>/dev/null; then
    rootfs="$(mktemp -d)"
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian
    tar -C "$rootfs" -c . | "$engine" import - "$base"
    rm -rf "$rootfs"
  fi
  args+=(--build-arg "RUNTIME_IMAGE=$base")
fi
if $prebuilt; then
  [ -x target/release/goban-bridge ] || cargo build --release --locked -p goban-bridge
  args+=(--build-arg BINARY_STAGE=prebuilt)
fi
# podman inside a sandbox without user namespaces builds with chroot isolation.
if [[ "$engine" == *podman ]]; then
  args+=(--isolation "${BUILDAH_ISOLATION:-chroot}")
fi
"$engine" build "${args[@]}" -t "$tag" .
"$engine" image ls "$tag"
