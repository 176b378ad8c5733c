# shellcheck shell=bash
# The scenario harness, the one runner of tests/scenarios/*.scn, shared by the
# test suite (tests/run.sh), the main job (scripts/main.sh), the kernel
# verifier (scripts/verify.sh) and the benchmarks (scripts/bench.sh).  Source
# it after lib.sh; it defines functions and runs nothing.
#
# A scenario is one file of directives; scenario_validate checks it whole
# before anything boots, scenario_setup builds what the runs need and
# run_scenario boots it in QEMU (or takes another scenario's dump), reads the
# dump with every reader and judges the result (TAP through result()).
#
# --- the directives ---------------------------------------------------------------
# One a line; '#' starts a comment.
#   about TEXT            what the scenario shows
#   tier test|full        the suite that boots it: test (make test, within
#                         its 40 minutes: the core and one scenario of each
#                         feature family) or full (make test-full only,
#                         the default); any scenario runs alone with
#                         make test SCENARIOS=NAME
#   guest busybox|debian  the project's small guest (default: a busybox
#                         init, 9p, every driver built in) or a Debian
#                         system with the stock kernel, systemd and the
#                         oopslimit-kdump package (scripts/debian-guest.sh)
#   release SUITE...      the Debian guest's releases the scenario holds on:
#                         bookworm (Debian 12, the default), trixie (Debian
#                         13), any suite scripts/debian-releases gives a
#                         guest kernel; make test boots the first,
#                         scripts/verify.sh -d the one of the kernel it
#                         verifies (debian_release)
#   kernel limits|baseline|stock|debian:SUITE
#                         the project's kernels (busybox guest), Debian's
#                         stock kernel (the Debian guest: stock), or the
#                         stock kernel of a release of scripts/debian-releases
#                         in the busybox guest, with its 9p and fw_cfg
#                         modules (scripts/debian-kernel.sh); it has no
#                         vmlinux unless "vmlinux debug" asks for its -dbg
#                         package, and without one crash and drgn do not read
#                         its dump
#   append ARGS           extra kernel command line
#   timeout SECONDS       hard limit for the boot (default 120)
#   memory SIZE           guest memory (QEMU -m; default 512M)
#   dump yes              write a QEMU memory dump (ELF, with the VMCOREINFO
#                         note) at the panic or at "hold"
#   kdump KEY VALUE       a line of the guest's kdump.conf: the run is a kdump
#                         run, with the capture kernel and the dracut-built
#                         capture initramfs in the run directory, dumps going
#                         to 9p:host under /dumps unless these lines say
#                         otherwise (later lines win)
#   disk SIZE             an ext4 disk of SIZE as /dev/vda (a kdump target);
#                         its dump directories are copied out after the run
#   disk SIZE FSTYPE BUS MOUNTPOINT [part|lvm|md|luks]
#                         the Debian guest: one more disk, ext4 or xfs, on
#                         virtio, sata, scsi (virtio-scsi) or nvme, mounted
#                         at MOUNTPOINT through /etc/fstab (a dump disk at
#                         /var/crash, a separate /var) before the service
#                         starts (scripts/debian-guest.sh, debian_disks);
#                         with a layout, the file system is on the second
#                         of its two GPT partitions (part), on an LVM volume
#                         there (lvm), on md RAID1 over a partition of each
#                         of two such disks (md), or on a LUKS volume there
#                         (luks: opened at the first boot only), made by
#                         the guest at its first boot
#   server ssh|nfs|none   the Debian guest: a second Debian guest, the dump
#                         server, at 192.0.2.1 on a wire of their own
#                         (qemu-run.sh -n: unix sockets, never this
#                         machine's network); this guest is 192.0.2.2.  ssh:
#                         its sshd takes root's key made here for the test,
#                         which this guest's root has (for "kdump propagate");
#                         nfs: it exports /var/crash.  It waits for a final
#                         dump in /var/crash and stays up until this guest
#                         says over ssh that it is done; its dump directories are judged
#                         as this guest's, its records are this guest's
#                         "server.NAME" ("record server.served STAMP STATUS").
#                         none: the wire alone, nobody at the other end
#   step PLAN-LINE        a line of the guest plan (see tests/guest/init and,
#                         for the Debian guest, tests/guest-debian/oopslimit-test-run)
# Reading another scenario's dump instead of booting (it is run first when
# its dump is missing or older than its kernel, scenario file or images):
#   dump-of SCENARIO      its kdump vmcore, else its QEMU memory dump
# What the readers get (for damaged-input scenarios):
#   damage truncate BYTES|N%|log
#                         a copy cut to this size, or where the kernel log's
#                         buffers begin (boot with log_buf_len= so that they
#                         are allocated high)
#   damage drop SYMBOL    a copy whose program headers leave out the page
#                         holding SYMBOL (a QEMU dump: a dump filtered of it)
#   vmlinux limits|baseline|debug
#                         the vmlinux crash gets (default: the booted one's;
#                         debug: a debian:SUITE kernel's, from its -dbg package)
#   vmlinux-moved SYMBOL DELTA
#                         a copy of the vmlinux whose symbol table puts SYMBOL
#                         DELTA bytes away: crash accepts it, it is wrong
#   crash ARGS            crash's arguments (default --kaslr auto: crash 8.0.2
#                         relocates a module-less kernel only when asked)
#   drgn no               no drgn cross-check (a vmlinux that does not match)
# Expectations (a scenario needs at least one):
#   expect record NAME VALUE   the guest recorded NAME as VALUE
#                         ({release} in VALUE, and in the TEXT of line, panic
#                         and count, stands for the booted kernel's release)
#   expect line TEXT      some line of the guest's results contains TEXT
#   expect panic TEXT     the kernel panicked with exactly this message
#   expect survived       the guest ran every step and no panic happened
#   expect count N TEXT   N console lines contain TEXT
#   expect capture complete|failed|refused|unmounted
#                         complete: one dump directory with a kdump-compressed
#                         vmcore, vmcore-dmesg.txt, reason.json and reason.txt,
#                         no vmcore-incomplete; failed: a directory with
#                         vmcore-incomplete and reason.json but no vmcore;
#                         unmounted: no directory, reason.json on the console
#   expect dumps N        N dump directories are left (old ones a "seed"
#                         step made, retention kept); the capture's own is
#                         the newest, and "expect capture" judges it
#   expect captured KEY VALUE  the capture kernel's reason.json alone has KEY
#                         equal to VALUE (its capture member: where the dump
#                         went, the failure action, what retention removed)
#   expect kdump ARGS => STATUS TEXT
#                         the guest's "kdump ARGS" step exited with STATUS and
#                         its last line contains TEXT; a kdump step without
#                         such a line must exit 0
#   expect report KEY VALUE
#                         every report of the dump (the capture's reason.json,
#                         oopslimit-reason run here on the dump, crash's
#                         "oopslimit -j") has KEY (a jq path without the
#                         leading dot) equal to VALUE as jq -r prints it
#                         ("expect reason" is the same)
#   expect recorder KEY VALUE  the same, for oopslimit-reason's reports alone
#   expect crash KEY VALUE     the same, for crash's report alone (their
#                         reader-specific members)
#   expect text LABEL VALUE    crash's "oopslimit" prints "LABEL: VALUE"
#   expect textin LABEL TEXT   some "LABEL: ..." line of it contains TEXT
#   expect sys TEXT       crash's own "sys" PANIC line is exactly TEXT
#   expect refused TEXT   crash refuses the dump, saying TEXT, and ends cleanly
#   expect kaslr yes|no   the kernel ran relocated (drgn's offset is not 0)
#   expect vmcoreinfo     the dump's VMCOREINFO has the SYMBOL() lines of
#                         patches/oopslimit/ at System.map + the KASLR offset
#
# Every dump is also read by every reader that can, and the run fails unless
# each report validates against common/report.schema.json, the reports agree
# on every member but the reader-specific ones, crash's session goes on after
# the command, its output is printable and free of crash's "error"/"invalid",
# and crash's values and addresses equal what drgn reads from the same dump.

# shellcheck source=../kdump/oopslimit-lib.sh
. "$OOPSLIMIT_TOP/kdump/oopslimit-lib.sh"
# shellcheck source=debian-guest.sh
. "$OOPSLIMIT_TOP/scripts/debian-guest.sh"
# shellcheck source=debian-suite.sh
. "$OOPSLIMIT_TOP/scripts/debian-suite.sh"

scenario_dir=$OOPSLIMIT_TOP/tests/scenarios
schema=$OOPSLIMIT_TOP/common/report.schema.json

# scenario_path NAME|PATH: the scenario file.
scenario_path() {
	case $1 in
	*/*) printf '%s\n' "$1" ;;
	*) printf '%s\n' "$scenario_dir/$1.scn" ;;
	esac
}

# guest_steps busybox|debian: the plan verbs the guest's runner documents in
# its header ("#   VERB ARGS   what it does"), blank-separated.
guest_steps() {
	local runner
	case $1 in
	debian) runner=$OOPSLIMIT_TOP/tests/guest-debian/oopslimit-test-run ;;
	*) runner=$OOPSLIMIT_TOP/tests/guest/init ;;
	esac
	sed -n '/^[^#]/q; s/^#   \([a-z][a-z-]*\) .*/\1/p; s/^#   \([a-z][a-z-]*\)$/\1/p' "$runner" | sort -u | tr '\n' ' '
}

scenario_validate() {
	local f=$1 n=0 key rest boots=0 steps=0 src='' guest kernel='' g r
	[ -r "$f" ] || die "no scenario $f"
	guest=$(sed -n 's/^guest[[:space:]]\{1,\}//p' "$f" | tail -n 1)
	local debian_kernel=''
	grep -q '^kernel[[:space:]]\{1,\}debian:' "$f" && debian_kernel=yes
	while read -r key rest; do
		n=$((n + 1))
		case $key in
		'' | '#'*) ;;
		about | append) ;;
		tier)
			case $rest in test | full) ;; *) die "$f:$n: tier is test or full, not '$rest'" ;; esac ;;
		guest)
			case $rest in busybox | debian) ;; *) die "$f:$n: guest is busybox or debian, not '$rest'" ;; esac ;;
		release)
			[ "${guest:-}" = debian ] || die "$f:$n: release names the Debian guest's release: after 'guest debian'"
			for r in $rest; do
				g=$(awk -v s="$r" '!/^#/ && $1 == s { print $4 }' "$OOPSLIMIT_TOP/scripts/debian-releases")
				{ [ -n "$g" ] && [ "$g" != - ]; } ||
					die "$f:$n: scripts/debian-releases makes no Debian guest for '$r'"
			done ;;
		kernel)
			kernel=$rest
			case ${guest:-busybox}/$rest in
			busybox/limits | busybox/baseline | debian/stock) boots=$((boots + 1)) ;;
			busybox/debian:*)
				awk -v s="${rest#debian:}" '!/^#/ && $1 == s { f = 1 } END { exit !f }' \
					"$OOPSLIMIT_TOP/scripts/debian-releases" ||
					die "$f:$n: no suite '${rest#debian:}' in scripts/debian-releases"
				boots=$((boots + 1)) ;;
			*) die "$f:$n: the ${guest:-busybox} guest boots kernel ${guest:+stock}${guest:-limits or baseline}, not '$rest'" ;;
			esac ;;
		memory)
			[[ $rest =~ ^[1-9][0-9]*[MG]$ ]] || die "$f:$n: $key takes a size like 512M, not '$rest'" ;;
		disk)
			if [ "${guest:-busybox}" = debian ]; then
				[[ $rest =~ ^[1-9][0-9]*[MG]\ (ext4|xfs)\ (virtio|sata|scsi|nvme)\ /[^[:space:]]*(\ (part|lvm|md|luks))?$ ]] ||
					die "$f:$n: the Debian guest's disk is SIZE ext4|xfs virtio|sata|scsi|nvme MOUNTPOINT [part|lvm|md|luks], not '$rest'"
				if [[ $rest == *' / '* ]] || [[ $rest == *' /' ]]; then
					die "$f:$n: the root file system is the image's own"
				fi
			else
				[[ $rest =~ ^[1-9][0-9]*[MG]$ ]] || die "$f:$n: $key takes a size like 512M, not '$rest'"
			fi ;;
		kdump)
			ol_conf_known_key "${rest%% *}" || die "$f:$n: unknown kdump.conf key '${rest%% *}'"
			ol_conf_check "${rest%% *}" "${rest#* }" || die "$f:$n: $ol_error" ;;
		timeout)
			[[ $rest =~ ^[1-9][0-9]*$ ]] || die "$f:$n: timeout takes seconds, not '$rest'" ;;
		server)
			[ "${guest:-}" = debian ] || die "$f:$n: the dump server is a second Debian guest: after 'guest debian'"
			case $rest in ssh | nfs | none) ;; *) die "$f:$n: server is ssh, nfs or none, not '$rest'" ;; esac ;;
		dump)
			[ "$rest" = yes ] || die "$f:$n: dump takes 'yes'" ;;
		step)
			case " $(guest_steps "${guest:-busybox}") " in
			*" ${rest%% *} "*) steps=$((steps + 1)) ;;
			*) die "$f:$n: the ${guest:-busybox} guest has no step '${rest%% *}'" ;;
			esac ;;
		dump-of)
			src=$rest
			[ -r "$(scenario_path "$rest")" ] || die "$f:$n: no scenario '$rest' to take the dump of" ;;
		damage)
			case $rest in
			truncate\ log | drop\ ?*) ;;
			truncate\ *) [[ ${rest#truncate } =~ ^[1-9][0-9]*%?$ ]] ||
				die "$f:$n: damage truncate takes BYTES, N% or log" ;;
			*) die "$f:$n: damage is 'truncate BYTES|N%|log' or 'drop SYMBOL'" ;;
			esac ;;
		vmlinux)
			case $rest in
			limits | baseline) ;;
			debug) [ -n "$debian_kernel" ] || die "$f:$n: vmlinux debug goes with a kernel debian:SUITE" ;;
			*) die "$f:$n: vmlinux is limits, baseline or debug" ;;
			esac ;;
		vmlinux-moved)
			[[ $rest =~ ^[A-Za-z_][A-Za-z0-9_.]*\ [-+]?(0x)?[0-9a-fA-F]+$ ]] ||
				die "$f:$n: vmlinux-moved takes SYMBOL DELTA" ;;
		crash) [ -n "$rest" ] || die "$f:$n: crash needs its arguments" ;;
		drgn) [ "$rest" = no ] || die "$f:$n: drgn takes 'no'" ;;
		expect)
			case ${rest%% *} in
			record | panic | survived | count | vmcoreinfo | sys | refused) ;;
			line)
				[[ $rest =~ ^line\ . ]] || die "$f:$n: expect line TEXT" ;;
			report | reason | recorder | crash | captured | text | textin)
				[[ $rest == *' '*' '* ]] || die "$f:$n: expect ${rest%% *} needs a name and a value" ;;
			dumps)
				[[ $rest =~ ^dumps\ [0-9]+$ ]] || die "$f:$n: expect dumps N" ;;
			kaslr)
				case ${rest#kaslr } in yes | no) ;; *) die "$f:$n: expect kaslr yes or no" ;; esac ;;
			kdump)
				[[ $rest =~ ^kdump\ [a-z]+.*\ =\>\ [0-9]+ ]] || die "$f:$n: expect kdump ARGS => STATUS [TEXT]" ;;
			capture)
				case ${rest#capture } in complete | failed | refused | unmounted) ;;
				*) die "$f:$n: expect capture complete, failed, refused or unmounted" ;; esac ;;
			*) die "$f:$n: unknown expectation '${rest%% *}'" ;;
			esac ;;
		*) die "$f:$n: unknown key '$key'" ;;
		esac
	done <"$f"
	grep -q '^expect[[:space:]]' "$f" || die "$f: no expectation"
	if [ "$guest" = debian ] && [ -n "$kernel" ] && [ "$kernel" != stock ]; then
		die "$f: the Debian guest boots kernel stock"
	fi
	if [ -n "$src" ]; then
		if [ $boots -ne 0 ] || [ $steps -ne 0 ]; then
			die "$f: dump-of reads another scenario's dump: no kernel or step lines"
		fi
	else
		[ $boots -eq 1 ] || die "$f: needs one kernel line (or dump-of)"
		[ $steps -gt 0 ] || die "$f: no step"
	fi
}

# scenario_tier FILE: the suite that boots it, test or full (the default).
scenario_tier() {
	local t
	t=$(sed -n 's/^tier[[:space:]]\{1,\}//p' "$1" | tail -n 1)
	printf '%s\n' "${t:-full}"
}

# scenario_order FILE...: the files, those that read another's dump last.
scenario_order() {
	local f
	for f in "$@"; do grep -q '^dump-of[[:space:]]' "$f" || printf '%s\n' "$f"; done
	for f in "$@"; do grep -q '^dump-of[[:space:]]' "$f" && printf '%s\n' "$f"; done
	return 0
}

# --- TAP and JUnit ------------------------------------------------------------------
# test_begin marks when the next test started; result() prints a TAP line and
# remembers it with its time, its notes and (failing) its first note, for
# junit_write.
passed=0 failed=0 t=0 pending_notes='' test_t0=''
tap_names=() tap_states=() tap_notes=() tap_failures=() tap_excerpts=() tap_secs=()
suite_t0=$(now_ms)
test_begin() {
	test_t0=$(now_ms)
}
result() { # result OK|FAIL NAME
	t=$((t + 1))
	tap_names+=("$2")
	tap_states+=("$1")
	tap_notes+=("$pending_notes")
	tap_failures+=("$pending_failure")
	tap_excerpts+=("$pending_excerpt")
	tap_secs+=("$(since "${test_t0:-$(now_ms)}")")
	pending_notes='' pending_failure='' pending_excerpt='' test_t0=$(now_ms)
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
# flag TEXT: a note that says what went wrong; the first one of a test is its
# JUnit failure message.
pending_failure='' pending_excerpt=''
# excerpt FILE: the end of a log, for the JUnit failure text (not printed).
excerpt() {
	local line
	[ -r "$1" ] || return 0
	while IFS= read -r line; do
		if [ -n "${scenario_child:-}" ]; then
			printf '#~ %s\n' "$line"
		else
			pending_excerpt+="$line"$'\n'
		fi
	done < <(tail -n 30 "$1" | tr -d '\r')
}
flag() {
	if [ -n "${scenario_child:-}" ]; then
		# a job of run_scenarios: marked, for scenario_replay
		printf '#! %s\n' "$*"
	else
		note "$@"
	fi
	[ -n "$pending_failure" ] || pending_failure="$*"
}
# check_line OK-or-not NAME: result() from a status.
check_result() {
	if [ "$1" -eq 0 ]; then result OK "$2"; else result FAIL "$2"; fi
}

xml_escape() {
	sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g' <<<"$1" | tr -d '\000-\010\013\014\016-\037'
}

# junit_write FILE SUITE: the results so far as JUnit XML, for CI dashboards:
# each testcase with its time, a failing one with a failure element whose
# message is the first thing flagged and whose text is all its notes.
junit_write() {
	local file=$1 suite class i msg text
	suite=$(xml_escape "$2")
	# a class name without dots: dashboards split a dotted one into packages
	class=$(tr -c 'A-Za-z0-9_\n-' '_' <<<"$2")
	{
		printf '<?xml version="1.0" encoding="UTF-8"?>\n'
		printf '<testsuite name="%s" tests="%d" failures="%d" errors="0" skipped="0" time="%s" timestamp="%s" hostname="%s">\n' \
			"$suite" "$t" "$failed" "$(since "$suite_t0")" "$(date -u +%Y-%m-%dT%H:%M:%S)" "$(xml_escape "$(hostname)")"
		for i in "${!tap_names[@]}"; do
			printf '  <testcase classname="%s" name="%s" time="%s">\n' "$class" \
				"$(xml_escape "${tap_names[i]}")" "${tap_secs[i]}"
			if [ "${tap_states[i]}" != OK ]; then
				msg=${tap_failures[i]:-${tap_names[i]} failed}
				text=${tap_notes[i]}
				[ -z "${tap_excerpts[i]}" ] || text+=$'\n--- the console, last lines ---\n'${tap_excerpts[i]}
				printf '    <failure message="%s" type="scenario">%s</failure>\n' "$(xml_escape "$msg")" \
					"$(xml_escape "$text")"
			fi
			printf '    <system-out>%s</system-out>\n  </testcase>\n' "$(xml_escape "${tap_notes[i]}")"
		done
		printf '</testsuite>\n'
	} | ol_write_atomic "$file" || die "cannot write $file"
}

# tap_end: the plan line and the summary; fails when a test failed.
tap_end() {
	printf '1..%d\n' "$t"
	printf '%d passed, %d failed\n' "$passed" "$failed"
	[ "$failed" -eq 0 ]
}

# --- setup --------------------------------------------------------------------------
# scenario_setup: the kernels, the guest and capture initramfs images, the host
# build of the recorder and of the crash extension.  A caller that brings its
# own kernel sets limits_dir (and baseline_dir, or leaves it empty) first;
# OOPSLIMIT_VARIANTS=limits builds only the limits kernel.
scenario_setup() {
	"$OOPSLIMIT_TOP/scripts/deps.sh"
	if [ -z "${limits_dir:-}" ]; then
		local kernels variants
		read -r -a variants <<<"${OOPSLIMIT_VARIANTS:-limits baseline}"
		kernels=$("$OOPSLIMIT_TOP/scripts/build-kernel.sh" "${variants[@]}") || die "building the kernels failed"
		limits_dir=$(sed -n 1p <<<"$kernels")
		baseline_dir=$(sed -n 2p <<<"$kernels")
	fi
	initrd=$("$OOPSLIMIT_TOP/scripts/guest-initramfs.sh")
	# Whether KVM works takes a boot to find out: ask while dracut builds.
	local probe_dir probe
	probe_dir=$(mktemp -d)
	"$OOPSLIMIT_TOP/scripts/qemu-run.sh" -P -k "$limits_dir/bzImage" -i "$initrd" -d "$probe_dir" >/dev/null &
	probe=$!
	capture_initrd=$("$OOPSLIMIT_TOP/scripts/capture-initramfs.sh" "$(cat "$limits_dir/kernelrelease")")
	wait "$probe" || die "the KVM probe failed"
	rm -rf "$probe_dir"
	scratch=$(mktemp -d)
	# shellcheck disable=SC2064  # expand now: $scratch is set
	trap "rm -rf '$scratch'" EXIT
	make -s -C "$OOPSLIMIT_TOP/kdump" O="$scratch" >/dev/null || die "building the recorder (recorder/) failed"
	reason_bin=$scratch/oopslimit-reason
	mkdir -p "$scratch/ext"
	make -s -C "$OOPSLIMIT_TOP/crash-ext" >/dev/null || die "building the crash extension failed"
	cp "$OOPSLIMIT_TOP/crash-ext/oopslimit.so" "$scratch/ext/"
	crash_ext=$scratch/ext
}

# --- the boot ---------------------------------------------------------------------
# A run directory's stamp: what made it.  A dump whose stamp differs is stale.
run_stamp() { # run_stamp SCENARIO-FILE KERNEL-DIR
	{
		cat "$1" "$OOPSLIMIT_TOP/scripts/qemu-run.sh"
		printf '%s\n' "$2" "$initrd" "$capture_initrd"
	} | sha256sum | cut -c1-16
}

# The dump directories a kdump run left, one a line.  A 9p target is the run
# directory itself; an ext4 disk is copied out with debugfs first.
dump_dirs() {
	local dir=$1 root path
	path=$(cat "$dir/kdump-path" 2>/dev/null || echo /dumps)
	if [ -e "$dir/debian" ]; then
		# debian_guest_run copied /var/crash out of the guest's disk
		root=$dir/dumps
	elif [ -e "$dir/disk.img" ]; then
		rm -rf "$dir/disk"
		mkdir -p "$dir/disk"
		debugfs -R "rdump $path $dir/disk" "$dir/disk.img" >/dev/null 2>&1 || true
		root=$dir/disk/${path##*/}
	else
		root=$dir$path
	fi
	# (a dump disk made by mkfs.ext4 holds lost+found at its top)
	find "$root" -mindepth 1 -maxdepth 1 -type d ! -name lost+found 2>/dev/null | sort
}

# The dump server's plan for a "server" line: serve, then wait for a dump.
server_plan() {
	case $1 in
	ssh) echo "serve ssh" ;;
	nfs) echo "serve nfs /var/crash" ;;
	esac
	echo "await served /var/crash $2"
	# up for "last" after this guest's reboot, until it says it is done
	echo "idle $2"
}

# server_start DIR KIND: the dump server guest in the background (sets
# server_pid) and this guest's side of the wire (debian_net, debian_fw).
server_start() {
	local dir=$1 kind=$2
	rm -rf "$dir/server" "$dir/admin" "$dir/admin.pub"
	mkdir -p "$dir/server"
	ssh-keygen -q -t ed25519 -N '' -C oopslimit-test-admin -f "$dir/admin" </dev/null ||
		die "ssh-keygen could not make the test's key"
	debian_net="$dir/wire.sock $dir/server/wire.sock 52:54:00:0c:00:02 192.0.2.2/24"
	debian_fw=("adminkey=$dir/admin")
	server_pid=''
	[ "$kind" != none ] || return 0
	echo 192.0.2.1 >"$dir/server.addr"
	debian_fw+=("server=$dir/server.addr")
	server_plan "$kind" "$debian_timeout" >"$dir/server.plan"
	(
		# shellcheck disable=SC2034  # debian_guest_run's settings
		debian_disks=() debian_append='' debian_crashkernel='' debian_timeout=$((debian_timeout + 120))
		debian_net="$dir/server/wire.sock $dir/wire.sock 52:54:00:0c:00:01 192.0.2.1/24"
		debian_fw=("authorized_keys=$dir/admin.pub")
		debian_guest_run "$dir/server" "$dir/server.plan"
	) >"$dir/server.log" 2>&1 &
	server_pid=$!
}

# server_end DIR: waits for the dump server to power off (this guest told it
# it was done; stopped if it is still up 2 minutes later) and takes its dump
# directories, its records and its errors as this guest's.
server_end() {
	local dir=$1 i=0
	[ -n "${server_pid:-}" ] || return 0
	while kill -0 "$server_pid" 2>/dev/null && [ $i -lt 120 ]; do
		sleep 1
		i=$((i + 1))
	done
	if kill -0 "$server_pid" 2>/dev/null; then
		note "$name: the dump server did not power off within 2 minutes: stopped"
		pkill -TERM -P "$server_pid" 2>/dev/null
	fi
	wait "$server_pid" 2>/dev/null || true
	note "$name: the dump server: $(grep -E '^(record (serve|served)|error)' "$dir/server/results" 2>/dev/null | tr '\n' ';')"
	# its errors are the run's, its records "server.NAME"
	sed -n 's/^error /error the dump server: /p; s/^record /record server./p' "$dir/server/results" >>"$dir/results" 2>/dev/null
	if [ -d "$dir/server/dumps" ]; then
		mkdir -p "$dir/dumps"
		cp -a "$dir/server/dumps/." "$dir/dumps/"
	fi
}

# boot_debian FILE DIR: the Debian guest, as the scenario says; sets rc.
boot_debian() {
	local f=$1 dir=$2 key rest t0 arg server='' server_pid=''
	local debian_crashkernel='' debian_append='' debian_mem=1G debian_timeout=900 debian_disks=()
	local debian_net='' debian_fw=()
	: >"$dir/steps"
	: >"$dir/kdump.add"
	while read -r key rest; do
		case $key in
		append)
			for arg in $rest; do
				case $arg in
				crashkernel=*) debian_crashkernel=${arg#crashkernel=} ;;
				*) debian_append="$debian_append $arg" ;;
				esac
			done ;;
		timeout) debian_timeout=$rest ;;
		memory) debian_mem=$rest ;;
		disk) debian_disks+=("$rest") ;;
		server) server=$rest ;;
		step) printf '%s\n' "$rest" >>"$dir/steps" ;;
		kdump) printf '%s\n' "$rest" >>"$dir/kdump.add" ;;
		esac
	done <"$f"
	debian_append=${debian_append# }
	local debian_image=${debian_images[$(release_of "$f")]}
	: >"$dir/debian"
	t0=$(now_ms)
	[ -z "$server" ] || server_start "$dir" "$server"
	rc=0
	debian_guest_run "$dir" "$dir/steps" "$dir/kdump.add" || rc=$?
	note "$name: QEMU ran $(since "$t0") s (the Debian guest, every boot), status $rc; console: $dir/console.log"
	server_end "$dir"
}

# boot_scenario FILE DIR: boots the guest as the scenario says; sets rc.
boot_scenario() {
	local f=$1 dir=$2 key rest append='' limit=120 mem=512M disk='' dump='' kdump=() t0
	if grep -q '^guest[[:space:]]\{1,\}debian' "$f"; then
		boot_debian "$f" "$dir"
		return
	fi
	while read -r key rest; do
		case $key in
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
		ol_conf_get "$dir/kdump.conf" path >"$dir/kdump-path"
	fi
	# a modular kernel's modules, as a second initramfs part
	local guest_initrd=$initrd
	if [ -e "$kernel_dir/guest-modules.cpio.gz" ]; then
		guest_initrd=$dir/initrd.img
		cat "$initrd" "$kernel_dir/guest-modules.cpio.gz" >"$guest_initrd"
	fi
	t0=$(now_ms)
	# qemu_fw_cfg.ioport: without ACPI the fw_cfg driver binds only when
	# told, and only then can QEMU put the VMCOREINFO note in its dumps.
	# no_timer_check: on a busy host TCG can be too slow for the IO-APIC
	# timer check, which then panics at boot ("IO-APIC + timer doesn't
	# work!"); the capture kernel inherits both.
	"$OOPSLIMIT_TOP/scripts/qemu-run.sh" -k "$kernel_dir/bzImage" -i "$guest_initrd" -d "$dir" \
		-a "qemu_fw_cfg.ioport=12@0x510:0:1:4 no_timer_check$append" -t "$limit" -m "$mem" ${dump:+-D "$dump"} \
		${disk:+-b "$dir/disk.img"} &
	# a caller may follow the run as it goes (scripts/main.sh does)
	if declare -F scenario_watch >/dev/null; then
		scenario_watch "$dir" $!
	fi
	rc=0
	wait $! || rc=$?
	note "$name: QEMU ran $(since "$t0") s, status $rc; console: $dir/console.log"
}

# check_boot FILE DIR: the expectations on the guest's results and console.
check_boot() {
	local f=$1 dir=$2 bad=0 key what arg1 argrest line panic_line n release
	release=$(cat "$kernel_dir/kernelrelease" 2>/dev/null || true)
	if ! grep -q '^booted ' "$dir/results" 2>/dev/null; then
		flag "$name: the guest never reported (no 'booted' line in $dir/results)"
		bad=1
	fi
	sed -n 's/^trigger /trigger: /p; s/^error /guest error: /p' "$dir/results" 2>/dev/null | sed "s/^/# $name: /"
	grep -q '^error ' "$dir/results" 2>/dev/null && bad=1
	[ "$rc" -eq 0 ] || bad=1
	panic_line=$(grep -a -m1 -o 'Kernel panic - not syncing: .*' "$dir/console.log" | tr -d '\r' || true)
	want_dumps=$(sed -n 's/^expect[[:space:]]\{1,\}dumps[[:space:]]\{1,\}\([0-9]*\)$/\1/p' "$f")
	while read -r key what arg1 argrest; do
		[ "$key" = expect ] || continue
		arg1=${arg1//\{release\}/$release} argrest=${argrest//\{release\}/$release}
		case $what in
		record)
			line="record $arg1 $argrest"
			grep -qxF "$line" "$dir/results" 2>/dev/null ||
				{ flag "$name: expected '$line', guest said: $(grep "^record $arg1 " "$dir/results" 2>/dev/null | tr '\n' ';')"; bad=1; } ;;
		line)
			line="$arg1${argrest:+ $argrest}"
			grep -qF -- "$line" "$dir/results" 2>/dev/null ||
				{ flag "$name: no line of the results contains '$line'"; bad=1; } ;;
		panic)
			line="Kernel panic - not syncing: $arg1${argrest:+ $argrest}"
			[ "$panic_line" = "$line" ] ||
				{ flag "$name: expected '$line', got '${panic_line:-no panic}'"; bad=1; } ;;
		survived)
			{ grep -qx finished "$dir/results" 2>/dev/null && [ -z "$panic_line" ]; } ||
				{ flag "$name: expected to survive; panic: '${panic_line:-none}'"; bad=1; } ;;
		count)
			n=$(grep -acF -- "$argrest" "$dir/console.log" || true)
			[ "$n" -eq "$arg1" ] ||
				{ flag "$name: expected $arg1 console lines with '$argrest', saw $n"; bad=1; } ;;
		capture)
			check_capture "$dir" "$arg1" || bad=1 ;;
		esac
	done <"$f"
	check_kdump_steps "$f" "$dir" || bad=1
	[ -z "$panic_line" ] || note "$name: $panic_line"
	return $bad
}

# kdump steps: each as its "expect kdump" line says, or successful.
check_kdump_steps() {
	local f=$1 dir=$2 got want rc_text st bad=0
	while IFS= read -r got; do
		want=$(sed -n "s/^expect[[:space:]]\{1,\}kdump \(.*\)/\1/p" "$f" | while IFS= read -r w; do
			[ "${got%% => *}" = "${w%% => *}" ] && printf '%s\n' "$w"
		done | head -n 1)
		if [ -z "$want" ]; then
			[[ ${got#* => } == 0\ * ]] || { flag "$name: kdump ${got}"; bad=1; }
			continue
		fi
		rc_text=${want#* => } st=${want#* => }
		st=${st%% *}
		[ "$rc_text" = "$st" ] && rc_text='' || rc_text=${rc_text#* }
		if [[ ${got#* => } == "$st "* ]] && [[ ${got#* => } == *"$rc_text"* ]]; then
			note "$name: kdump ${got}"
		else
			flag "$name: expected 'kdump $want', got 'kdump $got'"
			bad=1
		fi
	done < <(sed -n 's/^kdump //p' "$dir/results" 2>/dev/null)
	return $bad
}

# check_capture DIR STATUS: the files a capture that ended in STATUS leaves;
# sets the_dump and reports[capture].
check_capture() {
	local dir=$1 want=$2 dumps d ok=0 f
	dumps=$(dump_dirs "$dir")
	if [ "$want" = unmounted ]; then
		[ -z "$dumps" ] || { flag "a dump directory exists: $dumps"; ok=1; }
		sed -n 's/^oopslimit-reason: //p' "$dir/console.log" | tr -d '\r' >"$dir/console-reason.json"
		jq -e . "$dir/console-reason.json" >/dev/null 2>&1 || { flag "no reason.json on the console"; return 1; }
		reports[capture]=$dir/console-reason.json
		return $ok
	fi
	if [ "$(grep -c . <<<"$dumps")" -ne "${want_dumps:-1}" ]; then
		flag "expected ${want_dumps:-one} dump director$([ "${want_dumps:-1}" = 1 ] && echo y || echo ies), found: ${dumps:-none}"
		return 1
	fi
	d=$(tail -n 1 <<<"$dumps")
	reports[capture]=$d/reason.json
	note "dump directory: $d ($(cd "$d" && echo *))"
	for f in vmcore-dmesg.txt reason.json reason.txt; do
		[ -s "$d/$f" ] || { flag "no $f"; ok=1; }
	done
	if [ "$want" = complete ]; then
		[ ! -e "$d/vmcore-incomplete" ] || { flag "vmcore-incomplete left behind"; ok=1; }
		[ -s "$d/makedumpfile.log" ] || { flag "no makedumpfile.log"; ok=1; }
		if [ "$(head -c 8 "$d/vmcore" 2>/dev/null)" != "KDUMP   " ]; then
			flag "vmcore is not a kdump-compressed dump"
			ok=1
		elif [ "$(jq -r .capture.dump_bytes "$d/reason.json" 2>/dev/null)" != "$(stat -c %s "$d/vmcore")" ]; then
			flag "reason.json's dump_bytes differs from the vmcore's size"
			ok=1
		else
			note "vmcore: $(stat -c %s "$d/vmcore") bytes, saved in $(jq -r .capture.seconds "$d/reason.json") s"
			the_dump=$d/vmcore
		fi
	elif [ "$want" = refused ]; then
		# refused before makedumpfile ran (no room, no quota): the log and
		# the report, no dump of either kind, nothing for the other readers
		[ ! -e "$d/vmcore" ] || { flag "a vmcore exists after a refused capture"; ok=1; }
		[ ! -e "$d/vmcore-incomplete" ] || { flag "a vmcore-incomplete exists after a refused capture"; ok=1; }
	else
		[ ! -e "$d/vmcore" ] || { flag "a vmcore exists after a failed capture"; ok=1; }
		[ -e "$d/vmcore-incomplete" ] || { flag "no vmcore-incomplete"; ok=1; }
		the_dump=$d/vmcore-incomplete
	fi
	return $ok
}

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
	printf '%s\n' "oopslimit > $out/text" "oopslimit -j > $out/json" "oopslimit -v > $out/verbose" \
		"sys > $out/sys" "help oopslimit > $out/help" "eval 6*7 > $out/alive" q >"$out/cmd"
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
			"help oopslimit > $out/help" "eval 6*7 > $out/alive" q >"$out/cmd"
		mv "$out/log" "$out/log.full"
		rc=0
		# shellcheck disable=SC2086 # crash's arguments are words
		"${in_root[@]}" env CRASH_EXTENSIONS=$ext crash --minimal -s -x ${args:---kaslr auto} "$read_vmlinux" \
			"$read_dump" -i "$out/cmd" </dev/null >"$out/log" 2>&1 || rc=$?
	fi
	touch "$out/text" "$out/json" "$out/sys" "$out/alive" "$out/verbose"
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
	if LC_ALL=C grep -q '[^[:print:]]' "$out/text" "$out/verbose" "$out/json"; then
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
	local f=$1 bad=0 key what arg1 argrest who got want
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
			if { [ "$arg1" = yes ] && [ "$got" = 0 ]; } || { [ "$arg1" = no ] && [ "$got" != 0 ]; } || [ "$got" = '?' ]; then
				flag "$name: expected kaslr $arg1, drgn's KASLR offset is $got"
				bad=1
			fi ;;
		vmcoreinfo)
			check_vmcoreinfo || bad=1 ;;
		esac
	done <"$f"
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

# --- one scenario ---------------------------------------------------------------------
# Where the runs live: a directory per scenario, NAME under it.  A verifier
# run keeps its own (scripts/verify.sh), so that it and make test can run at
# the same time without one removing the other's run.
scenario_runs=${scenario_runs:-$OOPSLIMIT_CACHE/runs}

# kernel_dir_of FILE: the directory of the kernel the scenario boots, with
# its vmlinux (for the Debian guest: the stock kernel's, from its -dbg
# package; need_debian first).
kernel_dir_of() {
	local k
	k=$(sed -n 's/^kernel[[:space:]]*//p' "$1")
	case $k in
	baseline) printf '%s\n' "$baseline_dir" ;;
	debian:*) printf '%s\n' "${debian_kernels[${k#debian:}]}" ;;
	stock) printf '%s\n' "${debian_images[$(release_of "$1")]}/stock" ;;
	*) printf '%s\n' "$limits_dir" ;;
	esac
}

# releases_of FILE: the Debian guest's releases the scenario holds on
# (bookworm when it names none); release_of FILE: the one it boots,
# debian_release when that is one of them (verify.sh -d), else the first.
releases_of() {
	sed -n 's/^release[[:space:]]\{1,\}//p' "$1" | tail -n 1 | grep . || echo bookworm
}
release_of() {
	local r
	for r in $(releases_of "$1"); do
		[ "$r" != "${debian_release:-}" ] || { printf '%s\n' "$r"; return 0; }
	done
	releases_of "$1" | cut -d' ' -f1
}

# reader_release FILE: the Debian release whose crash and drgn read the
# scenario's dumps in that release's reader root (scripts/reader-root.sh),
# or nothing: this machine's own readers.  A Debian guest of a release other
# than this machine's is read by its own release's tools, as its users
# would; a crash older than the kernel cannot open its dumps.
reader_release() {
	local r
	grep -q '^guest[[:space:]]\{1,\}debian' "$1" || return 0
	r=$(release_of "$1")
	[ "$(suite_field "$r" sources)" = host ] || printf '%s\n' "$r"
}

# need_debian FILE: builds (or finds) the Debian guest image of the
# scenario's release the first time a scenario boots it, and that
# release's reader root when its dumps need one.
declare -A reader_roots=()
need_debian() {
	local k g='' r
	r=$(release_of "$1")
	if grep -q '^guest[[:space:]]\{1,\}debian' "$1" && [ -z "${debian_images[$r]:-}" ]; then
		debian_guest_setup "$r" >&2
	fi
	r=$(reader_release "$1")
	if [ -n "$r" ] && [ -z "${reader_roots[$r]:-}" ]; then
		reader_roots[$r]=$("$OOPSLIMIT_TOP/scripts/reader-root.sh" "$r") || die "cannot make $r's reader root"
	fi
	# a release's stock kernel, fetched once (with its vmlinux when asked)
	k=$(sed -n 's/^kernel[[:space:]]*debian://p' "$1")
	[ -n "$k" ] || return 0
	grep -q '^vmlinux[[:space:]]\{1,\}debug' "$1" && g=-g
	if [ -z "${debian_kernels[$k]:-}" ] || { [ -n "$g" ] && [ ! -e "${debian_kernels[$k]}/vmlinux" ]; }; then
		debian_kernels[$k]=$("$OOPSLIMIT_TOP/scripts/debian-kernel.sh" $g "$k") ||
			die "cannot fetch $k's kernel"
	fi
}
declare -A debian_kernels=()

# debian_prefetch LOG FILE...: starts, in the background, need_debian for
# each scenario: the Debian guest images, reader roots and Debian kernels
# they need, made while this shell goes on (the kernel builds: downloads,
# dpkg and a TCG boot leave a core free).  The scripts lock what they build,
# so a need_debian here later waits for that build and finds it; a failure
# in the background is only logged to LOG, for need_debian to meet again
# and report.  Sets prefetch_pid.
debian_prefetch() {
	local log=$1
	shift
	(
		t0=$(now_ms)
		for f in "$@"; do need_debian "$f" >/dev/null || exit 1; done
		printf 'prefetch done in %s s\n' "$(since "$t0")"
	) >"$log" 2>&1 </dev/null &
	# shellcheck disable=SC2034  # tests/run.sh waits for it
	prefetch_pid=$!
}

# ensure_dump NAME: the run directory of scenario NAME with an up-to-date
# dump, booting it (as a test of its own) when there is none.
declare -A ran_here=()
ensure_dump() {
	local src=$1 sf dir kd
	sf=$(scenario_path "$src")
	dir=$scenario_runs/$src
	need_debian "$sf"
	kd=$(kernel_dir_of "$sf")
	if [ -z "${ran_here[$src]:-}" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" != "$(run_stamp "$sf" "$kd")" ]; then
		note "$src: its dump is missing or stale: running it first"
		run_scenario "$sf"
	fi
	source_dir=$dir
	kernel_dir=$kd
}

run_scenario() {
	local f=$1 name bad=0 src
	local -A reports=()
	local the_dump='' read_dump='' read_vmlinux='' crash_rc='' source_dir='' kernel_dir='' rc=0
	name=$(basename "$f" .scn)
	run_dir=$scenario_runs/$name
	test_begin
	src=$(sed -n 's/^dump-of[[:space:]]\{1,\}//p' "$f")
	if [ -n "$src" ]; then
		ensure_dump "$src"
		name=$(basename "$f" .scn)
		run_dir=$scenario_runs/$name
		rm -rf "$run_dir"
		mkdir -p "$run_dir"
		note "$name: $(sed -n 's/^about //p' "$f")"
		note "$name: reading the dump of $src"
		local cap
		cap=$(dump_dirs "$source_dir" | head -n 1)
		if [ -n "$cap" ] && [ -e "$cap/vmcore" ]; then
			the_dump=$cap/vmcore
		elif [ -e "$source_dir/dump.elf" ]; then
			the_dump=$source_dir/dump.elf
		else
			flag "$name: $src left no dump"
			bad=1
		fi
	else
		need_debian "$f"
		kernel_dir=$(kernel_dir_of "$f")
		rm -rf "$run_dir"
		mkdir -p "$run_dir"
		source_dir=$run_dir
		note "$name: $(sed -n 's/^about //p' "$f")"
		boot_scenario "$f" "$run_dir"
		check_boot "$f" "$run_dir" || bad=1
		[ -n "$the_dump" ] || [ ! -s "$run_dir/dump.elf" ] || the_dump=$run_dir/dump.elf
		[ "$rc" -ne 0 ] || run_stamp "$f" "$kernel_dir" >"$run_dir/stamp"
		ran_here[$name]=1
	fi
	if declare -F scenario_reading >/dev/null; then
		scenario_reading "$run_dir"
	fi
	if [ -n "$the_dump" ]; then
		read_with_all "$f" || bad=1
	elif grep -Eq '^expect[[:space:]]+(crash|text|textin|sys|refused|kaslr)[[:space:]]' "$f"; then
		flag "$name: no dump for crash to read"
		bad=1
	fi
	judge_reports "$f" || bad=1
	check_reports "$f" || bad=1
	[ $bad -eq 0 ] || excerpt "$run_dir/console.log"
	if [ $bad -eq 0 ]; then result OK "scenario $name"; else result FAIL "scenario $name"; fi
}

# run_scenarios FILE...: runs the scenarios, OOPSLIMIT_JOBS of them at a time
# (default: one a core; each TCG guest keeps one core busy), those that read
# another's dump after the others, and reports each as run_scenario would.
# Those that boot the project's kernels start first; each other one waits
# for its Debian guest image, reader root or kernel (need_debian) when its
# turn comes, while the scenarios before it run.
run_scenarios() {
	local jobs=${OOPSLIMIT_JOBS:-$(nproc)} f out i n=0 phase files=() pids=() running p
	[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "OOPSLIMIT_JOBS must be a number, not '$jobs'"
	out=$(mktemp -d)
	# (the project's kernels first: they need nothing more, and boot while
	# the Debian images, roots and kernels are still being made)
	for phase in boot dump-of; do
		files=()
		for f in "$@"; do
			if grep -q '^dump-of[[:space:]]' "$f"; then
				[ "$phase" = dump-of ] && files+=("$f")
			elif [ "$phase" = boot ] && ! grep -Eq '^(guest[[:space:]]+debian|kernel[[:space:]]+debian:)' "$f"; then
				files+=("$f")
			fi
		done
		if [ "$phase" = boot ]; then
			for f in "$@"; do
				grep -q '^dump-of[[:space:]]' "$f" ||
					! grep -Eq '^(guest[[:space:]]+debian|kernel[[:space:]]+debian:)' "$f" || files+=("$f")
			done
		fi
		pids=()
		for i in "${!files[@]}"; do
			# a free slot: wait for one of these scenarios to end (the
			# caller's other background work, tests/run.sh's per-patch
			# builds, takes no slot and is not waited for)
			while running=$(scenario_jobs "${pids[@]}") && [ "$(wc -w <<<"$running")" -ge "$jobs" ]; do
				# shellcheck disable=SC2086  # the pids, one a word
				wait -n $running || true
			done
			# what it needs, made here (the jobs inherit it) while the
			# others run
			need_debian "${files[i]}"
			(
				t0=$(now_ms)
				scenario_child=1
				run_scenario "${files[i]}" >"$out/$((n + i)).tap" 2>&1 || true
				printf '%s\n' $(($(now_ms) - t0)) >"$out/$((n + i)).ms"
			) &
			pids+=($!)
		done
		for p in $(scenario_jobs "${pids[@]}"); do wait "$p" || true; done
		# the results, in order, through this shell's result() and note()
		for i in "${!files[@]}"; do
			scenario_replay "$out/$((n + i)).tap" "$(cat "$out/$((n + i)).ms" 2>/dev/null || echo 0)"
		done
		n=$((n + ${#files[@]}))
	done
	rm -rf "$out"
}

# scenario_jobs PID...: those of the PIDs still running, on one line.
scenario_jobs() {
	local p live=()
	for p in "$@"; do
		! kill -0 "$p" 2>/dev/null || live+=("$p")
	done
	printf '%s\n' "${live[*]}"
}

# scenario_replay FILE MS: one job's output as this shell's notes and results
# (a job's own numbering replaced by this shell's); MS is how long it ran.
scenario_replay() {
	local line state
	while IFS= read -r line; do
		case $line in
		'ok '* | 'not ok '*)
			[[ $line == ok* ]] && state=OK || state=FAIL
			test_t0=$(($(now_ms) - $2))
			result "$state" "${line#* - }" ;;
		'#! '*) flag "${line#\#! }" ;;
		'#~ '*) pending_excerpt+="${line#\#~ }"$'\n' ;;
		'# '*) note "${line#\# }" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <"$1"
}
