# SPDX-License-Identifier: GPL-2.0
"""The program headers of an ELF64 core file (a QEMU dump-guest-memory dump,
/proc/vmcore saved with makedumpfile -E): the one reader of them for the
test tools that edit dumps (tests/dumpcopy.py, tests/damage/generate.py).
Little-endian x86-64 only, as every dump the suite makes."""

import struct

PT_LOAD = 1
PT_NOTE = 4
# Elf64_Phdr: p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz,
# p_memsz, p_align
PHDR = struct.Struct("<IIQQQQQQ")


def table(buf):
    """(e_phoff, e_phentsize, e_phnum) of the ELF64 header in buf."""
    if buf[:4] != b"\x7fELF" or buf[4] != 2:
        raise ValueError("not an ELF64 file")
    phoff, = struct.unpack_from("<Q", buf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", buf, 0x36)
    return phoff, phentsize, phnum


def phdrs(buf):
    """Each program header as a dict: at (its file offset), type, flags,
    off, vaddr, paddr, filesz, memsz, align, raw (its bytes)."""
    phoff, phentsize, phnum = table(buf)
    out = []
    for i in range(phnum):
        at = phoff + i * phentsize
        ptype, flags, off, vaddr, paddr, filesz, memsz, align = PHDR.unpack_from(buf, at)
        out.append(dict(at=at, type=ptype, flags=flags, off=off, vaddr=vaddr, paddr=paddr,
                        filesz=filesz, memsz=memsz, align=align, raw=bytes(buf[at:at + phentsize])))
    return out


def file_offset(headers, paddr):
    """The file offset of physical address paddr, or None when no PT_LOAD
    segment holds it."""
    for ph in headers:
        if ph["type"] == PT_LOAD and ph["paddr"] <= paddr < ph["paddr"] + ph["filesz"]:
            return ph["off"] + paddr - ph["paddr"]
    return None
