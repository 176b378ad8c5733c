#!/bin/bash
# Tests of the crash extension (crash-ext/): it builds without warnings, its
# pure parts pass their unit tests (tests/unit/crash-ext-*.c), and
# "crash> oopslimit" says the right thing about real vmcores.  TAP on
# stdout, ending with "N passed, N failed"; exit status 0 only when all
# passed.
#
# Usage: tests/crash/run.sh [-f] [CASE...]
#   CASE  a file name in tests/crash/cases/ without .case (default: all)
#   -f    boot again even when a cached dump of the case is up to date
#
# Each case is one file of data; the dumps come from booting the test guest
# in QEMU (scripts/qemu-run.sh -D) or from a vmcore already on disk, so kdump
# captures are added as cases without code.  Keys, one a line ('#' starts a
# comment):
#   about TEXT           what the case shows
#   boot SCENARIO        boot as tests/scenarios/SCENARIO.scn says (its
#                        kernel, append, timeout and step lines)
#   kernel, append, timeout, step
#                        as in a scenario file, for a boot of this case's own
#   dump-of CASE         use the dump another case booted for
#   vmcore PATH          use this vmcore (a glob; relative paths are under
#                        the cache directory; the newest match wins); the
#                        case is skipped when nothing matches
#   vmlinux limits|baseline|PATH
#                        the vmlinux crash gets (default: the booted kernel's)
#   crash ARGS           crash arguments before the file names (default
#                        --kaslr auto: crash 8.0.2 looks for KASLR only when
#                        the vmlinux has module_load_offset, and the test
#                        kernels have no modules; a QEMU dump has no
#                        VMCOREINFO either)
#   truncate BYTES|N%|log
#                        crash reads a copy cut to this size, or where the
#                        kernel log's buffers begin (boot with log_buf_len=
#                        so that they are allocated high)
#   vmlinux-moved SYMBOL DELTA
#                        crash gets a copy of the vmlinux whose symbol table
#                        puts SYMBOL DELTA bytes away (a vmlinux crash accepts
#                        that does not describe the dump)
#   refused TEXT         crash itself refuses the pair, saying TEXT; the
#                        case checks only that it ends cleanly
#   drop SYMBOL          crash reads a copy whose program headers leave out
#                        the page holding SYMBOL (a dump filtered of a page)
#   drgn no              no drgn cross-check (a vmlinux that does not match)
#   kaslr yes|no         the kernel ran relocated (drgn's KASLR offset is not
#                        0), or at its link-time addresses
#   text LABEL VALUE     "oopslimit" prints the line "LABEL: VALUE" exactly
#   textin LABEL TEXT    some "LABEL: ..." line of it contains TEXT
#   json KEY VALUE       "oopslimit -j" has KEY (a.b for nested) equal to the
#                        JSON value VALUE (5, null, true, "warn_limit")
#   sys TEXT             crash's own "sys" PANIC line is exactly TEXT (kept
#                        to show where it differs from the verdict)
#
# Every case is also checked for: crash exits cleanly and still runs a
# command after "oopslimit"; output is printable ASCII without crash's
# "error"/"invalid"; the text and JSON agree on every counter, limit and the
# verdict; every counter, limit, panic flag, taint mask and address equals
# what drgn reads from the same dump (tests/crash/drgn-counters.py); and for
# a kdump capture, the verdict, counters and last warning equal those of
# the reason.json next to the vmcore.
set -eu
# shellcheck source=../../scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"

here=$OOPSLIMIT_TOP/tests/crash
force=0
while getopts f opt; do
	case $opt in
	f) force=1 ;;
	*) die "usage: $prog [-f] [CASE...]" ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
	cases=()
	for n in "$@"; do
		[ -r "$here/cases/$n.case" ] || die "no case $n (tests/crash/cases/$n.case)"
		cases+=("$here/cases/$n.case")
	done
else
	cases=("$here"/cases/*.case)
fi

# --- case files: checked whole before anything runs -------------------------------
validate() {
	local f=$1 n=0 key rest src=0 expects=0
	while read -r key rest; do
		n=$((n + 1))
		case $key in
		'' | '#'*) ;;
		about | append | step | crash) ;;
		boot)
			[ -r "$OOPSLIMIT_TOP/tests/scenarios/$rest.scn" ] || die "$f:$n: no scenario '$rest'"
			src=$((src + 1)) ;;
		kernel)
			case $rest in limits | baseline) src=$((src + 1)) ;; *) die "$f:$n: kernel is limits or baseline, not '$rest'" ;; esac ;;
		timeout)
			[[ $rest =~ ^[1-9][0-9]*$ ]] || die "$f:$n: timeout takes seconds, not '$rest'" ;;
		dump-of)
			[ -r "$here/cases/$rest.case" ] || die "$f:$n: no case '$rest'"
			src=$((src + 1)) ;;
		vmcore) src=$((src + 1)) ;;
		vmlinux) [ -n "$rest" ] || die "$f:$n: vmlinux needs limits, baseline or a path" ;;
		truncate)
			[[ $rest =~ ^([1-9][0-9]*%?|log)$ ]] || die "$f:$n: truncate takes BYTES, N% or log, not '$rest'" ;;
		drop) [ -n "$rest" ] || die "$f:$n: drop needs a symbol" ;;
		vmlinux-moved)
			[[ $rest =~ ^[A-Za-z_][A-Za-z0-9_.]*\ [-+]?(0x)?[0-9a-fA-F]+$ ]] ||
				die "$f:$n: vmlinux-moved takes SYMBOL DELTA" ;;
		refused)
			[ -n "$rest" ] || die "$f:$n: refused needs crash's words"
			expects=$((expects + 1)) ;;
		drgn) [ "$rest" = no ] || die "$f:$n: drgn takes 'no'" ;;
		kaslr)
			case $rest in yes | no) ;; *) die "$f:$n: kaslr takes yes or no" ;; esac ;;
		text | textin | json)
			[[ $rest == *' '* ]] || die "$f:$n: $key needs a name and a value"
			expects=$((expects + 1)) ;;
		sys) ;;
		*) die "$f:$n: unknown key '$key'" ;;
		esac
	done <"$f"
	[ "$src" -eq 1 ] || die "$f: needs exactly one of boot, kernel, dump-of, vmcore"
	[ "$expects" -gt 0 ] || die "$f: no text, textin, json or refused expectation"
}
for c in "${cases[@]}"; do validate "$c"; done

# --- TAP bookkeeping ----------------------------------------------------------------
passed=0 failed=0 skipped=0 t=0
result() { # result OK|FAIL|SKIP NAME [WHY]
	t=$((t + 1))
	case $1 in
	OK) passed=$((passed + 1)); printf 'ok %d - %s\n' "$t" "$2" ;;
	SKIP) skipped=$((skipped + 1)); printf 'ok %d - %s # SKIP %s\n' "$t" "$2" "${3:-}" ;;
	*) failed=$((failed + 1)); printf 'not ok %d - %s\n' "$t" "$2" ;;
	esac
}
note() { printf '# %s\n' "$*"; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# --- kernels, initramfs ---------------------------------------------------------------
# CRASH_TEST_KERNELS="LIMITS_DIR BASELINE_DIR" uses kernels built before
# instead of asking build-kernel.sh (which builds what is out of date).
if [ -n "${CRASH_TEST_KERNELS:-}" ]; then
	read -r limits_dir baseline_dir <<<"$CRASH_TEST_KERNELS"
else
	kernels=$("$OOPSLIMIT_TOP/scripts/build-kernel.sh" limits baseline) || die "building the kernels failed"
	limits_dir=$(sed -n 1p <<<"$kernels")
	baseline_dir=$(sed -n 2p <<<"$kernels")
fi
for d in "$limits_dir" "$baseline_dir"; do
	if [ ! -r "$d/vmlinux" ] || [ ! -r "$d/bzImage" ]; then
		die "no vmlinux and bzImage in $d"
	fi
done
initrd=$("$OOPSLIMIT_TOP/scripts/guest-initramfs.sh")
command -v crash >/dev/null || die "crash is missing: apt-get install crash"
/usr/bin/python3 -c 'import drgn' 2>/dev/null || die "drgn is missing: apt-get install python3-drgn"

# --- the extension builds, installs, and its pure parts pass -------------------------
ext=$scratch/ext
mkdir -p "$ext"
if out=$(make -s -B -C "$OOPSLIMIT_TOP/crash-ext" 2>&1) && cp "$OOPSLIMIT_TOP/crash-ext/oopslimit.so" "$ext/"; then
	result OK "oopslimit.so builds with -Wall -Wextra -Werror"
else
	printf '%s\n' "$out" | sed 's/^/#   /'
	result FAIL "oopslimit.so builds with -Wall -Wextra -Werror"
	die "cannot go on without oopslimit.so"
fi
if make -s -C "$OOPSLIMIT_TOP/crash-ext" install DESTDIR="$scratch/dest" >/dev/null 2>&1 &&
	[ -f "$scratch/dest/usr/lib/crash/extensions/oopslimit.so" ]; then
	result OK "make install DESTDIR= puts oopslimit.so in usr/lib/crash/extensions"
else
	result FAIL "make install DESTDIR= puts oopslimit.so in usr/lib/crash/extensions"
fi
if command -v shellcheck >/dev/null; then
	if out=$(cd "$OOPSLIMIT_TOP" && shellcheck -x tests/crash/run.sh 2>&1); then
		result OK "shellcheck tests/crash/run.sh"
	else
		printf '%s\n' "$out" | sed 's/^/#   /'
		result FAIL "shellcheck tests/crash/run.sh"
	fi
fi
for u in "$OOPSLIMIT_TOP"/tests/unit/crash-ext-*.c; do
	[ -e "$u" ] || continue
	name=${u#"$OOPSLIMIT_TOP"/}
	if ! out=$(gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
		-fno-sanitize-recover=all -o "$scratch/unit" "$u" \
		"$OOPSLIMIT_TOP"/crash-ext/report.c "$OOPSLIMIT_TOP"/crash-ext/symfile.c \
		"$OOPSLIMIT_TOP"/common/verdict.c 2>&1); then
		printf '%s\n' "$out" | sed 's/^/#   /'
		result FAIL "$name builds"
		continue
	fi
	if out=$(cd "$scratch" && ./unit 2>&1); then
		note "$name: $(tail -n 1 <<<"$out")"
		result OK "$name"
	else
		grep -v '^ok' <<<"$out" | sed 's/^/#   /'
		result FAIL "$name"
	fi
done

# --- the dumps -------------------------------------------------------------------------
# boot_lines FILE: the boot lines of a case, with "boot" expanded from its scenario.
boot_lines() {
	local key rest
	while read -r key rest; do
		case $key in
		boot) grep -E '^(kernel|append|timeout|step)[[:space:]]' "$OOPSLIMIT_TOP/tests/scenarios/$rest.scn" ;;
		kernel | append | timeout | step) printf '%s %s\n' "$key" "$rest" ;;
		esac
	done <"$1"
}

case_value() { # case_value FILE KEY: the rest of the first KEY line
	sed -n "s/^$2[[:space:]]\{1,\}//p" "$1" | head -n 1
}

declare -A fresh=() # cases booted in this run (-f boots each once)

# boot_dump CASE-FILE: boots the case, or reuses its cached dump when the
# boot lines, the kernel and the initramfs are the same; sets $the_dump and
# $booted_dir (the kernel's directory).
boot_dump() {
	local f=$1 name dir lines append='' limit=120 key rest stamp rc=0 t0
	name=$(basename "$f" .case)
	dir=$OOPSLIMIT_CACHE/crash-tests/$name
	lines=$(boot_lines "$f")
	case $(sed -n 's/^kernel[[:space:]]*//p' <<<"$lines" | head -n 1) in
	baseline) booted_dir=$baseline_dir ;;
	*) booted_dir=$limits_dir ;;
	esac
	the_dump=$dir/dump.elf
	stamp=$(printf '%s\n%s\n%s\n' "$lines" "$(sha256sum <"$booted_dir/bzImage")" "$initrd" | sha256sum | cut -c1-16)
	if { [ $force -eq 0 ] || [ -n "${fresh[$name]:-}" ]; } &&
		[ -s "$the_dump" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
		note "$name: the dump booted before is up to date ($dir)"
		return 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	while read -r key rest; do
		case $key in
		append) append="$append $rest" ;;
		timeout) limit=$rest ;;
		step) printf '%s\n' "$rest" >>"$dir/plan" ;;
		esac
	done <<<"$lines"
	t0=$(now_ms)
	"$OOPSLIMIT_TOP/scripts/qemu-run.sh" -k "$booted_dir/bzImage" -i "$initrd" -d "$dir" \
		-a "$append" -t "$limit" -D "$the_dump" 2>&1 | sed 's/^/# /' || true
	note "$name: QEMU ran $(since "$t0") s; console: $dir/console.log"
	[ -s "$the_dump" ] || return 1
	printf '%s\n' "$stamp" >"$dir/stamp"
	fresh[$name]=1
}

# vmcore_of CASE-FILE: the vmcore a case reads, booting if need be; sets
# $the_dump ('' when a vmcore pattern matches nothing) and $booted_dir.
vmcore_of() {
	local f=$1 other pattern
	booted_dir='' the_dump=''
	other=$(case_value "$f" dump-of)
	if [ -n "$other" ]; then
		boot_dump "$here/cases/$other.case"
		return
	fi
	pattern=$(case_value "$f" vmcore)
	if [ -n "$pattern" ]; then
		[[ $pattern == /* ]] || pattern=$OOPSLIMIT_CACHE/$pattern
		local m
		# shellcheck disable=SC2086 # the pattern is a glob on purpose
		for m in $pattern; do
			[ -f "$m" ] || continue
			if [ -z "$the_dump" ] || [ "$m" -nt "$the_dump" ]; then the_dump=$m; fi
		done
		return 0
	fi
	boot_dump "$f"
}

# cut_copy DUMP SIZE VMLINUX: a copy of DUMP cut to SIZE bytes, N% or where
# the log begins.
cut_copy() {
	local size=$2 total
	if [ "$size" = log ]; then
		/usr/bin/python3 "$here/dumpcopy.py" cut-log "$1" "$3" "$scratch/cut.elf" | sed 's/^/# /' >&2 || return 1
	else
		total=$(stat -c %s "$1")
		[[ $size == *% ]] && size=$((total * ${size%\%} / 100))
		head -c "$size" "$1" >"$scratch/cut.elf"
	fi
	printf '%s\n' "$scratch/cut.elf"
}

# drop_copy DUMP SYMBOL VMLINUX: a copy of the ELF dump whose PT_LOAD
# headers leave out the physical page that holds SYMBOL.
drop_copy() {
	/usr/bin/python3 "$here/dumpcopy.py" drop "$1" "$3" "$2" "$scratch/drop.elf" | sed 's/^/# /' >&2 || return 1
	printf '%s\n' "$scratch/drop.elf"
}

# --- checking one case --------------------------------------------------------------
# The text line "LABEL: value" (first one), with the padding removed.
text_value() {
	awk -v l="$2" '{ s = $0; sub(/^ +/, "", s) } index(s, l ": ") == 1 { print substr(s, length(l) + 3); exit }' "$1"
}

json_get() { # json_get FILE KEY: the value as JSON, "missing" when absent
	/usr/bin/python3 - "$1" "$2" <<-'EOF'
		import json, sys
		v = json.load(open(sys.argv[1]))
		for k in sys.argv[2].split("."):
		    if not isinstance(v, dict) or k not in v:
		        print("missing"); sys.exit(0)
		    v = v[k]
		print(json.dumps(v))
	EOF
}

json_eq() { # json_eq FILE KEY VALUE
	/usr/bin/python3 - "$1" "$2" "$3" <<-'EOF'
		import json, sys
		v = json.load(open(sys.argv[1]))
		for k in sys.argv[2].split("."):
		    if not isinstance(v, dict) or k not in v:
		        sys.exit(1)
		    v = v[k]
		sys.exit(0 if v == json.loads(sys.argv[3]) else 1)
	EOF
}

# Text and JSON agree; JSON and drgn agree.  Prints one line per mismatch.
cross_check() { # cross_check TEXT JSON DRGN|-
	/usr/bin/python3 - "$@" <<-'EOF'
		import json, re, sys
		text = open(sys.argv[1]).read().splitlines()
		j = json.load(open(sys.argv[2]))
		labels = {}
		for line in text:
		    m = re.match(r"^ *([A-Z_ ]+): (.*)$", line)
		    if m and m.group(1) not in labels:
		        labels[m.group(1)] = m.group(2)
		bad = []
		limits = ["oops_count", "oops_limit", "warn_count", "warn_limit"]
		for name in limits + ["panic_on_oops", "panic_on_warn"]:
		    label = name.upper()
		    if name in limits and "LIMITS" in labels:
		        if j[name] is not None:
		            bad.append("text says no limits, JSON has %s=%s" % (name, j[name]))
		        continue
		    t = labels.get(label)
		    m = re.match(r"^(\d+)", t or "")
		    tv = int(m.group(1)) if m else None
		    if tv != j[name]:
		        bad.append("%s: text '%s', JSON %s" % (name, t, j[name]))
		verdict = (labels.get("VERDICT") or "").split(" (")[0]
		if j["live"]:
		    if j["verdict"] is not None:
		        bad.append("live system with a verdict in JSON")
		elif verdict != j["verdict"]:
		    bad.append("verdict: text '%s', JSON %s" % (verdict, j["verdict"]))
		if sys.argv[3] != "-":
		    d = json.load(open(sys.argv[3]))
		    for name, want in d["values"].items():
		        if j.get(name) != want:
		            bad.append("%s: oopslimit %s, drgn %s" % (name, j.get(name), want))
		    for name, want in d["addresses"].items():
		        got = (j["symbols"].get(name) or {}).get("address")
		        if got != want:
		            bad.append("%s address: oopslimit %s, drgn %s" % (name, got, want))
		for b in bad:
		    print(b)
		sys.exit(1 if bad else 0)
	EOF
}

run_case() {
	local f=$1 name dump vmlinux_key vmlinux crash_args cut drop out key what value got t0 bad=0 rc=0
	name=$(basename "$f" .case)
	note "$name: $(case_value "$f" about)"
	if ! vmcore_of "$f"; then
		result FAIL "case $name: no dump (QEMU failed)"
		return
	fi
	dump=$the_dump
	if [ -z "$dump" ]; then
		result SKIP "case $name" "no vmcore matches '$(case_value "$f" vmcore)'"
		return
	fi
	vmlinux_key=$(case_value "$f" vmlinux)
	case ${vmlinux_key:-booted} in
	booted) vmlinux=${booted_dir:-$limits_dir}/vmlinux ;;
	limits) vmlinux=$limits_dir/vmlinux ;;
	baseline) vmlinux=$baseline_dir/vmlinux ;;
	*) vmlinux=$vmlinux_key ;;
	esac
	# A capture from before the kernel was last built is of another kernel.
	if [ -n "$(case_value "$f" vmcore)" ] && [ "$vmlinux" -nt "$dump" ]; then
		result SKIP "case $name" "$dump is older than $vmlinux: run its scenario again"
		return
	fi
	crash_args=$(case_value "$f" crash)
	[ -n "$crash_args" ] || crash_args='--kaslr auto'
	cut=$(case_value "$f" truncate)
	if [ -n "$cut" ] && ! dump=$(cut_copy "$dump" "$cut" "$vmlinux"); then
		result FAIL "case $name: cannot cut the dump ($cut)"
		return
	fi
	drop=$(case_value "$f" drop)
	if [ -n "$drop" ] && ! dump=$(drop_copy "$dump" "$drop" "$vmlinux"); then
		result FAIL "case $name: cannot make a copy without $drop's page"
		return
	fi
	local moved
	moved=$(case_value "$f" vmlinux-moved)
	if [ -n "$moved" ]; then
		# shellcheck disable=SC2086 # SYMBOL DELTA
		if ! /usr/bin/python3 "$here/dumpcopy.py" move-symbol "$vmlinux" $moved "$scratch/vmlinux.moved" | sed 's/^/# /'; then
			result FAIL "case $name: cannot move $moved in a vmlinux copy"
			return
		fi
		vmlinux=$scratch/vmlinux.moved
	fi
	out=$scratch/$name
	mkdir -p "$out"
	rm -f "$out"/*

	local refused
	refused=$(case_value "$f" refused)
	if [ -n "$refused" ]; then
		printf 'oopslimit\nq\n' >"$out/cmd1"
		# shellcheck disable=SC2086 # crash_args are words
		CRASH_EXTENSIONS=$ext crash -s -x $crash_args "$vmlinux" "$dump" -i "$out/cmd1" \
			</dev/null >"$out/crash1.log" 2>&1 || rc=$?
		note "$name: crash status $rc: $(grep -m1 -F -- "$refused" "$out/crash1.log" || tail -n 1 "$out/crash1.log")"
		if [ $rc -ge 1 ] && [ $rc -lt 128 ] && grep -qF -- "$refused" "$out/crash1.log"; then
			result OK "case $name"
		else
			result FAIL "case $name"
		fi
		return
	fi

	# The verdict alone, timed: what a user waits for with crash -x.
	printf 'oopslimit > %s/text\nq\n' "$out" >"$out/cmd1"
	t0=$(now_ms)
	# shellcheck disable=SC2086 # crash_args are words
	CRASH_EXTENSIONS=$ext crash -s -x $crash_args "$vmlinux" "$dump" -i "$out/cmd1" \
		</dev/null >"$out/crash1.log" 2>&1 || rc=$?
	note "$name: crash -x printed the verdict in $(since "$t0") s (crash start included)"
	# The rest, and a command after it: the session must still work.
	printf '%s\n' "oopslimit -j > $out/json" "oopslimit -v > $out/verbose" "sys > $out/sys" "eval 6*7 > $out/alive" q >"$out/cmd2"
	# shellcheck disable=SC2086
	CRASH_EXTENSIONS=$ext crash -s -x $crash_args "$vmlinux" "$dump" -i "$out/cmd2" \
		</dev/null >"$out/crash2.log" 2>&1 || rc=$((rc + $?))
	touch "$out/sys" "$out/alive"
	if [ $rc -ne 0 ] || [ ! -s "$out/text" ] || [ ! -s "$out/json" ]; then
		note "$name: crash status $rc; it said:"
		tail -n 5 "$out/crash1.log" "$out/crash2.log" | sed 's/^/#   /'
		result FAIL "case $name: crash runs oopslimit and exits cleanly"
		return
	fi
	if ! grep -q 'decimal: 42' "$out/alive"; then
		note "$name: the crash session did not go on after oopslimit"
		bad=1
	fi
	sed 's/^/#   | /' "$out/text"
	[ ! -s "$out/sys" ] || note "$name: crash's sys says PANIC: $(text_value "$out/sys" PANIC)"

	# Clean output: printable, no crash error words.
	if LC_ALL=C grep -n '[^[:print:]]' "$out/text" "$out/json" "$out/verbose" | head -n 3 | grep -q .; then
		note "$name: non-printable bytes in the output"
		bad=1
	fi
	if grep -Eqi 'error|invalid' "$out/text" "$out/verbose"; then
		note "$name: 'error' or 'invalid' in the output: $(grep -Ehi 'error|invalid' "$out/text" | head -n 1)"
		bad=1
	fi
	if ! /usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out/json" 2>"$out/jsonerr"; then
		note "$name: -j is not JSON: $(cat "$out/jsonerr")"
		result FAIL "case $name"
		return
	fi

	# Field by field, as the case says.
	while read -r key what value; do
		case $key in
		text)
			got=$(text_value "$out/text" "$what")
			[ "$got" = "$value" ] || { note "$name: $what is '$got', expected '$value'"; bad=1; } ;;
		textin)
			grep -E "^ *$what: " "$out/text" | grep -qF -- "$value" ||
				{ note "$name: no '$what:' line with '$value'"; bad=1; } ;;
		json)
			json_eq "$out/json" "$what" "$value" ||
				{ note "$name: JSON $what is $(json_get "$out/json" "$what"), expected $value"; bad=1; } ;;
		sys)
			value="$what${value:+ $value}"
			got=$(text_value "$out/sys" PANIC)
			[ "$got" = "$value" ] || { note "$name: sys PANIC is '$got', expected '$value'"; bad=1; } ;;
		esac
	done <"$f"

	# Text against JSON, JSON against drgn.
	local drgn_out=-
	if [ "$(case_value "$f" drgn)" != no ]; then
		drgn_out=$out/drgn
		if ! /usr/bin/python3 "$here/drgn-counters.py" "$dump" "$vmlinux" >"$drgn_out" 2>"$out/drgn.err"; then
			note "$name: drgn could not read the dump: $(tail -n 1 "$out/drgn.err")"
			bad=1
			drgn_out=-
		else
			note "$name: drgn ($(json_get "$drgn_out" mode)): $(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join("%s=%s" % kv for kv in sorted(d["values"].items())), "kaslr_offset=%#x" % (d["kaslr_offset"] or 0))' "$drgn_out")"
		fi
	fi
	local kaslr
	kaslr=$(case_value "$f" kaslr)
	if [ -n "$kaslr" ] && [ "$drgn_out" != - ]; then
		got=$(json_get "$drgn_out" kaslr_offset)
		if { [ "$kaslr" = yes ] && [ "$got" = 0 ]; } || { [ "$kaslr" = no ] && [ "$got" != 0 ]; }; then
			note "$name: expected kaslr $kaslr, drgn's KASLR offset is $got"
			bad=1
		fi
	fi
	if ! got=$(cross_check "$out/text" "$out/json" "$drgn_out"); then
		printf '%s\n' "$got" | sed "s/^/# $name: /"
		bad=1
	fi
	# A kdump capture's reason.json (the capture-side recorder, same
	# verdict code) says the same.
	if [ -r "$(dirname "$dump")/reason.json" ]; then
		if got=$(reason_check "$out/json" "$(dirname "$dump")/reason.json"); then
			note "$name: reason.json of the capture agrees"
		else
			printf '%s\n' "$got" | sed "s/^/# $name: /"
			bad=1
		fi
	fi
	if [ $bad -eq 0 ]; then result OK "case $name"; else result FAIL "case $name"; fi
}

reason_check() { # reason_check JSON REASON-JSON
	/usr/bin/python3 - "$@" <<-'EOF'
		import json, sys
		j = json.load(open(sys.argv[1]))
		r = json.load(open(sys.argv[2]))
		pairs = [("verdict", "reason"), ("origin", "origin"), ("detail", "detail"),
		         ("panic", "panic_message"), ("oops_count", "oops_count"),
		         ("oops_limit", "oops_limit"), ("warn_count", "warn_count"),
		         ("warn_limit", "warn_limit"), ("consistent", "consistent")]
		bad = ["%s: oopslimit %r, reason.json %s %r" % (a, j.get(a), b, r.get(b))
		       for a, b in pairs if b in r and j.get(a) != r[b]]
		lw, rw = j.get("last_warning") or {}, r.get("last_warning") or {}
		for k in ("origin", "where", "function"):
		    if lw.get(k) != rw.get(k):
		        bad.append("last_warning.%s: oopslimit %r, reason.json %r" % (k, lw.get(k), rw.get(k)))
		print("\n".join(bad))
		sys.exit(1 if bad else 0)
	EOF
}

# "help oopslimit" in crash's layout, against the first dump there is.
help_checked=0
for c in "${cases[@]}"; do
	run_case "$c"
	if [ $help_checked -eq 0 ] && [ -s "$scratch/$(basename "$c" .case)/text" ]; then
		help_checked=1
		vmcore_of "$c" >/dev/null || continue
		printf 'help oopslimit > %s/help\nq\n' "$scratch" >"$scratch/cmdh"
		CRASH_EXTENSIONS=$ext crash -s -x --kaslr auto "${booted_dir:-$limits_dir}/vmlinux" "$the_dump" \
			-i "$scratch/cmdh" </dev/null >/dev/null 2>&1 || true
		if [ -s "$scratch/help" ] && grep -q '^NAME$' "$scratch/help" && grep -q '^SYNOPSIS$' "$scratch/help" &&
			grep -q '^DESCRIPTION$' "$scratch/help" && grep -q '^EXAMPLE' "$scratch/help" &&
			grep -q '^  oopslimit - ' "$scratch/help" && grep -q 'crash> oopslimit' "$scratch/help"; then
			result OK "help oopslimit: NAME, SYNOPSIS, DESCRIPTION, EXAMPLE"
		else
			result FAIL "help oopslimit: NAME, SYNOPSIS, DESCRIPTION, EXAMPLE"
		fi
	fi
done

printf '1..%d\n' "$t"
[ $skipped -eq 0 ] || note "$skipped skipped"
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
