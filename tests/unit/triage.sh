#!/bin/bash
# oopslimit-triage over a generated dump server tree (tests/triage-tree.py:
# 3000 reports, 40 hosts, 8 signatures with known shares): the groups, their
# panics, hosts, reasons, releases and times exactly; --json parses and
# agrees; --since keeps only the later crashes; a foreign JSON file, a
# malformed report, an unreadable one and a symbolic link (to a valid
# report outside the tree) are each named on standard error and skipped,
# and none is fatal.  TAP; "N passed, N failed" last.
#
# Usage: tests/unit/triage.sh TRIAGE   (the built oopslimit-triage)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
triage=${1:?usage: triage.sh TRIAGE}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# shellcheck source=tap.sh
. "$top/tests/unit/tap.sh"

python3 "$top/tests/triage-tree.py" "$t/tree" 3000 40 "$t/expected.csv"
"$triage" --csv "$t/tree" >"$t/got.csv" 2>"$t/err"
check "the generated tree: every group exact (--csv)" diff -u "$t/expected.csv" "$t/got.csv"
check "the generated tree: nothing skipped" test ! -s "$t/err"
"$triage" --json "$t/tree" >"$t/got.json"
check "--json: the same groups" python3 - "$t/got.json" "$t/expected.csv" <<'PY'
import csv, json, sys
doc = json.load(open(sys.argv[1]))
want = list(csv.DictReader(open(sys.argv[2])))
got = doc["groups"]
assert doc["reports"] == 3000 and doc["skipped"] == 0, doc
assert [g["signature"] for g in got] == [w["signature"] for w in want]
for g, w in zip(got, want):
    assert g["panics"] == int(w["panics"]) and g["hosts"] == int(w["hosts"]), (g, w)
    assert ";".join(g["reasons"]) == w["reasons"] and ";".join(g["kernel_releases"]) == w["kernel_releases"]
    assert g["first_crash"] == w["first_crash"] and g["last_crash"] == w["last_crash"]
PY
# crashes on 2026-11-01 .. 28 (report i on day 1 + i % 28): from the 15th, 14 of 28 days
"$triage" --json --since 2026-11-15 "$t/tree" >"$t/since.json"
check "--since: only the crashes from that day" python3 -c "
import json, sys
d = json.load(open('$t/since.json'))
assert d['reports'] == sum(1 for i in range(3000) if 1 + i % 28 >= 15), d['reports']
assert d['before_since'] == 3000 - d['reports']
assert all(g['first_crash'] >= '2026-11-15' for g in d['groups'])"
check "--since: a bad time refused" bash -c "! '$triage' --since yesterday '$t/tree' >/dev/null 2>&1"

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
rc=0
"$triage" --csv "$t/tree" >"$t/got2.csv" 2>"$t/err2" || rc=$?
check "bad files: exit status 0" test "$rc" -eq 0
check "bad files: the groups unchanged" diff -u "$t/expected.csv" "$t/got2.csv"
check "bad files: a foreign JSON file named" grep -q 'package.json: not an oopslimit report' "$t/err2"
check "bad files: a malformed report named with where" grep -q '2026-11-30T000000Z/reason.json: offset [0-9]*: ' "$t/err2"
check "bad files: a symbolic link not followed" grep -q 'linked.json: a symbolic link' "$t/err2"
if [ "$(id -u)" -ne 0 ]; then
	check "bad files: an unreadable one named" grep -q 'unreadable.json: Permission denied' "$t/err2"
fi
check "bad files: a linked directory not entered" bash -c "! grep -q linked-dir '$t/got2.csv' && [ \$(wc -l <'$t/err2') -le 4 ]"
check "no path: usage, status 2" bash -c "'$triage' >/dev/null 2>&1; [ \$? -eq 2 ]"

tap_done
