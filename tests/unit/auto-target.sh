#!/bin/bash
# "target auto" (kdump/oopslimit-lib.sh): the file system that holds kdump.conf's
# path and the directory within it that the capture kernel writes, for the
# layouts of tests/unit/mountinfo/layouts: the path itself a mount point (a
# dump disk at /var/crash), below one (a separate /var), on the root file
# system, under a bind mount, under two mounts at one point (the last
# shows), on tmpfs (refused); the path normalised however it is written;
# "failure_action fallback PATH" found the same way, and refused on tmpfs or
# on the target; the failure action and retention as the capture kernel
# reads them back from its command line.
# TAP; "N passed, N failed" last.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=../../kdump/oopslimit-lib.sh
. "$top/kdump/oopslimit-lib.sh"
# shellcheck source=../../kdump/oopslimit-kdump-discover.sh
. "$top/kdump/oopslimit-kdump-discover.sh"
export OL_MOUNTINFO=$top/tests/unit/mountinfo/layouts
conf=$(mktemp)
trap 'rm -f "$conf"' EXIT
n=0 failed=0

# expect PATH TARGET DIRECTORY: "target auto" with PATH resolves so (TARGET
# "error: TEXT" for a refusal whose message contains TEXT)
expect() {
	local got
	n=$((n + 1))
	printf 'target auto\npath %s\n' "$1" >"$conf"
	if ol_conf_load "$conf" 6.1.0; then
		got="$ol_target $ol_dump_dir"
	else
		got="error: $ol_error"
	fi
	case $2 in
	error:*) [[ $got == "error: "*"${2#error: }"* ]] ;;
	*) [ "$got" = "$2 $3" ] ;;
	esac && { echo "ok $n - $1: $got"; return; }
	echo "not ok $n - $1: expected '$2${3:+ $3}', got '$got'"
	failed=$((failed + 1))
}

expect /var/crash xfs:/dev/nvme0n1p1 /
expect /var/crash/host1 xfs:/dev/nvme0n1p1 /host1
expect //var//crash/ xfs:/dev/nvme0n1p1 /
expect /var/crash/../crash/./ xfs:/dev/nvme0n1p1 /
expect /var/dumps ext4:/dev/sda1 /dumps
expect /varnish ext4:/dev/vda /varnish
expect /crash ext4:/dev/vda /crash
expect /mnt/bind ext4:/dev/sdc1 /srv/dumps
expect /mnt/bind/a ext4:/dev/sdc1 /srv/dumps/a
expect "/mnt/sp ace/x" "error: path and mount_options cannot contain blanks"
expect /srv/crash xfs:/dev/sdf1 /crash
expect /tmp/crash "error: /tmp/crash is on tmpfs, which does not survive a reboot"
expect /run/crash "error: is on tmpfs"

# the capture kernel's command line names the directory within the target
n=$((n + 1))
printf 'target auto\npath /var/crash\n' >"$conf"
ol_conf_load "$conf" 6.1.0
words=" $(ol_capture_args) "
if [[ $words == *" oopslimit.target=xfs:/dev/nvme0n1p1 "* ]] && [[ $words == *" oopslimit.path=/ "* ]]; then
	echo "ok $n - the capture kernel gets oopslimit.path=/ for a disk at /var/crash"
else
	echo "not ok $n - the capture kernel's words: $(ol_capture_args)"
	failed=$((failed + 1))
fi
# an explicit target keeps path as the directory on it, normalised
n=$((n + 1))
printf 'target ext4:LABEL=crash\npath /\n' >"$conf"
ol_conf_load "$conf" 6.1.0
if [ "$ol_target $ol_dump_dir" = "ext4:LABEL=crash /" ] && [[ " $(ol_capture_args) " == *" oopslimit.path=/ "* ]]; then
	echo "ok $n - an explicit target: path / is its top"
else
	echo "not ok $n - an explicit target: $ol_target $ol_dump_dir"
	failed=$((failed + 1))
fi

# failure_action fallback PATH: a local disk other than the target, found as
# "target auto" finds one; what the capture kernel is told of it and of
# retention, read back as the capture script reads it
# fallback CONF-LINES EXPECTED: the config resolves to EXPECTED (the capture
# settings as read back) or is refused with a message containing "error: TEXT"
fallback() {
	local got
	n=$((n + 1))
	printf '%b\n' "$1" >"$conf"
	if ol_conf_load "$conf" 6.1.0; then
		# shellcheck disable=SC2046  # words, as the capture kernel gets them
		ol_capture_parse $(ol_capture_args)
		got="$ol_failure ${ol_failure_target:--} ${ol_failure_dir:--} $ol_keep $ol_min_free"
	else
		got="error: $ol_error"
	fi
	case $2 in
	error:*) [[ $got == "error: "*"${2#error: }"* ]] ;;
	*) [ "$got" = "$2" ] ;;
	esac && { echo "ok $n - $(printf '%b' "$1" | tr '\n' ' '): $got"; return; }
	echo "not ok $n - $(printf '%b' "$1" | tr '\n' ' '): expected '$2', got '$got'"
	failed=$((failed + 1))
}
fallback 'target auto\npath /var/crash' 'reboot - - 0 0'
fallback 'target auto\nfinal_action poweroff' 'poweroff - - 0 0'
fallback 'final_action poweroff\nfailure_action reboot' 'reboot - - 0 0'
fallback 'target auto\nfailure_action fallback /var/dumps/local\nkeep 3\nmin_free 512M' \
	'fallback ext4:/dev/sda1 /dumps/local 3 536870912'
fallback 'target ext4:/dev/vdb\nfailure_action fallback /crash//x/' 'fallback ext4:/dev/vda /crash/x 0 0'
fallback 'target auto\nfailure_action fallback /var/crash/local' 'error: is on the dump target itself (xfs:/dev/nvme0n1p1)'
fallback 'failure_action fallback /run/crash' 'error: the failure_action fallback /run/crash is on tmpfs, not a local disk'
fallback 'failure_action fallback var/crash' "error: failure_action is reboot, poweroff or fallback PATH (an absolute path), not 'fallback var/crash'"
fallback 'failure_action fallback /a /b' "error: failure_action fallback takes one absolute path without blanks"
fallback 'failure_action halt' "error: failure_action is reboot, poweroff or fallback PATH"
fallback 'keep -1' "error: keep takes a number of dumps (0: no limit), not '-1'"
fallback 'min_free 1.5G' "error: min_free takes a size such as 2G or 512M (0: no floor), not '1.5G'"
fallback 'min_free 2g\nkeep 1' 'reboot - - 1 2147483648'

# the layers under a target (ol_layout_of), on a sysfs tree made here
sys=$(mktemp -d)
trap 'rm -f "$conf"; rm -rf "$sys"' EXIT
blk() { # blk PATH [FILE=VALUE...]: a block device's sysfs directory
	local d=$sys/devices/$1 kv
	shift
	mkdir -p "$d/slaves"
	for kv in "$@"; do
		mkdir -p "$(dirname "$d/${kv%%=*}")"
		echo "${kv#*=}" >"$d/${kv%%=*}"
	done
}
slave() { ln -s "$sys/devices/$2" "$sys/devices/$1/slaves/${2##*/}"; }
blk pci0/virtio1/block/vdb
blk pci0/virtio1/block/vdb/vdb2 partition=2
blk pci0/virtio2/block/vdc
blk pci0/virtio2/block/vdc/vdc1 partition=1
blk pci0/virtio3/block/vdd
blk virtual/block/dm-0 dm/uuid=LVM-0123abcd dm/name=vg-lv
slave virtual/block/dm-0 pci0/virtio1/block/vdb/vdb2
blk virtual/block/md127 md/level=raid1
slave virtual/block/md127 pci0/virtio2/block/vdc/vdc1
slave virtual/block/md127 pci0/virtio3/block/vdd
blk virtual/block/dm-1 dm/uuid=LVM-0123abcd dm/name=vg-onmd
slave virtual/block/dm-1 virtual/block/md127
blk virtual/block/dm-2 dm/uuid=CRYPT-LUKS2-77 dm/name=secret
blk virtual/block/md0 md/level=raid5
blk virtual/block/dm-3 dm/uuid=LVM-0123abcd dm/name=vg-thin
blk virtual/block/dm-4 dm/uuid=LVM-0123abcd-tpool dm/name=vg-pool-tpool
slave virtual/block/dm-3 virtual/block/dm-4
blk platform/host2/session1/target2:0:0/2:0:0:0/block/sdb
blk virtual/block/loop0
layout() { # layout SYSDIR EXPECTED: its layers, joined by "; ", or "error: TEXT"
	local got
	n=$((n + 1))
	got=$(ol_layout_of "$sys/devices/$1" | paste -sd';' -) || got=''
	ol_layout_of "$sys/devices/$1" >/dev/null || got="error: $ol_error"
	case $2 in
	error:*) [[ $got == "error: "*"${2#error: }"* ]] ;;
	*) [ "$got" = "$2" ] ;;
	esac && { echo "ok $n - layout of $1: $got"; return; }
	echo "not ok $n - layout of $1: expected '$2', got '$got'"
	failed=$((failed + 1))
}
layout pci0/virtio1/block/vdb/vdb2 'part vdb2;disk vdb'
layout virtual/block/dm-0 'lvm vg-lv;part vdb2;disk vdb'
layout virtual/block/md127 'md md127 raid1;part vdc1;disk vdc;disk vdd'
layout virtual/block/dm-1 'lvm vg-onmd;md md127 raid1;part vdc1;disk vdc;disk vdd'
layout virtual/block/dm-2 'error: dm-2 (secret) is dm-crypt (LUKS): the capture kernel has no key for it'
layout virtual/block/md0 'error: md0 is md raid5: the capture image assembles md RAID1 only'
layout virtual/block/dm-3 'error: dm-4 (vg-pool-tpool) is an internal LVM layer (tpool'
layout platform/host2/session1/target2:0:0/2:0:0:0/block/sdb 'error: sdb is an iSCSI disk'
layout virtual/block/loop0 'error: loop0 is a loop device'
echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
