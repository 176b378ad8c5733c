#!/bin/bash
# Runs each libFuzzer target for its share of SECONDS from its corpus and
# seeds; prints one line a target (executions, corpus, findings) and exits
# non-zero when a target found a crash, a leak, a hang or a broken
# contract.  The input that did it is kept under OUTDIR/artifacts/.
# Usage: tests/fuzz/run.sh OUTDIR SECONDS TARGET...   (make -C tests/fuzz run)
# MAXLEN (bytes, default 2 MiB) caps the inputs: the images of real dumps
# are up to 1.3 MB and run at tens of inputs a second; MAXLEN=65536
# keeps their VMCOREINFO and first segments and runs thousands.
set -eu
# shellcheck source=../../scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"

[ $# -ge 3 ] || die "usage: $prog OUTDIR SECONDS TARGET..."
out=$1 seconds=$2
shift 2
case $seconds in '' | *[!0-9]*) die "SECONDS must be a number of seconds, not '$seconds'" ;; esac
each=$((seconds / $#))
maxlen=${MAXLEN:-2097152}
case $maxlen in '' | *[!0-9]*) die "MAXLEN must be a number of bytes, not '$maxlen'" ;; esac
[ "$each" -ge 1 ] || each=1
mkdir -p "$out/artifacts"

failed=0
for t in "$@"; do
	[ -x "$out/fuzz-$t" ] || die "$out/fuzz-$t is missing: run make -C tests/fuzz first"
	mkdir -p "$out/corpus/$t" "$out/seeds/$t"
	log=$out/fuzz-$t.log
	rc=0
	extra=()
	if [ "$t" = vmcoreinfo ]; then
		# its input goes into a real capture (template.py); libkdumpfile 0.5.1's
		# contexts cannot be freed safely and stay (recorder/dump.c), so it fuzzes
		# in child processes that end while their memory is small
		[ -s "$out/template.kdump" ] || "$(dirname "$0")/template.py" "$OOPSLIMIT_CACHE" "$out" >&2 ||
			die "fuzz-vmcoreinfo needs a kdump capture in the cache (make test SCENARIOS=kdump-warn-limit)"
		extra=(-fork=1)
	fi
	LSAN_OPTIONS=suppressions=$OOPSLIMIT_TOP/tests/damage/lsan.supp:print_suppressions=0 \
		OOPSLIMIT_FUZZ_TEMPLATE=$out/template.kdump "$out/fuzz-$t" "${extra[@]}" -max_total_time="$each" -timeout=10 -rss_limit_mb=2048 -max_len="$maxlen" \
		-artifact_prefix="$out/artifacts/$t-" -print_final_stats=1 \
		"$out/corpus/$t" "$out/seeds/$t" >"$log" 2>&1 || rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	# (-fork=1 prints "#N: cov: ... corp: N ..." instead)
	[ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9]*\): cov: .*/\1/p' "$log" | tail -n 1)
	corp=$(grep -o 'corp: [0-9]*/[0-9A-Za-z]*\|corp: [0-9]*' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ]; then
		printf 'fuzz-%s: %s s, %s executions, %s, no findings\n' "$t" "$each" "${runs:-?}" "${corp:-corp: ?}"
	else
		found=$(grep -m1 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*deadly signal|.*-timeout)' "$log" || true)
		printf 'fuzz-%s: FOUND after %s executions: %s (input in %s, log %s)\n' "$t" "${runs:-?}" \
			"${found:-exit status $rc}" "$out/artifacts/" "$log"
		failed=1
	fi
done
exit "$failed"
