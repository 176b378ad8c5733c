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
import os
import sys

import drgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemudump  # noqa: E402

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
def scan_program(path, vmlinux):
    """A drgn Program over a QEMU ELF dump without a VMCOREINFO note."""
    prog, kaslr, _ = qemudump.program(path, vmlinux)
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
        except Exception:  # FaultError, or it wrapped by a Python read callback
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
