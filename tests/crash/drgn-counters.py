#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reads the oops/warn counters and limits of a vmcore with drgn, as an
independent check of "crash> oopslimit".

Usage: /usr/bin/python3 tests/crash/drgn-counters.py VMCORE VMLINUX

Prints one JSON object: each variable's value and running address (null
when the kernel has no such variable or its memory is not in the dump),
the KASLR offset, and "mode": "vmcore" when drgn opened the dump as a
kernel core by itself (it has a VMCOREINFO note: kdump, makedumpfile), or
"scan" for a QEMU memory dump without one.  In scan mode the KASLR offset
and phys_base come from the vmcoreinfo text found by scanning the dump's
physical memory, and the kernel image is mapped by hand.  Either way the
variables are found by drgn's DWARF lookup restricted to their source file.
"""
import json
import mmap
import re
import struct
import sys

import drgn

VARS = [
    # name, defining file, member to read (atomic_t has .counter)
    ("oops_count", "kernel/exit.c", "counter"),
    ("oops_limit", "kernel/exit.c", None),
    ("warn_count", "kernel/panic.c", "counter"),
    ("warn_limit", "kernel/panic.c", None),
    ("panic_on_oops", "kernel/panic.c", None),
    ("panic_on_warn", "kernel/panic.c", None),
    ("tainted_mask", "kernel/panic.c", None),
]
START_KERNEL_MAP = 0xFFFFFFFF80000000


def elf_loads(mm):
    """PT_LOAD segments of an ELF64 core: (file offset, paddr, filesz)."""
    if mm[:4] != b"\x7fELF" or mm[4] != 2:
        raise SystemExit("not an ELF64 file")
    phoff, = struct.unpack_from("<Q", mm, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", mm, 0x36)
    loads = []
    for i in range(phnum):
        p_type, _, p_offset, _, p_paddr, p_filesz = struct.unpack_from(
            "<IIQQQQ", mm, phoff + i * phentsize)
        if p_type == 1:
            loads.append((p_offset, p_paddr, p_filesz))
    return loads


def scan_vmcoreinfo(mm, loads):
    """The kernel's vmcoreinfo text, found in physical memory."""
    size = len(mm)
    for off, _, filesz in loads:
        end = min(off + filesz, size)
        pos = mm.find(b"OSRELEASE=", off, end)
        while pos >= 0:
            text = mm[pos:min(pos + 4096, end)].split(b"\0", 1)[0]
            if b"\nKERNELOFFSET=" in text and b"\nNUMBER(phys_base)=" in text:
                return text.decode("ascii", "replace")
            pos = mm.find(b"OSRELEASE=", pos + 1, end)
    return None


def scan_program(path, vmlinux):
    """A drgn Program over a QEMU ELF dump without a VMCOREINFO note."""
    f = open(path, "rb")
    mm = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
    loads = elf_loads(mm)
    info = scan_vmcoreinfo(mm, loads)
    if info is None:
        raise SystemExit("no vmcoreinfo text in the dump's memory")
    kaslr = int(re.search(r"^KERNELOFFSET=([0-9a-f]+)$", info, re.M).group(1), 16)
    phys_base = int(re.search(r"^NUMBER\(phys_base\)=(-?\d+)$", info, re.M).group(1))

    def read(address, count, offset, physical):
        # address is a link-time kernel-image address (DWARF's view)
        paddr = address + kaslr - START_KERNEL_MAP + phys_base
        for off, start, filesz in loads:
            if start <= paddr and paddr + count <= start + filesz:
                o = off + paddr - start
                if o + count > len(mm):
                    break  # truncated file
                return mm[o:o + count]
        raise drgn.FaultError("not in the dump", address)

    prog = drgn.Program(drgn.host_platform)
    prog.add_memory_segment(START_KERNEL_MAP, 1 << 31, read)
    prog.load_debug_info([vmlinux])
    return prog, kaslr, "scan"


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: drgn-counters.py VMCORE VMLINUX")
    vmcore, vmlinux = sys.argv[1:]
    prog = drgn.Program()
    try:
        prog.set_core_dump(vmcore)
        kernel = bool(prog.flags & drgn.ProgramFlags.IS_LINUX_KERNEL)
    except Exception:
        kernel = False
    if kernel:
        prog.load_debug_info([vmlinux])
        mode, offset = "vmcore", None
    else:
        prog, offset, mode = scan_program(vmcore, vmlinux)

    out = {"mode": mode, "values": {}, "addresses": {}}
    for name, filename, member in VARS:
        try:
            obj = prog.object(name, filename=filename)
        except LookupError:
            out["values"][name] = None
            out["addresses"][name] = None
            continue
        addr = obj.address_ + (offset or 0)
        out["addresses"][name] = "0x%x" % (addr & 0xFFFFFFFFFFFFFFFF)
        try:
            out["values"][name] = (obj.member_(member) if member else obj).value_()
        except drgn.FaultError:
            out["values"][name] = None
    if offset is None:
        # running _stext minus the link-time one
        offset = prog.symbol("_stext").address - linked_stext(vmlinux)
    out["kaslr_offset"] = offset
    json.dump(out, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


def linked_stext(vmlinux):
    """_stext as linked, from the vmlinux alone (a fresh Program, no core)."""
    prog = drgn.Program(drgn.host_platform)
    prog.load_debug_info([vmlinux])
    return prog.symbol("_stext").address


if __name__ == "__main__":
    main()
