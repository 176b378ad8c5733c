#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Walks a dump's memory with drgn the way a reader of a crash does, to find
pages the dump collector left out that a reader needs.

Usage: /usr/bin/python3 tests/drgn-walks.py DUMP VMLINUX

- the slab: every page of the memory map that is a slab's first page, and
  the whole of that slab (its compound tail pages with it) read back;
- the tasks: every task's stack trace.

A page makedumpfile left out reads as drgn.FaultError.  Prints one JSON
object (the counts, and the first faults of each walk, each with what was
being read) and exits 1 when a slab or a stack could not be read (or no
slab or task was found at all), 2 when the walk itself could not start.
"""
import json
import sys

import drgn
from drgn.helpers.linux.mm import PageSlab, compound_order, for_each_page, page_to_pfn, page_to_virt
from drgn.helpers.linux.pid import for_each_task

KEEP = 5  # faults kept per walk; the rest are counted


def slab_walk(prog, out):
    page_size = prog["PAGE_SIZE"].value_()
    for page in for_each_page(prog):
        try:
            if not PageSlab(page):
                continue
            order = compound_order(page).value_()
            addr = page_to_virt(page).value_()
        except drgn.FaultError as e:
            # the struct page itself cannot be read: the memory map is
            # kernel data, never left out, so a hole in it (counted, not
            # failed)
            out["page_faults"] += 1
            if len(out["faults"]) < KEEP:
                out["faults"].append("struct page 0x%x: %s" % (page.value_(), e))
            continue
        size = page_size << order
        out["slabs"] += 1
        out["tail_pages"] += (1 << order) - 1
        try:
            prog.read(addr, size)
            out["slab_bytes"] += size
        except drgn.FaultError as e:
            out["slab_faults"] += 1
            if len(out["faults"]) < KEEP:
                out["faults"].append("slab at pfn 0x%x (order %d): %s" % (page_to_pfn(page).value_(), order, e))


def task_walk(prog, out):
    for task in for_each_task(prog):
        out["tasks"] += 1
        try:
            trace = prog.stack_trace(task)
            out["frames"] += len(trace)
        except (drgn.FaultError, ValueError) as e:
            # a task running on another CPU at the crash has no saved frame
            # to start from (ValueError); a fault is a page left out
            if isinstance(e, ValueError):
                out["no_trace"] += 1
                continue
            out["task_faults"] += 1
            if len(out["faults"]) < KEEP * 2:
                out["faults"].append("task %d (%s): %s" % (task.pid.value_(), task.comm.string_().decode(errors="replace"), e))


def main():
    if len(sys.argv) != 3:
        print("usage: drgn-walks.py DUMP VMLINUX", file=sys.stderr)
        sys.exit(2)
    dump, vmlinux = sys.argv[1:]
    out = {"slabs": 0, "tail_pages": 0, "slab_bytes": 0, "slab_faults": 0, "page_faults": 0,
           "tasks": 0, "frames": 0, "no_trace": 0, "task_faults": 0, "faults": []}
    try:
        prog = drgn.Program()
        prog.set_core_dump(dump)
        prog.load_debug_info([vmlinux])
    except Exception as e:  # drgn's own errors are of several classes
        print("drgn cannot open %s with %s: %s" % (dump, vmlinux, e), file=sys.stderr)
        sys.exit(2)
    out["drgn"] = drgn.__version__
    slab_walk(prog, out)
    task_walk(prog, out)
    json.dump(out, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")
    sys.exit(1 if out["slab_faults"] or out["task_faults"] or not out["slabs"] or not out["tasks"] else 0)


if __name__ == "__main__":
    main()
