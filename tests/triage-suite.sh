#!/bin/bash
# The fleet summary over the suite's own dumps: the reports this run's
# scenarios saved (RUNS/NAME/dumps/STAMP/reason.json, each written by a
# capture kernel) laid out as a dump server keeps them, one host a scenario
# (TREE/NAME/STAMP/reason.json), and oopslimit-triage's groups checked
# against the reports themselves: every signature's panics, hosts, reasons
# and kernel releases, nothing skipped.  Prints one line, "ok: ..." or the
# first disagreement; exit status 0 only when they agree.
#
# Usage: tests/triage-suite.sh TRIAGE RUNS SCENARIO...
set -eu
prog=${0##*/}
[ $# -ge 3 ] || { echo "usage: $prog TRIAGE RUNS SCENARIO..." >&2; exit 2; }
triage=$1 runs=$2
shift 2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/tree"
n=0
for name in "$@"; do
	for r in "$runs/$name"/dumps/*/reason.json; do
		if [ ! -f "$r" ] || [ -L "$r" ]; then continue; fi
		stamp=${r%/reason.json}
		stamp=${stamp##*/}
		mkdir -p "$t/tree/$name/$stamp"
		cp "$r" "$t/tree/$name/$stamp/reason.json"
		n=$((n + 1))
	done
done
[ "$n" -gt 0 ] || { echo "$prog: no reason.json in the dumps of the scenarios named" >&2; exit 1; }
"$triage" --json "$t/tree" >"$t/got.json" 2>"$t/err" || {
	echo "$prog: oopslimit-triage failed: $(tail -n 1 "$t/err")" >&2
	exit 1
}
/usr/bin/python3 - "$t/tree" "$t/got.json" "$t/err" <<'EOF'
import json, os, sys

tree, got_path, err_path = sys.argv[1:]
want = {}
for host in sorted(os.listdir(tree)):
    for stamp in sorted(os.listdir(os.path.join(tree, host))):
        doc = json.load(open(os.path.join(tree, host, stamp, "reason.json")))
        key = doc.get("signature") or doc.get("reason") or "unknown"
        g = want.setdefault(key, {"panics": 0, "hosts": set(), "reasons": set(), "releases": set()})
        g["panics"] += 1
        g["hosts"].add(host)
        g["reasons"].add(doc.get("reason") or "unknown")
        if doc.get("kernel_release"):
            g["releases"].add(doc["kernel_release"])
got = json.load(open(got_path))
bad = []
skipped = open(err_path).read().strip()
if got["skipped"] or skipped:
    bad.append("skipped %d: %s" % (got["skipped"], skipped.splitlines()[0] if skipped else ""))
total = sum(g["panics"] for g in want.values())
if got["reports"] != total:
    bad.append("%d reports summed up, %d in the tree" % (got["reports"], total))
groups = {g["signature"]: g for g in got["groups"]}
if set(groups) != set(want):
    bad.append("groups %s, the reports' signatures %s" % (sorted(groups), sorted(want)))
for sig, w in want.items():
    g = groups.get(sig)
    if not g:
        continue
    for what, have, need in (("panics", g["panics"], w["panics"]), ("hosts", g["hosts"], len(w["hosts"])),
                             ("reasons", sorted(g["reasons"]), sorted(w["reasons"])),
                             ("kernels", sorted(g["kernel_releases"]), sorted(w["releases"]))):
        if have != need:
            bad.append("'%s': %s %s, the reports say %s" % (sig, what, have, need))
counts = [g["panics"] for g in got["groups"]]
if counts != sorted(counts, reverse=True):
    bad.append("the groups are not sorted by panics: %s" % counts)
if bad:
    print("; ".join(bad))
    sys.exit(1)
print("ok: %d reports of %d scenarios in %d groups, each group's panics, hosts, reasons and kernels as the "
      "reports say" % (total, len(os.listdir(tree)), len(want)))
EOF
