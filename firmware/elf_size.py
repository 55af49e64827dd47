#!/usr/bin/env python3
"""Flash and RAM taken by an RP2040 firmware ELF, from its section headers.

Flash: every allocated section placed in flash (0x10000000..), plus .data, whose initial
values are stored in flash and copied to RAM at start. RAM: allocated sections placed in
RAM (0x20000000..): .data, .bss and .uninit (the stack is what remains).
Usage: elf_size.py FILE...
"""
import struct
import sys

SHF_ALLOC = 0x2
FLASH = range(0x10000000, 0x11000000)
RAM = range(0x20000000, 0x20042000)


def sections(path):
    with open(path, "rb") as f:
        elf = f.read()
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        raise SystemExit(f"{path}: not a 32-bit little-endian ELF")
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x2E)
    headers = [struct.unpack_from("<IIIIIIIIII", elf, shoff + i * shentsize) for i in range(shnum)]
    names_at = headers[shstrndx][4]
    for name, _type, flags, addr, _off, size, *_ in headers:
        end = elf.index(b"\0", names_at + name)
        yield elf[names_at + name:end].decode(), flags, addr, size


def sizes(path):
    flash = ram = 0
    for name, flags, addr, size in sections(path):
        if not flags & SHF_ALLOC or size == 0:
            continue
        if addr in FLASH:
            flash += size
        elif addr in RAM:
            ram += size
            if name == ".data":
                flash += size
    return flash, ram


if __name__ == "__main__":
    for path in sys.argv[1:]:
        flash, ram = sizes(path)
        print(f"{path.rsplit('/', 1)[-1]}: flash {flash} bytes ({flash / 1024:.1f} KiB of 2048 KiB), "
              f"RAM {ram} bytes ({ram / 1024:.1f} KiB of 264 KiB, stack not counted)")
