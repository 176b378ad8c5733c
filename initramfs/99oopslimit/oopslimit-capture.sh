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
# (path is the directory within the target, whatever the running system
# mounts it as: "/" for a disk mounted at /var/crash.)
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
set -u

say() {
	echo "oopslimit-capture: $*" >/dev/console 2>/dev/null || echo "oopslimit-capture: $*"
}

# The settings' names and defaults: the config library, which the dracut
# module installed in the image.
# shellcheck source=../../kdump/oopslimit-lib.sh
. /usr/lib/oopslimit/oopslimit-lib.sh
# shellcheck disable=SC2046  # words, not lines: that is how the kernel splits it
ol_capture_parse $(cat /proc/cmdline)
target=$ol_target mntopts=$ol_mntopts path=$ol_path collector=$ol_collector
mount_wait=$ol_mount_wait final=$ol_final
# Scratch files (the log before there is a directory for it, makedumpfile's
# messages): a directory of this run's own, never fixed names in /tmp.
work=$(mktemp -d /tmp/oopslimit-capture.XXXXXX) || work=''
[ -n "$work" ] || say "warning: no scratch directory in /tmp; makedumpfile's messages are not kept"
mdlog=${work:+$work/makedumpfile.log}

# The drivers between this kernel and the dump target (the disk's bus and
# disk drivers, its file system), found when the image was built; a kernel
# with them built in has none to load.  What failed is kept for the report.
modfail=''
if [ -s /etc/oopslimit/modules ]; then
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

finish() {
	sync
	[ -n "${mounted:-}" ] && umount "$mnt" 2>/dev/null
	case $final in
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

# report ARGS...: writes reason.json and reason.txt into $dir (or to the
# console and the fallback spot when there is no directory) with the capture
# facts in ARGS.
report() {
	if [ -n "${dir:-}" ]; then
		oopslimit-reason -l "$dir/vmcore-dmesg.txt" -j "$dir/reason.json" -t "$dir/reason.txt" \
			--time "$crash_time" "$@" /proc/vmcore 2>&1 | sed 's/^/oopslimit-capture: /' >/dev/console
		to_console <"$dir/reason.txt"
	else
		log=''
		if [ -n "$work" ] && vmcore-dmesg /proc/vmcore >"$work/vmcore-dmesg.txt" 2>/dev/null; then
			log=$work/vmcore-dmesg.txt
		fi
		# without the log, the recorder reads the dump's own ring buffer
		json=$(oopslimit-reason ${log:+-l "$log"} -j - --time "$crash_time" "$@" /proc/vmcore)
		printf '%s\n' "$json" | to_console
		# what failed first: it is what the next boot prints, even if the
		# recorder could not run
		printf 'oopslimit-fallback: report\nstamp: %s\nerror: %s\n%s\n' "$stamp" "${failure:-unknown}" "$json" |
			fallback_write
	fi
}

crash_time=$(date -u +%Y-%m-%dT%H:%M:%SZ)
stamp=$(date -u +%Y-%m-%d-%H%M%S)
say "capturing to ${target:-nowhere}${path} (collector: makedumpfile $(echo "$collector" | tr , ' '))"

# --- the target ------------------------------------------------------------------
mnt=/oopslimit-target
fstype=${target%%:*} source=${target#*:}
if [ -z "$target" ] || [ "$fstype" = "$target" ] || [ -z "$source" ]; then
	say "error: no oopslimit.target=FSTYPE:SOURCE on the command line"
	failure="no dump target configured"
	report --capture failed --error "$failure"
	finish
fi
mkdir -p "$mnt"
waited=0 mounted='' nodriver=''
# A file system this kernel has no driver for will not appear by waiting.
case $modfail in *"$fstype: "* | "$fstype: "*)
	grep -qw "$fstype" /proc/filesystems 2>/dev/null || nodriver=yes ;;
esac
while :; do
	if err=$(mount -t "$fstype" ${mntopts:+-o "$mntopts"} "$source" "$mnt" 2>&1); then
		mounted=yes
		break
	fi
	[ -z "$nodriver" ] || break
	[ "$waited" -ge "$mount_wait" ] && break
	sleep 1
	waited=$((waited + 1))
done
if [ -z "$mounted" ]; then
	err=$(printf '%s' "$err" | tr '\n' ' ')
	if [ -n "$nodriver" ]; then
		failure="cannot mount $source ($fstype): the $fstype driver did not load (${modfail}); not retried"
	else
		failure="cannot mount $source ($fstype) after ${waited} s: $err${modfail:+ (modules that did not load: $modfail)}"
	fi
	say "error: $failure"
	report --capture failed --error "$failure"
	finish
fi

# the dump directory within the target, normalised ("/" is its top)
dir=$mnt${path%/}/$stamp
if ! err=$(mkdir -p "$dir" 2>&1); then
	dir=''
	failure="cannot create ${path%/}/$stamp on $source: $err"
	say "error: $failure"
	report --capture failed --error "$failure"
	finish
fi
say "dump directory: ${path%/}/$stamp on $source"

# --- the log, then a first report that a full target cannot lose ---------------------
if ! vmcore-dmesg /proc/vmcore 2>/dev/null | ol_write_atomic "$dir/vmcore-dmesg.txt"; then
	say "warning: vmcore-dmesg could not read the log, or it could not be saved"
fi
report --capture "in progress" --reserve 16384 --error "the capture did not finish"

# --- the dump ------------------------------------------------------------------------
t0=$(date +%s%N)
# shellcheck disable=SC2046  # the collector options are words by design
makedumpfile $(echo "$collector" | tr , ' ') /proc/vmcore "$dir/vmcore-incomplete" \
	>"${mdlog:-/dev/null}" 2>&1
rc=$?
sync
t1=$(date +%s%N)
secs=$(((t1 - t0) / 1000000))
secs=$((secs / 1000)).$(printf '%03d' $((secs % 1000)))
[ -z "$mdlog" ] || tail -n 3 "$mdlog" 2>/dev/null | sed 's/^/oopslimit-capture: makedumpfile: /' >/dev/console

if [ $rc -eq 0 ] && mv "$dir/vmcore-incomplete" "$dir/vmcore"; then
	sync
	# makedumpfile can save a dump and still doubt it ("The kernel version
	# is not supported. The makedumpfile operation may be incomplete."):
	# that is said, never a plain "complete"
	warn=$(grep -i -e 'not supported' -e 'may be incomplete' -e 'warning' "${mdlog:-/dev/null}" 2>/dev/null |
		head -n 3 | tr '\n' ' ' | sed 's/ *$//')
	say "saved vmcore in $secs s${warn:+; makedumpfile warned: $warn}"
	report --capture complete --dump "$dir/vmcore" --collector-exit 0 --seconds "$secs" \
		${warn:+--warning "makedumpfile: $warn"}
else
	# the first line that names the trouble, not the closing "makedumpfile Failed."
	err=$(grep -i -m 1 "can't\|cannot\|no space\|error\|fail" "${mdlog:-/dev/null}" 2>/dev/null)
	say "error: makedumpfile failed with status $rc: $err"
	report --capture failed --dump "$dir/vmcore-incomplete" --collector-exit "$rc" \
		--seconds "$secs" --error "makedumpfile failed: ${err:-status $rc}"
fi
# makedumpfile's own messages, for triage (best effort: the target may be full)
[ -z "$mdlog" ] || ol_write_atomic "$dir/makedumpfile.log" <"$mdlog" 2>/dev/null || rm -f "$dir/makedumpfile.log"
finish
