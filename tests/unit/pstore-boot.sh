#!/bin/bash
# "last --boot" and pstore (kdump/oopslimit-kdump): a panic record of the
# boot before is judged by the recorder and shown by "last" when no capture
# covers it; a record of an earlier boot, of this boot, one already seen,
# an oops record, a compressed one, and any record when a new capture
# covers the panic, are skipped or judged unknown, each with one line.
# Made-up pstore directories and boot ids; the records are the fixture
# tests/unit/pstore/dmesg-ramoops-0 (a real ramoops record) and variants.
# TAP; "N passed, N failed" last.
#
# Usage: tests/unit/pstore-boot.sh RECORDER   (the built oopslimit-reason)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
recorder=${1:?usage: pstore-boot.sh RECORDER}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fixture=$top/tests/unit/pstore/dmesg-ramoops-0
# shellcheck source=tap.sh
. "$top/tests/unit/tap.sh"

mkdir -p "$t/sys" "$t/proc/kernel/random" "$t/var" "$t/run" "$t/crash" "$t/live" "$t/archive"
printf '26 1 254:0 / %s rw,relatime - ext4 /dev/vda rw\n' "$t" >"$t/mountinfo"
printf 'target auto\npath %s/crash\nmetrics_dir %s\n' "$t" "$t" >"$t/kdump.conf"
export OOPSLIMIT_KDUMP_SYS=$t/sys OOPSLIMIT_KDUMP_PROC=$t/proc OOPSLIMIT_KDUMP_VAR=$t/var \
	OOPSLIMIT_KDUMP_STATE=$t/run OOPSLIMIT_REASON=$recorder OL_MOUNTINFO=$t/mountinfo \
	OOPSLIMIT_PSTORE_LIVE=$t/live OOPSLIMIT_PSTORE_ARCHIVE=$t/archive \
	OOPSLIMIT_JOURNAL_SOCKET=$t/no-journal
kd() {
	"$top/kdump/oopslimit-kdump" -c "$t/kdump.conf" "$@"
}
boot() { # boot N: a new boot id, then "last --boot" as the unit runs it
	echo "00000000-0000-4000-8000-00000000000$1" >"$t/proc/kernel/random/boot_id"
	kd last --boot 2>&1
}
read -r up _ </proc/uptime
start=$(($(date +%s) - ${up%.*}))

# the first boot with the package notes its start; nothing to say
out=$(boot 1)
check "first boot: nothing said ($out)" test -z "$out"
read -r id noted _ <"$t/var/boot-start"
check "first boot: its start noted ($id $noted, uptime says $start)" \
	test "$id" = 00000000-0000-4000-8000-000000000001 -a "$noted" -ge $((start - 2)) -a "$noted" -le $((start + 2))
# the boot before this one began an hour earlier (the test's clock is the host's)
echo "00000000-0000-4000-8000-000000000001 $((start - 3600))" >"$t/var/boot-start"

# a panic record of the boot before, pstore's time half an hour ago, and
# one of the boot before that
cp "$fixture" "$t/live/dmesg-ramoops-0"
touch -d "@$((start - 1800))" "$t/live/dmesg-ramoops-0"
cp "$fixture" "$t/live/dmesg-ramoops-1"
touch -d "@$((start - 7200))" "$t/live/dmesg-ramoops-1"
out=$(boot 2)
check "the record of the boot before: judged, said once: $(grep 'last panic' <<<"$out")" \
	grep -q "^oopslimit-kdump: last panic $t/var/pstore/[0-9-]*: no capture (kdump was not loaded, or stopped before it); the log from pstore dmesg-ramoops-0; verdict warn_limit; signature warn_limit: WARNING in oopslimit_test_warning$" <<<"$out"
check "the older record: skipped, from an earlier boot" \
	grep -q "pstore record $t/live/dmesg-ramoops-1 skipped: .*before the last boot began: from an earlier boot" <<<"$out"
rep=$(echo "$t"/var/pstore/*/reason.json)
check "the report: schema 4, counters null, counters_source none, the record it came from" \
	bash -c "grep -q '\"schema\": 4' '$rep' && grep -q '\"warn_count\": null' '$rep' &&
		grep -q '\"counters_source\": \"none\"' '$rep' && grep -q '\"log_from\": \"pstore dmesg-ramoops-0\"' '$rep' &&
		grep -q '\"crash_time\": \"$(date -u -d "@$((start - 1800))" +%Y-%m-%dT%H:%M:%SZ)\"' '$rep'"
check "the record copied beside the report" cmp -s "$fixture" "$(dirname "$rep")/dmesg-ramoops-0"
out=$(kd last 2>&1)
check "last: the report" grep -q 'VERDICT: warn_limit (origin: kernel)' <<<"$out"
check "last: then the summary" grep -q 'verdict warn_limit; signature warn_limit: WARNING in oopslimit_test_warning$' <<<"$(tail -n 1 <<<"$out")"
out=$(boot 3)
check "the next boot: nothing said again ($out)" test -z "$out"

# systemd-pstore's copy keeps pstore's time of the record: judged with it
echo "00000000-0000-4000-8000-000000000003 $((start - 3600))" >"$t/var/boot-start"
rm -rf "$t/var/pstore"
cp "$fixture" "$t/archive/dmesg-ramoops-9"
touch -d "@$((start - 1000))" "$t/archive/dmesg-ramoops-9"
out=$(boot 4)
rep=$(echo "$t"/var/pstore/*/reason.json)
check "systemd-pstore's copy of the boot before's record: judged, with its time ($(tail -n 1 <<<"$out"))" \
	grep -q "\"crash_time\": \"$(date -u -d "@$((start - 1000))" +%Y-%m-%dT%H:%M:%SZ)\"" "$rep"
rm -f "$t/archive/dmesg-ramoops-9"

# a copy made during this boot (a copier that lost the time): judged, no time
cp "$fixture" "$t/archive/dmesg-ramoops-0"
# an oops record and one pstore could not decompress, both this boot's archive
sed '1s/^Panic#1/Oops#1/' "$fixture" >"$t/archive/dmesg-ramoops-2"
head -c 300 /dev/urandom >"$t/archive/dmesg-ramoops-3.enc.z"
touch -d "@$((start + 5))" "$t/archive/dmesg-ramoops-2" "$t/archive/dmesg-ramoops-3.enc.z" "$t/archive/dmesg-ramoops-0"
rm -rf "$t/var/pstore"
out=$(boot 5)
check "three archived records: one report" test "$(find "$t/var/pstore" -name reason.json | wc -l)" -eq 1
check "the oops record: skipped, saying its kind" grep -q "dmesg-ramoops-2 skipped: .*Oops, not at a panic" <<<"$out"
rep=$(echo "$t"/var/pstore/*/reason.json)
check "the compressed one: judged unknown, then not kept" \
	grep -q "pstore record $t/archive/dmesg-ramoops-3.enc.z not kept: its verdict is unknown, $t/archive/dmesg-ramoops-0 has one" <<<"$out"
check "the panic record kept: warn_limit, no crash time (the copy's time is not pstore's)" \
	bash -c "grep -q '\"reason\": \"warn_limit\"' '$rep' && grep -q '\"crash_time\": null' '$rep'"

# a record written during this boot waits; a new capture covers the panic
cp "$fixture" "$t/live/dmesg-ramoops-5"
touch -d "@$((start + 10))" "$t/live/dmesg-ramoops-5"
out=$(boot 5)
check "a record of this boot: skipped, left for the next boot" grep -q "dmesg-ramoops-5 skipped: written during this boot" <<<"$out"
mkdir -p "$t/crash/2099-01-01-000000"
out=$(boot 6)
check "a new capture covers the panic: the record skipped, the capture reported" \
	bash -c "grep -q 'dmesg-ramoops-5 skipped: the capture $t/crash/2099-01-01-000000 covers' <<<'$out' &&
		grep -q 'last capture $t/crash/2099-01-01-000000: no vmcore' <<<'$out'"

# pstore no: nothing looked at
printf 'pstore no\n' >>"$t/kdump.conf"
cp "$fixture" "$t/live/dmesg-ramoops-6"
touch -d "@$((start - 10))" "$t/live/dmesg-ramoops-6"
out=$(boot 7)
check "pstore no: the record left alone ($out)" bash -c "! grep -q ramoops-6 <<<'$out'"

tap_done
