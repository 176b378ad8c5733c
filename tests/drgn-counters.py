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
import os
import re
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
    linked = drgn.Program(drgn.host_platform)
    linked.load_debug_info([vmlinux])
    out["kaslr_offset"] = prog.symbol("_stext").address - linked.symbol("_stext").address
    json.dump(out, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
