#!/bin/bash
# The oopslimit test suite: static checks of the series and scripts, then
# every scenario in tests/scenarios/ booted in QEMU.  TAP on stdout, ending
# with "N passed, N failed".  Exit status 0 only when all passed.
#
# Usage: tests/run.sh [SCENARIO...]     (names without .scn; default: all)
# OOPSLIMIT_SCENARIOS_ONLY=1 skips the static checks (for work on one scenario).
set -eu
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=../scripts/scenario.sh
. "$OOPSLIMIT_TOP/scripts/scenario.sh"

scen_dir=$OOPSLIMIT_TOP/tests/scenarios
if [ $# -gt 0 ]; then
	scenarios=()
	for n in "$@"; do
		[ -r "$scen_dir/$n.scn" ] || die "no scenario $n (tests/scenarios/$n.scn)"
		scenarios+=("$scen_dir/$n.scn")
	done
else
	scenarios=("$scen_dir"/*.scn)
fi
for s in "${scenarios[@]}"; do scenario_validate "$s"; done

scenario_setup
note "capture initramfs (dracut): $(du -k "$capture_initrd" | cut -f1) KiB compressed, $(zcat "$capture_initrd" | wc -c | awk '{ printf "%d", $1 / 1024 }') KiB unpacked"
note "series mode: $(cat "$limits_dir/series-mode") (shipped = the tree carries it; baseline reverse-applies it)"

# --- static checks --------------------------------------------------------------
static_checks() {
	local tree p out rc err shells
	tree=$(cat "$limits_dir/source")
	while read -r p; do
		if out=$(perl "$tree/scripts/checkpatch.pl" --strict -q "$p" 2>&1) && [ -z "$out" ]; then
			result OK "checkpatch --strict: ${p#"$OOPSLIMIT_TOP"/}"
		else
			printf '%s\n' "$out" | sed 's/^/#   /'
			result FAIL "checkpatch --strict: ${p#"$OOPSLIMIT_TOP"/}"
		fi
	done < <(series_patches all)

	shells=("$OOPSLIMIT_TOP"/scripts/*.sh "$OOPSLIMIT_TOP"/tests/*.sh "$OOPSLIMIT_TOP"/tests/*/*.sh
		"$OOPSLIMIT_TOP"/tests/guest/init "$OOPSLIMIT_TOP"/.ci/run "$OOPSLIMIT_TOP"/kdump/oopslimit-kdump
		"$OOPSLIMIT_TOP"/initramfs/99oopslimit/*.sh)
	if out=$(cd "$OOPSLIMIT_TOP" && shellcheck -x "${shells[@]}" 2>&1); then
		result OK "shellcheck: ${#shells[@]} scripts"
	else
		printf '%s\n' "$out" | sed 's/^/#   /'
		result FAIL "shellcheck"
	fi

	# Our %u patch: the limits kernel prints the limits unsigned.
	if grep -aqF 'Oopsed too often (kernel.oops_limit is %u)' "$limits_dir/vmlinux" &&
		grep -aqF 'system warned too often (kernel.warn_limit is %u)' "$limits_dir/vmlinux"; then
		result OK "limits kernel prints the limits with %u"
	else
		result FAIL "limits kernel prints the limits with %u"
	fi

	# Each patch of the series builds on its own (a build per patch, mostly
	# ccache hits), and the series rebuilds the limits tree exactly.
	if out=$("$OOPSLIMIT_TOP/scripts/check-series.sh" 2>&1); then
		grep '^builds: ' <<<"$out" | sed 's/^/# /'
		result OK "every patch in patches/series builds on its own"
	else
		tail -n 5 <<<"$out" | sed 's/^/#   /'
		result FAIL "every patch in patches/series builds on its own"
	fi

	# Bad input to the build: one clear line and a non-zero exit, checked with a
	# throwaway cache and small fake tarballs (nothing here builds a kernel).
	# expect_build_error NAME TARBALL TEXT
	expect_build_error() {
		local err rc=0
		err=$(OOPSLIMIT_CACHE=$scratch/cache OOPSLIMIT_TARBALL=$2 \
			"$OOPSLIMIT_TOP/scripts/build-kernel.sh" limits 2>&1 >/dev/null) || rc=$?
		if [ $rc -ne 0 ] && [ "$(grep -c ': error: ' <<<"$err")" -eq 1 ] &&
			grep ': error: ' <<<"$err" | grep -qF -- "$3"; then
			result OK "build rejects $1"
		else
			note "status $rc, said: $err"
			result FAIL "build rejects $1"
		fi
		# An unpacked pristine tree is complete by then; anything else is not.
		if [ -n "$(find "$scratch/cache" -mindepth 1 -maxdepth 2 \( -name '*.tmp' -o -name 'stage.*' -o -name kernels -o -name work \) 2>/dev/null)" ]; then
			note "a half-made tree or kernel was left in $scratch/cache"
			result FAIL "build leaves nothing behind after rejecting $1"
		fi
		rm -rf "$scratch/cache"
}
# fake_tree VERSION PATCHLEVEL SUBLEVEL: a tarball with just a Makefile.
fake_tree() {
	rm -rf "$scratch/t"
	mkdir -p "$scratch/t/linux-source-x/kernel"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\n' "$1" "$2" "$3" >"$scratch/t/linux-source-x/Makefile"
	printf '/* not the real one */\n' >"$scratch/t/linux-source-x/kernel/exit.c"
	tar -cJf "$scratch/fake-$1.$2.$3.tar.xz" -C "$scratch/t" linux-source-x
	printf '%s\n' "$scratch/fake-$1.$2.$3.tar.xz"
}
# Unit tests of the verdict code the crash extension and the capture recorder
# share: no dump and no QEMU, built with the sanitizers.
if out=$(gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
	-fno-sanitize-recover=all -o "$scratch/verdict-test" \
	"$OOPSLIMIT_TOP/tests/unit/verdict-test.c" "$OOPSLIMIT_TOP/common/verdict.c" 2>&1) &&
	out=$("$scratch/verdict-test" 2>&1); then
	result OK "unit tests of common/verdict.c: $(tail -n 1 <<<"$out")"
else
	grep -v '^ok' <<<"$out" | sed 's/^/#   /'
	result FAIL "unit tests of common/verdict.c"
fi

expect_build_error "a missing tarball" "$scratch/none.tar.xz" "apt-get install linux-source-6.1"
expect_build_error "a tree of another version" "$(fake_tree 5 10 0)" "holds Linux 5.10.0; the series is for 6.1.y"
expect_build_error "a tree the series does not fit" "$(fake_tree 6 1 0)" "does not fit this tree"

# A guest that never finishes: the runner must stop it at its time limit with
# status 124 and one line saying so.
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
[ "${OOPSLIMIT_SCENARIOS_ONLY:-}" = 1 ] || static_checks

# --- scenarios ------------------------------------------------------------------
for s in "${scenarios[@]}"; do
	run_scenario "$s"
done

# A dump without the SYMBOL()s (the baseline kernel's, from kdump-baseline)
# read with the log of a warn_limit panic: the recorder takes the counters
# from the log and says so.
base_vmcore=$(find "$OOPSLIMIT_CACHE/runs/kdump-baseline" -name vmcore 2>/dev/null | head -n 1)
if [ -n "$base_vmcore" ] && [[ " ${scenarios[*]} " == *kdump-baseline.scn* ]]; then
	out=$("$reason_bin" -j - -l "$OOPSLIMIT_TOP/tests/unit/warn-limit-dmesg.txt" "$base_vmcore" |
		jq -c '[.counters_source, .reason, .warn_count, .warn_limit, .oops_count, .dump_read_error]' 2>&1)
	if [ "$out" = '["log","warn_limit",2,2,null,"no SYMBOL(oops_count) in VMCOREINFO"]' ]; then
		result OK "oopslimit-reason falls back to the log on a dump without the symbols"
	else
		note "got $out"
		result FAIL "oopslimit-reason falls back to the log on a dump without the symbols"
	fi
fi
# The main job (make run): a good run ends in a verdict from crash; a run that
# cannot work names the stage that failed and its log, in one line.
if [ "${OOPSLIMIT_SCENARIOS_ONLY:-}" != 1 ]; then
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
		grep -q "error: stage 'load kdump' failed: .*16 MiB reserved.*(log: .*kdump-load.out)" <<<"$out"; then
		result OK "main job: too small a reservation fails at 'load kdump', naming its log"
	else
		printf '%s\n' "$out" | sed 's/^/#   /'
		result FAIL "main job: too small a reservation fails at 'load kdump', naming its log"
	fi

	# The verifier on the project's own kernel: TAP, JUnit XML, exit 0.
	verify=("$OOPSLIMIT_TOP/scripts/verify.sh" -k "$limits_dir/bzImage" -v "$limits_dir/vmlinux")
	rc=0
	out=$("${verify[@]}" -c "$limits_dir/config" -j "$scratch/junit.xml" kdump-oops-limit kdump-panic-on-warn 2>&1) || rc=$?
	if [ $rc -eq 0 ] && grep -q '^2 passed, 0 failed$' <<<"$out" && [ "$(grep -c 'agrees with reason.json' <<<"$out")" -eq 2 ] &&
		[ "$(/usr/bin/python3 -c 'import sys, xml.dom.minidom as x; e = x.parse(sys.argv[1]).documentElement; print(e.getAttribute("tests"), e.getAttribute("failures"))' "$scratch/junit.xml" 2>&1)" = "2 0" ]; then
		grep -E '^(ok|not ok|# crash)' <<<"$out" | sed 's/^/#   /'
		result OK "verify: the project's kernel passes two kdump scenarios, TAP and JUnit XML"
	else
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
		result FAIL "verify: the project's kernel passes two kdump scenarios, TAP and JUnit XML"
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
	grep -v '^CONFIG_LKDTM=\|^CONFIG_KEXEC_FILE=' "$limits_dir/config" >"$scratch/lacking.config"
	expect_verify_error "a config without LKDTM and KEXEC_FILE, naming both" "lacks 2 option(s)" -c "$scratch/lacking.config"
	out=$("${verify[@]}" -c "$scratch/lacking.config" 2>&1 || true)
	if grep -q 'CONFIG_LKDTM is not set; needed for provoking' <<<"$out" &&
		grep -q 'CONFIG_KEXEC_FILE is not set; needed for loading' <<<"$out"; then
		result OK "verify names each missing option and what it is for"
	else
		note "said: $out"
		result FAIL "verify names each missing option and what it is for"
	fi
	expect_verify_error "a missing vmlinux" "cannot read the vmlinux" -c "$limits_dir/config" -v "$scratch/none"
	printf 'kernel limits\nstep kdump load\nexpect capture complete\nwarp 9\n' >"$scratch/bad.scn"
	expect_verify_error "a scenario with an unknown key" "bad.scn:4: unknown key 'warp'" -c "$limits_dir/config" "$scratch/bad.scn"
fi
# The crash extension's suite (tests/crash/run.sh), after the scenarios
# because its kdump cases read their vmcores: its TAP lines count here.
if [ "${OOPSLIMIT_SCENARIOS_ONLY:-}" != 1 ]; then
	CRASH_TEST_KERNELS="$limits_dir $baseline_dir" "$OOPSLIMIT_TOP/tests/crash/run.sh" >"$scratch/crash.tap" 2>&1 || true
	while IFS= read -r line; do
		case $line in
		'ok '*) result OK "crash-ext: ${line#ok * - }" ;;
		'not ok '*) result FAIL "crash-ext: ${line#not ok * - }" ;;
		'#'*) printf '%s\n' "$line" ;;
		esac
	done <"$scratch/crash.tap"
	if ! grep -q '^[0-9]* passed, [0-9]* failed$' "$scratch/crash.tap"; then
		tail -n 5 "$scratch/crash.tap" | sed 's/^/#   /'
		result FAIL "crash-ext: tests/crash/run.sh ran to its end"
	fi
fi
tap_end
