# shellcheck shell=sh disable=SC2034,SC2154
# (SC2034: the ol_ variables are set for the callers; SC2154: _ol_parse in
# oopslimit-lib.sh sets the _ol_set_ ones)
# oopslimit-kdump-discover.sh: what the running system tells before a panic
# depends on it: kdump.conf read whole and checked (ol_conf_load), the file
# system that holds a path (target auto, the failure_action fallback), the
# block layers under the target, the route to a dump server, the capture
# deadline.  Beside oopslimit-lib.sh, which it needs; sourced by the
# loader, by the dracut module when it builds the capture image and by the
# test harness, never in the capture kernel.  POSIX sh; it defines
# functions and variables and runs nothing.
#
# Functions (all names start with ol_; so do the variables they set):
#   ol_conf_load FILE [REL]     validates FILE whole and sets ol_target,
#                               ol_mntopts, ol_path, ol_mount_wait,
#                               ol_deadline (seconds, 0: none),
#                               ol_compress, ol_dump_level, ol_final,
#                               ol_failure (and for "fallback PATH":
#                               ol_failure_target, ol_failure_dir,
#                               ol_failure_local), ol_keep, ol_min_free
#                               (bytes), ol_kernel, ol_initrd, ol_append
#                               and ol_collector; false with $ol_error when
#                               bad
#   ol_resolve_target           turns ol_target "auto" into FSTYPE:SOURCE and
#                               sets ol_dump_dir (the dump directory within
#                               the target) and ol_local_dir (where this
#                               system sees it: set for "auto" only)
#   ol_fs_of_path PATH          three lines: FSTYPE:SOURCE of the file system
#                               holding PATH, the directory within it, the
#                               mount point
#   ol_layout_of SYSDIR         the layers under a block device (LVM, md,
#                               partition, disk), one a line; false with
#                               $ol_error naming a layout the capture image
#                               cannot rebuild (LUKS, iSCSI, multipath, ...)
#   ol_target_layout            ol_layout_of the target's device, if any
#   ol_resolve_net              for a network target, the server's IPv4
#                               address and the interface, address and
#                               gateway the capture kernel brings up
#                               (ol_net_*); false with $ol_error when the
#                               capture kernel could not reach the server

# File systems that do not outlive a reboot, refused as an "auto" target.
OL_VOLATILE_FS='tmpfs ramfs rootfs devtmpfs proc sysfs overlay'
# File systems reached over a network: not a local fallback.
OL_NETWORK_FS='nfs nfs4 cifs smb3 9p ceph glusterfs fuse.sshfs'

ol_conf_load() {
	_ol_conf=$1
	ol_release=${2:-$(uname -r)}
	ol_error=''
	if [ ! -r "$_ol_conf" ]; then
		ol_error="cannot read the config $_ol_conf"
		return 1
	fi
	_ol_parse "$_ol_conf"
	if [ -n "$_ol_bad" ]; then
		ol_error="$_ol_conf:$_ol_bad: unknown key or missing value"
		return 1
	fi
	for _ol_key in $OL_CONF_KEYS; do
		[ "$_ol_key" = capture_append ] && continue
		ol_conf_check "$_ol_key" "$(ol_conf_value "$_ol_key")" || {
			ol_error="$_ol_conf: $ol_error"
			return 1
		}
	done
	ol_target=$(ol_conf_value target)
	ol_mntopts=$(ol_conf_value mount_options)
	ol_path=$(ol_conf_value path)
	ol_sshkey=$(ol_conf_value sshkey)
	ol_mount_wait=$(ol_conf_value mount_wait)
	ol_compress=$(ol_conf_value compress)
	ol_dump_level=$(ol_conf_value dump_level)
	ol_final=$(ol_conf_value final_action)
	ol_failure=$(ol_conf_value failure_action)
	ol_failure_path=''
	case $ol_failure in
	'') ol_failure=$ol_final ;;
	fallback*) ol_failure_path=$(ol_normpath "${ol_failure#fallback }") ol_failure=fallback ;;
	esac
	ol_keep=$(ol_conf_value keep)
	ol_min_free=$(ol_size_bytes "$(ol_conf_value min_free)")
	ol_kernel=$(ol_conf_value kernel)
	ol_initrd=$(ol_conf_value initrd)
	ol_append=$_ol_set_capture_append
	# -E (uncompressed ELF) cannot be combined with a kdump-compressed option
	case $ol_compress in
	lzo) ol_collector="-l,-d,$ol_dump_level" ;;
	zlib) ol_collector="-c,-d,$ol_dump_level" ;;
	none) ol_collector="-E,-d,$ol_dump_level" ;;
	esac
	ol_resolve_target && ol_resolve_net && ol_resolve_failure || return 1
	ol_deadline=$(ol_conf_value capture_deadline)
	[ "$ol_deadline" != auto ] || ol_deadline=$(ol_deadline_auto)
}

# ol_deadline_auto: capture_deadline's default, in seconds: all of memory
# (what an unfiltered dump would be; a filtered one is smaller) at a quarter
# of the link's speed to a dump server (100 Mb/s when it does not say), or
# at 20 MiB/s to a disk, plus twice mount_wait and five minutes for
# booting, the log and the reports.  $OL_MEMINFO stands for /proc/meminfo
# in tests.
ol_deadline_auto() {
	# (kB, multiplied here: awk would print a large product as 4.29e+09)
	_ol_ram=$(awk '/^MemTotal:/ { print $2; exit }' "${OL_MEMINFO:-/proc/meminfo}" 2>/dev/null)
	case $_ol_ram in '' | *[!0-9]*) _ol_ram=0 ;; esac
	_ol_ram=$((_ol_ram * 1024))
	_ol_rate=20971520
	if [ -n "${ol_net_dev:-}" ]; then
		_ol_sp=$(cat "${OL_SYSFS:-/sys}/class/net/$ol_net_dev/speed" 2>/dev/null) || _ol_sp=''
		case $_ol_sp in '' | *[!0-9]* | 0) _ol_sp=100 ;; esac
		# Mb/s to bytes/s, a quarter of it
		_ol_rate=$((_ol_sp * 1000000 / 8 / 4))
	fi
	echo $((300 + 2 * ${ol_mount_wait:-30} + _ol_ram / _ol_rate))
}

# The file system that holds $1 (a normalised absolute path), from the mount
# table ($OL_MOUNTINFO, for tests; /proc/self/mountinfo otherwise): its
# FSTYPE:SOURCE, the directory within it that $1 is (a mount at $1 itself:
# "/"; a separate /var: "/crash" for /var/crash; a bind mount: below the
# directory it binds), and the mount point, one a line.  The last of
# several mounts at one point is the one that shows.
ol_fs_of_path() {
	awk -v p="$1" '
		function unesc(s) { gsub(/\\040/, " ", s); gsub(/\\011/, "\t", s); gsub(/\\134/, "\\", s); return s }
		{ for (i = 7; i < NF && $i != "-"; i++) ;
		  if ($i != "-" || i + 2 > NF) next
		  m = unesc($5)
		  if ((p == m || index(p "/", m == "/" ? "/" : m "/") == 1) && length(m) >= best) {
			best = length(m); fs = $(i + 1) ":" unesc($(i + 2)); root = unesc($4); mp = m } }
		END {
		  if (fs == "") exit
		  rel = mp == "/" ? (p == "/" ? "" : p) : substr(p, length(mp) + 1)
		  d = (root == "/" ? "" : root) rel
		  print fs; print (d == "" ? "/" : d); print mp }' "${OL_MOUNTINFO:-/proc/self/mountinfo}"
}

ol_resolve_target() {
	ol_dump_dir=$(ol_normpath "$ol_path") ol_local_dir=''
	[ "$ol_target" = auto ] || return 0
	# where the running system writes PATH, through any symbolic link
	_ol_p=$ol_dump_dir
	[ ! -e "$_ol_p" ] || _ol_p=$(readlink -f "$_ol_p") || _ol_p=$ol_dump_dir
	_ol_fs=$(ol_fs_of_path "$_ol_p")
	ol_target=$(printf '%s\n' "$_ol_fs" | sed -n 1p)
	case ${ol_target%%:*} in
	'')
		ol_error="no mounted file system holds $ol_path: set target in $_ol_conf"
		return 1 ;;
	*)
		case " $OL_VOLATILE_FS " in *" ${ol_target%%:*} "*)
			ol_error="$ol_path is on ${ol_target%%:*}, which does not survive a reboot: set target in $_ol_conf"
			return 1 ;;
		esac ;;
	esac
	ol_conf_check target "$ol_target" || { ol_error="$_ol_conf: $ol_error"; return 1; }
	ol_dump_dir=$(printf '%s\n' "$_ol_fs" | sed -n 2p)
	ol_local_dir=$_ol_p
}

# ol_resolve_failure: for "failure_action fallback PATH", the local file
# system that holds PATH (ol_failure_target, FSTYPE:SOURCE), the directory
# within it (ol_failure_dir) and PATH as this system sees it
# (ol_failure_local).  A fallback on a memory or network file system, or on
# the dump target itself, would fail with the target or not outlive the
# reboot: refused.
ol_resolve_failure() {
	ol_failure_target='' ol_failure_dir='' ol_failure_local=''
	[ "$ol_failure" = fallback ] || return 0
	_ol_p=$ol_failure_path
	[ ! -e "$_ol_p" ] || _ol_p=$(readlink -f "$_ol_p") || _ol_p=$ol_failure_path
	_ol_fs=$(ol_fs_of_path "$_ol_p")
	ol_failure_target=$(printf '%s\n' "$_ol_fs" | sed -n 1p)
	_ol_t=${ol_failure_target%%:*}
	if [ -z "$_ol_t" ]; then
		ol_error="$_ol_conf: no mounted file system holds the failure_action fallback $ol_failure_path"
		return 1
	fi
	case " $OL_VOLATILE_FS $OL_NETWORK_FS " in *" $_ol_t "*)
		ol_error="$_ol_conf: the failure_action fallback $ol_failure_path is on $_ol_t, not a local disk"
		return 1 ;;
	esac
	if [ "$ol_failure_target" = "$ol_target" ]; then
		ol_error="$_ol_conf: the failure_action fallback $ol_failure_path is on the dump target itself ($ol_target)"
		return 1
	fi
	ol_failure_dir=$(printf '%s\n' "$_ol_fs" | sed -n 2p)
	ol_failure_local=$_ol_p
}

# --- the block layout under a target ---------------------------------------------
# The capture image rebuilds what lies between the dump target's file
# system and its disks with as little as it can: device-mapper and one LVM
# logical volume (linear or striped, on disks, partitions or md), md RAID1,
# partitions.  Everything else is refused by name before a panic depends on
# it.  $OL_SYSFS stands for /sys in tests.

# ol_sys_of DEV: DEV's directory in sysfs (through /sys/dev/block).
ol_sys_of() {
	_ol_mm=$(stat -L -c '%t:%T' "$1" 2>/dev/null) || return 1
	_ol_mm=$((0x${_ol_mm%:*})):$((0x${_ol_mm#*:}))
	readlink -f "${OL_SYSFS:-/sys}/dev/block/$_ol_mm"
}

# ol_layout_of SYSDIR: one line a layer, from the file system down:
# "lvm NAME" (a dm device of LVM: its dm name), "md NAME LEVEL", "part
# NAME", "disk NAME"; a layer below comes after the one above it.  False
# with $ol_error naming the layout when the capture image cannot rebuild it.
ol_layout_of() {
	ol_error='' _ol_s=$1
	_ol_n=${_ol_s##*/}
	if [ -e "$_ol_s/partition" ]; then
		echo "part $_ol_n"
		ol_layout_of "${_ol_s%/*}"
		return
	fi
	if [ -r "$_ol_s/dm/uuid" ]; then
		_ol_u=$(cat "$_ol_s/dm/uuid")
		case $_ol_u in
		CRYPT-*) ol_error="$_ol_n ($(cat "$_ol_s/dm/name")) is dm-crypt (LUKS): the capture kernel has no key for it" ;;
		mpath-*) ol_error="$_ol_n ($(cat "$_ol_s/dm/name")) is a multipath device, which the capture image does not assemble" ;;
		LVM-*-*) ol_error="$_ol_n ($(cat "$_ol_s/dm/name")) is an internal LVM layer (${_ol_u##*-}: a snapshot, thin, cache or raid volume), which the capture image does not assemble" ;;
		LVM-*) ;;
		*) ol_error="$_ol_n ($(cat "$_ol_s/dm/name")) is a device-mapper device of kind '${_ol_u%%-*}', which the capture image does not assemble" ;;
		esac
		[ -z "$ol_error" ] || return 1
		echo "lvm $(cat "$_ol_s/dm/name")"
	elif [ -d "$_ol_s/md" ]; then
		_ol_l=$(cat "$_ol_s/md/level" 2>/dev/null)
		if [ "$_ol_l" != raid1 ]; then
			ol_error="$_ol_n is md ${_ol_l:-of an unknown level}: the capture image assembles md RAID1 only"
			return 1
		fi
		echo "md $_ol_n raid1"
	else
		case $_ol_s in
		*/session[0-9]*) ol_error="$_ol_n is an iSCSI disk: the capture image brings up no iSCSI session" ;;
		*/virtual/block/nbd*) ol_error="$_ol_n is a network block device (nbd), which the capture image does not connect" ;;
		*/virtual/block/loop*) ol_error="$_ol_n is a loop device, whose backing file the capture image cannot reach" ;;
		*/virtual/block/zram* | */virtual/block/ram*) ol_error="$_ol_n is a RAM disk, lost at the crash" ;;
		esac
		[ -z "$ol_error" ] || return 1
		echo "disk $_ol_n"
		return 0
	fi
	for _ol_sl in "$_ol_s"/slaves/*; do
		[ -e "$_ol_sl" ] || continue
		ol_layout_of "$(readlink -f "$_ol_sl")" || return 1
	done
}

# ol_target_layout: ol_layout_of the configured target's block device, or
# nothing for a target that is no block device (9p, a network file system)
# or is not on this machine.
ol_target_layout() {
	ol_error=''
	case ${ol_target#*:} in
	UUID=* | LABEL=* | PARTUUID=* | PARTLABEL=*)
		_ol_dev=$(blkid -o device -t "${ol_target#*:}" 2>/dev/null | head -n 1) ;;
	/dev/*) _ol_dev=${ol_target#*:} ;;
	*) return 0 ;;
	esac
	[ -b "$_ol_dev" ] || return 0
	_ol_sys=$(ol_sys_of "$_ol_dev") || return 0
	ol_layout_of "$_ol_sys"
}

# --- network targets --------------------------------------------------------------
# "ssh:USER@HOST" (makedumpfile's flattened stream to oopslimit-receive on
# HOST) and "nfs:HOST:/EXPORT" (or nfs4:): the capture kernel brings up the
# one interface the running system reaches HOST through, with the IPv4
# address it has now (a DHCP lease included: reused as it is) and the
# gateway, found by asking the routing table ($OL_IP stands for ip in
# tests).  The capture image carries that interface's drivers.

# ol_resolve_net: for a network target, sets ol_net_host (as written),
# ol_net_ip (its IPv4 address), ol_net_dev (the interface), ol_net_mac
# (its hardware address, which finds it in the capture kernel, where its
# name may differ), ol_net_addr (ADDRESS/PREFIX), ol_net_gw (empty on the
# server's own subnet), ol_net_dynamic (yes for a DHCP lease) and
# ol_net_sys (the interface's device in sysfs).  False with $ol_error when
# the capture kernel could not take that way.
ol_resolve_net() {
	ol_net_host='' ol_net_ip='' ol_net_dev='' ol_net_mac='' ol_net_addr='' ol_net_gw='' ol_net_dynamic='' ol_net_sys=''
	ol_is_network_target "$ol_target" || return 0
	ol_net_host=$(ol_net_host "$ol_target")
	if ! command -v "${OL_IP:-ip}" >/dev/null 2>&1; then
		ol_error="a network dump target needs ip to find its way (apt-get install iproute2)"
		return 1
	fi
	case $ol_net_host in
	*[!0-9.]*) ol_net_ip=$(getent ahostsv4 "$ol_net_host" 2>/dev/null | awk '{ print $1; exit }') ;;
	*) ol_net_ip=$ol_net_host ;;
	esac
	if [ -z "$ol_net_ip" ]; then
		ol_error="the dump server $ol_net_host has no IPv4 address here (getent ahostsv4): the capture kernel brings up IPv4 only"
		return 1
	fi
	# "192.0.2.1 via 192.0.2.254 dev eth0 src 192.0.2.2 uid 0" (one line with -o)
	if ! _ol_r=$(${OL_IP:-ip} -4 -o route get "$ol_net_ip" 2>&1); then
		ol_error="no route to the dump server $ol_net_ip: $(printf '%s' "$_ol_r" | tr '\n' ' ')"
		return 1
	fi
	case $_ol_r in
	local\ * | *' dev lo '*)
		ol_error="the dump server $ol_net_host ($ol_net_ip) is this machine: a dump cannot be sent to the machine that crashed"
		return 1 ;;
	unreachable* | prohibit* | blackhole* | throw*)
		ol_error="no route to the dump server $ol_net_ip: $(printf '%s' "$_ol_r" | tr -s ' \\\t\n' ' ')"
		return 1 ;;
	esac
	_ol_src=''
	# shellcheck disable=SC2086  # its words
	set -- $_ol_r
	while [ $# -gt 1 ]; do
		case $1 in
		via) ol_net_gw=$2 ;;
		dev) ol_net_dev=$2 ;;
		src) _ol_src=$2 ;;
		esac
		shift
	done
	if [ -z "$ol_net_dev" ] || [ -z "$_ol_src" ]; then
		ol_error="cannot tell the interface and address that reach $ol_net_ip from: $_ol_r"
		return 1
	fi
	ol_net_sys=$(readlink -f "${OL_SYSFS:-/sys}/class/net/$ol_net_dev/device" 2>/dev/null) || ol_net_sys=''
	if [ -z "$ol_net_sys" ] || [ ! -d "$ol_net_sys" ]; then
		ol_error="the dump server $ol_net_ip is reached through $ol_net_dev, a virtual interface (bridge, bond, VLAN, tunnel or the like), which the capture image does not set up"
		return 1
	fi
	ol_net_mac=$(cat "${OL_SYSFS:-/sys}/class/net/$ol_net_dev/address" 2>/dev/null) || ol_net_mac=''
	case $ol_net_mac in
	??:??:??:??:??:??) ;;
	*) ol_error="$ol_net_dev has no Ethernet hardware address ('$ol_net_mac'): the capture image brings up Ethernet only"
		return 1 ;;
	esac
	# "2: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global dynamic eth0\ ..."
	_ol_a=$(${OL_IP:-ip} -4 -o addr show dev "$ol_net_dev" 2>/dev/null |
		awk -v s="$_ol_src" '{ for (i = 1; i < NF; i++) if ($i == "inet" && index($(i + 1), s "/") == 1) {
			d = "no"; for (j = i; j <= NF; j++) if ($j == "dynamic") d = "yes"
			print $(i + 1), d; exit } }')
	ol_net_addr=${_ol_a% *} ol_net_dynamic=${_ol_a#* }
	if [ -z "$_ol_a" ]; then
		ol_error="$ol_net_dev does not hold the address $_ol_src the route to $ol_net_ip leaves from"
		return 1
	fi
}
