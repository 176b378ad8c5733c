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
#   arch NAME             the machine a kernel debian:SUITE boots on, a row of
#                         scripts/arches (default x86_64): arm64 is
#                         Debian's arm64 kernel under qemu-system-aarch64
#                         (TCG), arm64-lpa2 the same on a CPU with 52-bit
#                         VA, arm64-16k its 16k-page flavour; its trigger
#                         steps go to the test module (scripts/test-module.sh,
#                         loaded at boot: taints O and E), and crash and drgn
#                         do not read its dumps (this machine's cannot)
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
#   server ssh|ssh-stall|nfs|none
#                         the Debian guest: a second Debian guest, the dump
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
#                         ssh-stall: ssh, but once a dump's stream begins the
#                         server stops reading it (its writer stopped:
#                         "record server.stalled STAMP stopped"), a server
#                         that hangs mid-transfer, and waits for no dump.
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
#   expect kaslr yes|no   the kernel ran relocated (drgn's offset is not 0;
#                         0 passes, noted, only where the kernel printed
#                         "Kernel Offset: 0x0": KASLR drew its linked slot);
#                         drgn's offset is always the one the kernel printed
#   expect vmcoreinfo     the dump's VMCOREINFO has the SYMBOL() lines of
#                         patches/oopslimit/ at System.map + the KASLR offset
#   expect walks          the readers walk the dump's memory and meet no page
#                         left out that they need: crash's "kmem -s" and
#                         "foreach bt" (where crash opens the dump whole),
#                         drgn's slab walk (every slab read back, its tail
#                         pages with it) and task walk (tests/drgn-walks.py)
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
# The harness's two other parts: the guests it boots and the readers it
# runs on their dumps.
# shellcheck source=../scripts/scenario-guest.sh
. "$OOPSLIMIT_TOP/scripts/scenario-guest.sh"
# shellcheck source=../scripts/scenario-readers.sh
. "$OOPSLIMIT_TOP/scripts/scenario-readers.sh"

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
		arch)
			arch_field "$rest" arch >/dev/null
			[ -n "$debian_kernel" ] || [ "$rest" = x86_64 ] ||
				die "$f:$n: arch $rest boots a Debian kernel: kernel debian:SUITE" ;;
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
			case $rest in ssh | ssh-stall | nfs | none) ;; *) die "$f:$n: server is ssh, ssh-stall, nfs or none, not '$rest'" ;; esac ;;
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
			record | panic | survived | count | vmcoreinfo | sys | refused | walks) ;;
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
	debian:*) printf '%s\n' "${debian_kernels[${k#debian:}/$(arch_of "$1")]}" ;;
	stock) printf '%s\n' "${debian_images[$(release_of "$1")]}/stock" ;;
	*) printf '%s\n' "$limits_dir" ;;
	esac
}

# arch_of FILE: the machine the scenario boots on (scripts/arches).
arch_of() {
	sed -n 's/^arch[[:space:]]\{1,\}//p' "$1" | tail -n 1 | grep . || echo x86_64
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
	local k g='' r a
	r=$(release_of "$1")
	if grep -q '^guest[[:space:]]\{1,\}debian' "$1" && [ -z "${debian_images[$r]:-}" ]; then
		debian_guest_setup "$r" >&2
	fi
	r=$(reader_release "$1")
	if [ -n "$r" ] && [ -z "${reader_roots[$r]:-}" ]; then
		reader_roots[$r]=$("$OOPSLIMIT_TOP/scripts/reader-root.sh" "$r") || die "cannot make $r's reader root"
	fi
	# a release's stock kernel, fetched once (with its vmlinux when asked),
	# for its machine; another machine's guest initramfs and test module
	k=$(sed -n 's/^kernel[[:space:]]*debian://p' "$1")
	[ -n "$k" ] || return 0
	a=$(arch_of "$1")
	grep -q '^vmlinux[[:space:]]\{1,\}debug' "$1" && g=-g
	if [ -z "${debian_kernels[$k/$a]:-}" ] || { [ -n "$g" ] && [ ! -e "${debian_kernels[$k/$a]}/vmlinux" ]; }; then
		debian_kernels[$k/$a]=$("$OOPSLIMIT_TOP/scripts/debian-kernel.sh" $g -a "$a" "$k") ||
			die "cannot fetch $k's kernel for $a"
	fi
	[ "$a" != x86_64 ] || return 0
	if [ -z "${guest_initrds[$a]:-}" ]; then
		guest_initrds[$a]=$("$OOPSLIMIT_TOP/scripts/guest-initramfs.sh" -a "$a") ||
			die "cannot make the $a guest's initramfs"
	fi
	# the test module, for trigger steps (module_of)
	if grep -q '^step[[:space:]]\{1,\}trigger[[:space:]]' "$1" && [ -z "${test_modules[$k/$a]:-}" ]; then
		test_modules[$k/$a]=$("$OOPSLIMIT_TOP/scripts/test-module.sh" "${debian_kernels[$k/$a]}") ||
			die "cannot build the test module for $k's $a kernel"
	fi
}
declare -A debian_kernels=() guest_initrds=() test_modules=()

# initrd_of FILE: the guest initramfs the scenario boots (its machine's).
initrd_of() {
	local a
	a=$(arch_of "$1")
	if [ "$a" = x86_64 ]; then printf '%s\n' "$initrd"; else printf '%s\n' "${guest_initrds[$a]}"; fi
}

# module_of FILE: the test module a scenario of another machine loads for
# its trigger steps, or nothing.
module_of() {
	local k
	grep -q '^step[[:space:]]\{1,\}trigger[[:space:]]' "$1" || return 0
	k=$(sed -n 's/^kernel[[:space:]]*debian://p' "$1")
	printf '%s\n' "${test_modules[$k/$(arch_of "$1")]:-}"
}

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
			scenario_replay "$out/$((n + i)).tap" "$(cat "$out/$((n + i)).ms" 2>/dev/null || echo 0)" \
				"$(basename "${files[i]}" .scn)"
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

# scenario_replay FILE MS NAME: one job's output as this shell's notes and
# results (a job's own numbering replaced by this shell's); MS is how long it
# ran.  A job that ended without a result (its shell stopped on an error) is
# the scenario's failure, never a scenario that silently is not counted.
scenario_replay() {
	local line state last='' results=0
	while IFS= read -r line; do
		[ -z "$line" ] || last=$line
		case $line in
		'ok '* | 'not ok '*)
			[[ $line == ok* ]] && state=OK || state=FAIL
			test_t0=$(($(now_ms) - $2))
			results=$((results + 1))
			result "$state" "${line#* - }" ;;
		'#! '*) flag "${line#\#! }" ;;
		'#~ '*) pending_excerpt+="${line#\#~ }"$'\n' ;;
		'# '*) note "${line#\# }" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <"$1"
	if [ "$results" -eq 0 ]; then
		flag "$3: the scenario's job ended without a result; its last line: ${last:-none}"
		test_t0=$(($(now_ms) - $2))
		result FAIL "scenario $3"
	fi
}
