#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Runs readers on every damaged variant of a dump and sorts what they did.

For each variant generate.py makes (one at a time, in one working copy in a
scratch directory with nothing beside it), each reader runs under a time
limit:

  recorder   RECORDER -j - VARIANT, and again with -l LOG when given
             (build it with -fsanitize=address,undefined)
  crash      crash --minimal -s -x --kaslr auto VMLINUX VARIANT with
             "oopslimit -j" (CRASH_EXTENSIONS=EXTDIR)
  olread     OLREAD -v -d VARIANT: the recorder's reading layer alone

and each run is one of: report (it wrote a report), error (it refused,
saying why), or a failure: signal, sanitizer, hang, invalid-json,
wrong-verdict (consistent true with a reason the original dump does not
have, or with a counter other than the original's that no note names),
silent-change (the same, not consistent), silent-error (failed without
saying why).  A counter other than the original's is no failure when a
note (or dump_read_error) names it.  The original dump is read first; its report is what
the variants are held to.  Exit status 0 when no run failed.

  sweep.py --dump VMCORE [--log LOG] [--recorder BIN] [--crash VMLINUX EXTDIR]
           [--olread BIN] [--seed N] [--timeout S] [--only REGEX] [--keep DIR]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

COUNTERS = ("oops_count", "oops_limit", "warn_count", "warn_limit", "panic_on_oops",
            "panic_on_warn", "tainted_mask")
SANITIZER = re.compile(r"(ERROR: (Address|Leak|Memory)Sanitizer|runtime error:|"
                       r"UndefinedBehaviorSanitizer|SUMMARY: \w+Sanitizer)")
FAILURES = ("signal", "sanitizer", "hang", "invalid-json", "wrong-verdict", "silent-change",
            "silent-error")
# crash 8.0.2 itself dies or hangs on some damaged files before any extension
# runs; a crash run that fails so is run again without the extension, and
# when that fails too, the failure is crash's, counted apart.
CRASH_ITSELF = "crash-itself"


def run(cmd, timeout, env=None, stdin=None):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=stdin or subprocess.DEVNULL, capture_output=True,
                           timeout=timeout, env=env)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = None, e.stdout or b"", e.stderr or b""
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), \
        time.monotonic() - t0


def json_in(text):
    """The one JSON object in text (crash prints other lines around it)."""
    text = text.strip()
    if text.startswith("{"):
        return json.loads(text)
    start, end = text.find("\n{"), text.rfind("\n}")
    if start < 0 or end < start:
        raise ValueError("no JSON object")
    return json.loads(text[start + 1:end + 2])


def judge(rc, out, err, base, need_json, msg_on_stdout=False):
    """(class, detail) of one run."""
    if rc is None:
        return "hang", "still running at the time limit"
    m = SANITIZER.search(err) or SANITIZER.search(out)
    if m:
        line = next((ln for ln in (err + out).splitlines() if SANITIZER.search(ln)), m.group(0))
        return "sanitizer", line.strip()[:200]
    if rc < 0 or rc >= 128:
        return "signal", f"status {rc}"
    doc = None
    if out.strip() or (rc == 0 and need_json):
        try:
            doc = json_in(out)
        except ValueError as e:
            if rc == 0 or need_json == "always":
                return "invalid-json", str(e)[:200]
    if doc is None:
        msg = err.strip().splitlines() or (out.strip().splitlines() if msg_on_stdout else [])
        if not msg:
            return "silent-error", f"status {rc} and nothing on stderr"
        return "error", msg[-1][:200]
    if not isinstance(doc, dict):
        return "invalid-json", "not an object"
    if base and doc.get("consistent") is True and doc.get("reason") != base.get("reason"):
        return "wrong-verdict", (f"reason {doc.get('reason')!r}, consistent, where the dump "
                                 f"says {base.get('reason')!r}")
    if base:
        # a counter other than the original's must be named by a note (or dump_read_error)
        said = " ".join(doc.get("notes") or []) + " " + (doc.get("dump_read_error") or "")
        for k in COUNTERS:
            if doc.get(k) is not None and base.get(k) is not None and doc[k] != base[k] and \
                    not re.search(r"\b%s\b" % k, said):
                if doc.get("consistent") is True:
                    return "wrong-verdict", f"{k} {doc[k]}, consistent, where the dump says {base[k]}"
                return "silent-change", f"{k} {doc[k]} where the dump says {base[k]}, and no note says so"
    return "report", f"reason {doc.get('reason')}, consistent {doc.get('consistent')}"


def sample_by_kind(vs, n, seed):
    """n of the variants vs, seeded: each kind (the name up to its first "-")
    with its share of n, at least one; in their original order."""
    kinds = {}
    for v in vs:
        kinds.setdefault(v[0].split("-")[0], []).append(v)
    rnd = generate.random.Random(seed)
    keep = set()
    for kind in sorted(kinds):
        members = sorted(v[0] for v in kinds[kind])
        take = max(1, round(n * len(members) / len(vs)))
        keep.update(rnd.sample(members, min(take, len(members))))
    return [v for v in vs if v[0] in keep]


class Reader:
    def __init__(self, name, argv_of, need_json, env=None, stdin=None):
        self.name, self.argv_of, self.need_json, self.env, self.stdin = \
            name, argv_of, need_json, env, stdin
        self.bare = None	# crash without the extension, to tell whose failure it is
        self.sample = None	# the variants this reader runs on, None for all
        self.base = None
        self.counts = {}
        self.failures = []
        self.itself = []
        self.seconds = 0.0

    def once(self, path, timeout):
        stdin = open(self.stdin) if self.stdin else None
        try:
            return run(self.argv_of(path), timeout, self.env, stdin)
        finally:
            if stdin:
                stdin.close()


def olread_judge(rc, out, err):
    if rc is None:
        return "hang", "still running at the time limit"
    if SANITIZER.search(err):
        return "sanitizer", next(ln for ln in err.splitlines() if SANITIZER.search(ln))[:200]
    if rc < 0 or rc >= 128:
        return "signal", f"status {rc}"
    if rc != 0 and not err.strip():
        return "silent-error", f"status {rc} and nothing on stderr"
    return ("report" if rc == 0 else "error"), (err.strip().splitlines() or [""])[-1][:200]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dump", required=True)
    ap.add_argument("--log", help="the dump's vmcore-dmesg.txt, for a second recorder run")
    ap.add_argument("--recorder")
    ap.add_argument("--crash", nargs=2, metavar=("VMLINUX", "EXTDIR"))
    ap.add_argument("--olread")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--only", help="a regular expression: the variants to run")
    ap.add_argument("--crash-sample", type=int, metavar="N",
                    help="run crash on N variants picked by the seed, not on all")
    ap.add_argument("--sample", type=int, metavar="N",
                    help="N of the variants (by --seed), as many of each kind as its share, one at least")
    ap.add_argument("--keep", help="copy the variants that made a reader fail here")
    a = ap.parse_args()
    if not (a.recorder or a.crash or a.olread):
        sys.exit("sweep.py: error: give --recorder, --crash or --olread")

    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0:halt_on_error=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    # leaks inside libkdumpfile's own error paths are not the reader's
    supp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lsan.supp")
    env.setdefault("LSAN_OPTIONS", f"suppressions={supp}:print_suppressions=0")

    scratch = tempfile.mkdtemp(prefix="oopslimit-damage.")
    readers = []
    if a.recorder:
        readers.append(Reader("recorder", lambda p: [a.recorder, "-j", "-", p], True, env))
        if a.log:
            readers.append(Reader("recorder -l", lambda p: [a.recorder, "-l", a.log, "-j", "-", p],
                                  "always", env))
    if a.crash:
        cmd, quit_cmd = os.path.join(scratch, "crash.cmd"), os.path.join(scratch, "quit.cmd")
        with open(cmd, "w") as f:
            f.write("oopslimit -j\nq\n")
        with open(quit_cmd, "w") as f:
            f.write("q\n")
        cenv = dict(env, CRASH_EXTENSIONS=os.path.abspath(a.crash[1]))
        crash = Reader("crash", lambda p: ["crash", "--minimal", "-s", "-x", "--kaslr", "auto",
                                           a.crash[0], p, "-i", cmd], False, cenv)
        crash.bare = lambda p: ["crash", "--minimal", "-s", "--kaslr", "auto", a.crash[0], p,
                                "-i", quit_cmd]
        readers.append(crash)
    if a.olread:
        readers.append(Reader("olread", lambda p: [a.olread, "-v", "-d", p], False, env))

    try:
        d = generate.Dump(a.dump)
        t0 = time.monotonic()
        for r in readers:
            rc, out, err, _ = r.once(a.dump, a.timeout)
            if r.name == "olread":
                r.base = {}
                continue
            try:
                r.base = json_in(out)
            except ValueError:
                sys.exit(f"sweep.py: error: {r.name} gives no report on the original dump "
                         f"(status {rc}): {err.strip()[-300:]}")
            print(f"# {r.name} on the original: reason {r.base.get('reason')}, consistent "
                  f"{r.base.get('consistent')}, counters "
                  + " ".join(f"{k}={r.base.get(k)}" for k in COUNTERS))
        # where the variables are, for the variants that damage their pages
        addrs = {}
        for r in readers:
            for k, v in ((r.base or {}).get("reader") or {}).get("variables", {}).items():
                if v and v.get("address"):
                    addrs.setdefault(k, int(v["address"], 16))
        vs = generate.variants(d, a.seed, addrs)
        if a.only:
            vs = [v for v in vs if re.search(a.only, v[0])]
        if a.sample is not None and a.sample < len(vs):
            vs = sample_by_kind(vs, a.sample, a.seed)
        for r in readers:
            if r.bare and a.crash_sample is not None and a.crash_sample < len(vs):
                rnd = generate.random.Random(a.seed)
                r.sample = set(rnd.sample(sorted(v[0] for v in vs), a.crash_sample))
        bench = generate.Workbench(d, scratch, vs)
        if bench.raw:
            # the copy with whole pages must read as the original does
            for r in readers:
                if r.name != "recorder":
                    continue
                _, out, err, _ = r.once(bench.raw.path, a.timeout)
                try:
                    doc = json_in(out)
                except ValueError:
                    doc = {}
                same = all(doc.get(k) == r.base.get(k) for k in COUNTERS + ("reason", "consistent"))
                print(f"{'ok' if same else 'not ok'} - the copy with whole pages reads as the original")
                if not same:
                    sys.exit(1)
        kinds = {}
        skipped = 0
        for name, what, recipe in bench.order(vs):
            path = bench.apply(recipe)
            if path is None:
                skipped += 1
                continue
            kind = name.split("-")[0]
            for r in readers:
                if r.sample is not None and name not in r.sample:
                    continue
                r.runs = getattr(r, "runs", 0) + 1
                rc, out, err, secs = r.once(path, a.timeout)
                r.seconds += secs
                if r.name == "olread":
                    cls, detail = olread_judge(rc, out, err)
                else:
                    cls, detail = judge(rc, out, err, r.base, r.need_json, bool(r.bare))
                if r.bare and cls in ("signal", "hang", "silent-error"):
                    brc, bout, berr, _ = run(r.bare(path), a.timeout, r.env)
                    bcls, _ = judge(brc, bout, berr, None, False, True)
                    if bcls == cls or (cls == "silent-error" and bcls == "error"):
                        cls, detail = CRASH_ITSELF, f"{cls} without the extension too: {detail}"
                r.counts[cls] = r.counts.get(cls, 0) + 1
                if r.name == "recorder":
                    k = kinds.setdefault(kind, {})
                    k[cls] = k.get(cls, 0) + 1
                if cls == CRASH_ITSELF:
                    r.itself.append((name, what, cls, detail))
                if cls in FAILURES:
                    r.failures.append((name, what, cls, detail))
                    print(f"not ok - {r.name}: {name} ({what}): {cls}: {detail}")
                    if a.keep:
                        os.makedirs(a.keep, exist_ok=True)
                        dst = os.path.join(a.keep, name)
                        if os.path.isfile(path) and not os.path.islink(path):
                            shutil.copyfile(path, dst)
            bench.restore()
        total = time.monotonic() - t0
        bad = 0
        for r in readers:
            fails = sum(r.counts.get(c, 0) for c in FAILURES)
            bad += fails
            summary = ", ".join(f"{r.counts.get(c, 0)} {c}" for c in ("report", "error")
                                + FAILURES + ((CRASH_ITSELF,) if r.bare else ()))
            print(f"{'ok' if not fails else 'not ok'} - damage sweep, {r.name}: "
                  f"{getattr(r, 'runs', 0)} variants: {summary} ({r.seconds:.1f} s)")
            for name, _, cls, detail in r.itself if r.bare else ():
                print(f"# {r.name}: {name}: {detail}")
        for kind, k in sorted(kinds.items()):
            print(f"# recorder, {kind}: {sum(k.values())} variants: "
                  + ", ".join(f"{n} {c}" for c, n in sorted(k.items())))
        print(f"# {len(vs) - skipped} variants of {a.dump} (seed {a.seed}) in {total:.1f} s"
              + (f" ({skipped} not applicable)" if skipped else ""))
        sys.exit(1 if bad else 0)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
