#!/bin/bash
# The reader matrix: a dump of each Debian release's stock kernel
# (tests/scenarios/kernel-SUITE.scn, booted here first) read by every reader
# this machine has, each result checked against the values the guest set
# (the scenario's "sysctl" steps; no warning or oops happened, so both counts
# are 0) and timed:
#   recorder        oopslimit-reason on the dump alone (no vmlinux, no log)
#   crash --minimal crash with the extension and the -dbg package's vmlinux,
#                   without gdb
#   crash           the full crash session with the extension
#   drgn            tests/drgn-counters.py, the independent oracle
# The -dbg packages are large (Debian 13's is a 1 GB download): this is not
# part of make test.  Writes bench/matrix.md and prints it.  Without SUITEs,
# a second table: Debian 13's arm64 kernels in the same guest plan
# (tests/scenarios/arm64-sysrq.scn, arm64-16k-sysrq.scn), their boot to the
# dump under TCG, read by the same readers (this machine's crash and drgn
# say why they cannot).
#
# Usage: scripts/matrix.sh [SUITE...]   (make matrix; default: every suite
#        of scripts/debian-releases, and the arm64 table)
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

releases=$OOPSLIMIT_TOP/scripts/debian-releases
if [ $# -gt 0 ]; then
	suites=("$@")
else
	mapfile -t suites < <(awk '!/^#/ && NF { print $1 }' "$releases")
fi
for s in "${suites[@]}"; do
	[ -r "$OOPSLIMIT_TOP/tests/scenarios/kernel-$s.scn" ] || die "no scenario tests/scenarios/kernel-$s.scn for suite $s"
done

# The dumps: the scenarios, booted now (they fail on their own expectations,
# not on what the matrix measures).
names=()
for s in "${suites[@]}"; do names+=("kernel-$s"); done
arm64=()
[ $# -gt 0 ] || arm64=(arm64-sysrq arm64-16k-sysrq)
say "booting ${names[*]} ${arm64[*]}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{ OOPSLIMIT_SCENARIOS_ONLY=1 "$OOPSLIMIT_TOP/tests/run.sh" "${names[@]}" "${arm64[@]}" || echo failed; } |
	tee "$work/boots" >&2
! grep -qx failed "$work/boots" || say "a scenario failed; the matrix reads what dumps there are"
make -s -C "$OOPSLIMIT_TOP/kdump" O="$work" >/dev/null || die "building the recorder (recorder/) failed"
make -s -C "$OOPSLIMIT_TOP/crash-ext" >/dev/null || die "building the crash extension failed"
mkdir -p "$work/ext"
cp "$OOPSLIMIT_TOP/crash-ext/oopslimit.so" "$work/ext/"

# The report keys the guest's sysctl steps set, and the counts.
expected() {
	sed -n 's/^step[[:space:]]\{1,\}sysctl[[:space:]]\{1,\}kernel\.\([a-z_]*\)[[:space:]]\{1,\}\([0-9]*\)$/\1 \2/p' "$1" |
		sed 's/^tainted /tainted_mask /'
	printf '%s\n' 'warn_count 0' 'oops_count 0'
}

# judge JSON WANT-FILE: "exact", or what differs, or why there is nothing.
judge() {
	local json=$1 want=$2 key val got bad='' null=0 n=0
	while read -r key val; do
		n=$((n + 1))
		got=$(jq -r --arg k "$key" '.[$k] // .values[$k] | if . == null then "null" else tostring end' "$json" 2>/dev/null) ||
			got='?'
		if [ "$got" = null ]; then
			null=$((null + 1))
		elif [ "$got" != "$val" ]; then
			bad="$bad $key $got (set $val);"
		fi
	done <"$want"
	if [ -n "$bad" ]; then
		printf 'WRONG:%s' "$bad"
	elif [ $null -eq $n ]; then
		printf 'no counters'
	elif [ $null -gt 0 ]; then
		printf '%d of %d exact, %d null' $((n - null)) "$n" "$null"
	else
		printf 'exact'
	fi
}

# cell NAME: the last run's result and time as a table cell.
row_cells=()
run_reader() { # run_reader LABEL WANT JSON COMMAND...
	local label=$1 want=$2 json=$3 t0 out verdict
	shift 3
	t0=$(now_ms)
	# the JSON it leaves says how it went; its exit status adds nothing
	"$@" >"$work/out" 2>&1 || true
	if [ -s "$json" ] && jq -e . "$json" >/dev/null 2>&1; then
		out=$(judge "$json" "$want")
		verdict=$(jq -r '.reason // empty' "$json" 2>/dev/null)
		row_cells+=("$out${verdict:+, $verdict} ($(since "$t0") s)")
	else
		row_cells+=("fails: $(grep -v '^$' "$work/out" | grep -m1 -i 'error\|invalid\|cannot\|not' | cut -c1-90 | tr '|' '/') ($(since "$t0") s)")
	fi
	say "$label: ${row_cells[-1]}"
}

table=$work/matrix.md
{
	printf '# oopslimit reader matrix\n\n'
	# shellcheck disable=SC2016  # backquotes are Markdown here
	printf 'Written by `make matrix` (`scripts/matrix.sh`) on %s: a QEMU dump of each release'"'"'s stock kernel after\n' \
		"$(date -u +%Y-%m-%d)"
	printf 'the guest set warn_limit 3, oops_limit 7, panic_on_oops 1 and taint bit 12, then sysrq c;\n'
	printf 'each reader'"'"'s values against those. crash %s, drgn %s.\n\n' \
		"$(crash --version 2>/dev/null | sed -n 's/^crash \([0-9.]*\).*/\1/p' | head -n 1)" \
		"$(/usr/bin/python3 -c 'import drgn; print(drgn.__version__)' 2>/dev/null || echo '?')"
	printf '| release | kernel | packages fetched (image, -dbg) | recorder (no vmlinux) | crash --minimal -x oopslimit | crash -x oopslimit | drgn |\n'
	printf '| --- | --- | --- | --- | --- | --- | --- |\n'
} >"$table"

# row NAME: the table row of scenario NAME's dump (its kernel debian:SUITE,
# on its arch), each reader's cell; an arm64 row has the boot to the dump
# and the dump's size after the fetch.
row() {
	local name=$1 scn dump s arch rel kdir fetch boot
	scn=$OOPSLIMIT_TOP/tests/scenarios/$name.scn
	dump=$OOPSLIMIT_CACHE/runs/$name/dump.elf
	s=$(sed -n 's/^kernel[[:space:]]*debian://p' "$scn")
	arch=$(sed -n 's/^arch[[:space:]]\{1,\}//p' "$scn")
	rel=$(awk -v s="$s" '!/^#/ && $1 == s { print $2 }' "$releases")
	if [ ! -s "$dump" ]; then
		printf '| %s (%s) | | | no dump: the scenario did not leave one | | | |%s\n' "$rel" "$s" "${arch:+ | |}" >>"$table"
		return
	fi
	t0=$(now_ms)
	kdir=$("$OOPSLIMIT_TOP/scripts/debian-kernel.sh" -g ${arch:+-a "$arch"} "$s") ||
		die "cannot fetch $s's kernel and its -dbg package"
	fetch="$(since "$t0") s, vmlinux $(($(stat -c %s "$kdir/vmlinux") / 1048576)) MiB"
	if [ -n "$arch" ]; then
		boot=$(sed -n "s/^# $name: QEMU ran \\([0-9.]*\\) s, status 0.*/\\1 s/p" "$work/boots" | tail -n 1)
		fetch="$arch | $fetch | ${boot:-?}, $(($(stat -c %s "$dump") / 1048576)) MiB"
	fi
	expected "$scn" >"$work/want"
	row_cells=()
	run_reader "$s recorder" "$work/want" "$work/rec.json" "$work/oopslimit-reason" -j "$work/rec.json" "$dump"
	printf 'oopslimit -j > %s\nquit\n' "$work/min.json" >"$work/min.cmd"
	run_reader "$s crash --minimal" "$work/want" "$work/min.json" \
		env CRASH_EXTENSIONS="$work/ext" crash -s --minimal -x --kaslr auto "$kdir/vmlinux" "$dump" -i "$work/min.cmd"
	printf 'oopslimit -j > %s\nquit\n' "$work/full.json" >"$work/full.cmd"
	run_reader "$s crash" "$work/want" "$work/full.json" \
		env CRASH_EXTENSIONS="$work/ext" crash -s -x --kaslr auto "$kdir/vmlinux" "$dump" -i "$work/full.cmd"
	# shellcheck disable=SC2016  # the inner shell's own parameters
	run_reader "$s drgn" "$work/want" "$work/drgn.json" \
		sh -c '/usr/bin/python3 "$1" "$2" "$3" >"$4"' sh "$OOPSLIMIT_TOP/tests/drgn-counters.py" "$dump" "$kdir/vmlinux" "$work/drgn.json"
	printf '| %s (%s) | %s | %s | %s | %s | %s | %s |\n' "$rel" "$s" "$(cat "$kdir/kernelrelease")" "$fetch" \
		"${row_cells[@]}" >>"$table"
	rm -f "$work"/*.json
}
for s in "${suites[@]}"; do row "kernel-$s"; done
if [ ${#arm64[@]} -gt 0 ]; then
	{
		printf '\nDebian 13'"'"'s arm64 kernels, the same plan, under qemu-system-aarch64 -M virt (TCG, 512 MiB) here:\n\n'
		printf '| release | kernel | machine (scripts/arches) | packages fetched (image, -dbg) | boot to the dump, its size | recorder (no vmlinux) | crash --minimal -x oopslimit | crash -x oopslimit | drgn |\n'
		printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
	} >>"$table"
	for n in "${arm64[@]}"; do row "$n"; done
fi

mkdir -p "$OOPSLIMIT_TOP/bench"
ol_write_atomic "$OOPSLIMIT_TOP/bench/matrix.md" <"$table" || die "cannot write bench/matrix.md"
cat "$table"
