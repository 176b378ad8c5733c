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
#
# Files in the dump directory:
#   vmcore-dmesg.txt    the kernel log
#   vmcore-incomplete   the dump while it is written, and after a failure
#   vmcore              the dump, once written completely and synced
#   reason.json         the machine-readable report, written first (so a
#                       failure is recorded) and completed at the end
#   reason.txt          the same, one screen for people
# When the target cannot be mounted, reason.json goes to the console only,
# on lines starting "oopslimit-reason: ".
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
# with them built in has none to load.
if [ -s /etc/oopslimit/modules ]; then
	while read -r m; do
		modprobe "$m" 2>/dev/null || say "warning: cannot load the $m module"
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

# report ARGS...: writes reason.json and reason.txt into $dir (or to the
# console when there is no directory) with the capture facts in ARGS.
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
		oopslimit-reason ${log:+-l "$log"} -j - --time "$crash_time" "$@" /proc/vmcore | to_console
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
	report --capture failed --error "no dump target configured"
	finish
fi
mkdir -p "$mnt"
waited=0 mounted=''
while :; do
	if err=$(mount -t "$fstype" ${mntopts:+-o "$mntopts"} "$source" "$mnt" 2>&1); then
		mounted=yes
		break
	fi
	[ "$waited" -ge "$mount_wait" ] && break
	sleep 1
	waited=$((waited + 1))
done
if [ -z "$mounted" ]; then
	say "error: cannot mount $source ($fstype) after ${waited} s: $err"
	report --capture failed --error "cannot mount $source ($fstype): $err"
	finish
fi

dir=$mnt$path/$stamp
if ! err=$(mkdir -p "$dir" 2>&1); then
	dir=''
	say "error: cannot create the dump directory: $err"
	report --capture failed --error "cannot create $path/$stamp on $source: $err"
	finish
fi
say "dump directory: $path/$stamp on $source"

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
	say "saved vmcore in $secs s"
	report --capture complete --dump "$dir/vmcore" --collector-exit 0 --seconds "$secs"
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
