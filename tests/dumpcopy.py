#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Damaged copies of a QEMU ELF memory dump (dump-guest-memory -p: with its
VMCOREINFO note and virtual addresses, which drgn opens as a kernel core),
for the damaged-input scenarios.

  dumpcopy.py drop DUMP VMLINUX SYMBOL OUT
      the page holding SYMBOL is missing: the PT_LOAD segment around it is
      split in two that leave it out, as in a dump filtered of that page
  dumpcopy.py cut-log DUMP VMLINUX OUT
      the file ends where the kernel log's ring buffers begin (they are
      allocated high when log_buf_len= is given), as a copy that stopped
      part-way would
  dumpcopy.py move-symbol VMLINUX SYMBOL DELTA OUT
      a copy of the vmlinux whose symbol table puts SYMBOL DELTA bytes away
      (its DWARF untouched): a vmlinux that crash accepts but that does not
      describe the dump, as one from another build of the same source

The new program header table of "drop" replaces the section headers QEMU
writes after the ELF header (crash reads headers only near a file's start).
"""
import mmap
import shutil
import struct
import sys

import drgn

import elfcore

PAGE = 4096
START_KERNEL_MAP = 0xFFFFFFFF80000000


def program(dump, vmlinux):
    prog = drgn.Program()
    prog.set_core_dump(dump)
    prog.load_debug_info([vmlinux])
    return prog


def to_phys(prog, address):
    """Physical address of a kernel image or direct-map address."""
    if address >= START_KERNEL_MAP:
        # phys_base is an assembler symbol: no DWARF object to read it by
        # (an unsigned long: "negative" when the kernel runs below its link address)
        phys_base = prog.read_u64(prog.symbol("phys_base").address)
        return (address - START_KERNEL_MAP + phys_base) & 0xFFFFFFFFFFFFFFFF
    return address - prog["page_offset_base"].value_()


def phdrs(mm):
    try:
        return elfcore.phdrs(mm)
    except ValueError as e:
        raise SystemExit(str(e))


def drop(dump, vmlinux, symbol, out):
    prog = program(dump, vmlinux)
    page = to_phys(prog, prog.symbol(symbol).address) & ~(PAGE - 1)
    with open(dump, "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)

    headers, split = [], False
    old = phdrs(mm)
    phentsize = elfcore.table(mm)[1]
    for ph in old:
        p_flags, p_offset, p_vaddr, p_paddr, p_filesz, p_align = (
            ph["flags"], ph["off"], ph["vaddr"], ph["paddr"], ph["filesz"], ph["align"])
        if ph["type"] == elfcore.PT_LOAD and p_paddr <= page < p_paddr + p_filesz:
            before = page - p_paddr
            after = p_filesz - before - PAGE
            if before:
                headers.append(elfcore.PHDR.pack(elfcore.PT_LOAD, p_flags, p_offset, p_vaddr,
                                                 p_paddr, before, before, p_align))
            if after > 0:
                skip = before + PAGE
                headers.append(elfcore.PHDR.pack(elfcore.PT_LOAD, p_flags, p_offset + skip,
                                                 p_vaddr + skip if p_vaddr else 0,
                                                 p_paddr + skip, after, after, p_align))
            split = True
        else:
            headers.append(ph["raw"])
    if not split:
        raise SystemExit("physical page %#x is in no PT_LOAD segment" % page)
    start = 0x40
    first_data = min(struct.unpack_from("<Q", h, 8)[0] for h in headers)
    if start + len(headers) * phentsize > first_data:
        raise SystemExit("no room for %d program headers" % len(headers))
    shutil.copyfile(dump, out)
    with open(out, "r+b") as f:
        f.seek(start)
        for h in headers:
            f.write(h)
        f.seek(0x20)
        f.write(struct.pack("<QQ", start, 0))  # e_phoff, e_shoff
        f.seek(0x38)
        f.write(struct.pack("<HHHH", len(headers), 0x40, 0, 0))  # phnum, shentsize, shnum, shstrndx
    print("%s: page %#x (%s) left out" % (out, page, symbol))


def cut_log(dump, vmlinux, out):
    prog = program(dump, vmlinux)
    prb = prog["prb"]
    rings = [prb.desc_ring.descs.value_(), prb.desc_ring.infos.value_(),
             prb.text_data_ring.data.value_()]
    low = min(rings)
    if low >= START_KERNEL_MAP:
        raise SystemExit("the log is in the kernel image (no log_buf_len=?): nothing to cut")
    with open(dump, "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
    size = elfcore.file_offset(phdrs(mm), to_phys(prog, low))
    if size is None:
        raise SystemExit("the log is not in the dump")
    with open(dump, "rb") as src, open(out, "wb") as dst:
        left = size
        while left:
            chunk = src.read(min(left, 1 << 24))
            if not chunk:
                break
            dst.write(chunk)
            left -= len(chunk)
    print("%s: cut at %d bytes, where the log begins (physical %#x)" % (out, size, to_phys(prog, low)))


def move_symbol(vmlinux, symbol, delta, out):
    shutil.copyfile(vmlinux, out)
    with open(out, "r+b") as f:
        data = f.read()
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
        for i in range(shnum):
            (_, sh_type, _, _, sh_offset, sh_size, sh_link, _, _,
             sh_entsize) = struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            if sh_type == 2:  # SHT_SYMTAB
                break
        else:
            raise SystemExit("no symbol table in " + vmlinux)
        str_offset, = struct.unpack_from("<Q", data, shoff + sh_link * shentsize + 0x18)
        moved = 0
        for off in range(sh_offset, sh_offset + sh_size, sh_entsize):
            st_name, = struct.unpack_from("<I", data, off)
            end = data.index(b"\0", str_offset + st_name)
            if data[str_offset + st_name:end] == symbol.encode():
                value, = struct.unpack_from("<Q", data, off + 8)
                f.seek(off + 8)
                f.write(struct.pack("<Q", (value + int(delta, 0)) & (2**64 - 1)))
                moved += 1
    if moved != 1:
        raise SystemExit("%d symbols named %s" % (moved, symbol))
    print("%s: %s moved by %s" % (out, symbol, delta))


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "drop":
        drop(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "cut-log":
        cut_log(*sys.argv[2:])
    elif len(sys.argv) == 6 and sys.argv[1] == "move-symbol":
        move_symbol(*sys.argv[2:])
    else:
        raise SystemExit("usage: dumpcopy.py drop DUMP VMLINUX SYMBOL OUT | cut-log DUMP VMLINUX OUT"
                         " | move-symbol VMLINUX SYMBOL DELTA OUT")


if __name__ == "__main__":
    main()
