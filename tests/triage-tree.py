#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A dump server's tree of reports with known groups, for oopslimit-triage.

Usage: triage-tree.py ROOT REPORTS HOSTS EXPECTED.csv

Writes REPORTS reports of a fleet of HOSTS hosts as
ROOT/HOST/STAMP/reason.json, and EXPECTED.csv: what

    oopslimit-triage --csv --since 2026-11-01 --until 2026-12-01 ROOT

must print for it (the groups, most panics first, then
by signature).  The crashes run over the 90 days before 2026-12-01, report
i at START + i * 90 days / REPORTS, on 12 kernel releases that follow each
other in time (a fleet updating its kernel), so the window is the last 30
days and the previous window the 30 before.  Planted: a bucket that only
the newest release has (new), one that grows with time (rising), one that
fades, and one on a single host (its share).  Each dump directory (and
its report) has its crash's time, each host's directory its newest dump's,
as on a dump server.  Deterministic: the same arguments give the same tree.  The
documents carry the members a real reason.json has (schema 3), so reading
them costs what reading real ones does.
"""
import calendar
import json
import os
import sys
import time

END = calendar.timegm((2026, 12, 1, 0, 0, 0))
SPAN = 90 * 86400
WINDOW = 30 * 86400

# in Debian's version order (tests/unit/triage.sh checks it with dpkg)
RELEASES = ["5.10.0-30-amd64", "5.10.0-33-amd64", "6.1.0-9-amd64", "6.1.0-28-amd64", "6.1.0-57-amd64",
            "6.1.0-57-cloud-amd64", "6.1.192", "6.12.9+deb13-amd64", "6.12.57+deb13-amd64", "6.12.57+deb13.1-amd64",
            "6.18.1", "7.0.0-rc3"]

SIGNATURES = [
    # (signature, reason, weight): the steady buckets
    ("warn_limit: WARNING in foo_xmit", "warn_limit", 40),
    ("warn_limit: KASAN: slab-use-after-free Read in bar_show", "warn_limit", 20),
    ("oops_limit: BUG: kernel NULL pointer dereference in baz_probe", "oops_limit", 15),
    ("panic_on_oops: general protection fault in qux_ioctl", "panic_on_oops", 10),
    ("softlockup_panic: BUG: soft lockup in spin_forever", "softlockup_panic", 7),
    ("hung_task_panic: INFO: task hung in wait_done", "hung_task_panic", 5),
    ("panic_on_warn: UBSAN: shift-out-of-bounds in \"shift_it\\\"", "panic_on_warn", 2),
    ("sysrq", "sysrq", 1),
]
NEW = ("oops_limit: BUG: unable to handle page fault in new_regression", "oops_limit")
RISING = ("warn_limit: WARNING in rising_leak", "warn_limit")
FADING = ("warn_limit: WARNING in fading_fix", "warn_limit")
ONE_HOST = ("panic_on_warn: WARNING in one_host_only", "panic_on_warn")
SAMPLES = 3


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def report(i, n, hosts):
    """Report i of n: (signature, reason, host, release, time)."""
    t = END - SPAN + i * SPAN // n
    frac = (t - (END - SPAN)) / SPAN
    release = RELEASES[min(len(RELEASES) - 1, int(frac * len(RELEASES)))]
    host = "host%05d" % ((i * 7919) % hosts)
    r = (i * 2654435761) % 1000
    if release == RELEASES[-1] and r < 30:
        sig, reason = NEW
    elif r < 100 * frac * frac:
        sig, reason = RISING
    elif 900 <= r < 900 + 60 * (1 - frac):
        sig, reason = FADING
    elif 980 <= r < 985:
        sig, reason = ONE_HOST
        host = "host%05d" % (hosts - 1)
    else:
        total = sum(w for _, _, w in SIGNATURES)
        slot = (i * 7919) % total
        for sig, reason, w in SIGNATURES:
            if slot < w:
                break
            slot -= w
    return sig, reason, host, release, t


def document(i, sig, reason, release, when):
    site = {"title": sig.split(": ", 1)[-1], "where": "drivers/x.c:10", "function": "foo_xmit",
            "module": None, "origin": "WARN", "counts": "warn_count", "count": 3, "after_panic": 0,
            "first_time": 4.527146, "last_time": 9.1}
    doc = {
        "schema": 3, "reader": "oopslimit-reason", "kernel_release": release, "live": False,
        "crash_time": when, "panic_message": "kernel: system warned too often (kernel.warn_limit is 3)",
        "reason": reason, "signature": sig, "setting": "warn_limit", "setting_value": 3,
        "origin": "kernel", "detail": None, "consistent": True, "evidence": "warn_count 3 reached warn_limit 3",
        "counters_source": "vmcoreinfo", "has_limits": True, "oops_count": i % 5, "oops_limit": 10000,
        "oops_headroom": 10000, "warn_count": 3, "warn_limit": 3, "warn_headroom": 0,
        "panic_on_oops": 0, "panic_on_warn": 0, "tainted_mask": 512, "taint": "W",
        "log": {"read": True, "source": "printk ring buffer", "wrapped": False, "warnings": 3,
                "oopses": 0, "sites": [site] * 2},
        "capture": {"status": "complete", "file": "vmcore", "bytes": 10302443, "seconds": 0.41,
                    "time": when},
        "notes": ["report %d" % i],
    }
    if i % 2:
        # the reports of a newer recorder (issue 40) carry their signature's version
        doc["signature_version"] = 2
    return doc


def stamp_dir(i, host, t):
    return os.path.join(host, "%s-%07d" % (iso(t).replace(":", ""), i))


def main():
    root, n, hosts, expected = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    since, until = END - WINDOW, END
    groups, all_hosts, newest = {}, set(), {}
    for i in range(n):
        sig, reason, host, release, t = report(i, n, hosts)
        d = stamp_dir(i, host, t)
        os.makedirs(os.path.join(root, d), exist_ok=True)
        with open(os.path.join(root, d, "reason.json"), "w") as f:
            f.write(json.dumps(document(i, sig, reason, release, iso(t))))
        # the times a dump server's tree has: each dump written when it crashed
        os.utime(os.path.join(root, d, "reason.json"), (t, t))
        os.utime(os.path.join(root, d), (t, t))
        newest[host] = t
        g = groups.setdefault(sig, {"panics": 0, "previous": 0, "hosts": set(), "reasons": set(), "releases": {},
                                    "seen": set(), "first": None, "last": None, "samples": []})
        g["seen"].add(release)
        if since - WINDOW <= t < since:
            g["previous"] += 1
        if not since <= t < until:
            continue
        all_hosts.add(host)
        g["panics"] += 1
        g["hosts"].add(host)
        g["reasons"].add(reason)
        g["releases"][release] = g["releases"].get(release, 0) + 1
        g["first"] = g["first"] or iso(t)
        g["last"] = iso(t)
        g["samples"] = ([d] + g["samples"])[:SAMPLES]
    for host, t in newest.items():
        os.utime(os.path.join(root, host), (t, t))
    newest = max(RELEASES.index(r) for g in groups.values() for r in g["seen"])
    with open(expected, "w") as f:
        f.write("signature,panics,previous,change,hosts,share,first_release,new,releases,reasons,"
                "first_crash,last_crash,samples,known\n")
        shown = [s for s in groups if groups[s]["panics"]]
        for sig in sorted(shown, key=lambda s: (-groups[s]["panics"], s.encode())):
            g = groups[sig]
            first_rel = min(g["seen"], key=RELEASES.index)
            new = "yes" if g["seen"] == {RELEASES[newest]} else "no"
            rels = ";".join("%s=%d" % (r, g["releases"][r]) for r in sorted(g["releases"], key=RELEASES.index))
            f.write('"%s",%d,%d,%+d,%d,%.4f,"%s",%s,"%s","%s",%s,%s,"%s",""\n' % (
                sig.replace('"', '""'), g["panics"], g["previous"], g["panics"] - g["previous"], len(g["hosts"]),
                len(g["hosts"]) / len(all_hosts), first_rel, new, rels, ";".join(sorted(g["reasons"])),
                g["first"], g["last"], ";".join(g["samples"])))


main()
