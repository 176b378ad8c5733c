#!/bin/bash
# The main job, from nothing to a verdict: build (or reuse) the limits kernel,
# the guest and capture initramfs images and the crash extension; boot the
# guest; load kdump; provoke the policy until the kernel panics; let the
# capture kernel save the dump; read it with crash's oopslimit extension (and
# the recorder, and drgn: the harness checks they agree).
#
# Usage: scripts/main.sh [-p POLICY] [-n N] [-m MEM] [-c CRASHKERNEL]
#   -p  warn_limit (default), oops_limit, ubsan (warn_limit reached by a
#       UBSAN report), panic_on_warn, panic_on_oops or sysrq
#   -n  the limit to exhaust (default 3; limits only)
#   -m  guest memory (default 512M)
#   -c  the capture kernel's reservation (default 64M)
# make run [POLICY=...] [N=...] [MEM=...] [CRASHKERNEL=...] calls it.
# crash 8.0.2 finds the KASLR offset of a kernel without modules only when
# asked (--kaslr auto); the analysis asks.
#
# The run is a scenario like the tests' (scripts/scenario.sh), written from
# the options into the run directory; each stage prints its time, and a
# failing stage says which one and where its log is.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scenario.sh
. "$OOPSLIMIT_TOP/scripts/scenario.sh"

policy=warn_limit n=3 mem=512M crashkernel=64M
while getopts p:n:m:c:h opt; do
	case $opt in
	p) policy=$OPTARG ;;
	n) [[ $OPTARG =~ ^[1-9][0-9]{0,4}$ ]] || die "-n takes a limit from 1 to 99999, not '$OPTARG'"
	   n=$OPTARG ;;
	m) [[ $OPTARG =~ ^[1-9][0-9]*[MG]$ ]] || die "-m takes a size like 512M, not '$OPTARG'"
	   mem=$OPTARG ;;
	c) [[ $OPTARG =~ ^[1-9][0-9]*M$ ]] || die "-c takes a size like 64M, not '$OPTARG'"
	   crashkernel=$OPTARG ;;
	*) sed -n '/^# Usage:/,/^# make run/s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done

# The policies, as scenario lines: how to set it, how to provoke it, what
# reason.json must then say.
policy_lines() {
	case $policy in
	warn_limit)
		printf '%s\n' "kdump   warn_limit $n" "step    trigger WARNING $n" \
			"expect  report reason warn_limit" "expect  report origin kernel" \
			"expect  report warn_count $n" "expect  report warn_limit $n" ;;
	oops_limit)
		printf '%s\n' "kdump   oops_limit $n" "step    trigger EXCEPTION $n" \
			"expect  report reason oops_limit" "expect  report oops_count $n" "expect  report oops_limit $n" ;;
	ubsan)
		[ "$n" -ge 2 ] || die "-p ubsan needs -n 2 or more (UBSAN reports a call site once)"
		printf '%s\n' "kdump   warn_limit $n" "step    trigger WARNING $((n - 1))" "step    trigger ARRAY_BOUNDS 1" \
			"expect  report reason warn_limit" "expect  report origin UBSAN" "expect  report warn_count $n" ;;
	panic_on_warn)
		printf '%s\n' "kdump   panic_on_warn 1" "step    trigger WARNING 1" \
			"expect  report reason panic_on_warn" "expect  report origin kernel" ;;
	panic_on_oops)
		printf '%s\n' "kdump   panic_on_oops 1" "step    trigger EXCEPTION 1" \
			"expect  report reason panic_on_oops" ;;
	sysrq)
		printf '%s\n' "step    sysrq c" "expect  report reason sysrq" ;;
	*) die "unknown policy '$policy': warn_limit, oops_limit, ubsan, panic_on_warn, panic_on_oops or sysrq" ;;
	esac
}

job=$OOPSLIMIT_CACHE/main
mkdir -p "$job"
scn=$job/main-$policy.scn
lines=$(policy_lines)
{
	printf '%s\n' "about   the main job: $policy${n:+ (N=$n)}, $mem guest, crashkernel=$crashkernel" \
		"kernel  limits" "memory  $mem" "append  crashkernel=$crashkernel" "timeout 600" \
		"step    kdump load"
	grep -v '^expect' <<<"$lines"
	printf '%s\n' "expect  capture complete"
	grep '^expect' <<<"$lines"
} | ol_write_atomic "$scn" || die "cannot write $scn"
scenario_validate "$scn"

# --- stages ------------------------------------------------------------------------------
# Progress goes to fd 3 and errors to fd 4, the terminal, also while a
# stage's own output is logged.
exec 3>&1 4>&2
stage_no=0 watch_pid=
stage_t0=0
stage() {
	stage_no=$((stage_no + 1))
	stage_name=$1
	stage_t0=$(now_ms)
	printf '[%d/6] %-12s ' "$stage_no" "$stage_name" >&3
}
stage_done() {
	printf '%6s s  %s\n' "$(since "$stage_t0")" "$*" >&3
}
stage_failed() {
	printf 'FAILED after %s s\n' "$(since "$stage_t0")" >&3
	[ -z "$watch_pid" ] || kill "$watch_pid" 2>/dev/null || true
	die "stage '$stage_name' failed: $1 (log: $2)" 2>&4
}

# advance DIR: ends the current stage if the run directory shows it done;
# true when it did.  $want names what the stage waits for.
advance() {
	local dir=$1
	case $want in
	booted)
		grep -q '^booted ' "$dir/results" 2>/dev/null || return 1
		stage_done "$(sed -n 's/^booted //p' "$dir/results")"
		stage "load kdump"
		want=load ;;
	load)
		grep -q '^kdump load => ' "$dir/results" 2>/dev/null || return 1
		grep -q '^kdump load => 0 ' "$dir/results" ||
			stage_failed "$(sed -n 's/^kdump load => //p' "$dir/results")" "$dir/kdump-load.out"
		stage_done "$(grep -m1 'capture kernel loaded' "$dir/kdump-load.out" | sed 's/^oopslimit-kdump: //')"
		stage trigger
		want=panic ;;
	panic)
		# a panic line, or (panic_on_oops) the capture kernel booting
		# straight from the oops
		if grep -aq 'Kernel panic - not syncing' "$dir/console.log" 2>/dev/null; then
			stage_done "$(grep -a -m1 -o 'Kernel panic - not syncing: .*' "$dir/console.log" | tr -d '\r')"
		elif grep -aq 'Command line: elfcorehdr=' "$dir/console.log" 2>/dev/null; then
			stage_done "$(grep -a -o '[^]]*\[#[0-9]*\].*' "$dir/console.log" | tail -n 1 | tr -d '\r' | sed 's/^ *//'), then kdump (no panic line)"
		else
			return 1
		fi
		stage capture
		want=capture ;;
	*) return 1 ;;
	esac
}

# Follows the QEMU run through its files and reports the stages as they end,
# looking once more after QEMU ended so that a quick run is judged right.
scenario_watch() {
	local dir=$1 pid=$2 alive
	want=booted
	watch_pid=$pid
	stage boot
	while :; do
		alive=yes
		kill -0 "$pid" 2>/dev/null || alive=''
		while advance "$dir"; do :; done
		[ -n "$alive" ] || break
		sleep 0.2
	done
	watch_pid=''
	[ "$want" = capture ] || stage_failed "QEMU ended before that stage finished" "$dir/console.log"
}

total_t0=$(now_ms)
stage build
log=$job/build.log
# The build runs in the background; its progress (what is being built, for
# how long, how many of the kernel's objects are compiled) is shown while it
# goes: on one line that updates itself on a terminal, else every 30 s.
OOPSLIMIT_VARIANTS=limits scenario_setup >"$log" 2>&1 &
build_pid=$!
kbuild_log=$OOPSLIMIT_CACHE/work/kernel/obj/build.log
# A tinyconfig build of the limits kernel compiles about 1070 files.
objects=1070
shown=0
while kill -0 "$build_pid" 2>/dev/null; do
	sleep 1
	# (the step's log path is in build.log; a cut path helps nobody)
	what=$(grep -v '^ *$' "$log" 2>/dev/null | tail -n 1 | sed 's/^[a-z-]*\.sh: //; s/ (log: [^)]*)//' | cut -c1-60)
	progress=''
	if [ -r "$kbuild_log" ] && [ "$kbuild_log" -nt "$log" ] && grep -q 'building limits kernel' "$log"; then
		progress=", $(grep -c '^  CC ' "$kbuild_log" || true)/~$objects objects"
	fi
	if [ -t 3 ]; then
		printf '\r[1/6] %-12s %6s s  %s%s\033[K' build "$(since "$stage_t0")" "$what" "$progress" >&3
	elif [ $(($(now_ms) - stage_t0 - shown)) -ge 30000 ]; then
		shown=$((shown + 30000))
		printf '\n      ... %s s: %s%s' "$(since "$stage_t0")" "$what" "$progress" >&3
	fi
done
[ -t 3 ] && printf '\r[1/6] %-12s ' build >&3
[ "$shown" -eq 0 ] || printf '\n[1/6] %-12s ' build >&3
wait "$build_pid" || stage_failed "building failed" "$log"
# (the background build set these in its own shell: read them again)
OOPSLIMIT_VARIANTS=limits scenario_setup >>"$log" 2>&1 || stage_failed "building failed" "$log"
stage_done "kernel $(cat "$limits_dir/kernelrelease"), capture initramfs $(du -k "$capture_initrd" | cut -f1) KiB"

# The harness reads the dump with every reader once QEMU has ended: that is
# the analysis stage.
scenario_reading() {
	stage_done "$(jq -r '"vmcore \(.capture.dump_bytes) bytes in \(.capture.seconds) s"' \
		"$(dump_dirs "$1" | head -n 1)/reason.json" 2>/dev/null || echo 'no reason.json')"
	stage analyse
}

out=$job/scenario.log
run_scenario "$scn" >"$out" 2>&1 || true
dir=$OOPSLIMIT_CACHE/runs/main-$policy
if ! grep -q '^ok ' "$out"; then
	printf 'FAILED\n' >&3
	sed -n 's/^# //p' "$out" | grep -v '^  *| ' | tail -n 8 >&2
	die "stage '$stage_name' failed: the run did not meet its expectations (log: $out, console: $dir/console.log)"
fi
stage_done "crash -x oopslimit; the recorder and drgn agree"

printf '\n'
cat "$dir/crash/text"
printf '\ndump directory: %s\n' "$(dump_dirs "$dir" | head -n 1)"
printf 'total: %s s\n' "$(since "$total_t0")"
