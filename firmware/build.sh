#!/usr/bin/env bash
# Builds the board and clock firmware for the RP2040 (thumbv6m-none-eabi), and the
# protocol crate without std for the same target; reports flash and RAM sizes and, when
# elf2uf2-rs or picotool is installed, writes the UF2 files to flash (docs/hardware.md).
# Skips with a message when the target cannot be installed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
target=thumbv6m-none-eabi

if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
  if ! rustup target add "$target"; then
    echo "skipped: the Rust target $target cannot be installed here (rustup target add $target failed)"
    exit 0
  fi
fi

echo "firmware: goban-protocol without std for $target"
(cd "$root" && cargo build -q -p goban-protocol --no-default-features --target "$target")
(cd "$root" && cargo build -q -p goban-device --target "$target")

echo "firmware: board and clock binaries (release)"
cd "$here/rp2040"
# Its own workspace and lock file; a target dir of its own unless the caller set one.
export CARGO_TARGET_DIR="${FIRMWARE_TARGET_DIR:-${CARGO_TARGET_DIR:-$here/rp2040/target}/rp2040}"
cargo build -q --locked --release --bins
out="$CARGO_TARGET_DIR/$target/release"
python3 "$here/elf_size.py" "$out/board" "$out/clock"

for bin in board clock; do
  if command -v elf2uf2-rs >/dev/null; then
    elf2uf2-rs "$out/$bin" "$out/$bin.uf2" >/dev/null && echo "firmware: $out/$bin.uf2"
  elif command -v picotool >/dev/null; then
    picotool uf2 convert "$out/$bin" -t elf "$out/$bin.uf2" >/dev/null && echo "firmware: $out/$bin.uf2"
  fi
done
echo "firmware: ok"
