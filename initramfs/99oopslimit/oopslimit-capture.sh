#!/bin/sh
# oopslimit-capture: runs in the capture kernel.  Mounts the dump target,
# saves the kernel log, the dump and the reason the kernel panicked into
# <target><path>/<timestamp>/, then reboots (or powers off).
#
# Its settings come from the capture kernel's command line, where
# "oopslimit-kdump load" put them (see kdump/kdump.conf):
#   oopslimit.target=FSTYPE:SOURCE   oopslimit.mntopts=OPTIONS
#   oopslimit.path=/var/crash        oopslimit.collector=-l,-d,31
#   oopslimit.mount_wait=SECONDS     oopslimit.final=reboot|poweroff
#   oopslimit.fallback=DEVICE:OFFSET the fallback spot (below)
#   oopslimit.failure=reboot|poweroff|fallback   the failure action
#   oopslimit.failure_target=FSTYPE:SOURCE  oopslimit.failure_path=DIR
#                                    the fallback directory (below)
#   oopslimit.keep=N  oopslimit.min_free=BYTES   retention (below)
#   oopslimit.deadline=SECONDS       the whole capture's time limit (below)
# (path is the directory within the target, whatever the running system
# mounts it as: "/" for a disk mounted at /var/crash.)
#
# A capture that has not ended within oopslimit.deadline seconds (a dump
# server that stops reading mid-stream, a disk that hangs) is stopped, and
# the failure action taken, with "did not finish within its deadline" as the
# failure.
#
# When the target cannot be mounted, the dump directory cannot be made, or
# the dump cannot be saved on it (makedumpfile fails, less than min_free is
# free), the failure action is taken: reboot or poweroff at once (whatever
# final_action says), or "fallback": the whole capture again, into the
# fallback directory on a local disk, whose reason.json names the target's
# failure and "failure_action": "fallback"; final_action follows it.
#
# Retention, in the directory the dump goes to: before the dump, old
# incomplete dumps (no vmcore) go, oldest first, while there are keep or
# more dumps or less than min_free is free; then old complete dumps, oldest
# first, as many as it takes to free min_free, and none when all of them
# would not free it (the capture is then refused for room and keeps
# them).  Only once the new dump is
# complete do old complete dumps go to bring the count down to keep, so a
# failed capture never displaces a complete one.  reason.json's
# capture.removed names what went.
#
# Files in the dump directory:
#   vmcore-dmesg.txt    the kernel log
#   vmcore-incomplete   the dump while it is written, and after a failure
#   vmcore              the dump, once written completely and synced
#   reason.json         the machine-readable report, written first (so a
#                       failure is recorded) and completed at the end
#   reason.txt          the same, one screen for people
# When the target cannot be mounted, reason.json goes to the console, on
# lines starting "oopslimit-reason: ", and with what failed into the fallback
# spot: 64 KiB of a file on the target that "oopslimit-kdump load" set up
# (.oopslimit-fallback in the dump directory), written here through the
# block device at its offset, without the file system's driver, and only
# over the empty marker the loader left there.  The next boot's "last
# --boot" reads it.
# (SC2317: the save_KIND functions, and what only they call, run by name:
# save_target)
# shellcheck disable=SC2317
set -u
# the dump, the log (kernel addresses, register dumps) and the reports are
# root's alone: directories 0700, files 0600
umask 077

say() {
	echo "oopslimit-capture: $*" >/dev/console 2>/dev/null || echo "oopslimit-capture: $*"
}

# The settings' names and defaults (the config library) and the dump store
# (retention, atomic writes, requests to a dump server), which the dracut
# module installed in the image.
# shellcheck source=../../kdump/oopslimit-lib.sh
. /usr/lib/oopslimit/oopslimit-lib.sh
# shellcheck source=../../kdump/oopslimit-store.sh
. /usr/lib/oopslimit/oopslimit-store.sh
# makedumpfile's version for the report, its messages without the progress bar
# shellcheck source=../../kdump/oopslimit-makedumpfile.sh
. /usr/lib/oopslimit/oopslimit-makedumpfile.sh
md_version=$(ol_md_version)
# shellcheck disable=SC2046  # words, not lines: that is how the kernel splits it
ol_capture_parse $(cat /proc/cmdline)
target=$ol_target mntopts=$ol_mntopts path=$ol_path collector=$ol_collector
# what makedumpfile-pairs says of this makedumpfile on this kernel (the
# loader masked the dump level already where a row says so): the report's
# notes, a line each (oopslimit-makedumpfile.sh needs awk and paste: the
# image has them)
ol_md_guard /usr/lib/oopslimit/makedumpfile-pairs "$(cat /proc/sys/kernel/osrelease 2>/dev/null)" "$md_version" "$collector"
md_notes=$ol_md_lines
mount_wait=$ol_mount_wait final=$ol_final failure=$ol_failure
keep=$ol_keep min_free=$ol_min_free
# With a deadline the capture runs twice: this run only waits for its child
# (below, "the capture"), which loads the drivers and assembles the layers
# within the deadline, so that a layer that hangs is stopped too.
waiter=no
[ "${ol_deadline:-0}" = 0 ] || [ "${1:-}" = --within-deadline ] || waiter=yes
# Scratch files (the log before there is a directory for it, makedumpfile's
# messages): a directory of this run's own, never fixed names in /tmp.
work=$(mktemp -d /tmp/oopslimit-capture.XXXXXX) || work=''
[ -n "$work" ] || say "warning: no scratch directory in /tmp; makedumpfile's messages are not kept"
mdlog=${work:+$work/makedumpfile.log}

# The drivers between this kernel and the dump target (the disk's bus and
# disk drivers, its file system), found when the image was built; a kernel
# with them built in has none to load.  What failed is kept for the report.
modfail=''
if [ "$waiter" = no ] && [ -s /etc/oopslimit/modules ]; then
	while read -r m; do
		merr=$(modprobe "$m" 2>&1 </dev/null) && continue
		mrc=$?
		# 137: killed (SIGKILL), as the OOM killer does in a small reservation
		[ $mrc -ne 137 ] || merr="modprobe was killed (signal 9; out of memory?)"
		merr=$(printf '%s' "${merr:-modprobe exit $mrc}" | tr '\n' ' ')
		say "warning: cannot load the $m module: $merr"
		modfail="${modfail:+$modfail; }$m: $merr"
	done </etc/oopslimit/modules
fi

# The layers between the disks and the target's file system (md RAID1
# arrays, then an LVM logical volume), lowest first, as the dracut module
# found them; no udev here: mdadm and LVM make their own device nodes.  A
# disk that has not shown up yet is waited for, up to mount_wait seconds.
# What failed is kept for the report.
asmfail=''
assemble() {
	[ -s /etc/oopslimit/assemble ] || return 0
	waited=0
	while :; do
		asmfail=''
		while read -r kind what _; do
			case $kind in
			md)
				[ -b "$what" ] && [ -d "/sys/block/${what##*/}/md" ] &&
					[ "$(cat "/sys/block/${what##*/}/md/array_state" 2>/dev/null)" != inactive ] && continue
				aerr=$(mdadm --assemble --run --config=/etc/oopslimit/mdadm.conf "$what" 2>&1 </dev/null) ||
					asmfail="${asmfail:+$asmfail; }mdadm --assemble $what: $(printf '%s' "$aerr" | tr '\n' ' ')" ;;
			lvm)
				aerr=$(lvm lvchange -a y --sysinit "$what" 2>&1 </dev/null) ||
					asmfail="${asmfail:+$asmfail; }lvm lvchange -a y $what: $(printf '%s' "$aerr" | tr '\n' ' ')" ;;
			esac
		done </etc/oopslimit/assemble
		[ -n "$asmfail" ] || break
		[ "$waited" -ge "$mount_wait" ] && break
		sleep 1
		waited=$((waited + 1))
	done
	if [ -n "$asmfail" ]; then
		say "error: cannot assemble the target's layers after $waited s: $asmfail"
	else
		done_list=''
		while read -r kind what _; do
			done_list="${done_list:+$done_list, }$kind $what"
		done </etc/oopslimit/assemble
		say "assembled $done_list"
	fi
}
[ "$waiter" = yes ] || assemble

# finish [ACTION]: the capture ends with ACTION (default: final_action).
finish() {
	sync
	[ -z "${mounted:-}" ] || umount "$mounted" 2>/dev/null
	case ${1:-$final} in
	poweroff) say "capture done; powering off" && echo o >/proc/sysrq-trigger ;;
	*) say "capture done; rebooting" && echo b >/proc/sysrq-trigger ;;
	esac
	exit 0
}

# to_console: standard input to the console, each line starting
# "oopslimit-reason: ".  Kernel messages are held back meanwhile (console
# log level 1; they stay in the log), since one printed in the middle of a
# line would break the JSON that whoever reads the console parses.
to_console() {
	level=$(cut -f1 /proc/sys/kernel/printk 2>/dev/null) || level=''
	echo 1 >/proc/sys/kernel/printk 2>/dev/null
	sed -n '/[^ ]/s/^/oopslimit-reason: /p' >/dev/console 2>/dev/null
	[ -z "$level" ] || echo "$level" >/proc/sys/kernel/printk 2>/dev/null
}

# fallback_write: standard input into the fallback spot, if the loader set
# one up and it still holds the loader's empty marker.
fallback_write() {
	fdev=${ol_fallback%:*} foff=${ol_fallback##*:}
	if [ -z "$ol_fallback" ] || [ ! -b "$fdev" ]; then
		say "no fallback spot${ol_fallback:+: $fdev is not here}: the report is on the console only"
		cat >/dev/null
		return 1
	fi
	if [ "$(dd if="$fdev" bs=512 skip=$((foff / 512)) count=1 2>/dev/null | head -n 1)" != "oopslimit-fallback: empty" ]; then
		say "the fallback spot at $fdev:$foff does not hold the loader's marker: not written"
		cat >/dev/null
		return 1
	fi
	{ cat; dd if=/dev/zero bs=1024 count=64 2>/dev/null; } | head -c 65536 |
		dd of="$fdev" bs=512 seek=$((foff / 512)) conv=notrunc,fsync 2>/dev/null ||
		{ say "cannot write the fallback spot at $fdev:$foff"; return 1; }
	say "the report is in the fallback spot at $fdev:$foff, for the next boot"
}

# recorder VMCORE ARGS...: oopslimit-reason ARGS... VMCORE, with the
# collector's version and the pairs' lines (md_notes) for the report.
recorder() {
	_rv=$1 _rn=$md_notes
	shift
	while [ -n "$_rn" ]; do
		set -- "$@" --collector-note "${_rn%%"
"*}"
		case $_rn in
		*"
"*) _rn=${_rn#*"
"} ;;
		*) _rn='' ;;
		esac
	done
	oopslimit-reason ${md_version:+--collector-version "$md_version"} "$@" "$_rv"
}

# report ARGS...: writes reason.json and reason.txt into $dir (or to the
# console and the fallback spot when there is no directory) with the capture
# facts in ARGS, where the dump goes and what retention removed.
report() {
	if [ -n "${dir:-}" ]; then
		# shellcheck disable=SC2086  # --removed NAME pairs: names without blanks
		recorder /proc/vmcore -l "$dir/vmcore-dmesg.txt" -j "$dir/reason.json" -t "$dir/reason.txt" \
			--time "$crash_time" --target "$where" $removed "$@" 2>&1 | sed 's/^/oopslimit-capture: /' >/dev/console
		to_console <"$dir/reason.txt"
	else
		log=''
		if [ -n "$work" ] && vmcore-dmesg /proc/vmcore >"$work/vmcore-dmesg.txt" 2>/dev/null; then
			log=$work/vmcore-dmesg.txt
		fi
		# without the log, the recorder reads the dump's own ring buffer
		json=$(recorder /proc/vmcore ${log:+-l "$log"} -j - --time "$crash_time" "$@")
		printf '%s\n' "$json" | to_console
		# what failed first: it is what the next boot prints, even if the
		# recorder could not run
		printf 'oopslimit-fallback: report\nstamp: %s\nerror: %s\n%s\n' "$stamp" "${failure_text:-unknown}" "$json" |
			fallback_write
	fi
}

# --- retention ------------------------------------------------------------------------
# prune ROOT before|after: kdump.conf's keep and min_free in ROOT (ol_prune
# in oopslimit-lib.sh has the rule); what went is said and named in
# reason.json.  (An ssh server applies it itself: oopslimit-receive.)
prune() {
	out=$(ol_prune "$1" "$2" "$stamp" "$keep" "$min_free" 2>&1)
	[ -z "$out" ] || pruned <<-EOF
		$out
	EOF
}

# pruned: ol_prune's lines (from here or from oopslimit-receive) said, and
# the removed dumps added to $removed.
pruned() {
	while read -r verb name state _; do
		case $verb in
		removed)
			removed="$removed --removed $name"
			say "retention: removed the $state dump $name" ;;
		kept) say "warning: retention could not remove the $state dump $name" ;;
		unreachable) say "retention: removing every old complete dump would leave $((name / 1048576)) MiB short of min_free: they are kept" ;;
		esac
	done
}

# --- makedumpfile's messages, read the same way whatever the target ------------------
# md_seconds T0 T1: two "date +%s%N" readings apart, in seconds with
# milliseconds.
md_seconds() {
	ms=$((($2 - $1) / 1000000))
	echo "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
}

# md_tail: its last lines on the console.
md_tail() {
	[ -z "$mdlog" ] || ol_md_messages <"$mdlog" 2>/dev/null | tail -n 3 | sed 's/^/oopslimit-capture: makedumpfile: /' >/dev/console
}

# md_doubts: what it warned of while it still saved the dump ("The kernel
# version is not supported. The makedumpfile operation may be
# incomplete."), one line: that is said, never a plain "complete".
md_doubts() {
	grep -i -e 'not supported' -e 'may be incomplete' -e 'warning' "${mdlog:-/dev/null}" 2>/dev/null |
		head -n 3 | tr '\n' ' ' | sed 's/ *$//'
}

# md_trouble: the first line that names the trouble, not the closing
# "makedumpfile Failed."
md_trouble() {
	grep -i -m 1 "can't\|cannot\|no space\|error\|fail" "${mdlog:-/dev/null}" 2>/dev/null
}

# --- saving, one function a kind of target (ol_kind, oopslimit-lib.sh) ----------------
# save_fs FSTYPE:SOURCE OPTIONS PATH MOUNTPOINT: mounts the file system, makes
# the dump directory, writes the log, the report and the dump.  Returns 0
# when the dump is saved, 1 when nothing could be written (the report is
# still to be made; $failure_text says why), 2 when the directory holds a
# failed capture's report.  $prior, when set, is the dump target's failure
# that made this a fallback save.
save_fs() {
	tgt=$1 opts=$2 tpath=$3 mp=$4
	fstype=${tgt%%:*} source=${tgt#*:}
	dir='' where=''
	mkdir -p "$mp"
	waited=0 nodriver='' ok=''
	# A file system this kernel has no driver for will not appear by waiting.
	case $modfail in *"$fstype: "* | "$fstype: "*)
		grep -qw "$fstype" /proc/filesystems 2>/dev/null || nodriver=yes ;;
	esac
	# a network file system's server may not answer: each try has its limit
	limit='' t_mount=$(date +%s)
	! ol_is_network_target "$tgt" || limit="timeout -s KILL 20"
	while :; do
		# shellcheck disable=SC2086  # the limit's words
		if err=$($limit mount -t "$fstype" ${opts:+-o "$opts"} "$source" "$mp" 2>&1); then
			ok=yes
			break
		fi
		[ -n "$err" ] || err="no answer within 20 s"
		[ -z "$nodriver" ] || break
		[ "$waited" -ge "$mount_wait" ] && break
		sleep 1
		waited=$((waited + 1))
		# (a try over the network takes its own time)
		[ -z "$limit" ] || waited=$(($(date +%s) - t_mount))
	done
	if [ -z "$ok" ]; then
		err=$(printf '%s' "$err" | tr '\n' ' ')
		if [ -n "$nodriver" ]; then
			failure_text="cannot mount $source ($fstype): the $fstype driver did not load (${modfail}); not retried"
		else
			failure_text="cannot mount $source ($fstype) after ${waited} s: $err${modfail:+ (modules that did not load: $modfail)}${asmfail:+ (not assembled: $asmfail)}"
		fi
		say "error: $failure_text"
		return 1
	fi
	mounted=$mp
	root=$mp${tpath%/}
	# a stamp that is there already (a clock set back) is never reused: its
	# dump is not overwritten
	if [ -e "$root/$stamp" ] || [ -L "$root/$stamp" ]; then
		failure_text="${tpath%/}/$stamp is there already on $source (a clock set back?): not overwritten"
		say "error: $failure_text"
		return 1
	fi
	if ! err=$({ mkdir -p "$root" && mkdir -m 700 "$root/$stamp"; } 2>&1); then
		failure_text="cannot create ${tpath%/}/$stamp on $source: $err"
		say "error: $failure_text"
		return 1
	fi
	dir=$root/$stamp
	where="$tgt ${tpath%/}/$stamp"
	say "dump directory: ${tpath%/}/$stamp on $source"
	prune "$root" before

	# the log, then a first report that a full target cannot lose
	if ! vmcore-dmesg /proc/vmcore 2>/dev/null | ol_write_atomic "$dir/vmcore-dmesg.txt"; then
		say "warning: vmcore-dmesg could not read the log, or it could not be saved"
	fi
	report --capture "in progress" --reserve 16384 ${prior:+--failure-action fallback} \
		--error "${prior:+$prior; }the capture did not finish"

	if [ "$min_free" != 0 ] && [ "$(ol_free_bytes "$root")" -lt "$min_free" ]; then
		failure_text="$(($(ol_free_bytes "$root") / 1048576)) MiB free on $source, less than min_free ($((min_free / 1048576)) MiB) after retention: no dump written"
		say "error: $failure_text"
		report --capture failed --failure-action "$failure" --error "${prior:+$prior; }$failure_text"
		return 2
	fi

	t0=$(date +%s%N)
	# shellcheck disable=SC2046  # the collector options are words by design
	makedumpfile $(echo "$collector" | tr , ' ') /proc/vmcore "$dir/vmcore-incomplete" \
		>"${mdlog:-/dev/null}" 2>&1
	rc=$?
	sync
	secs=$(md_seconds "$t0" "$(date +%s%N)")
	md_tail

	if [ $rc -eq 0 ] && mv "$dir/vmcore-incomplete" "$dir/vmcore"; then
		sync
		prune "$root" after
		warn=$(md_doubts)
		say "saved vmcore in $secs s${warn:+; makedumpfile warned: $warn}"
		report --capture complete --dump "$dir/vmcore" --collector-exit 0 --seconds "$secs" \
			${prior:+--failure-action fallback --error "$prior"} ${warn:+--warning "makedumpfile: $warn"}
		rc=0
	else
		err=$(md_trouble)
		failure_text="makedumpfile failed: ${err:-status $rc}"
		say "error: makedumpfile failed with status $rc: $err"
		report --capture failed --dump "$dir/vmcore-incomplete" --collector-exit "$rc" \
			--seconds "$secs" --failure-action "$failure" --error "${prior:+$prior; }$failure_text"
		rc=2
	fi
	# makedumpfile's own messages, for triage (best effort: the target may be full)
	[ -z "$mdlog" ] || ol_md_messages <"$mdlog" | ol_write_atomic "$dir/makedumpfile.log" 2>/dev/null ||
		rm -f "$dir/makedumpfile.log"
	return $rc
}

# save_9p 9p:TAG OPTIONS PATH MOUNTPOINT: a QEMU share, mounted as a file
# system.
save_9p() {
	save_fs "$@"
}

# --- a network target ---------------------------------------------------------------------
# net_up: the interface with the hardware address the loader found (its
# name may differ here: no udev renames it) gets the running system's
# address and gateway; waits up to mount_wait seconds for it to appear and
# for its link.  False with $failure_text saying why.
net_up() {
	[ -z "${net_dev:-}" ] || return 0
	if [ -z "$ol_net_ip" ] || [ -z "$ol_net_mac" ] || [ -z "$ol_net_addr" ]; then
		failure_text="no network settings on the command line (oopslimit.server=, oopslimit.net=): reload with oopslimit-kdump load"
		say "error: $failure_text"
		return 1
	fi
	t_net=$(date +%s) dev=''
	while :; do
		for n in /sys/class/net/*; do
			[ "$(cat "$n/address" 2>/dev/null)" != "$ol_net_mac" ] || { dev=${n##*/}; break; }
		done
		[ -z "$dev" ] || break
		[ $(($(date +%s) - t_net)) -lt "$mount_wait" ] || break
		sleep 1
	done
	if [ -z "$dev" ]; then
		failure_text="no network interface with the address $ol_net_mac appeared within $mount_wait s${modfail:+ (modules that did not load: $modfail)}"
		say "error: $failure_text"
		return 1
	fi
	ip link set lo up 2>/dev/null
	if ! err=$({ ip link set "$dev" up && ip addr add "$ol_net_addr" dev "$dev" &&
		{ [ -z "$ol_net_gw" ] || ip route add default via "$ol_net_gw" dev "$dev"; }; } 2>&1); then
		failure_text="cannot set up $dev ($ol_net_addr${ol_net_gw:+ via $ol_net_gw}): $(printf '%s' "$err" | tr '\n' ' ')"
		say "error: $failure_text"
		return 1
	fi
	while [ "$(cat "/sys/class/net/$dev/carrier" 2>/dev/null)" != 1 ]; do
		if [ $(($(date +%s) - t_net)) -ge "$mount_wait" ]; then
			failure_text="$dev ($ol_net_mac) has no link after $mount_wait s"
			say "error: $failure_text"
			return 1
		fi
		sleep 1
	done
	net_dev=$dev
	say "network: $dev ($ol_net_mac) $ol_net_addr${ol_net_gw:+ via $ol_net_gw}, up in $(($(date +%s) - t_net)) s"
}

# ssh_do REQUEST...: one request to oopslimit-receive on the server, with
# the dump key and the server's host key the image carries.
ssh_do() {
	ol_ssh /etc/oopslimit/ssh/id /etc/oopslimit/ssh/known_hosts "$ssh_host" "$ssh_user@$ol_net_ip" "$@"
}

# ssh_put NAME: $dir/NAME to the server's dump directory.
ssh_put() {
	[ -r "$dir/$1" ] || return 0
	err=$(ssh_do put "$stamp" "$1" <"$dir/$1" 2>&1) ||
		say "warning: cannot send $1 to $ssh_user@$ssh_host: $(printf '%s' "$err" | tr '\n' ' ')"
}

# ssh_reports [FILE...]: FILEs, then the report, to the server: reason.json
# last, so that a final one there means the capture is done.
ssh_reports() {
	for f in "$@" reason.txt reason.json; do
		ssh_put "$f"
	done
}

# save_ssh TARGET OPTIONS PATH MOUNTPOINT: as save_fs, to oopslimit-receive
# on the server: the log and a first report go first, so the reason arrives
# even when the dump does not; then makedumpfile's flattened stream (-F), which the server
# rebuilds into a kdump-compressed vmcore.  Same return values as save_fs.
save_ssh() {
	tgt=$1 tpath=$3
	ssh_user=${tgt#ssh:} ssh_host=${tgt#ssh:}
	case $ssh_user in *@*) ssh_user=${ssh_user%%@*} ssh_host=${ssh_host#*@} ;; *) ssh_user=oopslimit ;; esac
	dir='' where=''
	if [ -z "$work" ]; then
		failure_text="no scratch directory in /tmp for the files sent to the server"
		say "error: $failure_text"
		return 1
	fi
	net_up || return 1
	# the server may still be coming up, its network too: connection
	# trouble is retried for mount_wait seconds; a refusal is not
	t_ssh=$(date +%s) began=''
	while :; do
		out=$(ssh_do begin "$stamp" "$keep" "$min_free" </dev/null 2>&1) && { began=yes; break; }
		err=$(printf '%s' "$out" | tr '\n' ' ' | sed 's/ *$//')
		case $err in
		*'Connection refused'* | *'No route to host'* | *'timed out'* | *'Network is unreachable'* | *'Connection reset'* | *'Connection closed'*) ;;
		*) break ;;
		esac
		[ $(($(date +%s) - t_ssh)) -lt "$mount_wait" ] || break
		sleep 1
	done
	if [ -z "$began" ]; then
		failure_text="ssh $ssh_user@$ssh_host ($ol_net_ip) after $(($(date +%s) - t_ssh)) s: ${err:-no answer}"
		say "error: $failure_text"
		return 1
	fi
	pruned <<-EOF
		$out
	EOF
	free=$(printf '%s\n' "$out" | sed -n 's/^free //p')
	dir=$work/$stamp
	mkdir "$dir"
	where="$tgt ${tpath%/}/$stamp"
	say "dump directory: ${tpath%/}/$stamp on $ssh_user@$ssh_host ($ol_net_ip)"
	vmcore-dmesg /proc/vmcore >"$dir/vmcore-dmesg.txt" 2>/dev/null ||
		say "warning: vmcore-dmesg could not read the log"
	report --capture "in progress" ${prior:+--failure-action fallback} \
		--error "${prior:+$prior; }the capture did not finish"
	ssh_reports vmcore-dmesg.txt

	if [ "$min_free" != 0 ] && [ "${free:-0}" -lt "$min_free" ]; then
		failure_text="$((${free:-0} / 1048576)) MiB free on $ssh_user@$ssh_host, less than min_free ($((min_free / 1048576)) MiB) after retention: no dump sent"
		say "error: $failure_text"
		report --capture failed --failure-action "$failure" --error "${prior:+$prior; }$failure_text"
		ssh_reports
		return 2
	fi

	t0=$(date +%s%N)
	# shellcheck disable=SC2046  # the collector options are words by design
	{
		makedumpfile -F $(echo "$collector" | tr , ' ') /proc/vmcore 2>"$mdlog"
		echo $? >"$work/makedumpfile.rc"
	} | ssh_do vmcore "$stamp" "$keep" >"$work/receive.out" 2>"$work/receive.err"
	src=$?
	rc=$(cat "$work/makedumpfile.rc" 2>/dev/null) || rc=1
	secs=$(md_seconds "$t0" "$(date +%s%N)")
	md_tail
	ol_md_messages <"$mdlog" >"$dir/makedumpfile.log" 2>/dev/null
	bytes=$(sed -n 's/^saved \([0-9][0-9]*\)$/\1/p' "$work/receive.out")
	if [ "$rc" = 0 ] && [ "$src" -eq 0 ] && [ -n "$bytes" ]; then
		pruned <"$work/receive.out"
		warn=$(md_doubts)
		say "sent vmcore in $secs s ($bytes bytes rebuilt on the server)${warn:+; makedumpfile warned: $warn}"
		report --capture complete --dump "$dir/vmcore" --dump-size "$bytes" --collector-exit 0 --seconds "$secs" \
			${prior:+--failure-action fallback --error "$prior"} ${warn:+--warning "makedumpfile: $warn"}
		ssh_reports makedumpfile.log
		return 0
	fi
	if [ "$rc" != 0 ]; then
		err=$(md_trouble)
		failure_text="makedumpfile failed: ${err:-status $rc}"
	else
		failure_text="sending the dump to $ssh_user@$ssh_host failed: $(tr '\n' ' ' <"$work/receive.err" | sed 's/ *$//')"
		[ "$src" -ne 0 ] || failure_text="$failure_text (the server did not say it was saved)"
	fi
	say "error: $failure_text"
	report --capture failed --dump "$dir/vmcore-incomplete" --collector-exit "$rc" \
		--seconds "$secs" --failure-action "$failure" --error "${prior:+$prior; }$failure_text"
	ssh_reports makedumpfile.log
	return 2
}

# save_nfs TARGET OPTIONS PATH MOUNTPOINT: as save_fs, the export mounted
# by its server's address once the interface is up.
save_nfs() {
	net_up || return 1
	e=${1#*:}
	save_fs "${1%%:*}:$ol_net_ip:${e#*:}" "$(ol_nfs_options "$2" "$ol_net_ip" "$ol_net_addr")" "$3" "$4"
}

# save_target TARGET OPTIONS PATH MOUNTPOINT: the save of the target's kind.
save_target() {
	"save_$(ol_kind "$1")" "$@"
}

# --- the capture ------------------------------------------------------------------------
crash_time=${OOPSLIMIT_CAPTURE_TIME:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}
stamp=${OOPSLIMIT_CAPTURE_STAMP:-$(date -u +%Y-%m-%d-%H%M%S)}
# One deadline for the whole capture (oopslimit.deadline, capture_deadline
# in kdump.conf): the capture runs again as a child of timeout, which kills
# it and all it started (makedumpfile, ssh, mount: its process group) when
# the time is up; then the failure action runs here.  A child that finishes
# in time ends the machine itself: it never returns.
if [ "$waiter" = yes ]; then
	OOPSLIMIT_CAPTURE_TIME=$crash_time OOPSLIMIT_CAPTURE_STAMP=$stamp \
		timeout -s KILL "$ol_deadline" "$0" --within-deadline
	rc=$?
	if [ $rc -eq 137 ] || [ $rc -eq 124 ]; then
		failure_text="the capture did not finish within its deadline of $ol_deadline s (capture_deadline): stopped"
	else
		failure_text="the capture ended without its final action (status $rc)"
	fi
	say "error: $failure_text"
	# a stalled network file system is let go, not synced
	umount -l /oopslimit-target 2>/dev/null
	removed='' mounted='' dir='' where=''
	if [ "$failure" = fallback ] && [ -n "$ol_failure_target" ]; then
		umount -l /oopslimit-fallback 2>/dev/null
		say "failure action: saving to the fallback $ol_failure_target, directory $ol_failure_dir"
		prior="dump target $target: $failure_text"
		# its own stamp: the one that timed out may have a directory there
		stamp=$(date -u +%Y-%m-%d-%H%M%S)
		save_fs "$ol_failure_target" '' "$ol_failure_dir" /oopslimit-fallback
		[ $? -ne 1 ] || report --capture failed --failure-action fallback --error "$prior; the fallback: $failure_text"
		finish
	fi
	report --capture failed --failure-action "$failure" --error "$failure_text"
	say "failure action: $failure"
	finish "$failure"
fi
say "capturing to ${target:-nowhere}${path} (collector: makedumpfile $(echo "$collector" | tr , ' '); failure action: $failure${ol_failure_target:+ to $ol_failure_target, directory $ol_failure_dir})"
removed='' prior='' mounted='' dir='' where=''
if [ -z "$target" ] || [ "${target%%:*}" = "$target" ] || [ -z "${target#*:}" ]; then
	failure="$final"
	failure_text="no dump target configured"
	say "error: no oopslimit.target=FSTYPE:SOURCE on the command line"
	report --capture failed --error "$failure_text"
	finish
fi
save_target "$target" "$mntopts" "$path" /oopslimit-target
rc=$?
[ $rc -ne 0 ] || finish
if [ "$failure" = fallback ] && [ -n "$ol_failure_target" ]; then
	say "failure action: saving to the fallback $ol_failure_target, directory $ol_failure_dir"
	[ -z "$mounted" ] || { sync; umount "$mounted" 2>/dev/null; mounted=''; }
	prior="dump target $target: $failure_text" removed=''
	save_fs "$ol_failure_target" '' "$ol_failure_dir" /oopslimit-fallback
	frc=$?
	[ $frc -ne 1 ] || report --capture failed --failure-action fallback --error "$prior; the fallback: $failure_text"
	finish
fi
# reboot or poweroff: a directory already holds the failed capture's report
[ $rc -ne 1 ] || report --capture failed --failure-action "$failure" --error "$failure_text"
say "failure action: $failure"
finish "$failure"
