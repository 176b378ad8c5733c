# shellcheck shell=bash
# The scenario harness, shared by the test suite (tests/run.sh), the main job
# (scripts/main.sh) and the kernel verifier (scripts/verify.sh).  Source it
# after lib.sh; it defines functions and runs nothing.
#
# A scenario is one file of directives; scenario_validate checks it whole
# before anything boots, scenario_setup builds what the runs need and
# run_scenario boots it in QEMU and judges the result (TAP through result()).

# --- scenario files: checked whole before anything runs ------------------------
# Directives, one a line ('#' starts a comment):
#   about TEXT            what the scenario shows
#   kernel limits|baseline
#   append ARGS           extra kernel command line
#   timeout SECONDS       hard limit for the boot (default 120)
#   dump yes              write a memory dump at the panic or at "hold"
#   memory SIZE           guest memory (QEMU -m; default 512M)
#   kdump KEY VALUE       a line of the guest's kdump.conf: the run is a kdump
#                         run, with the capture kernel and the dracut-built
#                         capture initramfs in the run directory, dumps going
#                         to 9p:host under /dumps unless these lines say
#                         otherwise (later lines win)
#   disk SIZE             an ext4 disk of SIZE as /dev/vda (a kdump target);
#                         its dump directories are copied out after the run
#   step PLAN-LINE        a line of the guest plan (see tests/guest/init)
#   expect record NAME VALUE   the guest recorded NAME as VALUE
#   expect panic TEXT     the kernel panicked with exactly this message
#   expect survived       the guest ran every step and no panic happened
#   expect count N TEXT   N console lines contain TEXT
#   expect vmcoreinfo     the dump's vmcoreinfo note has SYMBOL() lines for the
#                         four counters and limits, at System.map + KASLR offset
#   expect capture complete|failed|unmounted
#                         complete: one dump directory with a kdump-compressed
#                         vmcore, vmcore-dmesg.txt, reason.json and reason.txt,
#                         no vmcore-incomplete; failed: a directory with
#                         vmcore-incomplete and reason.json but no vmcore;
#                         unmounted: no directory, reason.json on the console
#   expect reason KEY VALUE   reason.json's KEY (jq path without the dot, e.g.
#                         capture.status) is VALUE
#   expect kdump ARGS => STATUS TEXT
#                         the guest's "kdump ARGS" step exited with STATUS and
#                         its last line contains TEXT; a kdump step without
#                         such a line must exit 0
scenario_validate() {
	local f=$1 n=0 key rest kernel='' steps=0
	while read -r key rest; do
		n=$((n + 1))
		case $key in
		'' | '#'*) ;;
		about | append) ;;
		memory | disk)
			[[ $rest =~ ^[1-9][0-9]*[MG]$ ]] || die "$f:$n: $key takes a size like 512M, not '$rest'" ;;
		kdump)
			case ${rest%% *} in
			target | mount_options | path | mount_wait | compress | dump_level | final_action | capture_append | \
				oops_limit | warn_limit | panic_on_oops | panic_on_warn) ;;
			*) die "$f:$n: unknown kdump.conf key '${rest%% *}'" ;;
			esac ;;
		kernel)
			case $rest in limits | baseline) kernel=$rest ;; *) die "$f:$n: kernel is limits or baseline, not '$rest'" ;; esac ;;
		timeout)
			[[ $rest =~ ^[1-9][0-9]*$ ]] || die "$f:$n: timeout takes seconds, not '$rest'" ;;
		dump)
			[ "$rest" = yes ] || die "$f:$n: dump takes 'yes'" ;;
		step)
			case ${rest%% *} in
			trigger | record | write | sysctl | console | kallsyms | sysrq | hold | kdump) steps=$((steps + 1)) ;;
			*) die "$f:$n: unknown step '${rest%% *}'" ;;
			esac ;;
		expect)
			case ${rest%% *} in
			record | panic | survived | count | vmcoreinfo | reason) ;;
			kdump)
				[[ $rest =~ ^kdump\ [a-z]+.*\ =\>\ [0-9]+ ]] || die "$f:$n: expect kdump ARGS => STATUS [TEXT]" ;;
			capture)
				case ${rest#capture } in complete | failed | unmounted) ;;
				*) die "$f:$n: expect capture complete, failed or unmounted" ;; esac ;;
			*) die "$f:$n: unknown expectation '${rest%% *}'" ;;
			esac ;;
		*) die "$f:$n: unknown key '$key'" ;;
		esac
	done <"$f"
	[ -n "$kernel" ] || die "$f: no kernel line"
	grep -q '^expect ' "$f" || die "$f: no expectation"
	[ "$steps" -gt 0 ] || die "$f: no step"
}

# --- TAP bookkeeping ------------------------------------------------------------
# result() prints a TAP line and remembers it, with the notes since the last
# one, for junit_write.
passed=0 failed=0 t=0 pending_notes=''
tap_names=() tap_states=() tap_notes=()
result() { # result OK|FAIL NAME
	t=$((t + 1))
	tap_names+=("$2")
	tap_states+=("$1")
	tap_notes+=("$pending_notes")
	pending_notes=''
	if [ "$1" = OK ]; then
		passed=$((passed + 1))
		printf 'ok %d - %s\n' "$t" "$2"
	else
		failed=$((failed + 1))
		printf 'not ok %d - %s\n' "$t" "$2"
	fi
}
note() {
	printf '# %s\n' "$*"
	pending_notes+="$*"$'\n'
}

xml_escape() {
	sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g' <<<"$1"
}

# junit_write FILE SUITE: the results so far as JUnit XML, for CI systems.
junit_write() {
	local file=$1 suite i
	suite=$(xml_escape "$2")
	{
		printf '<?xml version="1.0" encoding="UTF-8"?>\n'
		printf '<testsuite name="%s" tests="%d" failures="%d">\n' "$suite" "$t" "$failed"
		for i in "${!tap_names[@]}"; do
			printf '  <testcase classname="%s" name="%s">\n' "$suite" "$(xml_escape "${tap_names[i]}")"
			[ "${tap_states[i]}" = OK ] || printf '    <failure message="%s"/>\n' "$(xml_escape "${tap_names[i]}")"
			printf '    <system-out>%s</system-out>\n  </testcase>\n' "$(xml_escape "${tap_notes[i]}")"
		done
		printf '</testsuite>\n'
	} >"$file.tmp"
	mv "$file.tmp" "$file"
}

# scenario_setup: the kernels, the guest and capture initramfs images and the
# host build of the recorder.  A caller that brings its own kernel sets
# limits_dir (and baseline_dir, or leaves it empty) first.
scenario_setup() {
	"$OOPSLIMIT_TOP/scripts/deps.sh"
	if [ -z "${limits_dir:-}" ]; then
		local kernels
		kernels=$("$OOPSLIMIT_TOP/scripts/build-kernel.sh" limits baseline) || die "building the kernels failed"
		limits_dir=$(sed -n 1p <<<"$kernels")
		baseline_dir=$(sed -n 2p <<<"$kernels")
	fi
	initrd=$("$OOPSLIMIT_TOP/scripts/guest-initramfs.sh")
	capture_initrd=$("$OOPSLIMIT_TOP/scripts/capture-initramfs.sh" "$(cat "$limits_dir/kernelrelease")")
	scratch=$(mktemp -d)
	# shellcheck disable=SC2064  # expand now: $scratch is set
	trap "rm -rf '$scratch'" EXIT
	make -s -C "$OOPSLIMIT_TOP/kdump" O="$scratch" >/dev/null || die "building kdump/oopslimit-reason failed"
	reason_bin=$scratch/oopslimit-reason
}

# vmcoreinfo_lines DUMP PADDR SIZE: the kernel's vmcoreinfo note, read at the
# physical address /sys/kernel/vmcoreinfo gave, out of an ELF memory dump.
vmcoreinfo_lines() {
	local dump=$1 paddr=$((0x${2#0x})) size=$((0x${3#0x})) off="" o pa fs
	while read -r o pa fs; do
		if [ "$paddr" -ge $((pa)) ] && [ "$paddr" -lt $((pa + fs)) ]; then
			off=$((o + paddr - pa))
			break
		fi
	done < <(readelf -l -W "$dump" | awk '$1 == "LOAD" { print $2, $4, $5 }')
	[ -n "$off" ] || return 0
	dd if="$dump" bs=4096 skip="$off" count="$size" iflag=skip_bytes,count_bytes status=none |
		tr -c '[:print:]\n' '\n' | grep -a '^[A-Z]'
}

# check_vmcoreinfo DIR SYSTEM.MAP: compares the note with System.map + offset.
check_vmcoreinfo() {
	local dir=$1 map=$2 info paddr size running linked offset sym want got ok=0
	read -r paddr size < <(sed -n 's/^record vmcoreinfo //p' "$dir/results")
	info=$(vmcoreinfo_lines "$dir/dump.elf" "${paddr:-0}" "${size:-0}")
	if ! grep -q '^OSRELEASE=' <<<"$info"; then
		note "no vmcoreinfo note at ${paddr:-?} in $dir/dump.elf"
		return 1
	fi
	running=$(sed -n 's/^record kallsyms._stext //p' "$dir/results")
	linked=$(awk '$3 == "_stext" { print $1 }' "$map")
	if [ -z "$running" ] || [ -z "$linked" ]; then
		note "no _stext address to compute the KASLR offset"
		return 1
	fi
	offset=$((0x$running - 0x$linked))
	note "KASLR offset 0x$(printf '%x' "$offset")"
	for sym in oops_count oops_limit warn_count warn_limit; do
		want=$(printf '%x' $((0x$(awk -v s="$sym" '$3 == s { print $1; exit }' "$map") + offset)))
		got=$(sed -n "s/^SYMBOL($sym)=//p" <<<"$info")
		if [ "$got" = "$want" ]; then
			note "SYMBOL($sym)=$got"
		else
			note "SYMBOL($sym) is '${got:-missing}', System.map + offset is $want"
			ok=1
		fi
	done
	return $ok
}

# The dump directories a kdump run left, one a line.  A 9p target is the run
# directory itself; an ext4 disk is copied out with debugfs first.
dump_dirs() {
	local dir=$1 root
	if [ -e "$dir/disk.img" ]; then
		rm -rf "$dir/disk"
		mkdir -p "$dir/disk"
		debugfs -R "rdump $kdump_path $dir/disk" "$dir/disk.img" >/dev/null 2>&1 || true
		root=$dir/disk/${kdump_path##*/}
	else
		root=$dir$kdump_path
	fi
	find "$root" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort
}

# check_capture DIR STATUS: the files a capture that ended in STATUS leaves.
check_capture() {
	local dir=$1 want=$2 dumps d ok=0 f
	dumps=$(dump_dirs "$dir")
	reason_json=''
	if [ "$want" = unmounted ]; then
		[ -z "$dumps" ] || { note "a dump directory exists: $dumps"; ok=1; }
		reason_json=$dir/console-reason.json
		sed -n 's/^oopslimit-reason: //p' "$dir/console.log" | tr -d '\r' >"$reason_json"
		jq -e . "$reason_json" >/dev/null 2>&1 || { note "no reason.json on the console"; return 1; }
		return $ok
	fi
	if [ "$(grep -c . <<<"$dumps")" -ne 1 ]; then
		note "expected one dump directory, found: ${dumps:-none}"
		return 1
	fi
	d=$dumps
	reason_json=$d/reason.json
	note "dump directory: $d ($(cd "$d" && echo *))"
	for f in vmcore-dmesg.txt reason.json reason.txt; do
		[ -s "$d/$f" ] || { note "no $f"; ok=1; }
	done
	if [ "$want" = complete ]; then
		[ ! -e "$d/vmcore-incomplete" ] || { note "vmcore-incomplete left behind"; ok=1; }
		[ -s "$d/makedumpfile.log" ] || { note "no makedumpfile.log"; ok=1; }
		if [ "$(head -c 8 "$d/vmcore" 2>/dev/null)" != "KDUMP   " ]; then
			note "vmcore is not a kdump-compressed dump"
			ok=1
		elif [ "$(jq -r .capture.dump_bytes "$reason_json" 2>/dev/null)" != "$(stat -c %s "$d/vmcore")" ]; then
			note "reason.json's dump_bytes differs from the vmcore's size"
			ok=1
		else
			note "vmcore: $(stat -c %s "$d/vmcore") bytes, saved in $(jq -r .capture.seconds "$reason_json") s"
		fi
		# The recorder run on the host on the saved dump agrees with the
		# capture kernel's run on /proc/vmcore.
		local fields='[.kernel_release, .panic_message, .reason, .origin, .counters_source,
			.oops_count, .oops_limit, .warn_count, .warn_limit] | @json' here there
		there=$(jq -r "$fields" "$reason_json" 2>/dev/null)
		here=$("$reason_bin" -j - "$d/vmcore" 2>&1 | jq -r "$fields" 2>&1)
		if [ "$here" != "$there" ]; then
			note "oopslimit-reason on the host says $here, in the capture kernel $there"
			ok=1
		fi
		[ "${crash_check:-}" != yes ] || check_crash "$d" || ok=1
	else
		[ ! -e "$d/vmcore" ] || { note "a vmcore exists after a failed capture"; ok=1; }
		[ -e "$d/vmcore-incomplete" ] || { note "no vmcore-incomplete"; ok=1; }
	fi
	return $ok
}

# check_crash DUMPDIR: crash -x with the oopslimit extension on the vmcore
# gives the verdict, origin and counters reason.json has.
check_crash() {
	local d=$1 json want got t0
	printf 'oopslimit -j\nquit\n' >"$d/.crash.cmd"
	t0=$(now_ms)
	json=$(CRASH_EXTENSIONS=$OOPSLIMIT_TOP/crash-ext crash -s -x --kaslr auto "$limits_dir/vmlinux" \
		"$d/vmcore" -i "$d/.crash.cmd" </dev/null 2>&1 | sed -n '/^{/,/^}/p')
	rm -f "$d/.crash.cmd"
	want=$(jq -c '[.reason, .origin, .oops_count, .oops_limit, .warn_count, .warn_limit]' "$d/reason.json")
	got=$(jq -c '[.verdict, .origin, .oops_count, .oops_limit, .warn_count, .warn_limit]' <<<"$json" 2>/dev/null ||
		echo 'no JSON from crash')
	if [ "$got" = "$want" ]; then
		note "crash -x oopslimit agrees with reason.json: $got ($(since "$t0") s)"
	else
		note "crash -x oopslimit says $got, reason.json $want"
		return 1
	fi
}

run_scenario() {
	local f=$1 name kernel_dir append='' limit=120 dump='' key rest dir rc=0 bad=0 t0
	local mem=512M disk='' kdump=() reason_json=''
	kdump_path=/dumps
	name=$(basename "$f" .scn)
	dir=$OOPSLIMIT_CACHE/runs/$name
	rm -rf "$dir"
	mkdir -p "$dir"
	while read -r key rest; do
		case $key in
		kernel) [ "$rest" = limits ] && kernel_dir=$limits_dir || kernel_dir=$baseline_dir ;;
		append) append="$append $rest" ;;
		timeout) limit=$rest ;;
		dump) dump=$dir/dump.elf ;;
		step) printf '%s\n' "$rest" >>"$dir/plan" ;;
		memory) mem=$rest ;;
		disk) disk=$rest ;;
		kdump) kdump+=("$rest") ;;
		esac
	done <"$f"
	if [ -n "$disk" ]; then
		truncate -s "$disk" "$dir/disk.img"
		mkfs.ext4 -q -F -L crash "$dir/disk.img" || die "mkfs.ext4 failed for $dir/disk.img"
	fi
	if [ ${#kdump[@]} -gt 0 ] || grep -q "^kdump " "$dir/plan"; then
		mkdir -p "$dir/boot"
		cp "$kernel_dir/bzImage" "$dir/boot/bzImage"
		cp "$capture_initrd" "$dir/boot/capture.img"
		{
			cat "$OOPSLIMIT_TOP/kdump/kdump.conf"
			printf '%s\n' "# the test harness" "kernel /host/boot/bzImage" "initrd /host/boot/capture.img" \
				"path /dumps" "mount_wait 5"
			# the run directory over 9p, unless the scenario names a target
			printf '%s\n' "${kdump[@]}" | grep -q '^target ' ||
				printf '%s\n' "target 9p:host" "mount_options trans=virtio,version=9p2000.L"
			printf '%s\n' "# the scenario" "${kdump[@]}"
		} >"$dir/kdump.conf"
		kdump_path=$(sed -n 's/^path[[:space:]]\{1,\}//p' "$dir/kdump.conf" | tail -n 1)
	fi
	note "$name: $(sed -n 's/^about //p' "$f")"
	t0=$(now_ms)
	"$OOPSLIMIT_TOP/scripts/qemu-run.sh" -k "$kernel_dir/bzImage" -i "$initrd" -d "$dir" \
		-a "$append" -t "$limit" -m "$mem" ${dump:+-D "$dump"} ${disk:+-b "$dir/disk.img"} &
	# a caller may follow the run as it goes (scripts/main.sh does)
	if declare -F scenario_watch >/dev/null; then
		scenario_watch "$dir" $!
	fi
	wait $! || rc=$?
	note "$name: QEMU ran $(since "$t0") s, status $rc; console: $dir/console.log"
	if ! grep -q '^booted ' "$dir/results" 2>/dev/null; then
		note "$name: the guest never reported (no 'booted' line in $dir/results)"
		bad=1
	fi
	sed -n 's/^trigger /trigger: /p; s/^error /guest error: /p' "$dir/results" 2>/dev/null | sed "s/^/# $name: /"
	grep -q '^error ' "$dir/results" 2>/dev/null && bad=1
	[ $rc -eq 0 ] || bad=1

	local what arg1 argrest line panic_line
	panic_line=$(grep -a -m1 -o 'Kernel panic - not syncing: .*' "$dir/console.log" | tr -d '\r' || true)
	while read -r key what arg1 argrest; do
		[ "$key" = expect ] || continue
		case $what in
		record)
			line="record $arg1 $argrest"
			grep -qxF "$line" "$dir/results" 2>/dev/null ||
				{ note "$name: expected '$line', guest said: $(grep "^record $arg1 " "$dir/results" 2>/dev/null | tr '\n' ';')"; bad=1; } ;;
		panic)
			line="Kernel panic - not syncing: $arg1${argrest:+ $argrest}"
			[ "$panic_line" = "$line" ] ||
				{ note "$name: expected '$line', got '${panic_line:-no panic}'"; bad=1; } ;;
		survived)
			{ grep -qx finished "$dir/results" 2>/dev/null && [ -z "$panic_line" ]; } ||
				{ note "$name: expected to survive; panic: '${panic_line:-none}'"; bad=1; } ;;
		count)
			local n
			n=$(grep -acF -- "$argrest" "$dir/console.log" || true)
			[ "$n" -eq "$arg1" ] ||
				{ note "$name: expected $arg1 console lines with '$argrest', saw $n"; bad=1; } ;;
		vmcoreinfo)
			check_vmcoreinfo "$dir" "$kernel_dir/System.map" || bad=1 ;;
		capture)
			check_capture "$dir" "$arg1" || bad=1 ;;
		reason)
			if [ -z "$reason_json" ]; then
				note "$name: expect reason needs an expect capture line before it"
				bad=1
				continue
			fi
			line=$(jq -r ".$arg1" "$reason_json" 2>/dev/null || echo 'unreadable')
			[ "$line" = "$argrest" ] ||
				{ note "$name: reason.json $arg1 is '$line', expected '$argrest'"; bad=1; } ;;
		esac
	done <"$f"
	# kdump steps: each as expected, or successful
	local got want
	while IFS= read -r got; do
		want=$(sed -n "s/^expect[[:space:]]\{1,\}kdump \(.*\)/\1/p" "$f" | while IFS= read -r w; do
			[ "${got%% => *}" = "${w%% => *}" ] && printf '%s\n' "$w"
		done | head -n 1)
		if [ -z "$want" ]; then
			[[ ${got#* => } == 0\ * ]] || { note "$name: kdump ${got}"; bad=1; }
		else
			local rc_text=${want#* => } st=${want#* => }
			st=${st%% *}
			[ "$rc_text" = "$st" ] && rc_text='' || rc_text=${rc_text#* }
			if [[ ${got#* => } == "$st "* ]] && [[ ${got#* => } == *"$rc_text"* ]]; then
				note "$name: kdump ${got}"
			else
				note "$name: expected 'kdump $want', got 'kdump $got'"
				bad=1
			fi
		fi
	done < <(sed -n 's/^kdump //p' "$dir/results" 2>/dev/null)
	[ -n "$panic_line" ] && note "$name: $panic_line"
	if [ $bad -eq 0 ]; then result OK "scenario $name"; else result FAIL "scenario $name"; fi
}

# tap_end: the plan line and the summary; fails when a test failed.
tap_end() {
	printf '1..%d\n' "$t"
	printf '%d passed, %d failed\n' "$passed" "$failed"
	[ "$failed" -eq 0 ]
}
