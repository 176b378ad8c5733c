#!/bin/bash
# The oopslimit test suite: the fast lane (tests/check.sh) first, stopping
# there when it fails; then the kernels, the checks that need them, every
# scenario in tests/scenarios/ booted in QEMU and read by every reader, the
# main job, the verifier, the damaged-dump sweep and a short fuzz run.  TAP
# on stdout, ending with "N passed, N failed"; exit status 0 only when all
# passed.
#
# Usage: tests/run.sh [SCENARIO...]     (names without .scn; default: the tier's)
# OOPSLIMIT_TIER=test (make test, the default) boots the scenarios marked
# "tier test", samples the damage sweeps and fuzzes for 20 s; full (make
# test-full) boots every scenario, sweeps every variant, fuzzes for a
# minute and builds the series patch by patch.
# OOPSLIMIT_SCENARIOS_ONLY=1 runs the named scenarios and nothing else.
# Each run ends with its stages' wall times and its ten slowest tests,
# which a whole tier's run (no scenarios named) also writes to
# $OOPSLIMIT_CACHE/test-times.TIER.md (make test-times).
set -eu
# shellcheck source=check.sh
. "$(dirname "$0")/check.sh"

only=${OOPSLIMIT_SCENARIOS_ONLY:-}
tier=${OOPSLIMIT_TIER:-test}
case $tier in test | full) ;; *) die "OOPSLIMIT_TIER is test or full, not '$tier'" ;; esac
scenarios=() whole=yes
if [ $# -gt 0 ]; then
	whole=no
	for n in "$@"; do scenarios+=("$(scenario_path "$n")"); done
else
	for s in "$scenario_dir"/*.scn; do
		[ "$tier" = full ] || [ "$(scenario_tier "$s")" = test ] || continue
		scenarios+=("$s")
	done
fi
for s in "${scenarios[@]}"; do scenario_validate "$s"; done
mapfile -t scenarios < <(scenario_order "${scenarios[@]}")

# stage NAME: the stage that begins now (its wall time is reported at the end).
stage_names=() stage_secs=() stage_t0=$(now_ms)
stage() {
	[ ${#stage_names[@]} -eq 0 ] || stage_secs+=("$(since "$stage_t0")")
	stage_names+=("$1")
	stage_t0=$(now_ms)
}
# times_report: the stages' wall times and the ten slowest tests, printed as
# notes and written to $OOPSLIMIT_CACHE/test-times.TIER.md.
times_report() {
	local i rev tmp
	tmp=$(mktemp)
	stage_secs+=("$(since "$stage_t0")")
	rev=$(git -C "$OOPSLIMIT_TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
	{
		if [ "$tier" = test ]; then printf '# make test'; else printf '# make test-full'; fi
		printf ': %s\n\n' "$(date -u +%Y-%m-%d)"
		printf 'At %s, on %s cores, %s passed, %s failed, %s s in all.\n\n' "$rev" "$(nproc)" \
			"$passed" "$failed" "$(since "$suite_t0")"
		printf '| stage | wall time (s) |\n| --- | --- |\n'
		for i in "${!stage_names[@]}"; do printf '| %s | %s |\n' "${stage_names[i]}" "${stage_secs[i]}"; done
		printf '\n| the ten slowest tests | s |\n| --- | --- |\n'
		for i in "${!tap_names[@]}"; do printf '%s\t%s\n' "${tap_secs[i]}" "${tap_names[i]}"; done |
			sort -rn | head -n 10 | awk -F '\t' '{ printf "| %s | %s |\n", $2, $1 }'
	} >"$tmp"
	sed 's/^/# /' "$tmp"
	# the tier's table is a whole tier's: a run of named scenarios
	# (SCENARIOS=..., the matrix's runs) prints its times and keeps it
	mkdir -p "$OOPSLIMIT_CACHE"
	[ "$whole" = no ] || ol_write_atomic "$OOPSLIMIT_CACHE/test-times.$tier.md" <"$tmp" ||
		note "cannot write $OOPSLIMIT_CACHE/test-times.$tier.md"
	rm -f "$tmp"
}
# finish: the report of times, then the plan and the summary.
finish() {
	times_report
	tap_end
}

stage "packages (scripts/deps.sh)"
"$OOPSLIMIT_TOP/scripts/deps.sh"
test_begin
# The kernels build from here, in a process group of their own and at a
# lower priority, in the background: the kernel build is the longest wait
# of the run and takes what the fast lane leaves, without slowing it (at
# the same priority, on a fresh machine, the fast lane took 540 s, 110
# alone, and the two together 1386 s against 1207 one after the other).
# The Debian guests' images,
# reader roots and kernels (scripts/scenario.sh, debian_prefetch) are made
# once the fast lane has passed.
kernels_log=$(mktemp)
read -r -a variants <<<"${OOPSLIMIT_VARIANTS:-limits baseline}"
setsid nice -n 15 "$OOPSLIMIT_TOP/scripts/build-kernel.sh" "${variants[@]}" >"$kernels_log" 2>&1 </dev/null &
kernels_pid=$!
prefetch_log=$(mktemp)
if [ -z "$only" ]; then
	stage "fast lane (tests/check.sh; the kernels build beside it)"
	static_checks
	if [ "$failed" -ne 0 ]; then
		note "the fast lane failed: nothing boots until it passes"
		kill -TERM -- "-$kernels_pid" 2>/dev/null || :
		rm -f "$kernels_log" "$prefetch_log"
		finish
	fi
fi
# (the kernels back at the normal priority, where that is allowed: root)
renice -n 0 -g "$kernels_pid" >/dev/null 2>&1 || :
debian_prefetch "$prefetch_log" "${scenarios[@]}"

stage "kernels and images (what is left of the build; the Debian ones in the background)"
if ! wait "$kernels_pid"; then
	sed 's/^/#   /' "$kernels_log"
	die "building the kernels failed: $(tail -n 1 "$kernels_log")"
fi
rm -f "$kernels_log"
scenario_setup
note "capture initramfs (dracut): $(du -k "$capture_initrd" | cut -f1) KiB compressed, $(zcat "$capture_initrd" | wc -c | awk '{ printf "%d", $1 / 1024 }') KiB unpacked"
note "series mode: $(cat "$limits_dir/series-mode") (shipped = the tree carries it; baseline reverse-applies it)"

# background NAME COMMAND...: runs COMMAND in the background, its output
# into $scratch/NAME.out and its exit status into $scratch/NAME.rc; $! is
# the job.
background() {
	local name=$1
	shift
	(
		rc=0
		"$@" >"$scratch/$name.out" 2>&1 || rc=$?
		echo "$rc" >"$scratch/$name.rc"
	) &
}

# --- checks that need the kernels ------------------------------------------------------
kernel_checks() {
	local out rc err
	# Our %u patch: the limits kernel prints the limits unsigned.
	if grep -aqF 'Oopsed too often (kernel.oops_limit is %u)' "$limits_dir/vmlinux" &&
		grep -aqF 'system warned too often (kernel.warn_limit is %u)' "$limits_dir/vmlinux"; then
		result OK "limits kernel prints the limits with %u"
	else
		result FAIL "limits kernel prints the limits with %u"
	fi

	# A guest that never finishes: the runner must stop it at its time limit
	# with status 124 and one line saying so.
	mkdir -p "$scratch/hang"
	printf 'hold\n' >"$scratch/hang/plan"
	rc=0
	err=$("$OOPSLIMIT_TOP/scripts/qemu-run.sh" -k "$limits_dir/bzImage" -i "$initrd" \
		-d "$scratch/hang" -t 15 2>&1) || rc=$?
	if [ $rc -eq 124 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && grep -q 'did not finish within 15 s' <<<"$err" &&
		grep -qx holding "$scratch/hang/results"; then
		result OK "a hanging guest is stopped at the time limit"
	else
		note "status $rc, said: $err"
		result FAIL "a hanging guest is stopped at the time limit"
	fi
}
[ -n "$only" ] || { stage "checks of the kernels"; kernel_checks; }

# (make test-full) Each patch of the series builds on its own (a build per
# patch), and the series rebuilds the limits tree exactly: at the lowest
# priority beside the scenarios, so that it takes the CPU time the guests
# leave; reported at the end.
series_pid=
if [ -z "$only" ] && [ "$tier" = full ]; then
	background series nice -n 19 "$OOPSLIMIT_TOP/scripts/check-series.sh"
	series_pid=$!
fi

# --- scenarios --------------------------------------------------------------------------
stage "scenarios (${#scenarios[@]}, two at a time)"
run_scenarios "${scenarios[@]}"
wait "$prefetch_pid" || note "the background preparation failed: $(tail -n 1 "$prefetch_log")"
note "Debian guests and readers, made in the background: $(tail -n 1 "$prefetch_log")"
rm -f "$prefetch_log"
if [ -n "$only" ]; then
	finish
	exit 0
fi
# Debian's stock kernel through the verifier (one Debian guest, the longest
# check after the scenarios, a core of its own) runs in the background from
# here, beside the checks below, and is reported after them.
stock_pid='' stock_t0=''
if stock=$("$OOPSLIMIT_TOP/scripts/stock-kernel.sh" 2>"$scratch/stock.err"); then
	stock_t0=$(now_ms)
	background verify-stock "$OOPSLIMIT_TOP/scripts/verify.sh" -d "$stock" -j "$scratch/junit-debian.xml" debian-warn-limit
	stock_pid=$!
fi
stage "help, the packaged extension"

# "help oopslimit" in crash's layout, from a session of the scenarios.
help=$(find "$OOPSLIMIT_CACHE/runs" -path '*/crash/help' -size +0 2>/dev/null | head -n 1)
if [ -n "$help" ] && grep -q '^NAME$' "$help" && grep -q '^SYNOPSIS$' "$help" && grep -q '^DESCRIPTION$' "$help" &&
	grep -q '^EXAMPLE' "$help" && grep -q '^  oopslimit - ' "$help" && grep -q 'crash> oopslimit' "$help"; then
	result OK "help oopslimit: NAME, SYNOPSIS, DESCRIPTION, EXAMPLE"
else
	note "help text: ${help:-none}"
	result FAIL "help oopslimit: NAME, SYNOPSIS, DESCRIPTION, EXAMPLE"
fi

# The fleet summary over this run's own dumps, laid out as a dump server
# keeps them: oopslimit-triage's groups against the reports themselves.
names=()
for s in "${scenarios[@]}"; do names+=("$(basename "$s" .scn)"); done
if out=$("$OOPSLIMIT_TOP/tests/triage-suite.sh" "$scratch/oopslimit-triage" "$OOPSLIMIT_CACHE/runs" "${names[@]}" 2>&1); then
	note "$out"
	result OK "oopslimit-triage over the suite's own dumps"
else
	note "$out"
	result FAIL "oopslimit-triage over the suite's own dumps"
fi

# --- the packaged extension ------------------------------------------------------------------
# crash-oopslimit as a user gets it: the .deb unpacked (nothing installed
# on this machine), its extension loaded by crash -x on a capture, giving the
# report the capture kernel wrote.
rc=0
debs=$("$OOPSLIMIT_TOP/scripts/deb.sh" 2>"$scratch/deb.err") || rc=$?
ext_deb=$(grep '/crash-oopslimit_[^/]*\.deb$' <<<"$debs" || true)
cap=$(find "$OOPSLIMIT_CACHE/runs/kdump-oops-limit" -name vmcore 2>/dev/null | head -n 1)
if [ $rc -eq 0 ] && [ -n "$ext_deb" ] && [ -n "$cap" ] && dpkg-deb -x "$ext_deb" "$scratch/pkg" &&
	[ -f "$scratch/pkg/usr/lib/crash/extensions/oopslimit.so" ]; then
	printf 'oopslimit -j > %s/pkg.json\nq\n' "$scratch" >"$scratch/pkg.cmd"
	CRASH_EXTENSIONS=$scratch/pkg/usr/lib/crash/extensions crash -s -x --kaslr auto "$limits_dir/vmlinux" "$cap" \
		-i "$scratch/pkg.cmd" </dev/null >"$scratch/pkg.log" 2>&1 || rc=$?
	got=$(jq -c '[.reason, .oops_count, .oops_limit]' "$scratch/pkg.json" 2>/dev/null || echo none)
	want=$(jq -c '[.reason, .oops_count, .oops_limit]' "$(dirname "$cap")/reason.json")
	note "the packaged extension says $got, the capture's reason.json $want"
	[ $rc -eq 0 ] && [ "$got" = "$want" ] || rc=1
else
	note "no crash-oopslimit package or no kdump-oops-limit capture: $(tail -n 1 "$scratch/deb.err")"
	rc=1
fi
check_result $rc "crash-oopslimit.deb: its extension, as packaged, reads a capture as the capture kernel did"

stage "the verifier (scripts/verify.sh)"
# --- the verifier ---------------------------------------------------------------------------
# junit_summary FILE: "TESTS FAILURES EVERY-TIME-ABOVE-0", then a line per
# failure: "failure NAME | MESSAGE | TEXT" (the text on one line).
junit_summary() {
	/usr/bin/python3 - "$1" <<-'EOF'
		import sys, xml.dom.minidom as x
		e = x.parse(sys.argv[1]).documentElement
		cases = e.getElementsByTagName("testcase")
		print(e.getAttribute("tests"), e.getAttribute("failures"), all(float(c.getAttribute("time")) > 0 for c in cases))
		for c in cases:
		    for f in c.getElementsByTagName("failure"):
		        text = "".join(n.data for n in f.childNodes if n.nodeType == n.TEXT_NODE)
		        print("failure", c.getAttribute("name"), "|", f.getAttribute("message"), "|", " ".join(text.split()))
	EOF
}
verify=("$OOPSLIMIT_TOP/scripts/verify.sh" -k "$limits_dir/bzImage" -v "$limits_dir/vmlinux")
rc=0
out=$("${verify[@]}" -c "$limits_dir/config" -j "$scratch/junit.xml" kdump-oops-limit kdump-panic-on-warn 2>&1) || rc=$?
if [ $rc -eq 0 ] && grep -q '^2 passed, 0 failed$' <<<"$out" &&
	[ "$(junit_summary "$scratch/junit.xml" 2>&1)" = "2 0 True" ]; then
	grep -E '^(ok|not ok)' <<<"$out" | sed 's/^/#   /'
	result OK "verify: the project's kernel passes two kdump scenarios; TAP, and JUnit XML with times"
else
	printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
	result FAIL "verify: the project's kernel passes two kdump scenarios; TAP, and JUnit XML with times"
fi
# A scenario that fails (a wrong expectation on the dump just captured):
# status 1, "not ok", and a JUnit failure whose message says what was wrong
# and whose text carries the run's notes, as a CI dashboard shows them.
printf '%s\n' "about a wrong expectation: the oops_limit capture read as a warn_limit one" \
	"dump-of kdump-oops-limit" "expect reason reason warn_limit" >"$scratch/wrong-reason.scn"
rc=0
out=$("${verify[@]}" -c "$limits_dir/config" -j "$scratch/junit-fail.xml" "$scratch/wrong-reason.scn" 2>&1) || rc=$?
summary=$(junit_summary "$scratch/junit-fail.xml" 2>&1 || true)
want="^failure scenario wrong-reason | wrong-reason: [a-z]*'s report has reason 'oops_limit', expected 'warn_limit' |"
if [ $rc -eq 1 ] && grep -q '^not ok [0-9]* - scenario wrong-reason$' <<<"$out" && grep -q ' failed$' <<<"$out" &&
	grep -q -- "$want" <<<"$summary" && grep -- "$want" <<<"$summary" | grep -qF 'reading the dump of kdump-oops-limit'; then
	grep -- "$want" <<<"$summary" | cut -c1-200 | sed 's/^/#   /'
	result OK "verify: a failing scenario is 'not ok', status 1, and a JUnit failure naming what was wrong"
else
	printf '%s\n' "status $rc" "$out" "$summary" | tail -n 20 | sed 's/^/#   /'
	result FAIL "verify: a failing scenario is 'not ok', status 1, and a JUnit failure naming what was wrong"
fi
# expect_verify_error NAME TEXT ARGS...: one error line naming the problem, status 1.
expect_verify_error() {
	local name=$1 text=$2 err rc=0
	shift 2
	err=$("${verify[@]}" "$@" 2>&1 >/dev/null) || rc=$?
	if [ $rc -eq 1 ] && [ "$(grep -c ': error: ' <<<"$err")" -eq 1 ] && grep -qF -- "$text" <<<"$err"; then
		result OK "verify rejects $name"
	else
		note "status $rc, said: $err"
		result FAIL "verify rejects $name"
	fi
}
# (KEXEC too: kexec_load does as well as kexec_file_load)
grep -v '^CONFIG_CRASH_DUMP=\|^CONFIG_KEXEC_FILE=\|^CONFIG_KEXEC=' "$limits_dir/config" >"$scratch/lacking.config"
expect_verify_error "a config without CRASH_DUMP and KEXEC_FILE, naming both" "lacks 2 option(s)" -c "$scratch/lacking.config"
out=$("${verify[@]}" -c "$scratch/lacking.config" 2>&1 || true)
if grep -q 'CONFIG_CRASH_DUMP is not set; needed for' <<<"$out" && grep -q 'CONFIG_KEXEC_FILE is not set; needed for' <<<"$out"; then
	result OK "verify names each missing option and what it is for"
else
	note "said: $out"
	result FAIL "verify names each missing option and what it is for"
fi
expect_verify_error "a missing vmlinux" "cannot read the vmlinux" -c "$limits_dir/config" -v "$scratch/none"
printf 'kernel limits\nstep kdump load\nexpect capture complete\nwarp 9\n' >"$scratch/bad.scn"
expect_verify_error "a scenario with an unknown key" "bad.scn:4: unknown key 'warp'" -c "$limits_dir/config" "$scratch/bad.scn"

# --- damaged dumps and fuzzing ------------------------------------------------------------
# Every damaged variant of a kdump capture (truncations, header fields,
# flipped bytes, bitmap bits, VMCOREINFO edits, exchanged and shifted
# SYMBOL() lines, edited kallsyms tables, damaged pages of the variables,
# wrong file types; seeded) through the recorder built with ASan/UBSan and,
# for a sample, crash --minimal -x oopslimit: no signal, sanitizer report,
# hang, invalid JSON, wrong verdict or counter changed without a note
# (tests/damage/README.md); on the project kernel's capture now, on the
# stock kernel's (debian-warn-limit, from the verifier's run of it) once the
# verifier has made it.  make test takes 60 variants of each, every kind
# among them, make test-full all.
sample=(SAMPLE=60) crash_sample=8
[ "$tier" = test ] || sample=() crash_sample=20
# damage_sweep SCENARIO: the sweep of SCENARIO's newest capture.
damage_sweep() {
	local s=$1 cap crash_args=() out
	cap=$(find "$OOPSLIMIT_CACHE/runs/$s" "$OOPSLIMIT_CACHE"/runs/verify-*/"$s" -name vmcore -printf '%T@ %p\n' \
		2>/dev/null | sort -rn | head -n 1 | cut -d' ' -f2-)
	if [ -z "$cap" ]; then
		note "no $s capture to damage"
		result FAIL "damage sweep of the $s capture"
		return
	fi
	[ "$s" != kdump-warn-limit ] || crash_args=(VMLINUX="$limits_dir/vmlinux" CRASH_SAMPLE="$crash_sample")
	rc=0
	out=$(make -s -C "$OOPSLIMIT_TOP/tests/damage" sweep O="$OOPSLIMIT_CACHE/damage/$s" DUMP="$cap" \
		LOG="$(dirname "$cap")/vmcore-dmesg.txt" "${crash_args[@]}" "${sample[@]}" 2>&1) || rc=$?
	grep '^# ' <<<"$out" | tail -n 14
	grep '^not ok' <<<"$out" | head -n 10 | sed 's/^/#   /'
	check_result $rc "damage sweep of the $s capture: $(sed -n 's/^# \([0-9]* variants\).*/\1/p' <<<"$out" | tail -n 1)"
}
stage "damage sweep of the project kernel's capture"
damage_sweep kdump-warn-limit
# libFuzzer on the log scanner and the dump decoders, seeded with images of
# the dumps the scenarios left: 20 s each in make test, a minute in make
# test-full (make fuzz for longer).
stage fuzzing
fuzz_secs=20
[ "$tier" = test ] || fuzz_secs=60
rc=0
out=$(make -s -C "$OOPSLIMIT_TOP/tests/fuzz" corpus run SECONDS=$fuzz_secs 2>&1) || rc=$?
grep '^fuzz-' <<<"$out" | sed 's/^/# /'
[ $rc -eq 0 ] || tail -n 5 <<<"$out" | sed 's/^/#   /'
check_result $rc "$fuzz_secs s of fuzzing: the log scanner, VMCOREINFO, kallsyms and the printk ring buffer"

stage "the main job (scripts/main.sh)"
# --- the main job (make run) -------------------------------------------------------------
# A good run ends in a verdict from crash; a run that cannot work names the
# stage that failed and its log, in one line.
rc=0
out=$("$OOPSLIMIT_TOP/scripts/main.sh" -p panic_on_oops 2>&1) || rc=$?
if [ $rc -eq 0 ] && grep -q 'VERDICT: panic_on_oops' <<<"$out" && grep -q '^\[6/6\] analyse ' <<<"$out"; then
	sed -n 's/^\(\[[0-9]\/6\].*\)/# \1/p' <<<"$out"
	result OK "main job: panic_on_oops from boot to crash's verdict"
else
	printf '%s\n' "$out" | sed 's/^/#   /'
	result FAIL "main job: panic_on_oops from boot to crash's verdict"
fi
rc=0
out=$("$OOPSLIMIT_TOP/scripts/main.sh" -c 16M 2>&1) || rc=$?
if [ $rc -ne 0 ] && [ "$(grep -c 'error: ' <<<"$out")" -eq 1 ] &&
	grep -q "error: stage 'load kdump' failed: .*(log: .*kdump-load.out)" <<<"$out"; then
	result OK "main job: too small a reservation fails at 'load kdump', naming its log"
else
	printf '%s\n' "$out" | sed 's/^/#   /'
	result FAIL "main job: too small a reservation fails at 'load kdump', naming its log"
fi

stage "Debian's stock kernel in the verifier (begun after the scenarios), what is left of it"
# A distribution's kernel: Debian's stock cloud kernel, as packages, in the
# Debian guest (one scenario: each takes minutes under TCG).
verify=("$OOPSLIMIT_TOP/scripts/verify.sh")
if [ -n "$stock_pid" ]; then
	wait "$stock_pid" || true
	# (its time is the whole run's, beside the checks above)
	test_t0=$stock_t0
	rc=$(cat "$scratch/verify-stock.rc" 2>/dev/null || echo 1)
	out=$(cat "$scratch/verify-stock.out" 2>/dev/null || true)
	if [ "$rc" = 0 ] && grep -q '^ok 1 - scenario debian-warn-limit$' <<<"$out" && grep -q '^1 passed, 0 failed$' <<<"$out" &&
		[ "$(junit_summary "$scratch/junit-debian.xml" 2>&1)" = "1 0 True" ]; then
		grep -E '^(ok|not ok)|QEMU ran' <<<"$out" | sed 's/^/#   /'
		result OK "verify -d: Debian's stock kernel passes debian-warn-limit in the Debian guest; TAP, JUnit XML"
	else
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
		result FAIL "verify -d: Debian's stock kernel passes debian-warn-limit in the Debian guest; TAP, JUnit XML"
	fi
	# the same kernel without CRASH_DUMP, refused before anything boots
	mkdir -p "$scratch/nocrash"
	for f in "$stock"/*; do [ "${f##*/}" = config ] || ln -s "$f" "$scratch/nocrash/"; done
	grep -v '^CONFIG_CRASH_DUMP=' "$stock/config" >"$scratch/nocrash/config"
	expect_verify_error "a packaged kernel without CRASH_DUMP, in one line" \
		"error: CONFIG_CRASH_DUMP is not set; needed for booting as the capture kernel" -d "$scratch/nocrash"
	# its .debs without the -dbg package, whose vmlinux crash needs
	mkdir -p "$scratch/nodbg"
	ln -s "$stock"/debs/linux-image-"$(cat "$stock/kernelrelease")"_*.deb "$stock"/debs/linux-headers-*.deb \
		"$stock"/debs/linux-kbuild-*.deb "$scratch/nodbg/"
	expect_verify_error "a directory of .debs without the -dbg package" \
		"has no linux-image-$(cat "$stock/kernelrelease")-dbg package" -d "$scratch/nodbg"
else
	note "scripts/stock-kernel.sh failed: $(tail -n 1 "$scratch/stock.err")"
	result FAIL "verify -d: Debian's stock kernel passes debian-warn-limit in the Debian guest; TAP, JUnit XML"
fi

stage "damage sweep of the stock kernel's capture"
damage_sweep debian-warn-limit

if [ -n "$series_pid" ]; then
	stage "the per-patch builds (scripts/check-series.sh), what is left of them"
	wait "$series_pid" || true
	if [ "$(cat "$scratch/series.rc" 2>/dev/null)" = 0 ]; then
		grep '^builds: ' "$scratch/series.out" | sed 's/^/# /'
		result OK "every patch in patches/series builds on its own"
	else
		tail -n 5 "$scratch/series.out" | sed 's/^/#   /'
		result FAIL "every patch in patches/series builds on its own"
	fi
fi

finish
