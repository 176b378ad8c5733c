#!/bin/bash
# The fleet summary over the suite's own dumps: the reports this run's
# scenarios saved (RUNS/NAME/dumps/STAMP/reason.json, each written by a
# capture kernel) laid out as a dump server keeps them, one host a scenario
# (TREE/NAME/STAMP/reason.json), and oopslimit-triage's groups checked
# against the reports themselves: every signature's panics, hosts, reasons,
# count per kernel release, first release (in dpkg's order), new, share of
# the hosts and sample dumps (newest first); the same through the index,
# built and then kept; nothing skipped.  Prints one line, "ok: ..." or the
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
for run in plain built kept; do
	index=()
	[ "$run" = plain ] || index=(--index "$t/index.sqlite")
	"$triage" --json --samples 2 "${index[@]}" "$t/tree" >"$t/$run.json" 2>"$t/$run.err" || {
		echo "$prog: oopslimit-triage failed: $(tail -n 1 "$t/$run.err")" >&2
		exit 1
	}
	# the index's one line is not a skipped file
	sed -i '/^oopslimit-triage: index /d' "$t/$run.err"
done
/usr/bin/python3 - "$t/tree" "$t/plain.json" "$t/plain.err" "$t/built.json" "$t/kept.json" <<'EOF'
import functools, json, os, subprocess, sys

tree, got_path, err_path, built, kept = sys.argv[1:]


def dpkg_cmp(a, b):
    if a == b:
        return 0
    return -1 if subprocess.run(["dpkg", "--compare-versions", a, "lt", b]).returncode == 0 else 1


want, hosts, everything = {}, set(), []
for host in sorted(os.listdir(tree)):
    for stamp in sorted(os.listdir(os.path.join(tree, host))):
        doc = json.load(open(os.path.join(tree, host, stamp, "reason.json")))
        key = doc.get("signature") or doc.get("reason") or "unknown"
        g = want.setdefault(key, {"panics": 0, "hosts": set(), "reasons": set(), "releases": {}, "dumps": []})
        g["panics"] += 1
        g["hosts"].add(host)
        hosts.add(host)
        g["reasons"].add(doc.get("reason") or "unknown")
        rel = doc.get("kernel_release") or ""
        g["releases"][rel] = g["releases"].get(rel, 0) + 1
        everything.append(rel)
        when = doc.get("crash_time") or (doc.get("capture") or {}).get("time") or ""
        g["dumps"].append((when, host + "/" + stamp))
order = sorted({r for r in everything if r}, key=functools.cmp_to_key(dpkg_cmp))
newest = order[-1] if order else None
got = json.load(open(got_path))
bad = []
skipped = open(err_path).read().strip()
if got["skipped"] or skipped:
    bad.append("skipped %d: %s" % (got["skipped"], skipped.splitlines()[0] if skipped else ""))
for path in built, kept:
    if json.load(open(path))["groups"] != got["groups"]:
        bad.append("through the index (%s), other groups" % os.path.basename(path))
if got["newest_release"] != newest:
    bad.append("newest release %s, the reports say %s" % (got["newest_release"], newest))
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
    rels = [r for r in order if r in w["releases"]]
    # newest first; at the same time, by the dump's name
    samples = [d for _, d in sorted(w["dumps"], key=lambda x: (x[0], [-ord(c) for c in x[1]]), reverse=True)][:2]
    for what, have, need in (("panics", g["panics"], w["panics"]), ("hosts", g["hosts"], len(w["hosts"])),
                             ("reasons", sorted(g["reasons"]), sorted(w["reasons"])),
                             # a report without a release first (null), then Debian's order
                             ("kernels", g["kernel_releases"], ([None] if "" in w["releases"] else []) + rels),
                             ("per release", [r["panics"] for r in g["releases"]],
                              ([w["releases"][""]] if "" in w["releases"] else []) + [w["releases"][r] for r in rels]),
                             ("first release", g["first_release"], rels[0] if rels else None),
                             ("new", g["new"], set(w["releases"]) == {newest}),
                             ("share", g["share"], round(len(w["hosts"]) / len(hosts), 4)),
                             ("samples", g["samples"], samples), ("previous", g["previous"], None)):
        if have != need:
            bad.append("'%s': %s %s, the reports say %s" % (sig, what, have, need))
counts = [g["panics"] for g in got["groups"]]
if counts != sorted(counts, reverse=True):
    bad.append("the groups are not sorted by panics: %s" % counts)
if bad:
    print("; ".join(bad))
    sys.exit(1)
print("ok: %d reports of %d scenarios in %d groups, each group's panics, hosts and share, reasons, kernels "
      "with their counts, first release, new and sample dumps as the reports say, with the index and without"
      % (total, len(os.listdir(tree)), len(want)))
EOF
