#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A dump server's tree of reports with known groups, for oopslimit-triage.

Usage: triage-tree.py ROOT REPORTS HOSTS EXPECTED.csv

Writes REPORTS reason.json files as ROOT/HOST/STAMP/reason.json over HOSTS
hosts, their signatures drawn from a fixed set with known shares, and
EXPECTED.csv: what `oopslimit-triage --csv ROOT` must print for it (the
groups, most panics first, then by signature).  Deterministic: the same
arguments give the same tree.  The documents carry the members a real
reason.json has (schema 3), so reading them costs what reading real ones does.
"""
import json
import os
import sys

SIGNATURES = [
    # (signature, reason, weight)
    ("warn_limit: WARNING in foo_xmit", "warn_limit", 40),
    ("warn_limit: KASAN: slab-use-after-free Read in bar_show", "warn_limit", 20),
    ("oops_limit: BUG: kernel NULL pointer dereference in baz_probe", "oops_limit", 15),
    ("panic_on_oops: general protection fault in qux_ioctl", "panic_on_oops", 10),
    ("softlockup_panic: BUG: soft lockup in spin_forever", "softlockup_panic", 7),
    ("hung_task_panic: INFO: task hung in wait_done", "hung_task_panic", 5),
    ("panic_on_warn: UBSAN: shift-out-of-bounds in shift_it", "panic_on_warn", 2),
    ("sysrq", "sysrq", 1),
]
RELEASES = ["6.1.0-57-cloud-amd64", "6.1.192", "6.12.57+deb13-amd64", "5.10.0-33-amd64"]


def document(i, sig, reason, release, when):
    site = {"title": sig.split(": ", 1)[-1], "where": "drivers/x.c:10", "function": "foo_xmit",
            "module": None, "origin": "WARN", "counts": "warn_count", "count": 3, "after_panic": 0,
            "first_time": 4.527146, "last_time": 9.1}
    return {
        "schema": 3, "reader": "oopslimit-reason", "kernel_release": release, "live": False,
        "crash_time": when, "panic_message": "kernel: system warned too often (kernel.warn_limit is 3)",
        "reason": reason, "signature": sig, "setting": "warn_limit", "setting_value": 3,
        "origin": "kernel", "detail": None, "consistent": True, "evidence": "warn_count 3 reached warn_limit 3",
        "counters_source": "vmcoreinfo", "has_limits": True, "oops_count": 0, "oops_limit": 10000,
        "oops_headroom": 10000, "warn_count": 3, "warn_limit": 3, "warn_headroom": 0,
        "panic_on_oops": 0, "panic_on_warn": 0, "tainted_mask": 512, "taint": "W",
        "log": {"read": True, "source": "printk ring buffer", "wrapped": False, "warnings": 3,
                "oopses": 0, "sites": [site] * 2},
        "capture": {"status": "complete", "file": "vmcore", "bytes": 10302443, "seconds": 0.41,
                    "time": when},
        "notes": ["report %d" % i],
    }


def main():
    root, n, hosts, expected = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    total = sum(w for _, _, w in SIGNATURES)
    groups = {}
    for i in range(n):
        # a fixed walk through the weights: report i is in group k
        slot = (i * 7919) % total
        for sig, reason, w in SIGNATURES:
            if slot < w:
                break
            slot -= w
        host = "host%04d" % ((i * 31 + len(sig)) % hosts)
        release = RELEASES[(i // 3) % len(RELEASES)]
        day, sec = 1 + i % 28, i % 86400
        when = "2026-11-%02dT%02d:%02d:%02dZ" % (day, sec // 3600, sec // 60 % 60, sec % 60)
        d = os.path.join(root, host, "%s-%06d" % (when.replace(":", ""), i))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "reason.json"), "w") as f:
            json.dump(document(i, sig, reason, release, when), f)
        g = groups.setdefault(sig, {"panics": 0, "hosts": set(), "reasons": [], "releases": [],
                                    "first": when, "last": when})
        g["panics"] += 1
        g["hosts"].add(host)
        for key, v in (("reasons", reason), ("releases", release)):
            if v not in g[key]:
                g[key].append(v)
        g["first"] = min(g["first"], when)
        g["last"] = max(g["last"], when)
    with open(expected, "w") as f:
        f.write("signature,panics,hosts,reasons,kernel_releases,first_crash,last_crash\n")
        for sig in sorted(groups, key=lambda s: (-groups[s]["panics"], s.encode())):
            g = groups[sig]
            f.write('"%s",%d,%d,"%s","%s",%s,%s\n' % (sig, g["panics"], len(g["hosts"]),
                                                   ";".join(sorted(g["reasons"])), ";".join(sorted(g["releases"])),
                                                   g["first"], g["last"]))


main()
