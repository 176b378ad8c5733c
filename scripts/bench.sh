#!/bin/bash
# Benchmarks (not tests: nothing here passes or fails on a figure).  Writes
# bench/results.md with the machine, the command and, for each figure, the
# median of several runs; ratios are taken within the same runs.
#
# Usage: scripts/bench.sh [-r RUNS] [oops|capture|crashkernel|analysis|targets|triage...]
#   -r   runs per figure (default 5; the median is reported)
# Default: the first four parts.  make bench runs it.  "targets" (the
# smallest crashkernel= for each kind of dump target, Debian guests, about
# 3 minutes a try under TCG; OOPSLIMIT_TARGETS names the kinds) runs only
# when asked: make bench PARTS=targets.  "triage" (oopslimit-triage over a
# generated dump server tree of 1,000,000 reports, with its index and
# without; no guest) runs by default too.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scenario.sh
. "$OOPSLIMIT_TOP/scripts/scenario.sh"

runs=5
while getopts r:h opt; do
	case $opt in
	r) runs=$OPTARG ;;
	*) sed -n '/^# Usage:/,/^# Default/s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[[ $runs =~ ^[1-9][0-9]?$ ]] || die "-r takes a number of runs from 1 to 99, not '$runs'"
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(oops capture crashkernel analysis triage)
guests=0
for p in "${parts[@]}"; do
	case $p in
	oops | capture | crashkernel | analysis | targets) guests=1 ;;
	triage) ;;
	*) die "unknown part '$p'" ;;
	esac
done

# the kernels and images, for the parts that boot a guest
if [ "$guests" -eq 1 ]; then
	scenario_setup >&2
else
	: "${OOPSLIMIT_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/oopslimit}"
fi
work=$OOPSLIMIT_CACHE/bench
mkdir -p "$work"
out=$OOPSLIMIT_TOP/bench/results.md
mkdir -p "$(dirname "$out")"
# Each part writes its own section (kept in the cache), so a run of some
# parts leaves the others' latest figures in the results file; a part this
# cache has no section of keeps the one the results file has (a new cache,
# another machine's run), found by its title.
body=''
declare -A part_title=(
	[oops]="Horn's measurement: the cost of an oops"
	[capture]="Capture: vmcore size and makedumpfile time"
	[crashkernel]="The smallest crashkernel= that captures"
	[targets]="The smallest crashkernel= by dump target"
	[analysis]="Time to a verdict"
	[triage]="Fleet summary"
)

# median of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# run_bench NAME LINES...: writes the scenario NAME from LINES and runs it;
# true when every expectation held.  Its run directory is runs/NAME.
run_bench() {
	local name=$1 f
	shift
	f=$work/$name.scn
	printf '%s\n' "$@" >"$f"
	scenario_validate "$f"
	run_scenario "$f" >"$work/$name.log" 2>&1
	grep -q '^ok ' "$work/$name.log"
}

emit() {
	printf '%s\n' "$@" >>"$body"
}

# us_each RESULTS TYPE COUNT: microseconds per event of a trigger step
us_each() {
	sed -n "s/^trigger $2 $3 .* us_each=\([0-9]*\).*/\1/p" "$1"
}

# seconds since a now_ms value, to the millisecond
secs_since() {
	awk -v a="$1" -v b="$(now_ms)" 'BEGIN { printf "%.3f", (b - a) / 1000 }'
}

# --- Horn's measurement ----------------------------------------------------------------
# The seed's figures: an oops costs ~510 us with a graphical console and
# ~45 ms with a text console (87x); 2^32 oopses take 8 to 12 days.
bench_oops() {
	local i quiet_oops=() loud_oops=() quiet_warn=() loud_warn=() r
	say "oops: $runs runs of 200 quiet and 50 printed oopses and WARNs"
	for i in $(seq "$runs"); do
		run_bench bench-oops "about   cost of an oops and a WARN, console quiet and printing" "kernel  limits" \
			"append  sysctl.kernel.oops_limit=0" "timeout 600" \
			"step    console quiet" "step    trigger EXCEPTION 200" "step    trigger WARNING 200" \
			"step    console loud" "step    trigger EXCEPTION 50" "step    trigger WARNING 50" \
			"expect  survived" || die "the oops benchmark run failed: $work/bench-oops.log"
		r=$OOPSLIMIT_CACHE/runs/bench-oops/results
		quiet_oops+=("$(us_each "$r" EXCEPTION 200)") quiet_warn+=("$(us_each "$r" WARNING 200)")
		loud_oops+=("$(us_each "$r" EXCEPTION 50)") loud_warn+=("$(us_each "$r" WARNING 50)")
	done
	local qo lo qw lw
	qo=$(printf '%s\n' "${quiet_oops[@]}" | median)
	lo=$(printf '%s\n' "${loud_oops[@]}" | median)
	qw=$(printf '%s\n' "${quiet_warn[@]}" | median)
	lw=$(printf '%s\n' "${loud_warn[@]}" | median)
	emit "## ${part_title[oops]}" "" \
		"Oops = LKDTM EXCEPTION (NULL write) in a freshly forked child, short stack; WARN = LKDTM WARNING." \
		"Quiet = console log level 0; printing = every message to the 115200-baud serial console." \
		"Median of $runs runs (each 200 quiet, 50 printing), in the guest under QEMU ${accel_name}." "" \
		"| figure | this machine | seed (Horn, 2022) |" "| --- | --- | --- |" \
		"| one oops, console quiet | $qo µs | ~510 µs (graphical console) |" \
		"| one oops, printing to the console | $lo µs | ~45 ms (text console) |" \
		"| printing / quiet | $(awk -v a="$lo" -v b="$qo" 'BEGIN { printf "%.1f×", a / b }') | 87× |" \
		"| one WARN, quiet / printing | $qw µs / $lw µs ($(awk -v a="$lw" -v b="$qw" 'BEGIN { printf "%.1f×", a / b }')) | — |" \
		"| oops_limit=10000 exhausted, quiet | $(awk -v u="$qo" 'BEGIN { printf "%.1f s", u * 10000 / 1e6 }') | — |" \
		"| 2^32 oopses (counter overflow), quiet | $(awk -v u="$qo" 'BEGIN { printf "%.1f days", u * 4294967296 / 1e6 / 86400 }') | 8–12 days |" \
		"| 2^32 oopses, printing | $(awk -v u="$lo" 'BEGIN { printf "%.0f days", u * 4294967296 / 1e6 / 86400 }') | — |" "" \
		"Absolute times under emulation are not comparable with a real machine; the console ratio is." ""
}

# --- capture size and time ----------------------------------------------------------------
bench_capture() {
	local mem level i secs=() bytes=() ok
	emit "## ${part_title[capture]}" "" \
		"sysrq-c in a guest of each size, crashkernel=64M, lzo; median of $runs captures." "" \
		"| guest memory | dump level | vmcore | makedumpfile |" "| --- | --- | --- | --- |"
	for mem in 256M 512M 1G 2G; do
		for level in 31 1; do
			say "capture: $mem, dump level $level"
			secs=() bytes=()
			for i in $(seq "$runs"); do
				ok=yes
				run_bench bench-capture "about   capture at $mem, -d $level" "kernel  limits" "memory  $mem" \
					"append  crashkernel=64M" "timeout 600" "kdump   dump_level $level" \
					"step    kdump load" "step    sysrq c" "expect  capture complete" || ok=''
				[ -n "$ok" ] || die "the capture benchmark failed at $mem -d $level: $work/bench-capture.log"
				local j
				j=$(find "$OOPSLIMIT_CACHE/runs/bench-capture/dumps" -name reason.json | head -n 1)
				secs+=("$(jq -r .capture.seconds "$j")")
				bytes+=("$(jq -r .capture.dump_bytes "$j")")
			done
			emit "| $mem | $level | $(printf '%s\n' "${bytes[@]}" | median | awk '{ printf "%.1f MB", $1 / 1e6 }') | $(printf '%s\n' "${secs[@]}" | median) s |"
		done
	done
	emit ""
}

# bisect STEP LO HI COMMAND...: between LO (fails) and HI (works), in STEP
# steps, the smallest SIZE for which "COMMAND... SIZE" succeeds and the
# largest for which it fails: prints "SMALLEST LARGEST".
bisect() {
	local step=$1 lo=$2 hi=$3 mid
	shift 3
	while [ $((hi - lo)) -gt "$step" ]; do
		mid=$(((lo + hi) / 2))
		mid=$((mid - mid % step))
		if "$@" "$mid"; then hi=$mid; else lo=$mid; fi
	done
	echo "$hi $lo"
}

# --- the smallest crashkernel= ------------------------------------------------------------
# ck_works MEM SIZE: a sysrq-c capture with crashkernel=SIZE M completes.
ck_works() {
	say "crashkernel: $1 guest, crashkernel=${2}M"
	run_bench bench-ck "about   crashkernel=${2}M at $1" "kernel  limits" "memory  $1" \
		"append  crashkernel=${2}M" "timeout 300" \
		"step    kdump load" "step    sysrq c" "expect  capture complete"
}

# Bisection in 2M steps between a size that fails (16M) and one that works.
bench_crashkernel() {
	local mem lo hi
	emit "## ${part_title[crashkernel]}" "" \
		"sysrq-c, then a complete capture with the dracut-built initramfs; bisected in 2M steps between 16M and" \
		"half the guest's memory (at most 256M)." \
		"Debian's kdump-tools reserves 128M by default, Fedora's kdump-utils 256M (for machines of these sizes)." "" \
		"| guest memory | smallest that works | largest that fails |" "| --- | --- | --- |"
	for mem in 256M 512M 1G 2G; do
		# at most half the guest: the rest must still boot the guest itself
		lo=16 hi=$(($(numfmt --from=iec "$mem") / 2097152))
		[ "$hi" -le 256 ] || hi=256
		ck_works "$mem" "$hi" || { emit "| $mem | above ${hi}M | ${hi}M |"; continue; }
		read -r hi lo < <(bisect 2 "$lo" "$hi" ck_works "$mem")
		emit "| $mem | ${hi}M | ${lo}M |"
	done
	emit ""
}

# --- the smallest crashkernel= by dump target ------------------------------------------------
# The Debian guest (Debian 12's stock kernel, 1 GiB) with each kind of
# target: the scenario lines that make it.  The capture image differs by
# kind (lvm and its libraries, mdadm, ssh and libcrypto, the NIC's driver).
target_lines() {
	case $1 in
	xfs-nvme) echo "disk    1G xfs nvme /var/crash" ;;
	partition) echo "disk    1G ext4 virtio /var/crash part" ;;
	lvm) echo "disk    1G ext4 virtio /var/crash lvm" ;;
	md-raid1) echo "disk    1G ext4 virtio /var/crash md" ;;
	ssh) printf '%s\n' "server  ssh" "kdump   target ssh:root@192.0.2.1" "step    reach sshd 192.0.2.1 22 900" \
		"step    kdump propagate" "step    kdump rebuild" ;;
	nfs) printf '%s\n' "server  nfs" "kdump   target nfs:192.0.2.1:/var/crash" "kdump   path /" \
		"step    reach nfsd 192.0.2.1 2049 900" ;;
	*) die "no target kind '$1' (xfs-nvme partition lvm md-raid1 ssh nfs)" ;;
	esac
}

# tk_works KIND SIZE: with crashkernel=SIZE M and "load --force", a sysrq-c
# capture to that target completes (its reason.json says so: "estimate"
# exits 1 below its own figure, which fails the scenario but not the
# capture); the estimate's crashkernel= goes to $work/tk-KIND.estimate.
# Each size's run keeps its own directory (runs/bench-tk-KIND-SIZE), so a
# failure can be read after the bisection.
tk_works() {
	local lines run=$scenario_runs/bench-tk-$1-$2 d
	say "targets: $1, crashkernel=${2}M"
	mapfile -t lines < <(target_lines "$1")
	run_bench "bench-tk-$1-$2" "about   $1 at crashkernel=${2}M" "guest   debian" "kernel  stock" "memory  1G" \
		"append  crashkernel=${2}M" "timeout 1500" "${lines[@]}" "step    kdump estimate" \
		"step    kdump load --force" "step    sysrq c" "expect  capture complete" || true
	sed -n 's/^kdump estimate => [0-9]* .*crashkernel=\([0-9]*\)M.*/\1/p' "$run/results" \
		>"$work/tk-$1.estimate" 2>/dev/null
	for d in "$run"/dumps/*/; do
		[ "$(jq -r '.capture.status' "$d/reason.json" 2>/dev/null)" = complete ] && return 0
	done
	return 1
}

# Bisection in 4M steps between 88M (where Debian's stock kernel no longer
# unpacks even a plain disk's image) and 104M; then the size estimate asks
# for, when it falls between those steps: what load refuses less than must
# itself capture.
bench_targets() {
	local kind lo hi est at
	emit "## ${part_title[targets]}" "" \
		"Debian 12's stock kernel in a 1 GiB guest, the capture image built for each kind of target; \`load --force\`," \
		"sysrq-c, a complete capture; bisected in 4M steps between 88M (too little for a plain disk's image) and 104M (Debian's default is 128M)," \
		"then the size \`estimate\` asks for itself, when it lies between two steps." "" \
		"| target | \`estimate\` says | at that size | smallest that works | largest that fails |" "| --- | --- | --- | --- | --- |"
	for kind in ${OOPSLIMIT_TARGETS:-xfs-nvme partition lvm md-raid1 ssh nfs}; do
		lo=88 hi=104
		if ! tk_works "$kind" "$hi"; then
			emit "| $kind | $(cat "$work/tk-$kind.estimate" 2>/dev/null)M | | above ${hi}M | ${hi}M |"
			continue
		fi
		est=$(cat "$work/tk-$kind.estimate" 2>/dev/null)
		read -r hi lo < <(bisect 4 "$lo" "$hi" tk_works "$kind")
		at=''
		if [[ $est =~ ^[0-9]+$ ]]; then
			if [ "$est" -ge "$hi" ]; then
				at=captures
			elif [ "$est" -le "$lo" ]; then
				at=fails
			elif tk_works "$kind" "$est"; then
				at=captures
			else
				at=fails
			fi
		fi
		emit "| $kind | ${est:-?}M | ${at:-?} | ${hi}M | ${lo}M |"
	done
	emit ""
}

# --- time to a verdict ----------------------------------------------------------------------
# time_readers LABEL VMLINUX DUMP [CRASH-ARGS]: one table of seconds to a
# verdict on DUMP by each reader, the median of $runs runs.
time_readers() {
	local label=$1 vmlinux=$2 dump=$3 cargs=${4:-} i t0 alone full=() mini=() sys=() drgn=() rec=()
	# the recorder on the dump alone: no vmlinux, no log file beside it
	alone=$work/alone
	rm -rf "$alone"
	mkdir -p "$alone"
	ln -s "$dump" "$alone/vmcore"
	printf 'oopslimit\nquit\n' >"$work/ext.cmd"
	printf 'sys\nquit\n' >"$work/sys.cmd"
	say "analysis, $label: $runs runs each of crash, crash --minimal, crash sys, drgn, oopslimit-reason"
	for i in $(seq "$runs"); do
		t0=$(now_ms)
		# shellcheck disable=SC2086  # crash's arguments are words
		CRASH_EXTENSIONS=$crash_ext crash -s -x $cargs "$vmlinux" "$dump" -i "$work/ext.cmd" </dev/null \
			>"$work/ext.out" 2>&1
		full+=("$(secs_since "$t0")")
		t0=$(now_ms)
		# shellcheck disable=SC2086
		CRASH_EXTENSIONS=$crash_ext crash -s --minimal -x $cargs "$vmlinux" "$dump" -i "$work/ext.cmd" </dev/null \
			>"$work/min.out" 2>&1
		mini+=("$(secs_since "$t0")")
		t0=$(now_ms)
		# shellcheck disable=SC2086
		crash -s $cargs "$vmlinux" "$dump" -i "$work/sys.cmd" </dev/null >"$work/sys.out" 2>&1
		sys+=("$(secs_since "$t0")")
		t0=$(now_ms)
		/usr/bin/python3 "$OOPSLIMIT_TOP/tests/drgn-counters.py" "$dump" "$vmlinux" >"$work/drgn.out" 2>&1 || true
		drgn+=("$(secs_since "$t0")")
		t0=$(now_ms)
		"$reason_bin" -t "$work/rec.out" -j "$work/rec.json" "$alone/vmcore" 2>/dev/null || true
		rec+=("$(secs_since "$t0")")
	done
	local e m s g r
	e=$(printf '%s\n' "${full[@]}" | median)
	m=$(printf '%s\n' "${mini[@]}" | median)
	s=$(printf '%s\n' "${sys[@]}" | median)
	g=$(printf '%s\n' "${drgn[@]}" | median)
	r=$(printf '%s\n' "${rec[@]}" | median)
	ratio() { awk -v a="$1" -v b="$e" 'BEGIN { printf "%.3g×", a / b }'; }
	verdict() { grep -m1 'VERDICT' "$1" | sed 's/^ *//'; }
	emit "### $label" "" \
		"Median of $runs runs on the same $(stat -L -c %s "$dump")-byte dump, vmlinux $(stat -L -c %s "$vmlinux") bytes; ratios against crash -x + oopslimit." "" \
		"| reader | seconds | ratio | says why |" "| --- | --- | --- | --- |" \
		"| crash -x + oopslimit | $e | 1.00× | yes: $(verdict "$work/ext.out") |" \
		"| crash --minimal -x + oopslimit | $m | $(ratio "$m") | yes: $(verdict "$work/min.out") |" \
		"| crash sys alone | $s | $(ratio "$s") | no: $(grep -m1 'PANIC:' "$work/sys.out" | sed 's/^ *//') |" \
		"| drgn script (the same variables) | $g | $(ratio "$g") | no: values only |" \
		"| oopslimit-reason on the dump alone (no vmlinux, no log file) | $r | $(ratio "$r") | yes: $(verdict "$work/rec.out"); $(jq -r '"counters from \(.counters_source): oops \(.oops_count)/\(.oops_limit), warn \(.warn_count)/\(.warn_limit); log from the \(.reader.log_from)"' "$work/rec.json") |" ""
}

bench_analysis() {
	local d stock
	run_bench bench-analysis "about   an oops_limit dump to analyse" "kernel  limits" "append  crashkernel=64M" \
		"timeout 300" "kdump   oops_limit 3" "step    kdump load" "step    trigger EXCEPTION 3" \
		"expect  capture complete" || die "the analysis benchmark's capture failed: $work/bench-analysis.log"
	d=$(find "$OOPSLIMIT_CACHE/runs/bench-analysis/dumps" -name vmcore | head -n 1)
	emit "## ${part_title[analysis]}" ""
	time_readers "the project's kernel: an oops_limit capture (three oopses, then the panic)" \
		"$limits_dir/vmlinux" "$d" "--kaslr auto"
	# Debian's stock kernel: the capture of the Debian guest's warn_limit
	# scenario, read with the -dbg package's 590 MB vmlinux
	stock=$(find "$OOPSLIMIT_CACHE/runs/debian-warn-limit" -name vmcore 2>/dev/null | head -n 1)
	if [ -n "$stock" ]; then
		time_readers "Debian's stock $(cat "$("$OOPSLIMIT_TOP/scripts/stock-kernel.sh")/kernelrelease"): a warn_limit capture (tests/scenarios/debian-warn-limit.scn)" \
			"$("$OOPSLIMIT_TOP/scripts/stock-kernel.sh")/vmlinux" "$stock"
	else
		emit "(No capture of Debian's stock kernel: run \`make test SCENARIOS=debian-warn-limit\` first.)" ""
	fi
}

# --- the fleet summary ------------------------------------------------------------
# oopslimit-triage over a dump server's tree of 1,000,000 reports from 10,000
# hosts over 90 days and 12 kernel releases (tests/triage-tree.py; made once,
# about 10 minutes and 8 GB, and kept in the cache): the index built over all
# but the newest 1,000 dumps; those 1,000 put back, as a dump server receives
# new dumps, and the run again (target: at most 1 s); the summary with no
# index.  Every summary of the whole tree must be the generator's exactly.
triage_n=1000000 triage_hosts=10000 triage_new=1000

# triage_move aside|back: the newest dumps out of the tree, or back into it
triage_move() {
	python3 - "$work/triage-fleet" "$1" <<'EOF'
import os, sys
tree, way = sys.argv[1:]
for rel in open(tree + "/newest").read().split():
    src, dst = os.path.join(tree, "root", rel), os.path.join(tree, "aside", rel)
    if way == "back":
        src, dst = dst, src
    if os.path.isdir(src):
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        os.rename(src, dst)
EOF
}

bench_triage() {
	local tree=$work/triage-fleet idx=$work/triage-index.sqlite i t0 build plain rerun=() removed=() same=() args line
	local load0 floor cached
	load0=$(cut -d' ' -f1 /proc/loadavg)
	args=(--csv --since 2026-11-01 --until 2026-12-01)
	make -s -C "$OOPSLIMIT_TOP/recorder" O="$work" "$work/oopslimit-triage" >&2 ||
		die "cannot build oopslimit-triage"
	if [ ! -e "$tree/.complete" ]; then
		say "triage: generating $triage_n reports of $triage_hosts hosts (once: about 10 minutes, 8 GB)"
		rm -rf "$tree"
		python3 "$OOPSLIMIT_TOP/tests/triage-tree.py" "$tree/root" "$triage_n" "$triage_hosts" \
			"$tree/expected.csv" || die "cannot generate the triage tree"
		touch "$tree/.complete"
	fi
	# the generator's last reports are the newest dumps: their names end in the report's number
	if [ ! -s "$tree/newest" ]; then
		local list
		list=$(mktemp "$tree/newest.XXXXXX")
		(cd "$tree/root" && find . -mindepth 2 -maxdepth 2 -name '*-0999[0-9][0-9][0-9]') | sed 's|^\./||' |
			sort | tail -n "$triage_new" >"$list" || die "cannot list the newest dumps"
		[ "$(wc -l <"$list")" -eq "$triage_new" ] || die "the triage tree lacks its newest $triage_new dumps"
		mv "$list" "$tree/newest"
	fi
	# how warm the page cache is: the first run reads every report, from the
	# disk when the tree is not cached (8 GB: a million small files and as many
	# directories; the first figure depends on it more than on anything here)
	cached=$(cd "$tree/root" && printf '%s\n' host000[0-4]?/*/reason.json | xargs fincore -b -n -o RES |
		awk '{ n++; if ($1 > 0) c++ } END { printf "%d of %d", c, n }') || cached="unknown"
	triage_move aside
	rm -f "$idx" "$idx-wal" "$idx-shm"
	say "triage: the index built over $((triage_n - triage_new)) reports"
	t0=$(now_ms)
	"$work/oopslimit-triage" "${args[@]}" --index "$idx" "$tree/root" >/dev/null 2>"$work/triage.err" ||
		die "oopslimit-triage --index failed: $(tail -n 1 "$work/triage.err")"
	build=$(secs_since "$t0")
	say "triage: $runs runs with $triage_new new dumps"
	for i in $(seq "$runs"); do
		triage_move back
		t0=$(now_ms)
		"$work/oopslimit-triage" "${args[@]}" --index "$idx" "$tree/root" >"$work/triage.csv" 2>"$work/triage.err" ||
			die "oopslimit-triage --index failed: $(tail -n 1 "$work/triage.err")"
		rerun+=("$(secs_since "$t0")")
		line=$(tail -n 1 "$work/triage.err")
		cmp -s "$work/triage.csv" "$tree/expected.csv" || die "oopslimit-triage --index: the groups differ from the tree's"
		triage_move aside
		t0=$(now_ms)
		"$work/oopslimit-triage" "${args[@]}" --index "$idx" "$tree/root" >/dev/null 2>"$work/triage.err" ||
			die "oopslimit-triage --index failed: $(tail -n 1 "$work/triage.err")"
		removed+=("$(secs_since "$t0")")
		t0=$(now_ms)
		"$work/oopslimit-triage" "${args[@]}" --index "$idx" "$tree/root" >/dev/null 2>"$work/triage.err" ||
			die "oopslimit-triage --index failed: $(tail -n 1 "$work/triage.err")"
		same+=("$(secs_since "$t0")")
	done
	# what an exact look costs on this machine whoever makes it: find statting
	# every dump directory and report file, as a run with the index does
	t0=$(now_ms)
	find "$tree/root" -mindepth 2 -printf '%T@ %i %s\n' >/dev/null || die "find over the triage tree failed"
	floor=$(secs_since "$t0")
	triage_move back
	say "triage: the summary with no index"
	t0=$(now_ms)
	"$work/oopslimit-triage" "${args[@]}" "$tree/root" >"$work/triage.csv" || die "oopslimit-triage failed"
	plain=$(secs_since "$t0")
	cmp -s "$work/triage.csv" "$tree/expected.csv" || die "oopslimit-triage: the groups differ from the tree's"
	# shellcheck disable=SC2016  # backquotes are Markdown here
	emit "## ${part_title[triage]}" "" \
		"oopslimit-triage \`${args[*]}\` over $triage_n reason.json files of $triage_hosts hosts, 90 days and 12 kernel releases (tests/triage-tree.py; every summary of the whole tree exact):" "" \
		"| run | seconds |" "|---|---|" \
		"| the first, building the index (\`--index\`, $((triage_n - triage_new)) reports) | $build |" \
		"| the next, after $triage_new new dumps (target: at most 1 s; median of $runs) | $(printf '%s\n' "${rerun[@]}" | median) |" \
		"| the next, after those $triage_new removed (median of $runs) | $(printf '%s\n' "${removed[@]}" | median) |" \
		"| the next, nothing changed (median of $runs) | $(printf '%s\n' "${same[@]}" | median) |" \
		"| the summary with no index (every report read) | $plain |" \
		"| for scale: \`find\` listing every directory and statting every dump directory and report file | $floor |" "" \
		"Each run with the index stats every report file (one call a dump, from its host's directory; a dump directory itself only while it holds no report), lists again only the directories whose time changed, and reads only the reports that changed, so that a dump added and a report changed (by rename or in place) or removed are right on the next run; where those million calls cost more than 1 s, as here, exactness is chosen over the target." \
		"The floor of an exact run is that stat a report: alone, in a C loop over the reports' paths from their hosts' directories, 100,000 took 0.30-0.38 s on this machine (3-4 µs a call in this VM; 2026-12-07), so a million take 3-4 s before SQLite reads a row, and the 1 s target is out of reach of an index that is exact; it is met only by trusting the host directories' times alone, which misses a report rewritten in an old dump, and this index does not. Two threads statting halves of a host's reports did not shorten the run here (100,000 stats alone in 0.31-0.43 s with two, the machine's other core busy with others' jobs; the whole run slower), so a run uses one." \
		"Reports in the page cache at the start (fincore, the first 50 hosts'): $cached; the first run and the one with no index read every report, from the disk when they are not cached." \
		"The index: $(du -m "$idx" | cut -f1) MB; its line after the last run with new dumps: \`${line#oopslimit-triage: }\`." \
		"Load average $load0 at the start, $(cut -d' ' -f1 /proc/loadavg) at the end (the machine is shared)." ""
}

accel_name=$([ "$guests" -eq 0 ] || known_accel)
machine=$(
	printf '%s, %s cores, %s GiB' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" "$(nproc)" \
		"$(awk '/MemTotal/ { printf "%d", $2 / 1048576 }' /proc/meminfo)"
	if [ "$guests" -eq 1 ]; then
		printf '; QEMU %s (%s); guest kernel %s (tinyconfig + patches/guest.config)' \
			"$(qemu-system-x86_64 --version | sed -n 's/^QEMU emulator version \([^ ]*\).*/\1/p')" \
			"$accel_name" "$(cat "$limits_dir/kernelrelease")"
	fi
)
for p in "${parts[@]}"; do
	body=$(mktemp "$work/part-$p.md.tmp.XXXXXX")
	t0=$(now_ms)
	"bench_$p"
	# shellcheck disable=SC2016  # backquotes are Markdown here
	printf '_Command: `scripts/bench.sh -r %s %s`, %s s, %s; %s._\n\n' "$runs" "$p" "$(since "$t0")" \
		"$(date -u +%Y-%m-%d)" "$machine" >>"$body"
	mv -fT "$body" "$work/part-$p.md"
done
{
	printf '# oopslimit benchmarks\n\n'
	# shellcheck disable=SC2016  # backquotes are Markdown here
	printf 'Written by `make bench` (`scripts/bench.sh`); every figure is a median of several runs, and\n'
	printf 'ratios compare runs made together.\n\n'
	printf 'Each part ends with the command that wrote it, when, and the machine it ran on.\n\n'
	for p in oops capture crashkernel targets analysis triage; do
		if [ -e "$work/part-$p.md" ]; then
			cat "$work/part-$p.md"
		elif [ -e "$out" ]; then
			# the results file's section: its heading up to the next one
			awk -v h="## ${part_title[$p]}" '/^## / { on = ($0 == h) } on' "$out"
		fi
	done
} | ol_write_atomic "$out" || die "cannot write $out"
say "wrote $out"
cat "$out"
