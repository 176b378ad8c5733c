#!/bin/sh
# Run by scripts/deb.sh -r SUITE inside a clean chroot of that Debian release:
# installs the packages with apt, their dependencies from the release, and
# runs what runs without a kernel.  Each check prints "ok: WHAT" or stops the
# script with "FAIL: WHAT".  It reads /oopslimit/*.deb and
# /oopslimit/warn-limit-dmesg.txt and, when deb.sh found them, a dump of the
# release's stock kernel and its vmlinux (/oopslimit/dump.elf, vmlinux); it
# leaves the reports there for deb.sh to compare (log.json, rec.json, crash.json).
set -eu
d=/oopslimit

fail() {
	echo "FAIL: $*"
	exit 1
}
ok() {
	echo "ok: $*"
}

# shellcheck source=/dev/null
. /etc/os-release
apt-get -q update
# systemd, as on the machines the package is for: the unit and the generator
# are checked with the release's own.
apt-get -q -y --no-install-recommends install systemd
apt-get -q -y --no-install-recommends install "$d"/*.deb || fail "apt cannot install the packages on $PRETTY_NAME"
ok "apt installs $(dpkg-query -W -f '${Package} ${Version}, ' oopslimit-kdump crash-oopslimit)dependencies from $PRETTY_NAME ($(dpkg-query -W -f '${Package} ${Version}, ' crash makedumpfile dracut-core 'libkdumpfile[0-9]*' kexec-tools systemd | sed 's/, $//'))"

# --- the recorder ---
oopslimit-reason --help >"$d/help.txt" 2>&1 || fail "oopslimit-reason --help: status $?"
grep -q '^usage: oopslimit-reason' "$d/help.txt" || fail "oopslimit-reason --help prints no usage line"
ok "oopslimit-reason --help"
rc=0
oopslimit-reason -j - -l "$d/warn-limit-dmesg.txt" /dev/null >"$d/log.json" || rc=$?
[ $rc -eq 3 ] || fail "oopslimit-reason -j - -l LOG /dev/null: status $rc, not 3 (a report, but no dump)"
ok "oopslimit-reason -j - -l warn-limit-dmesg.txt /dev/null: status 3 and a report"

# --- the loader's config ---
out=$(oopslimit-kdump check) || fail "oopslimit-kdump check with the packaged config: status $?"
printf '%s\n' "$out" | grep -q '^config: *[/]etc/oopslimit/kdump.conf$' || fail "oopslimit-kdump check names no config: $out"
printf 'target auto\npath /var/crash\nwarn_limit 3\n' >"$d/kdump.conf"
out=$(oopslimit-kdump -c "$d/kdump.conf" check) || fail "oopslimit-kdump -c CONF check: status $?"
printf '%s\n' "$out" | grep -q '^warn_limit: *3$' || fail "oopslimit-kdump -c CONF check does not show warn_limit 3: $out"
printf 'warn_limit three\n' >"$d/bad.conf"
rc=0
out=$(oopslimit-kdump -c "$d/bad.conf" check 2>&1) || rc=$?
if [ $rc -eq 0 ] || [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] || ! printf '%s\n' "$out" | grep -q bad.conf; then
	fail "oopslimit-kdump -c BAD check: status $rc, said: $out"
fi
ok "oopslimit-kdump check: the packaged config, one with warn_limit 3, and a bad one refused in one line"

# --- systemd: the unit enabled, the generator where this systemd looks ---
unit=/usr/lib/systemd/system/oopslimit-kdump.service
[ -f "$unit" ] || fail "no $unit"
[ -L /etc/systemd/system/multi-user.target.wants/oopslimit-kdump.service ] ||
	fail "oopslimit-kdump.service is not enabled after the install"
[ -L /etc/systemd/system/timers.target.wants/oopslimit-metrics.timer ] ||
	fail "oopslimit-metrics.timer is not enabled after the install"
systemd-analyze --system unit-paths | grep -qx /usr/lib/systemd/system || fail "systemd does not read /usr/lib/systemd/system"
gen=''
for dir in $(systemd-path systemd-search-system-generator | tr : ' '); do
	[ -x "$dir/oopslimit-kdump-generator" ] && gen=$dir/oopslimit-kdump-generator && break
done
[ -n "$gen" ] || fail "oopslimit-kdump-generator is in none of systemd's generator directories ($(systemd-path systemd-search-system-generator))"
mkdir -p "$d/gen"
"$gen" "$d/gen" "$d/gen" "$d/gen" || fail "$gen: status $?"
grep -qx 'RequiresMountsFor=/var/crash' "$d/gen/oopslimit-kdump.service.d/50-dump-path.conf" ||
	fail "$gen wrote no RequiresMountsFor=/var/crash drop-in"
ok "systemd $(dpkg-query -W -f '${Version}' systemd): $unit enabled (multi-user.target.wants), oopslimit-metrics.timer too (timers.target.wants); the generator found as $gen, and its drop-in"

# --- the crash extension: every crash symbol it needs is one crash exports ---
ext=/usr/lib/crash/extensions/oopslimit.so
[ -f "$ext" ] || fail "no $ext"
cv=$(crash --version 2>&1 | sed -n 's/^\(crash [0-9][0-9.]*\).*/\1/p' | head -n 1)
[ -n "$cv" ] || fail "crash --version names no version"
nm -D --undefined-only "$ext" | awk '$1 == "U" && $2 !~ /@/ { print $2 }' | sort -u >"$d/need"
nm -D --defined-only "$(command -v crash)" | awk '{ print $3 }' | sort -u >"$d/have"
[ -s "$d/need" ] || fail "$ext needs no symbol from crash: nm did not read it"
missing=$(comm -23 "$d/need" "$d/have" | tr '\n' ' ')
[ -z "$missing" ] || fail "$ext needs symbols $cv does not export: $missing"
ok "$ext: its $(wc -l <"$d/need") symbols from crash are all exported by $cv"

# --- with a dump of the release's kernel: crash -x (it loads the extensions of
# /usr/lib/crash/extensions), and the recorder ---
if [ -e "$d/dump.elf" ]; then
	rc=0
	oopslimit-reason -j "$d/rec.json" "$d/dump.elf" 2>"$d/rec.err" || rc=$?
	[ $rc -eq 0 ] || fail "oopslimit-reason on the dump: status $rc: $(cat "$d/rec.err")"
	printf 'oopslimit -j > %s\noopslimit\nquit\n' "$d/crash.json" >"$d/crash.cmd"
	mode=''
	rc=0
	crash -s -x --kaslr auto "$d/vmlinux" "$d/dump.elf" -i "$d/crash.cmd" </dev/null >"$d/crash.out" 2>&1 || rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$d/crash.json" ]; then
		# Is it crash itself that cannot open this kernel's dump (a crash
		# older than the kernel stops at start-up on a structure member the
		# kernel dropped)?  Then the extension is checked in crash's
		# minimal mode, which needs no kernel structures; otherwise it failed.
		printf 'quit\n' >"$d/plain.cmd"
		crash -s --kaslr auto "$d/vmlinux" "$d/dump.elf" -i "$d/plain.cmd" </dev/null >"$d/plain.out" 2>&1 || true
		why=$(grep -m1 -E '^crash: ' "$d/plain.out" || true)
		[ -n "$why" ] || fail "crash -x oopslimit on the dump: status $rc: $(tail -n 3 "$d/crash.out")"
		echo "note: $cv itself cannot open a session on this kernel's dump ($why): the extension is checked with --minimal"
		mode=' --minimal'
		rm -f "$d/crash.json"
		crash --minimal -s -x --kaslr auto "$d/vmlinux" "$d/dump.elf" -i "$d/crash.cmd" </dev/null >"$d/crash.out" 2>&1 ||
			fail "crash --minimal -x oopslimit on the dump: status $?: $(tail -n 3 "$d/crash.out")"
	fi
	[ -s "$d/crash.json" ] || fail "crash$mode -x oopslimit wrote no report: $(tail -n 3 "$d/crash.out")"
	! grep -iE 'error|invalid' "$d/crash.out" || fail "crash$mode -x oopslimit said error or invalid"
	ok "$cv$mode -x (the packaged extension) on the dump of $(sed -n 's/^  "kernel_release": "\(.*\)",$/\1/p' "$d/rec.json"): oopslimit says $(sed -n 's/^  "reason": "\(.*\)",$/\1/p' "$d/crash.json"), as the recorder"
fi
