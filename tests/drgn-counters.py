#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reads the variables of common/vars.def from a dump with drgn, as an
independent check of the oopslimit readers.

Usage: /usr/bin/python3 tests/drgn-counters.py DUMP VMLINUX

DUMP is a kdump vmcore or a QEMU memory dump; both carry the VMCOREINFO
note, so drgn opens them as kernel cores by itself and handles KASLR.
Prints one JSON object: each variable's value and running address (null
when the kernel has no such variable or its memory is not in the dump), and
the KASLR offset.  Each variable is found by drgn's DWARF lookup restricted
to the file vars.def names, so a static of the same name elsewhere is not
taken.
"""
import json
import mmap
import os
import re
import struct
import sys

import drgn

VARS_DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common", "vars.def")


def variables():
    """(symbol, file) of each OL_VAR line of vars.def."""
    out = []
    with open(VARS_DEF) as f:
        for line in f:
            m = re.match(r'^OL_VAR\(\w+, "(\w+)", "(\w+)", "([^"]+)", (\d), ', line)
            if m:
                out.append((m.group(1), m.group(2), m.group(3)))
    if not out:
        raise SystemExit("no OL_VAR lines in " + VARS_DEF)
    return out


def linked_address(path, name):
    """A symbol's address in the ELF file's own symbol table: where the
    kernel was linked.  Read here, not through a second drgn Program: drgn
    0.0.28 and later index a file's symbols only for a module of a program."""
    return elf_symbol(path, name)[0]


def elf_symbol(path, name):
    """(address, binding) of a symbol in the ELF file's symbol table
    (binding 1: global), or (None, None)."""
    want = name.encode()
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as elf:
        if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
            raise SystemExit(path + ": not a 64-bit little-endian ELF file")
        shoff, = struct.unpack_from("<Q", elf, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
        sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
        for sec in sections:
            if sec[1] != 2:  # SHT_SYMTAB
                continue
            stroff = sections[sec[6]][4]
            for off in range(sec[4], sec[4] + sec[5], 24):
                st_name, st_info, _, _, st_value, _ = struct.unpack_from("<IBBHQQ", elf, off)
                end = elf.find(b"\0", stroff + st_name)
                if elf[stroff + st_name:end] == want:
                    return st_value, st_info >> 4
    if name == "_stext":
        raise SystemExit("%s: no symbol %s in its symbol table" % (path, name))
    return None, None


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: drgn-counters.py DUMP VMLINUX")
    dump, vmlinux = sys.argv[1:]
    prog = drgn.Program()
    prog.set_core_dump(dump)
    if not prog.flags & drgn.ProgramFlags.IS_LINUX_KERNEL:
        raise SystemExit(dump + ": drgn does not see a Linux kernel core (no VMCOREINFO note?)")
    prog.load_debug_info([vmlinux])

    out = {"values": {}, "addresses": {}}
    for key, symbol, filename in variables():
        try:
            obj = prog.object(symbol, filename=filename)
        except LookupError:
            obj = None
            # A global the kernel now defines in another file than vars.def
            # names (7.x moved the x86 NMI settings): one of its name, found
            # by name alone; a file-static is never taken from another file.
            if elf_symbol(vmlinux, symbol)[1] == 1:
                try:
                    obj = prog.object(symbol)
                except LookupError:
                    pass
        if obj is None:
            out["values"][key] = None
            out["addresses"][key] = None
            continue
        out["addresses"][key] = "0x%x" % obj.address_
        kind = obj.type_
        while kind.kind == drgn.TypeKind.TYPEDEF:
            kind = kind.type
        if kind.kind == drgn.TypeKind.STRUCT:  # atomic_t
            obj = obj.counter
        try:
            out["values"][key] = obj.value_()
        except drgn.FaultError:
            out["values"][key] = None
    out["kaslr_offset"] = prog.symbol("_stext").address - linked_address(vmlinux, "_stext")
    json.dump(out, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
