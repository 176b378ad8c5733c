#!/bin/bash
# The live metrics (oopslimit-kdump metrics) and the rate "status" shows,
# against a made-up kernel (OOPSLIMIT_KDUMP_SYS, OOPSLIMIT_KDUMP_PROC) and a
# dump directory whose reason.json the recorder wrote from a real kernel
# log (tests/unit/warn-limit-dmesg.txt): every series with its value, the
# text format as node_exporter's parser takes it, and the bad directories:
# missing, not a directory, a symbolic link at oopslimit.prom, each one
# line once, exit status 4 and no partial file; and the reader the shell
# side reads reports with (oopslimit-reason --get), "last" and the metrics
# on a failed capture's report.  TAP; "N passed, N failed" last.
#
# Usage: tests/unit/metrics.sh RECORDER   (the built oopslimit-reason)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
recorder=${1:?usage: metrics.sh RECORDER}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0 failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $*"
}
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# the kernel: warn_limit 3 with 2 warnings, oops_limit 10000, softlockup_panic 1
mkdir -p "$t/sys" "$t/proc/kernel/random" "$t/proc/vm" "$t/var" "$t/run" "$t/prom" "$t/crash/2026-12-04-072801"
echo 0 >"$t/sys/oops_count"
echo 2 >"$t/sys/warn_count"
echo 1 >"$t/sys/kexec_crash_loaded"
echo 268435456 >"$t/sys/kexec_crash_size"
echo 10000 >"$t/proc/kernel/oops_limit"
echo 3 >"$t/proc/kernel/warn_limit"
echo 0 >"$t/proc/kernel/panic_on_oops"
echo 0 >"$t/proc/kernel/panic_on_warn"
echo 1 >"$t/proc/kernel/softlockup_panic"
echo 0 >"$t/proc/vm/panic_on_oom"
echo 6b1f0d2e-1111-4c4c-9d9d-0123456789ab >"$t/proc/kernel/random/boot_id"
# a capture's report, as the recorder writes it (from the log alone here)
rc=0
"$recorder" -l "$top/tests/unit/warn-limit-dmesg.txt" -j "$t/crash/2026-12-04-072801/reason.json" \
	-t "$t/crash/2026-12-04-072801/reason.txt" \
	"$t/no-vmcore" 2>/dev/null || rc=$?
check "the recorder wrote a report from the log (status $rc)" test "$rc" -eq 3 -a -s "$t/crash/2026-12-04-072801/reason.json"
# retention that removed more than the report lists: still a report, with a note
rm_args=()
for i in $(seq -w 1 17); do rm_args+=(--removed "2020-01-$i-000000"); done
rc=0
"$recorder" -l "$top/tests/unit/warn-limit-dmesg.txt" -j "$t/removed.json" --capture complete \
	"${rm_args[@]}" "$t/no-vmcore" 2>/dev/null || rc=$?
check "a 17th --removed: the report is written (status $rc), 16 names and a note" \
	test "$rc" -eq 3 -a "$(jq '.capture.removed | length' "$t/removed.json" 2>/dev/null)" = 16 -a \
	"$(jq '[.notes[] | select(test("1 more old dumps"))] | length' "$t/removed.json" 2>/dev/null)" = 1
# the capture's makedumpfile: its version, and the pairs' lines as notes
rc=0
"$recorder" -l "$top/tests/unit/warn-limit-dmesg.txt" -j "$t/md.json" --capture complete --collector-version 1.7.8 \
	--collector-note "makedumpfile 1.7.8 leaves out compound tail pages of kernel 7.2.13: masked with 17" \
	"$t/no-vmcore" 2>/dev/null || rc=$?
check "--collector-version and --collector-note: the version and the note in the report (status $rc)" \
	test "$rc" -eq 3 -a "$(jq -r '.capture.collector_version' "$t/md.json" 2>/dev/null)" = 1.7.8 -a \
	"$(jq '[.notes[] | select(test("^makedumpfile 1.7.8 leaves out"))] | length' "$t/md.json" 2>/dev/null)" = 1
rc=0
long="makedumpfile 1.7.8 leaves out compound tail pages of kernel 7.2.13+deb14-amd64 that crash and drgn need: no makedumpfile release has the fix yet (upstream f50c015, after 1.7.9); meanwhile dump levels are masked with 17, which keeps those pages at the cost of size"
"$recorder" -l "$top/tests/unit/warn-limit-dmesg.txt" -j "$t/md1.json" --capture complete --collector-note "$long" \
	"$t/no-vmcore" 2>/dev/null || rc=$?
check "--collector-note of ${#long} bytes (the real 7.2 line): the report is written (status $rc), the note cut" \
	test "$rc" -eq 3 -a "$(jq '[.notes[] | select(startswith("makedumpfile 1.7.8 leaves out"))] | length' "$t/md1.json" 2>/dev/null)" = 1
rc=0
"$recorder" -l "$top/tests/unit/warn-limit-dmesg.txt" -j "$t/md2.json" --capture complete \
	--collector-note "$(printf 'two\nlines')" "$t/no-vmcore" 2>/dev/null || rc=$?
check "--collector-note with a newline: bad usage (status $rc), no report" test "$rc" -eq 2 -a ! -e "$t/md2.json"
rc=0
"$recorder" -l "$top/tests/unit/warn-limit-dmesg.txt" -j "$t/md3.json" --collector-note x "$t/no-vmcore" 2>/dev/null || rc=$?
check "--collector-note without --capture: bad usage (status $rc)" test "$rc" -eq 2
# the one reader of reports for the shell side: --get MEMBER, one line each
rep=$t/crash/2026-12-04-072801/reason.json
got=$("$recorder" --get reason --get reader.log_from --get oops_count --get capture --get no_such --get signature "$rep")
check "--get: members in order, one a line, null and objects empty ($(tr '\n' '|' <<<"$got"))" \
	test "$got" = "$(printf 'warn_limit\nwarn-limit-dmesg.txt\n\n\n\nwarn_limit: WARNING in lkdtm_WARNING')"
rc=0
got=$(printf '{"reason": "x",' | "$recorder" --get reason - 2>&1) || rc=$?
check "--get: a cut report is refused, status 1, one line ($got)" test "$rc" -eq 1 -a "$(wc -l <<<"$got")" -eq 1
rc=0
"$recorder" --get 'reason;rm' "$rep" >/dev/null 2>&1 || rc=$?
check "--get: a member name that is not one is bad usage (status $rc)" test "$rc" -eq 2
got=$(printf '{"a": "one\\ntwo", "o": {"k": 7}}' | "$recorder" --get a --get o.k -)
check "--get: a newline in a value is a blank, one level in is read ($(tr '\n' '|' <<<"$got"))" test "$got" = "$(printf 'one two\n7')"

# the dump path on an ext4 file system, for "target auto"
printf '26 1 254:0 / %s rw,relatime - ext4 /dev/vda rw\n' "$t" >"$t/mountinfo"
printf 'target auto\npath %s/crash\nmetrics_dir %s/prom\n' "$t" "$t" >"$t/kdump.conf"
export OOPSLIMIT_KDUMP_SYS=$t/sys OOPSLIMIT_KDUMP_PROC=$t/proc OOPSLIMIT_KDUMP_VAR=$t/var \
	OOPSLIMIT_KDUMP_STATE=$t/run OOPSLIMIT_REASON=$recorder OL_MOUNTINFO=$t/mountinfo
kd() {
	"$top/kdump/oopslimit-kdump" -c "$t/kdump.conf" "$@"
}
# the boot after the capture reports it (no journal here: on standard output)
out=$(OOPSLIMIT_JOURNAL_SOCKET=$t/no-journal kd last --boot 2>&1)
check "last --boot reports the capture ($out)" grep -q "last capture $t/crash/2026-12-04-072801: no vmcore; verdict warn_limit" <<<"$out"

rc=0
out=$(kd metrics 2>&1) || rc=$?
check "metrics: status 0, nothing said (status $rc: $out)" test "$rc" -eq 0 -a -z "$out"
prom=$t/prom/oopslimit.prom
want() { # want SAMPLE-LINE
	grep -qxF -- "$1" "$prom"
}
for line in 'oopslimit_oopses_total 0' 'oopslimit_warnings_total 2' 'oopslimit_oops_limit 10000' \
	'oopslimit_warn_limit 3' 'oopslimit_oops_headroom 10000' 'oopslimit_warn_headroom 1' \
	'oopslimit_panic_setting{setting="kernel.panic_on_oops"} 0' \
	'oopslimit_panic_setting{setting="kernel.softlockup_panic"} 1' \
	'oopslimit_panic_setting{setting="vm.panic_on_oom"} 0' \
	'oopslimit_capture_kernel_loaded 1' 'oopslimit_crashkernel_reserved_bytes 268435456' \
	'oopslimit_last_panic_info{reason="warn_limit",setting="kernel.warn_limit"} 1' \
	'# TYPE oopslimit_warnings_total counter' '# TYPE oopslimit_warn_headroom gauge'; do
	check "metrics: $line" want "$line"
done
# a setting the kernel does not have is left out, not 0
check "metrics: no series for a sysctl this kernel lacks" \
	bash -c "! grep -q 'kernel.hardlockup_panic' '$prom'"
# the text format as node_exporter's parser wants it: a HELP and a TYPE
# line before each family's samples, each family once, names and labels valid
fmt=$(awk '
	/^# HELP / { if (seen[$3]++) { print "family " $3 " twice"; exit 1 } help = $3; next }
	/^# TYPE / { if ($3 != help || ($4 != "counter" && $4 != "gauge")) { print "TYPE without its HELP: " $0; exit 1 } fam = $3; next }
	/^#/ { print "stray comment: " $0; exit 1 }
	{ name = $0; sub(/[{ ].*/, "", name)
	  if (name != fam) { print "sample outside its family: " $0; exit 1 }
	  if ($0 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")*\})? -?[0-9][0-9.e+]*$/) { print "bad sample: " $0; exit 1 }
	  if (fam ~ /_total$/ && $NF < 0) { print "negative counter: " $0; exit 1 } }' "$prom") && fmt=ok
check "metrics: the text format ($fmt)" test "$fmt" = ok
check "metrics: no temporary left beside it" test "$(find "$t/prom" -mindepth 1 | wc -l)" -eq 1
check "metrics: a sample kept for the rate" grep -q ' 6b1f0d2e-1111-4c4c-9d9d-0123456789ab 0 2$' "$t/var/samples"

# the limit reached and switched off
echo 3 >"$t/sys/warn_count"
echo 0 >"$t/proc/kernel/oops_limit"
kd metrics
check "metrics: warn_headroom 0 at the limit" want 'oopslimit_warn_headroom 0'
check "metrics: no oops_headroom when oops_limit is 0" bash -c "! grep -q '^oopslimit_oops_headroom' '$prom'"

# the rate: a sample of this boot 30 minutes ago with no warnings, 3 now
now=$(date +%s)
{
	echo "$((now - 7000)) 6b1f0d2e-1111-4c4c-9d9d-0123456789ab 0 0"
	echo "$((now - 1800)) 6b1f0d2e-1111-4c4c-9d9d-0123456789ab 0 0"
	echo "$((now - 1700)) another-boot 0 9"
} >"$t/var/samples"
echo 9 >"$t/proc/kernel/warn_limit"
out=$(kd status 2>&1 || true)
check "status: the last hour's rate ($(grep 'warn rate' <<<"$out"))" \
	grep -qx 'warn rate:      3 warnings in the last 30 min; at the last hour'"'"'s rate warn_limit is reached in ~1.0 h' <<<"$out"
check "status: no oops rate with oops_limit 0" grep -q '^oops rate: .*oops_limit is 0' <<<"$out"
: >"$t/var/samples"
out=$(kd status 2>&1 || true)
check "status: no rate without samples" grep -q '^warn rate: *no rate yet' <<<"$out"

# metrics_dir belongs to another user (prometheus): one who swaps the
# temporary for a symbolic link while it is written must not have the
# writer chmod or fill the link's target.  A racing loop does the swap.
echo precious >"$t/victim"
chmod 600 "$t/victim"
(
	while [ ! -e "$t/stop" ]; do
		for f in "$t"/prom/oopslimit.prom.tmp.*; do
			[ -f "$f" ] && [ ! -L "$f" ] && ln -sfn "$t/victim" "$f" 2>/dev/null
		done
	done
) &
racer=$!
for _ in $(seq 80); do
	kd metrics >/dev/null 2>&1 || true
	# a link renamed over the name is refused by the next run: start again
	[ ! -L "$prom" ] || rm -f "$prom"
done
touch "$t/stop"
wait "$racer" || true
find "$t/prom" -name 'oopslimit.prom.tmp.*' -delete
check "metrics: a temporary swapped for a link: its target unchanged ($(stat -c '%a' "$t/victim"), $(head -c 20 "$t/victim" | tr '\n' ' '))" \
	test "$(stat -c %a "$t/victim")" = 600 -a "$(cat "$t/victim")" = precious
kd metrics
check "metrics: written again after the race" test -f "$prom" -a ! -L "$prom"
check "metrics: oopslimit.prom readable by the collector (mode $(stat -c %a "$prom" 2>/dev/null))" \
	test "$(stat -c %a "$prom" 2>/dev/null)" = 644

# bad directories: one line, once; status 4; nothing written
bad() { # bad DESCRIPTION EXPECTED-TEXT
	local rc=0 rc2=0 out out2
	out=$(kd metrics 2>&1) || rc=$?
	out2=$(kd metrics 2>&1) || rc2=$?
	if [ "$rc" -eq 4 ] && [ "$rc2" -eq 4 ] && [ "$(grep -c . <<<"$out")" -eq 1 ] &&
		[[ $out == *"$2"* ]] && [ -z "$out2" ] && [ -z "$(find "$t/prom" -name 'oopslimit.prom.tmp.*')" ]; then
		ok "metrics, $1: status 4, said once: $out"
	else
		not_ok "metrics, $1: status $rc/$rc2, said '$out', then '$out2'"
	fi
}
printf 'metrics_dir %s/missing\n' "$t" >>"$t/kdump.conf"
bad "a missing directory" "$t/missing does not exist"
check "metrics: nothing made for a missing directory" test ! -e "$t/missing"
: >"$t/file"
printf 'metrics_dir %s/file\n' "$t" >>"$t/kdump.conf"
bad "a file for a directory" "$t/file is not a directory"
printf 'metrics_dir %s/prom\n' "$t" >>"$t/kdump.conf"
rm -f "$prom"
echo precious >"$t/target"
ln -s "$t/target" "$prom"
bad "a symbolic link at oopslimit.prom" "symbolic link"
check "metrics: the link's target untouched" grep -qx precious "$t/target"
rm -f "$prom"
kd metrics
check "metrics: written again once the directory serves" test -f "$prom" -a ! -e "$t/run/metrics-trouble"
check "metrics: a relative metrics_dir refused" bash -c "printf 'metrics_dir prom\n' >>'$t/kdump.conf'; ! '$top/kdump/oopslimit-kdump' -c '$t/kdump.conf' metrics 2>/dev/null"

# a failed capture's report out of the fallback spot (its header, then the
# recorder's JSON, as the capture kernel's fallback_write leaves it): "last"
# and the metrics read its error and verdict
mkdir -p "$t/var/failed"
{
	printf 'oopslimit-fallback: report\nstamp: 2099-01-01-000000\nerror: cannot mount /dev/vdb (ext4) after 30 s: no such device\n'
	"$recorder" -l "$top/tests/unit/warn-limit-dmesg.txt" -j - --capture failed --error "cannot mount /dev/vdb" "$t/no-vmcore" 2>/dev/null || true
} >"$t/var/failed/2099-01-01-000000.txt"
printf 'target auto\npath %s/crash\nmetrics_dir %s/prom\n' "$t" "$t" >"$t/kdump.conf"
out=$(kd last 2>&1 | tail -n 1)
check "last: a failed capture's error and verdict ($out)" test "$out" = \
	"oopslimit-kdump: last capture 2099-01-01-000000: failed, nothing saved: cannot mount /dev/vdb (ext4) after 30 s: no such device; verdict warn_limit; its report: $t/var/failed/2099-01-01-000000.txt"
OOPSLIMIT_JOURNAL_SOCKET=$t/no-journal kd last --boot >/dev/null 2>&1
kd metrics
check "metrics: the last panic's reason from a failed capture's report" \
	want 'oopslimit_last_panic_info{reason="warn_limit",setting="kernel.warn_limit"} 1'

# estimate on a machine past 2 GiB: mawk prints a product over 2^31 as
# 2.52762e+10, which the shell cannot count with
python3 -c 'import struct, sys; b = bytearray(4096); b[514:518] = b"HdrS"; b[608:612] = struct.pack("<I", 20 << 20); sys.stdout.buffer.write(b)' >"$t/bzImage"
head -c 3000000 /dev/zero | gzip >"$t/initrd.gz"
printf 'MemTotal:       25165824 kB\n' >"$t/meminfo"
printf 'target auto\npath %s/crash\nkernel %s/bzImage\ninitrd %s/initrd.gz\n' "$t" "$t" "$t" >"$t/estimate.conf"
est=$(OL_MEMINFO=$t/meminfo OOPSLIMIT_KDUMP_SYS=$t/sys OOPSLIMIT_KDUMP_PROC=$t/proc OOPSLIMIT_KDUMP_VAR=$t/var \
	OOPSLIMIT_KDUMP_STATE=$t/run "$top/kdump/oopslimit-kdump" -c "$t/estimate.conf" estimate 2>&1) || true
check "estimate on 24 GiB: 2 MiB of bitmaps (1.5, rounded up), 38 MiB needed of 256: $(echo "$est" | tr '\n' ' ')" \
	test "$(echo "$est" | grep -c -e '^makedumpfile: *2 MiB of bitmaps for 24576 MiB' -e '^needed: *38 MiB$' \
		-e 'crashkernel=38M is the least')" -eq 3

echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
