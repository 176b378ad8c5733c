#!/bin/bash
# "target auto" (kdump/oopslimit-lib.sh): the file system that holds kdump.conf's
# path and the directory within it that the capture kernel writes, for the
# layouts of tests/unit/mountinfo/layouts: the path itself a mount point (a
# dump disk at /var/crash), below one (a separate /var), on the root file
# system, under a bind mount, under two mounts at one point (the last
# shows), on tmpfs (refused); the path normalised however it is written.
# TAP; "N passed, N failed" last.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=../../kdump/oopslimit-lib.sh
. "$top/kdump/oopslimit-lib.sh"
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
echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
