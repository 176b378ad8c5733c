# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the harness's shared variables: set by scenario.sh and its callers
# scenario-readers.sh: the scenario harness's readers (scripts/scenario.sh
# sources it): the dump as the damage and vmlinux lines make it, read by the
# recorder, crash (the extension, --minimal and whole) and drgn, their
# reports validated, compared and judged against the scenario's expect
# lines.  It defines functions and runs nothing.

# --- the readers --------------------------------------------------------------------
# damaged_copy: the dump (and vmlinux) the readers get, as the damage and
# vmlinux lines say; sets read_dump and read_vmlinux.
damaged_copy() {
	local f=$1 d v out
	read_dump=$the_dump
	v=$(sed -n 's/^vmlinux[[:space:]]\{1,\}//p' "$f")
	case $v in
	limits) read_vmlinux=$limits_dir/vmlinux ;;
	baseline) read_vmlinux=$baseline_dir/vmlinux ;;
	*) read_vmlinux=$kernel_dir/vmlinux ;;
	esac
	# a release's kernel: its vmlinux only when asked for ("vmlinux debug";
	# another run may have fetched it for its own use)
	if grep -q '^kernel[[:space:]]\{1,\}debian:' "$f" && [ "$v" != debug ]; then
		read_vmlinux=''
	fi

	out=$run_dir/damaged
	rm -rf "$out"
	mkdir -p "$out"
	d=$(sed -n 's/^damage[[:space:]]\{1,\}//p' "$f")
	case $d in
	'') ;;
	truncate\ log)
		/usr/bin/python3 "$OOPSLIMIT_TOP/tests/dumpcopy.py" cut-log "$read_dump" "$read_vmlinux" "$out/dump" |
			sed 's/^/# /' || return 1
		read_dump=$out/dump ;;
	truncate\ *)
		local size=${d#truncate } total
		total=$(stat -c %s "$read_dump")
		[[ $size == *% ]] && size=$((total * ${size%\%} / 100))
		head -c "$size" "$read_dump" >"$out/dump"
		note "$name: the dump cut to $size of $total bytes"
		read_dump=$out/dump ;;
	drop\ *)
		/usr/bin/python3 "$OOPSLIMIT_TOP/tests/dumpcopy.py" drop "$read_dump" "$read_vmlinux" "${d#drop }" \
			"$out/dump" | sed 's/^/# /' || return 1
		read_dump=$out/dump ;;
	esac
	v=$(sed -n 's/^vmlinux-moved[[:space:]]\{1,\}//p' "$f")
	if [ -n "$v" ]; then
		# shellcheck disable=SC2086 # SYMBOL DELTA
		/usr/bin/python3 "$OOPSLIMIT_TOP/tests/dumpcopy.py" move-symbol "$read_vmlinux" $v "$out/vmlinux" |
			sed 's/^/# /' || return 1
		read_vmlinux=$out/vmlinux
	fi
}

# crash_session F: crash with the extension on the dump, every output to a
# file in $run_dir/crash; sets reports[crash].  Fails when crash does not
# end cleanly or the session does not go on after the command.
crash_session() {
	local f=$1 out=$run_dir/crash args rc=0 t0 bad=0
	args=$(sed -n 's/^crash[[:space:]]\{1,\}//p' "$f")
	rm -rf "$out"
	mkdir -p "$out"
	# (the walks of "expect walks", in the same session: check_walks judges them)
	local walks=()
	! grep -q '^expect[[:space:]]\{1,\}walks' "$f" || walks=("kmem -s > $out/kmem" "foreach bt > $out/bt")
	printf '%s\n' "oopslimit > $out/text" "oopslimit -j > $out/json" "oopslimit -v > $out/verbose" \
		"oopslimit -s > $out/sites" "sys > $out/sys" "help oopslimit > $out/help" "${walks[@]}" "eval 6*7 > $out/alive" q \
		>"$out/cmd"
	t0=$(now_ms)
	local in_root=() ext=$crash_ext rr
	rr=$(reader_release "$f")
	if [ -n "$rr" ]; then
		# the release's own crash, with the extension its package installed
		in_root=("$OOPSLIMIT_TOP/scripts/reader-root.sh" -r "${reader_roots[$rr]}")
		ext=/usr/lib/crash/extensions
	fi
	# shellcheck disable=SC2086 # crash's arguments are words
	"${in_root[@]}" env CRASH_EXTENSIONS=$ext crash -s -x ${args:---kaslr auto} "$read_vmlinux" "$read_dump" \
		-i "$out/cmd" </dev/null >"$out/log" 2>&1 || rc=$?
	local whose='' why
	why=$(grep -m1 '^crash: invalid structure member offset' "$out/log" || true)
	if [ $rc -ne 0 ] && [ -n "$why" ] && ! grep -q '^expect[[:space:]]\{1,\}refused' "$f"; then
		# crash itself cannot open a session on a kernel newer than it
		# (unstable's crash 9.0.2 on 7.2: module_num_gpl_syms), with or
		# without the extension: the extension in crash's minimal mode,
		# which needs no kernel structures (and has no "sys")
		whose="; crash itself stopped at start-up (${why#crash: }), so in --minimal mode"
		printf '%s\n' "oopslimit > $out/text" "oopslimit -j > $out/json" "oopslimit -v > $out/verbose" \
			"oopslimit -s > $out/sites" "help oopslimit > $out/help" "eval 6*7 > $out/alive" q >"$out/cmd"
		mv "$out/log" "$out/log.full"
		rc=0
		# shellcheck disable=SC2086 # crash's arguments are words
		"${in_root[@]}" env CRASH_EXTENSIONS=$ext crash --minimal -s -x ${args:---kaslr auto} "$read_vmlinux" \
			"$read_dump" -i "$out/cmd" </dev/null >"$out/log" 2>&1 || rc=$?
	fi
	touch "$out/text" "$out/json" "$out/sys" "$out/alive" "$out/verbose" "$out/sites"
	crash_rc=$rc
	if grep -q '^expect[[:space:]]\{1,\}refused' "$f"; then
		return 0
	fi
	[ -z "$rr" ] || whose="; the crash of $rr, in its reader root$whose"
	note "$name: crash -x oopslimit: $(since "$t0") s (crash's start included)$whose"
	if [ $rc -ne 0 ] || [ ! -s "$out/text" ] || [ ! -s "$out/json" ]; then
		flag "$name: crash ended with status $rc: $(tail -n 3 "$out/log" | tr '\n' ' ')"
		return 1
	fi
	grep -q 'decimal: 42' "$out/alive" || { flag "$name: the crash session did not go on after oopslimit"; bad=1; }
	if LC_ALL=C grep -q '[^[:print:]]' "$out/text" "$out/verbose" "$out/json" "$out/sites"; then
		flag "$name: non-printable bytes in crash's output"
		bad=1
	fi
	if grep -Eqi 'error|invalid' "$out/text" "$out/verbose"; then
		flag "$name: 'error' or 'invalid' in the output: $(grep -Ehi 'error|invalid' "$out/text" "$out/verbose" | head -n 1)"
		bad=1
	fi
	sed 's/^/#   | /' "$out/text"
	reports[crash]=$out/json
	return $bad
}

# The readers' reports: each valid, all equal but for the reader-specific
# members.  Prints one line per problem.
compare_reports() {
	/usr/bin/python3 - "$schema" "$@" <<-'EOF'
		import json, sys
		import jsonschema
		schema = json.load(open(sys.argv[1]))
		bad, docs = [], {}
		for arg in sys.argv[2:]:
		    who, path = arg.split("=", 1)
		    try:
		        doc = json.load(open(path))
		    except (OSError, ValueError) as e:
		        bad.append("%s: not JSON (%s)" % (who, e))
		        continue
		    for err in jsonschema.Draft202012Validator(schema).iter_errors(doc):
		        bad.append("%s: schema: %s at %s" % (who, err.message, "/".join(map(str, err.path)) or "top"))
		    docs[who] = doc
		READER_SPECIFIC = ("reader", "counters_source", "capture", "notes", "dump_read_error")
		names = list(docs)
		for other in names[1:]:
		    a, b = docs[names[0]], docs[other]
		    if sorted(a) != sorted(b):
		        bad.append("%s and %s have other members: %s" % (names[0], other, sorted(set(a) ^ set(b))))
		    for k in a:
		        if k not in READER_SPECIFIC and k in b and a[k] != b[k]:
		            bad.append("%s: %s says %s, %s says %s" % (k, names[0], json.dumps(a[k]), other, json.dumps(b[k])))
		print("\n".join(bad))
		sys.exit(1 if bad else 0)
	EOF
}

# drgn_check: crash's values and addresses against drgn's reading.
drgn_check() {
	local in_root=() rr
	rr=$(reader_release "$1")
	[ -z "$rr" ] || in_root=("$OOPSLIMIT_TOP/scripts/reader-root.sh" -r "${reader_roots[$rr]}")
	"${in_root[@]}" /usr/bin/python3 "$OOPSLIMIT_TOP/tests/drgn-counters.py" "$read_dump" "$read_vmlinux" >"$run_dir/drgn.json" \
		2>"$run_dir/drgn.err" || { echo "drgn could not read the dump: $(tail -n 1 "$run_dir/drgn.err")"; return 1; }
	/usr/bin/python3 - "$run_dir/drgn.json" "${reports[crash]}" <<-'EOF'
		import json, sys
		d = json.load(open(sys.argv[1]))
		j = json.load(open(sys.argv[2]))
		bad = []
		for name, want in d["values"].items():
		    if j.get(name) != want:
		        bad.append("%s: oopslimit %s, drgn %s" % (name, j.get(name), want))
		for name, want in d["addresses"].items():
		    got = (j["reader"]["variables"].get(name) or {}).get("address")
		    if got != want:
		        bad.append("%s address: oopslimit %s, drgn %s" % (name, got, want))
		print("\n".join(bad) if bad else "drgn agrees: " + " ".join("%s=%s" % kv for kv in sorted(d["values"].items())))
		sys.exit(1 if bad else 0)
	EOF
}

# read_with_all F: every reader on the dump (or its damaged copy): crash,
# and the recorder here (not on a vmcore-incomplete: the capture kernel's
# reason.json speaks for that one).
read_with_all() {
	local f=$1 bad=0
	if ! damaged_copy "$f"; then
		flag "$name: cannot make the damaged copy"
		return 1
	fi
	if [ -n "$read_vmlinux" ]; then
		crash_session "$f" || bad=1
	else
		note "$name: no vmlinux for this kernel: crash and drgn do not read the dump"
	fi
	if [ "${the_dump##*/}" != vmcore-incomplete ]; then
		if "$reason_bin" -j "$run_dir/host.json" "$read_dump" 2>"$run_dir/host.err"; then
			reports[host]=$run_dir/host.json
		else
			flag "$name: oopslimit-reason failed on the dump: $(tail -n 1 "$run_dir/host.err")"
			bad=1
		fi
	fi
	return $bad
}

# judge_reports F: the reports valid and in agreement, crash's against drgn.
judge_reports() {
	local f=$1 bad=0 out args=() who line
	for who in capture host crash; do
		[ -z "${reports[$who]:-}" ] || args+=("$who=${reports[$who]}")
	done
	if [ ${#args[@]} -gt 0 ]; then
		if out=$(compare_reports "${args[@]}"); then
			note "$name: ${#args[@]} report(s) valid and in agreement: ${args[*]%%=*}"
		else
			while IFS= read -r line; do flag "$name: $line"; done <<<"$out"
			bad=1
		fi
	fi
	# each text says what its reader's report says: the signature and the
	# sites (the recorder's reason.txt, crash's "oopslimit" and "oopslimit -s")
	local texts json
	for who in capture crash; do
		json=${reports[$who]:-}
		case $who in
		capture) texts=("$json" "${json%.json}.txt") ;;
		crash) texts=("$json" "$run_dir/crash/text" "$run_dir/crash/sites") ;;
		esac
		if [ -z "${texts[0]}" ] || [ ! -s "${texts[1]}" ]; then continue; fi
		if out=$(/usr/bin/python3 "$OOPSLIMIT_TOP/tests/text-report.py" "${texts[@]}"); then
			note "$name: $who: $out"
		else
			while IFS= read -r line; do flag "$name: $line"; done <<<"$out"
			bad=1
		fi
	done
	if [ -n "${reports[crash]:-}" ] && ! grep -q '^drgn[[:space:]]\{1,\}no' "$f"; then
		if out=$(drgn_check "$f"); then
			note "$name: $out"
		else
			while IFS= read -r line; do flag "$name: $line"; done <<<"$out"
			bad=1
		fi
	fi
	return $bad
}

# The text line "LABEL: value" (the first one), without the padding.
text_value() {
	awk -v l="$2" '{ s = $0; sub(/^ +/, "", s) } index(s, l ": ") == 1 { print substr(s, length(l) + 3); exit }' "$1"
}

# check_reports F: the report, text, sys, refused and kaslr expectations.
check_reports() {
	local f=$1 bad=0 key what arg1 argrest who got want said
	while read -r key what arg1 argrest; do
		[ "$key" = expect ] || continue
		case $what in
		report | reason | recorder | crash | captured)
			local n=0
			for who in capture host crash; do
				[ -n "${reports[$who]:-}" ] || continue
				case $what/$who in crash/capture | crash/host | recorder/crash | captured/host | captured/crash) continue ;; esac
				n=$((n + 1))
				got=$(jq -r ".$arg1" "${reports[$who]}" 2>&1 || true)
				[ "$got" = "$argrest" ] ||
					{ flag "$name: $who's report has $arg1 '$got', expected '$argrest'"; bad=1; }
			done
			[ $n -gt 0 ] || { flag "$name: expect $what $arg1: no report to check"; bad=1; } ;;
		text)
			got=$(text_value "$run_dir/crash/text" "$arg1")
			[ "$got" = "$argrest" ] || { flag "$name: $arg1 is '$got', expected '$argrest'"; bad=1; } ;;
		textin)
			grep -E "^ *$arg1: " "$run_dir/crash/text" | grep -qF -- "$argrest" ||
				{ flag "$name: no '$arg1:' line with '$argrest'"; bad=1; } ;;
		sys)
			want="$arg1${argrest:+ $argrest}"
			got=$(text_value "$run_dir/crash/sys" PANIC)
			[ "$got" = "$want" ] || { flag "$name: sys PANIC is '$got', expected '$want'"; bad=1; }
			note "$name: crash's sys says PANIC: $got" ;;
		refused)
			want="$arg1${argrest:+ $argrest}"
			if [ "${crash_rc:-0}" -ge 1 ] && [ "${crash_rc:-0}" -lt 128 ] && grep -qF -- "$want" "$run_dir/crash/log"; then
				note "$name: crash refused the dump: $(grep -m1 -F -- "$want" "$run_dir/crash/log")"
			else
				flag "$name: expected crash to refuse with '$want'; status ${crash_rc:-?}"
				bad=1
			fi ;;
		kaslr)
			got=$(jq -r .kaslr_offset "$run_dir/drgn.json" 2>/dev/null || echo '?')
			# a panic without kdump prints the offset the kernel drew
			# (dump_kernel_offset): drgn's must be that one
			said=$(grep -a -o 'Kernel Offset: 0x[0-9a-f]* from' "$run_dir/console.log" 2>/dev/null | tail -n 1 | cut -d' ' -f3)
			if [ "$got" = '?' ] || { [ -n "$said" ] && [ "$((said))" != "$got" ]; }; then
				flag "$name: drgn's KASLR offset is $got, the kernel said ${said:-nothing}"
				bad=1
			elif [ "$arg1" = yes ] && [ "$got" = 0 ] && [ "$said" = 0x0 ]; then
				# KASLR on, and it drew the slot where the kernel was
				# linked (one boot in about 500): nothing relocated
				note "$name: KASLR drew offset 0 this boot (the kernel says so): the readers met no relocation"
			elif { [ "$arg1" = yes ] && [ "$got" = 0 ]; } || { [ "$arg1" = no ] && [ "$got" != 0 ]; }; then
				flag "$name: expected kaslr $arg1, drgn's KASLR offset is $got"
				bad=1
			fi ;;
		vmcoreinfo)
			check_vmcoreinfo || bad=1 ;;
		esac
	done <"$f"
	if grep -q '^expect[[:space:]]\{1,\}walks' "$f"; then
		check_walks "$f" || bad=1
	fi
	return $bad
}

# The SYMBOL() lines our patches add, as every reader of the dump found them,
# against System.map plus the KASLR offset the guest saw.
check_vmcoreinfo() {
	local running linked offset sym want got ok=0
	running=$(sed -n 's/^record kallsyms._stext //p' "$source_dir/results")
	linked=$(awk '$3 == "_stext" { print $1 }' "$kernel_dir/System.map")
	if [ -z "$running" ] || [ -z "$linked" ] || [ ! -s "$run_dir/host.json" ]; then
		flag "$name: no _stext address or no report from oopslimit-reason to check VMCOREINFO"
		return 1
	fi
	offset=$((0x$running - 0x$linked))
	note "$name: KASLR offset 0x$(printf '%x' "$offset")"
	for sym in oops_count oops_limit warn_count warn_limit panic_on_oops panic_on_warn; do
		want=0x$(printf '%x' $((0x$(awk -v s="$sym" '$3 == s { print $1; exit }' "$kernel_dir/System.map") + offset)))
		got=$(jq -r "[.reader.variables.$sym.source, .reader.variables.$sym.address] | join(\" \")" "$run_dir/host.json")
		if [ "$got" = "vmcoreinfo $want" ]; then
			note "$name: SYMBOL($sym)=$want"
		else
			flag "$name: SYMBOL($sym) read as '$got', System.map + offset is $want"
			ok=1
		fi
	done
	return $ok
}

# check_walks F: the readers' walks of the dump's memory (expect walks):
# crash's "kmem -s" and "foreach bt", run in crash_session's session (none
# where crash stopped at start-up and fell back to --minimal, which has
# neither), and drgn's slab and task walks in the release's reader root;
# any page left out that they read fails.
check_walks() {
	local f=$1 out=$run_dir/walks crash=$run_dir/crash in_root=() rr bad=0 rc
	mkdir -p "$out"
	rr=$(reader_release "$f")
	[ -z "$rr" ] || in_root=("$OOPSLIMIT_TOP/scripts/reader-root.sh" -r "${reader_roots[$rr]}")
	if [ -z "$read_vmlinux" ]; then
		flag "$name: expect walks: no vmlinux for the readers"
		return 1
	fi
	if [ -e "$crash/log.full" ]; then
		note "$name: crash's walks: none (crash stopped at start-up on this kernel; --minimal has no kmem or bt)"
	elif [ ! -s "$crash/kmem" ] || [ ! -s "$crash/bt" ]; then
		flag "$name: crash's walks left no output: $(tail -n 2 "$crash/log" 2>/dev/null | tr '\n' ' ')"
		bad=1
	elif grep -Eqi 'page excluded|seek error|read error|invalid' "$crash/kmem" "$crash/bt" || grep -qi 'page excluded' "$crash/log"; then
		flag "$name: crash met pages left out: $(cat "$crash/kmem" "$crash/bt" "$crash/log" | grep -Ei -m1 'page excluded|seek error|read error|invalid')"
		bad=1
	else
		note "$name: crash's walks: kmem -s $(($(grep -c . "$crash/kmem") - 1)) caches, foreach bt $(grep -c '^PID:' "$crash/bt") tasks, no page left out"
	fi
	rc=0
	"${in_root[@]}" /usr/bin/python3 "$OOPSLIMIT_TOP/tests/drgn-walks.py" "$read_dump" "$read_vmlinux" \
		>"$out/drgn.json" 2>"$out/drgn.err" || rc=$?
	if [ $rc -eq 2 ] || ! jq -e . "$out/drgn.json" >/dev/null 2>&1; then
		flag "$name: drgn's walks could not run: $(tail -n 1 "$out/drgn.err")"
		return 1
	fi
	note "$name: drgn $(jq -r .drgn "$out/drgn.json")'s walks: $(jq -r '"\(.slabs) slabs (\(.tail_pages) tail pages, \(.slab_bytes) bytes) read, \(.slab_faults) failed; \(.tasks) tasks, \(.frames) frames, \(.task_faults) failed"' "$out/drgn.json")"
	if [ $rc -ne 0 ]; then
		flag "$name: drgn met pages left out: $(jq -r '.faults | join("; ")' "$out/drgn.json")"
		bad=1
	fi
	return $bad
}
