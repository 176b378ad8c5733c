#!/bin/bash
# oopslimit-triage over a generated dump server tree (tests/triage-tree.py:
# 3000 reports of 40 hosts over 90 days and 12 kernel releases, with a new,
# a rising, a fading and a one-host bucket planted): every group's members
# exact (panics, previous window, change, hosts, share, first release, new,
# count per release, reasons, times, sample dumps) in --csv, and the same in
# --json and the text; --known's links and muted buckets; --group-by,
# --top and the filters; --json-lines; the metrics and their label
# escaping; Debian's version order against dpkg itself; the index built,
# kept, deleted, truncated, emptied, of an older schema, locked by another
# run and killed in the middle of a build, each time the summary right and
# the index's line saying what happened; a dump removed or added and a
# report rewritten (by rename or in place, in a recent or an old dump), one
# coming into a dump directory that had none and one removed from a dump
# directory kept, after indexing right on the next run; and the files that
# must be skipped.
# TAP; "N passed, N failed" last.
#
# Usage: tests/unit/triage.sh TRIAGE   (the built oopslimit-triage)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
triage=${1:?usage: triage.sh TRIAGE}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# shellcheck source=tap.sh
. "$top/tests/unit/tap.sh"
win=(--since 2026-11-01 --until 2026-12-01)

python3 "$top/tests/triage-tree.py" "$t/tree" 3000 40 "$t/expected.csv"
"$triage" --csv "${win[@]}" "$t/tree" >"$t/got.csv" 2>"$t/err"
check "the generated tree: every group and member exact (--csv)" diff -u "$t/expected.csv" "$t/got.csv"
check "the generated tree: nothing skipped" test ! -s "$t/err"
check "the planted buckets: new, rising, fading, one host" python3 - "$t/got.csv" <<'PY'
import csv, sys
g = {r["signature"]: r for r in csv.DictReader(open(sys.argv[1]))}
new = g["oops_limit: BUG: unable to handle page fault in new_regression"]
assert new["new"] == "yes" and new["first_release"] == "7.0.0-rc3" and new["previous"] == "0", new
assert [r for r in g.values() if r["new"] == "yes"] == [new]
assert int(g["warn_limit: WARNING in rising_leak"]["change"]) > 30
assert int(g["warn_limit: WARNING in fading_fix"]["change"]) < -20
one = g["panic_on_warn: WARNING in one_host_only"]
assert one["hosts"] == "1" and one["share"] == "%.4f" % (1 / 40) and one["samples"].count("host00039/") == 3
PY
"$triage" --json "${win[@]}" "$t/tree" >"$t/got.json"
"$triage" "${win[@]}" "$t/tree" >"$t/got.txt"
check "--json and the text: the same groups and members as --csv" python3 - "$t/got.json" "$t/got.txt" "$t/expected.csv" <<'PY'
import csv, json, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
want = list(csv.DictReader(open(sys.argv[3])))
assert doc["reports"] == 1000 and doc["skipped"] == 0 and doc["hosts"] == 40, doc
assert doc["before_since"] == 2000 and doc["newest_release"] == "7.0.0-rc3"
assert [g["signature"] for g in doc["groups"]] == [w["signature"] for w in want]
for g, w in zip(doc["groups"], want):
    assert g["panics"] == int(w["panics"]) and g["previous"] == int(w["previous"]), (g, w)
    assert g["change"] == int(w["change"]) and g["hosts"] == int(w["hosts"])
    assert "%.4f" % g["share"] == w["share"] and g["first_release"] == w["first_release"]
    assert g["new"] == (w["new"] == "yes")
    assert ";".join("%s=%d" % (r["release"], r["panics"]) for r in g["releases"]) == w["releases"]
    assert ";".join(g["reasons"]) == w["reasons"] and ";".join(g["samples"]) == w["samples"]
    assert g["first_crash"] == w["first_crash"] and g["last_crash"] == w["last_crash"] and g["known"] is None
    row = "%6s %6s %6s %5s %5.1f%%  %-20s  %-20s  %s\n" % (
        w["panics"], w["previous"], w["change"], w["hosts"], 100 * float(w["share"]), w["first_crash"],
        w["last_crash"], w["signature"])
    assert row in text, row
    assert ("NEW: only on %s" if w["new"] == "yes" else "first seen on %s") % w["first_release"] in text
    for s in w["samples"].split(";"):
        assert " " + s + "\n" in text, s
assert "1000 reports from 40 hosts in 12 groups; newest kernel 7.0.0-rc3;" in text
PY

# Debian's version order, against dpkg itself: the generator's releases, and harder ones
mkdir -p "$t/versions/h"
i=0
for v in 7.0.0-rc3 6.1.0-9-amd64 6.1.0-28-amd64 1.0~rc1 1.0 1.0-1 1:0.9 2:0.1 1.0a 1.0+b1 1.0.0 \
	6.12.57+deb13-amd64 6.12.57+deb13.1-amd64 6.12.9+deb13-amd64 6.1.192 5.10.0-30-amd64 6.18.1 1.0~ 1.0~~ \
	6.1.0-57-cloud-amd64 6.1.0-57-amd64 1.2.3-4ubuntu1 1.2.3-4 1.2.3-4.1 10 9 0.0.1; do
	i=$((i + 1))
	mkdir -p "$t/versions/h/$i"
	printf '{"schema":3,"reason":"r","signature":"s","kernel_release":"%s","crash_time":"2026-11-01T00:00:00Z"}\n' \
		"$v" >"$t/versions/h/$i/reason.json"
done
"$triage" --json "$t/versions" >"$t/versions.json"
check "Debian's version order: as dpkg --compare-versions says, over $i releases" python3 - "$t/versions.json" <<'PY'
import json, subprocess, sys
g = json.load(open(sys.argv[1]))
rel = [r["release"] for r in g["groups"][0]["releases"]]
assert len(rel) == 27, rel
for a, b in zip(rel, rel[1:]):
    assert subprocess.run(["dpkg", "--compare-versions", a, "lt", b]).returncode == 0, (a, b)
assert g["groups"][0]["first_release"] == rel[0] and g["newest_release"] == rel[-1]
PY
check "the generator's releases are in dpkg's order" python3 - "$top/tests/triage-tree.py" <<'PY'
import re, subprocess, sys
src = open(sys.argv[1]).read()
rel = eval(re.search(r"RELEASES = (\[.*?\])", src, re.S).group(1))
for a, b in zip(rel, rel[1:]):
    assert subprocess.run(["dpkg", "--compare-versions", a, "lt", b]).returncode == 0, (a, b)
PY

# --known: a link shown, a bucket muted
printf '%s\n' '# the team'"'"'s list' '' \
	'warn_limit: WARNING in foo_xmit   https://bugs.example.org/1234' \
	'warn_limit: KASAN: slab-use-after-free Read in bar_show	mute' >"$t/known"
"$triage" --json "${win[@]}" --known "$t/known" "$t/tree" >"$t/known.json"
"$triage" "${win[@]}" --known "$t/known" "$t/tree" >"$t/known.txt"
check "--known: the link shown, the muted bucket left out and counted" python3 - "$t/known.json" "$t/known.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
g = {x["signature"]: x for x in d["groups"]}
assert g["warn_limit: WARNING in foo_xmit"]["known"] == "https://bugs.example.org/1234"
assert "warn_limit: KASAN: slab-use-after-free Read in bar_show" not in g and len(g) == 11
assert d["muted"] == {"groups": 1, "panics": 185} and d["reports"] == 1000 - 185, d["muted"]
assert "known: https://bugs.example.org/1234\n" in text and "1 muted group (185 panics) left out" in text
assert "bar_show" not in text
PY
printf 'warn_limit: WARNING in foo_xmit ftp://x\n' >"$t/known-bad"
check "--known: a bad line refused with its number, status 2" bash -c \
	"'$triage' --known '$t/known-bad' '$t/tree' 2>&1 >/dev/null | grep -q 'known-bad:1: ' &&
	 { '$triage' --known '$t/known-bad' '$t/tree' >/dev/null 2>&1; [ \$? -eq 2 ]; }"

# --group-by, --top, the filters: the same reports, other cuts
for by in reason release host; do
	"$triage" --json "${win[@]}" --group-by "$by" "$t/tree" >"$t/by-$by.json"
done
"$triage" --json "${win[@]}" --top 3 "$t/tree" >"$t/top.json"
"$triage" --json "${win[@]}" --reason oops_limit "$t/tree" >"$t/f-reason.json"
"$triage" --json "${win[@]}" --release 7.0.0-rc3 "$t/tree" >"$t/f-release.json"
"$triage" --json "${win[@]}" --host host00039 "$t/tree" >"$t/f-host.json"
check "--group-by reason, release, host; --top; --reason, --release, --host" python3 - "$t" <<'PY'
import collections, csv, json, sys
t = sys.argv[1]
want = list(csv.DictReader(open(t + "/expected.csv")))
load = lambda n: json.load(open("%s/%s.json" % (t, n)))
by_reason, by_rel = collections.Counter(), collections.Counter()
for w in want:
    by_reason[w["reasons"]] += int(w["panics"])
    for r in w["releases"].split(";"):
        by_rel[r.split("=")[0]] += int(r.split("=")[1])
assert {g["reason"]: g["panics"] for g in load("by-reason")["groups"]} == by_reason
rel = load("by-release")
assert {g["release"]: g["panics"] for g in rel["groups"]} == by_rel
assert [g["new"] for g in rel["groups"] if g["release"] == "7.0.0-rc3"] == [True]
host = load("by-host")
assert len(host["groups"]) == 40 and sum(g["panics"] for g in host["groups"]) == 1000
top = load("top")
assert [g["signature"] for g in top["groups"]] == [w["signature"] for w in want[:3]] and top["total_groups"] == 12
f = load("f-reason")
assert {g["signature"]: g["panics"] for g in f["groups"]} == \
    {w["signature"]: int(w["panics"]) for w in want if w["reasons"] == "oops_limit"}
assert f["filtered"] > 0 and f["reports"] == by_reason["oops_limit"]
f = load("f-release")
assert f["reports"] == by_rel["7.0.0-rc3"] and all(g["kernel_releases"] == ["7.0.0-rc3"] for g in f["groups"])
f = load("f-host")
assert f["hosts"] == 1 and any(g["signature"].endswith("one_host_only") and g["panics"] == 5 for g in f["groups"])
PY

# --since alone: the window up to now, the previous one as long
"$triage" --json --since 2026-11-15 "$t/tree" >"$t/since.json" 2>/dev/null
check "--since: only the crashes from that day, the previous window as long" python3 -c "
import json, time, calendar
d = json.load(open('$t/since.json'))
since = calendar.timegm((2026, 11, 15, 0, 0, 0))
assert d['since'] == '2026-11-15T00:00:00Z' and d['until'] >= time.strftime('%Y-%m-%dT', time.gmtime())
assert all(g['first_crash'] >= '2026-11-15' for g in d['groups'])
end, span = calendar.timegm((2026, 12, 1, 0, 0, 0)), 90 * 86400
assert d['reports'] == sum(1 for i in range(3000) if end - span + i * span // 3000 >= since), d['reports']
assert d['reports'] + d['before_since'] == 3000"

# one report a line, for a log shipper
"$triage" --json-lines "${win[@]}" "$t/tree" >"$t/lines"
check "--json-lines: one report a line, the window's, with its dump and counters" python3 - "$t/lines" "$t/tree" <<'PY'
import json, os, sys
lines = [json.loads(x) for x in open(sys.argv[1])]
assert len(lines) == 1000
for x in lines:
    assert set(x) == {"host", "tree", "dump", "signature", "signature_version", "reason", "kernel_release",
                      "crash_time", "oops_count", "oops_limit", "warn_count", "warn_limit"}, x
    assert os.path.isfile(os.path.join(sys.argv[2], x["dump"], "reason.json")) and x["dump"].startswith(x["host"] + "/")
    i = int(x["dump"][-7:])
    assert x["signature_version"] == (2 if i % 2 else None) and x["oops_count"] == i % 5 and x["warn_limit"] == 3
    assert "2026-11-01" <= x["crash_time"] < "2026-12-01"
PY

# the metrics for node_exporter, and the summary to a file, each written whole
"$triage" "${win[@]}" --top 12 --metrics "$t/triage.prom" --output "$t/summary.txt" "$t/tree" >"$t/stdout"
check "--metrics: the top buckets, labels escaped; --output: the summary" python3 - "$t" <<'PY'
import os, sys
t = sys.argv[1]
prom = open(t + "/triage.prom").read()
assert open(t + "/stdout").read() == "" and open(t + "/summary.txt").read().startswith("PANICS")
assert 'oopslimit_bucket_panics{signature="warn_limit: WARNING in foo_xmit"} 363\n' in prom
assert 'oopslimit_bucket_panics{signature="panic_on_warn: UBSAN: shift-out-of-bounds in \\"shift_it\\\\\\""} 19\n' in prom
assert 'oopslimit_bucket_new{signature="oops_limit: BUG: unable to handle page fault in new_regression"} 1\n' in prom
assert 'oopslimit_bucket_previous_panics{signature="warn_limit: WARNING in rising_leak"} 27\n' in prom
assert prom.count("oopslimit_bucket_panics{") == 12 and "oopslimit_triage_reports 1000\n" in prom
assert [f for f in os.listdir(t) if "prom" in f] == ["triage.prom"]  # its temporary renamed
PY
check "--metrics: a symbolic link at the name refused" bash -c \
	"ln -s '$t/elsewhere' '$t/link.prom'; ! '$triage' --metrics '$t/link.prom' '$t/tree' >/dev/null 2>&1 && [ ! -e '$t/elsewhere' ]"

# the index: a cache, never the truth
idx=$t/index.db
truth() { "$triage" --csv "${win[@]}" "$t/tree" 2>/dev/null; }
indexed() { "$triage" --csv "${win[@]}" --index "$idx" "$t/tree" 2>"$t/index.err"; }
index_case() { # what, the line's words
	local what=$1 words=$2
	truth >"$t/truth.csv"
	indexed >"$t/indexed.csv"
	check "index $what: the summary right" diff -u "$t/truth.csv" "$t/indexed.csv"
	check "index $what: said in one line ($words)" bash -c \
		"[ \$(wc -l <'$t/index.err') -eq 1 ] && grep -q '^oopslimit-triage: index $idx: $words' '$t/index.err'"
}
index_case "built" "was not there: built from the reports; 3000 files read"
check "index: 0600, WAL mode" bash -c "[ \$(stat -c %a '$idx') = 600 ] &&
	python3 -c 'import sqlite3, sys; assert sqlite3.connect(sys.argv[1]).execute(\"PRAGMA journal_mode\").fetchone()[0] == \"wal\"' '$idx'"
index_case "kept" "0 files read, 0 removed; 3000 reports in it"
rm -f "$idx"
index_case "deleted" "was not there: built"
truncate -s 8192 "$idx"
index_case "truncated" "was damaged (.*): built again from the reports; 3000 files read"
: >"$idx"
index_case "emptied" "was empty: built from the reports"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = 0"); c.commit()' "$idx"
index_case "of an older schema" "had schema 0, not 3: built again from the reports"
# a second run holds the index (two timers firing together)
python3 - "$idx" "$triage" "$t" "${win[@]}" <<'PY' >"$t/locked.csv" 2>"$t/index.err"
import sqlite3, subprocess, sys
idx, triage, t, win = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
c = sqlite3.connect(idx, isolation_level=None)
c.execute("BEGIN IMMEDIATE")
subprocess.run([triage, "--csv"] + win + ["--index", idx, t + "/tree"], check=True)
c.execute("ROLLBACK")
PY
check "index locked by another run: the summary right" diff -u "$t/truth.csv" "$t/locked.csv"
check "index locked by another run: said in one line" grep -qx "oopslimit-triage: index $idx: in use by another run: every report read without it" "$t/index.err"
# a kill in the middle of a build leaves the last run's index, or none
rm -f "$idx"
"$triage" --csv --index "$idx" "$t/tree" >/dev/null 2>&1 &
sleep 0.3
kill -9 $! 2>/dev/null || true
wait $! 2>/dev/null || true
index_case "after a kill in the middle of a build" "\(was empty: built\|was not there: built\|[0-9]* files read\)"

# what changes on disk after indexing is right on the next run
indexed >/dev/null
gone=$(sed -n 's/^"warn_limit: WARNING in foo_xmit",.*,"\([^;"]*\);.*/\1/p' "$t/expected.csv")
rm -r "${t:?}/tree/$gone"
index_case "a dump removed" "0 files read, 1 removed; 2999 reports in it"
check "a dump removed: its group one panic less, its sample gone" bash -c \
	"grep -q '^\"warn_limit: WARNING in foo_xmit\",362,' '$t/indexed.csv' && ! grep -q '$gone' '$t/indexed.csv'"
mkdir -p "$t/tree/host00099/2026-11-30T230000Z-x" "$t/tree/host00003/2026-11-30T230000Z-y"
for d in host00099/2026-11-30T230000Z-x host00003/2026-11-30T230000Z-y; do
	sed 's/"reason": "[a-z_]*"/"reason": "added"/' "$(find "$t/tree/host00001" -name reason.json | sort | tail -n 1)" \
		>"$t/tree/$d/reason.json"
done
index_case "two dumps added, on a new host and on a known one" "2 files read, 0 removed; 3001 reports in it"
# (a time in the last 2 s is read again on the next run, as it may still
# change unseen: what the cases below count is dated a minute back)
a_minute_ago() { touch -h -d '1 minute ago' "$@"; }
a_minute_ago "$t"/tree/host00099/2026-11-30T230000Z-x{/reason.json,} "$t"/tree/host00003/2026-11-30T230000Z-y{/reason.json,}
# a report rewritten atomically (by rename, as every writer here does) in a dump
# received a moment ago, and in one of last week whose host's directory did not
# change; then one rewritten in place (the same inode, the same size): each
# right on the next run
rewrite() {
	local tmp
	tmp=$(mktemp "$1.XXXXXX")
	sed "s/\"reason\": \"[a-z_]*\"/\"reason\": \"$2\"/" "$1" >"$tmp" && mv "$tmp" "$1"
}
rewrite "$t/tree/host00099/2026-11-30T230000Z-x/reason.json" rewritten
index_case "a report rewritten in a recent dump" "[0-9]* files\\? read, 0 removed; 3001"
check "a report rewritten in a recent dump: its new reason counted" grep -q 'rewritten' "$t/indexed.csv"
a_minute_ago "$t/tree/host00099/2026-11-30T230000Z-x/reason.json" "$t/tree/host00099/2026-11-30T230000Z-x"
indexed >/dev/null
old=$(find "$t/tree/host00002" -name reason.json | sort | tail -n 1)
host_mtime=$(stat -c %y "$t/tree/host00002")
rewrite "$old" "old_rewritten"
a_minute_ago "$old" "$(dirname "$old")"
check "a report rewritten in an old dump: its host's directory unchanged" test "$(stat -c %y "$t/tree/host00002")" = "$host_mtime"
index_case "a report rewritten in an old dump" "1 file read, 0 removed; 3001 reports in it"
check "a report rewritten in an old dump: its new reason counted" grep -q 'old_rewritten' "$t/indexed.csv"
old=$(find "$t/tree/host00005" -name reason.json | sort | tail -n 1)
dir_mtime=$(stat -c %y "$(dirname "$old")")
in_place=$(sed -n 's/.*"reason": "\([a-z_]*\)".*/\1/p' "$old" | tr '[:lower:]' '[:upper:]')
sed "s/\"reason\": \"[a-z_]*\"/\"reason\": \"$in_place\"/" "$old" >"$t/in-place"
ino=$(stat -c %i "$old")
cat "$t/in-place" >"$old"
a_minute_ago "$old"
check "a report rewritten in place: the same inode and size, its directory unchanged" test \
	"$(stat -c %i.%s "$old").$(stat -c %y "$(dirname "$old")")" = "$ino.$(stat -c %s "$t/in-place").$dir_mtime"
index_case "a report rewritten in place in an old dump" "1 file read, 0 removed; 3001 reports in it"
check "a report rewritten in place in an old dump: its new reason counted" grep -q "$in_place" "$t/indexed.csv"
# a dump directory with no report yet (a capture still writing) on a host whose
# directory then stays as it was: its report, when it comes, read on the next
# run; then removed, the dump directory kept: gone from the next
pending=$t/tree/host00006/2026-11-30T120000Z-z
mkdir "$pending"
echo "the console's last lines" >"$pending/vmcore-dmesg.txt"
a_minute_ago "$pending/vmcore-dmesg.txt" "$pending" "$t/tree/host00006"
index_case "a dump directory with no report" "0 files read, 0 removed; 3001 reports in it"
host_mtime=$(stat -c %y "$t/tree/host00006")
tmp=$(mktemp "$pending/reason.json.XXXXXX")
cp "$old" "$tmp"
mv "$tmp" "$pending/reason.json"
a_minute_ago "$pending/reason.json" "$pending"
check "a report in a dump directory that had none: its host's directory unchanged" test \
	"$(stat -c %y "$t/tree/host00006")" = "$host_mtime"
index_case "a report in a dump directory that had none" "1 file read, 0 removed; 3002 reports in it"
rm "$pending/reason.json"
a_minute_ago "$pending"
index_case "a report removed, its dump directory kept" "0 files read, 1 removed; 3001 reports in it"
"$triage" --csv "${win[@]}" --index "$idx" --rescan "$t/tree" >"$t/indexed.csv" 2>"$t/index.err"
check "--rescan: every report read again" grep -q '3001 files read, 0 removed (every report read again); 3001 reports in it' "$t/index.err"
truth >"$t/truth.csv"
check "--rescan: the summary right" diff -u "$t/truth.csv" "$t/indexed.csv"

# what must be skipped, never fatal
mkdir -p "$t/tree/hostx/2026-11-30T000000Z" "$t/outside/d"
cp "$(find "$t/tree" -name reason.json | head -n 1)" "$t/outside/d/reason.json"
printf '{"name": "package.json", "version": 1}\n' >"$t/tree/hostx/package.json"
printf '{"schema": 3, "reason": "warn_limit",}\n' >"$t/tree/hostx/2026-11-30T000000Z/reason.json"
# (root reads any file: the case needs an ordinary user)
if [ "$(id -u)" -ne 0 ]; then
	printf '{"schema": 3, "reason": "x"}\n' >"$t/tree/hostx/unreadable.json"
	chmod 000 "$t/tree/hostx/unreadable.json"
fi
ln -s "$t/outside/d/reason.json" "$t/tree/hostx/linked.json"
ln -s "$t/outside/d" "$t/tree/hostx/linked-dir"
truth >"$t/truth.csv"
for how in plain indexed; do
	rc=0
	if [ "$how" = plain ]; then
		"$triage" --csv "${win[@]}" "$t/tree" >"$t/got2.csv" 2>"$t/err2" || rc=$?
	else
		"$triage" --csv "${win[@]}" --index "$idx" "$t/tree" >"$t/got2.csv" 2>"$t/err2" || rc=$?
	fi
	check "bad files ($how): exit status 0" test "$rc" -eq 0
	check "bad files ($how): the groups unchanged" diff -u "$t/truth.csv" "$t/got2.csv"
	check "bad files ($how): a foreign JSON file named" grep -q 'package.json: not an oopslimit report' "$t/err2"
	check "bad files ($how): a malformed report named with where" grep -q '2026-11-30T000000Z/reason.json: offset [0-9]*: ' "$t/err2"
	check "bad files ($how): a symbolic link not followed" grep -q 'linked.json: a symbolic link' "$t/err2"
	if [ "$(id -u)" -ne 0 ]; then
		check "bad files ($how): an unreadable one named" grep -q 'unreadable.json: Permission denied' "$t/err2"
	fi
	check "bad files ($how): a linked directory not entered" bash -c "! grep -q linked-dir '$t/got2.csv' '$t/err2'"
done

check "--since: a bad time refused" bash -c "! '$triage' --since yesterday '$t/tree' >/dev/null 2>&1"
check "--group-by, --top: bad values refused" bash -c "! '$triage' --group-by cpu '$t/tree' >/dev/null 2>&1 &&
	! '$triage' --top 0 '$t/tree' >/dev/null 2>&1"
check "no path: usage, status 2" bash -c "'$triage' >/dev/null 2>&1; [ \$? -eq 2 ]"

tap_done
