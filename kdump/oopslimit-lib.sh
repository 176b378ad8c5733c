# shellcheck shell=sh
# shellcheck disable=SC2034  # the ol_ variables are set for the callers
# oopslimit-lib.sh: the one definition of kdump.conf (its keys, their
# defaults and what each accepts) and of how its capture settings travel to
# the capture kernel.  Sourced by the loader (oopslimit-kdump), by the
# capture script in the capture initramfs, by the dracut module when it
# builds that image, and by the test harness.  POSIX sh: it runs under dash,
# bash and busybox sh.  It defines functions and variables and runs nothing.
# Where the dumps are kept and how (retention, atomic writes, requests to a
# dump server) is its other half, oopslimit-store.sh, beside it.
#
# Functions (all names start with ol_; so do the variables they set):
#   ol_conf_known_key KEY       true when KEY is a kdump.conf key
#   ol_conf_default KEY [REL]   KEY's default (kernel and initrd name REL)
#   ol_conf_check KEY VALUE     true when VALUE is valid for KEY; else false
#                               with the reason in $ol_error
#   ol_conf_get FILE KEY        KEY's last value in FILE, or its default
#   ol_conf_all FILE KEY        every value of KEY in FILE, joined by blanks
#   ol_conf_value KEY           KEY's value in the file ol_conf_load read
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
#   ol_size_bytes SIZE          SIZE (N, NK, NM, NG) in bytes, 64-bit;
#                               false when it is not a size
#   ol_is_size N                true when N is a byte count (64-bit)
#   ol_resolve_target           turns ol_target "auto" into FSTYPE:SOURCE and
#                               sets ol_dump_dir (the dump directory within
#                               the target) and ol_local_dir (where this
#                               system sees it: set for "auto" only)
#   ol_normpath PATH            PATH without "//", "/./", "x/.." or a
#                               trailing "/"
#   ol_fs_of_path PATH          three lines: FSTYPE:SOURCE of the file system
#                               holding PATH, the directory within it, the
#                               mount point
#   ol_capture_args             the oopslimit.*= words for the capture kernel
#   ol_capture_parse WORDS...   sets the capture settings from such words,
#                               defaults for those missing
#   ol_layout_of SYSDIR         the layers under a block device (LVM, md,
#                               partition, disk), one a line; false with
#                               $ol_error naming a layout the capture image
#                               cannot rebuild (LUKS, iSCSI, multipath, ...)
#   ol_target_layout            ol_layout_of the target's device, if any
#   ol_net_kind TARGET          "ssh" or "nfs" for a network target, else
#                               nothing (false)
#   ol_resolve_net              for a network target, the server's IPv4
#                               address and the interface, address and
#                               gateway the capture kernel brings up
#                               (ol_net_*); false with $ol_error when the
#                               capture kernel could not reach the server

# Every key, in the order kdump.conf describes them.
OL_CONF_KEYS='target mount_options path sshkey mount_wait capture_deadline compress dump_level final_action failure_action keep min_free kernel initrd capture_append oops_limit warn_limit panic_on_oops panic_on_warn metrics_dir pstore pstore_before_kdump'
# The panic policy: applied to the running kernel, never to the capture one.
OL_POLICY_KEYS='oops_limit warn_limit panic_on_oops panic_on_warn'
# File systems that do not outlive a reboot, refused as an "auto" target.
OL_VOLATILE_FS='tmpfs ramfs rootfs devtmpfs proc sysfs overlay'
# File systems reached over a network: not a local fallback.
OL_NETWORK_FS='nfs nfs4 cifs smb3 9p ceph glusterfs fuse.sshfs'
ol_error=''

ol_conf_known_key() {
	case " $OL_CONF_KEYS " in *" $1 "*) return 0 ;; esac
	return 1
}

# The policy keys default to nothing: the running kernel's value is kept.
ol_conf_default() {
	case $1 in
	target) echo auto ;;
	path) echo /var/crash ;;
	sshkey) echo /etc/oopslimit/ssh/id_ed25519 ;;
	mount_wait) echo 30 ;;
	capture_deadline) echo auto ;;
	compress) echo lzo ;;
	dump_level) echo 31 ;;
	final_action) echo reboot ;;
	keep | min_free) echo 0 ;;
	kernel) echo "/boot/vmlinuz-${2:-$(uname -r)}" ;;
	initrd) echo "/boot/initrd.img-${2:-$(uname -r)}-oopslimit" ;;
	# what Debian's prometheus-node-exporter reads (its textfile collector)
	metrics_dir) echo /var/lib/prometheus/node-exporter ;;
	pstore) echo yes ;;
	*) echo '' ;;
	esac
}

ol_is_uint() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	[ ${#1} -le 10 ] && [ "$1" -le 4294967295 ]
}

# ol_is_size N: a byte count, 0 to 2^63-1 (what the shells' arithmetic
# holds); sizes are never held to 32 bits.
ol_is_size() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	[ ${#1} -lt 19 ] && return 0
	[ ${#1} -eq 19 ] || return 1
	# 19 digits: the first 18 against 2^63's, then the last
	_ol_h=${1%?}
	[ "$_ol_h" -lt 922337203685477580 ] || { [ "$_ol_h" -eq 922337203685477580 ] && [ "${1#"$_ol_h"}" -le 7 ]; }
}

# ol_size_bytes SIZE: a size with an optional K, M or G (powers of 1024),
# in bytes, without leading zeros (arithmetic would read them as octal).
ol_size_bytes() {
	_ol_n=${1%[KkMmGg]} _ol_m=1
	case $1 in
	*[Kk]) _ol_m=1024 ;;
	*[Mm]) _ol_m=1048576 ;;
	*[Gg]) _ol_m=1073741824 ;;
	esac
	while :; do
		case $_ol_n in 0?*) _ol_n=${_ol_n#0} ;; *) break ;; esac
	done
	ol_is_size "$_ol_n" && [ "$_ol_n" -le $((9223372036854775807 / _ol_m)) ] || return 1
	echo $((_ol_n * _ol_m))
}

# The messages name the key and the bad value; callers put the file first.
ol_conf_check() {
	ol_error=''
	case $1 in
	target)
		case $2 in
		*[[:space:]]*) ol_error='target cannot contain blanks' ;;
		ssh:*)
			_ol_h=${2#ssh:}
			_ol_h=${_ol_h#*@}
			case ${2#ssh:} in
			*@*@* | @* | *@) ol_error="target ssh: is ssh:USER@HOST or ssh:HOST, not '$2'" ;;
			-* | *@-*) ol_error="target ssh: a user or host cannot start with '-', not '${2#ssh:}'" ;;
			*[!A-Za-z0-9@._-]*) ol_error="target ssh:USER@HOST takes a host name or an IPv4 address (the capture kernel brings up IPv4 only), not '${2#ssh:}'" ;;
			'') ol_error="target ssh: needs a host: ssh:USER@HOST" ;;
			esac
			[ -n "$ol_error" ] || [ -n "$_ol_h" ] || ol_error="target ssh: needs a host: ssh:USER@HOST" ;;
		nfs:* | nfs4:*)
			_ol_h=${2#*:}
			case $_ol_h in
			*[!A-Za-z0-9._-]*:/* | :/*) ol_error="target ${2%%:*}: takes a host name or an IPv4 address (the capture kernel brings up IPv4 only), not '${_ol_h%%:/*}'" ;;
			?*:/*) ;;
			*) ol_error="target ${2%%:*}: is ${2%%:*}:HOST:/EXPORT, not '$2'" ;;
			esac ;;
		auto | ?*:?*) ;;
		*) ol_error="target is FSTYPE:SOURCE (e.g. ext4:/dev/vdb1), ssh:USER@HOST, nfs:HOST:/EXPORT or auto, not '$2'" ;;
		esac ;;
	sshkey)
		case $2 in
		*[[:space:]]*) ol_error='sshkey cannot contain blanks' ;;
		/*) ;;
		*) ol_error="sshkey must be absolute, not '$2'" ;;
		esac ;;
	path)
		# it goes into a server's authorized_keys line and its commands
		# (normalised: ol_normpath)
		case $2 in
		*[[:space:]]*) ol_error='path and mount_options cannot contain blanks' ;;
		*[!A-Za-z0-9._/+@:-]*) ol_error="path takes letters, digits and . _ / + @ : - only, not '$2'" ;;
		/*) ;;
		*) ol_error="path must be absolute, not '$2'" ;;
		esac ;;
	mount_options)
		case $2 in *[[:space:]]*) ol_error='path and mount_options cannot contain blanks' ;; esac ;;
	pstore)
		case $2 in yes | no) ;; *) ol_error="pstore is yes or no, not '$2'" ;; esac ;;
	pstore_before_kdump)
		case $2 in '' | yes | no) ;; *) ol_error="pstore_before_kdump is yes or no, not '$2'" ;; esac ;;
	metrics_dir)
		case $2 in
		*[[:space:]]*) ol_error='metrics_dir cannot contain blanks' ;;
		/*) ;;
		*) ol_error="metrics_dir must be absolute, not '$2'" ;;
		esac ;;
	mount_wait)
		ol_is_uint "$2" || ol_error="mount_wait takes seconds, not '$2'" ;;
	capture_deadline)
		[ "$2" = auto ] || ol_is_uint "$2" || ol_error="capture_deadline takes seconds, auto or 0 (none), not '$2'" ;;
	compress)
		case $2 in lzo | zlib | none) ;; *) ol_error="compress is lzo, zlib or none, not '$2'" ;; esac ;;
	dump_level)
		{ ol_is_uint "$2" && [ "$2" -le 31 ]; } || ol_error="dump_level is 0 to 31, not '$2'" ;;
	final_action)
		case $2 in reboot | poweroff) ;; *) ol_error="final_action is reboot or poweroff, not '$2'" ;; esac ;;
	failure_action)
		case $2 in
		'' | reboot | poweroff) ;;
		'fallback /'*)
			case ${2#fallback } in *[[:space:]]*) ol_error="failure_action fallback takes one absolute path without blanks, not '${2#fallback }'" ;; esac ;;
		*) ol_error="failure_action is reboot, poweroff or fallback PATH (an absolute path), not '$2'" ;;
		esac ;;
	keep)
		ol_is_uint "$2" || ol_error="keep takes a number of dumps (0: no limit), not '$2'" ;;
	min_free)
		ol_size_bytes "$2" >/dev/null || ol_error="min_free takes a size such as 2G or 512M (0: no floor), not '$2'" ;;
	oops_limit | warn_limit)
		[ -z "$2" ] || ol_is_uint "$2" || ol_error="$1 takes a number from 0 to 4294967295, not '$2'" ;;
	panic_on_oops | panic_on_warn)
		case $2 in '' | 0 | 1) ;; *) ol_error="$1 is 0 or 1, not '$2'" ;; esac ;;
	kernel | initrd | capture_append) ;;
	*) ol_error="unknown key '$1'" ;;
	esac
	[ -z "$ol_error" ]
}

# _ol_values FILE KEY: every value of KEY, one a line, blanks around trimmed.
_ol_values() {
	sed -n "s/^[[:space:]]*$2[[:space:]]\{1,\}\(.*[^[:space:]]\)[[:space:]]*\$/\1/p" "$1"
}

ol_conf_get() {
	_ol_v=$(_ol_values "$1" "$2" | tail -n 1)
	[ -n "$_ol_v" ] || _ol_v=$(ol_conf_default "$2" "${ol_release:-}")
	echo "$_ol_v"
}

ol_conf_all() {
	_ol_values "$1" "$2" | tr '\n' ' ' | sed 's/ $//'
}

# _ol_parse FILE: reads FILE once.  Sets _ol_set_KEY to KEY's last value
# (capture_append: all its values, joined by blanks) and _ol_bad to "N:LINE"
# of the first line that is neither blank, a comment, nor a known key with a
# value.
_ol_parse() {
	_ol_bad='' _ol_n=0
	for _ol_k in $OL_CONF_KEYS; do
		eval "_ol_set_$_ol_k=''"
	done
	while read -r _ol_k _ol_v || [ -n "$_ol_k" ]; do
		_ol_n=$((_ol_n + 1))
		case ${_ol_k:-#} in '#'*) continue ;; esac
		if [ -z "$_ol_v" ] || ! ol_conf_known_key "$_ol_k"; then
			[ -n "$_ol_bad" ] || _ol_bad="$_ol_n:$_ol_k${_ol_v:+ $_ol_v}"
			continue
		fi
		# $_ol_k is a known key, so a plain name: safe to eval
		if [ "$_ol_k" = capture_append ]; then
			_ol_set_capture_append="${_ol_set_capture_append:+$_ol_set_capture_append }$_ol_v"
		else
			eval "_ol_set_$_ol_k=\$_ol_v"
		fi
	done <"$1"
}

# ol_conf_value KEY: KEY's value in the file ol_conf_load read, or its default.
ol_conf_value() {
	eval "_ol_v=\${_ol_set_$1:-}"
	[ -n "$_ol_v" ] || _ol_v=$(ol_conf_default "$1" "${ol_release:-}")
	echo "$_ol_v"
}

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

ol_normpath() {
	printf '%s\n' "$1" | awk -F/ '{
		n = 0
		for (i = 2; i <= NF; i++) {
			if ($i == "" || $i == ".") continue
			if ($i == "..") { if (n > 0) n--; continue }
			part[++n] = $i
		}
		out = ""
		for (i = 1; i <= n; i++) out = out "/" part[i]
		print out == "" ? "/" : out }'
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

ol_net_kind() {
	case $1 in
	ssh:*) echo ssh ;;
	nfs:* | nfs4:*) echo nfs ;;
	*) return 1 ;;
	esac
}

# ol_net_host TARGET: the server's name or address in TARGET.
ol_net_host() {
	case $1 in
	ssh:*) _ol_h=${1#ssh:} && echo "${_ol_h#*@}" ;;
	nfs:* | nfs4:*) _ol_h=${1#*:} && echo "${_ol_h%%:*}" ;;
	esac
}

# ol_resolve_net: for a network target, sets ol_net_host (as written),
# ol_net_ip (its IPv4 address), ol_net_dev (the interface), ol_net_mac
# (its hardware address, which finds it in the capture kernel, where its
# name may differ), ol_net_addr (ADDRESS/PREFIX), ol_net_gw (empty on the
# server's own subnet), ol_net_dynamic (yes for a DHCP lease) and
# ol_net_sys (the interface's device in sysfs).  False with $ol_error when
# the capture kernel could not take that way.
ol_resolve_net() {
	ol_net_host='' ol_net_ip='' ol_net_dev='' ol_net_mac='' ol_net_addr='' ol_net_gw='' ol_net_dynamic='' ol_net_sys=''
	ol_net_kind "$ol_target" >/dev/null || return 0
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

# --- the capture kernel's command line ---------------------------------------------
# The capture settings travel as oopslimit.KEY=VALUE words, so that one
# capture initramfs serves any config.
ol_capture_args() {
	_ol_ret=''
	[ "${ol_keep:-0}" = 0 ] || _ol_ret=" oopslimit.keep=$ol_keep"
	[ "${ol_min_free:-0}" = 0 ] || _ol_ret="$_ol_ret oopslimit.min_free=$ol_min_free"
	[ "${ol_deadline:-0}" = 0 ] || _ol_ret="$_ol_ret oopslimit.deadline=$ol_deadline"
	[ -z "${ol_net_ip:-}" ] || _ol_ret="$_ol_ret oopslimit.server=$ol_net_ip oopslimit.net=$ol_net_mac,$ol_net_addr,${ol_net_gw:--}"
	echo "oopslimit.target=$ol_target${ol_mntopts:+ oopslimit.mntopts=$ol_mntopts} oopslimit.path=${ol_dump_dir:-$ol_path}${ol_fallback:+ oopslimit.fallback=$ol_fallback} oopslimit.collector=$ol_collector oopslimit.mount_wait=$ol_mount_wait oopslimit.final=$ol_final oopslimit.failure=${ol_failure:-$ol_final}${ol_failure_target:+ oopslimit.failure_target=$ol_failure_target oopslimit.failure_path=$ol_failure_dir}$_ol_ret"
}

ol_capture_parse() {
	ol_target='' ol_mntopts='' ol_fallback=''
	ol_path=$(ol_conf_default path)
	ol_mount_wait=$(ol_conf_default mount_wait)
	ol_final=$(ol_conf_default final_action)
	ol_collector="-l,-d,$(ol_conf_default dump_level)"
	ol_failure='' ol_failure_target='' ol_failure_dir='' ol_keep=0 ol_min_free=0 ol_deadline=0
	ol_net_ip='' ol_net_mac='' ol_net_addr='' ol_net_gw=''
	for _ol_arg in "$@"; do
		case $_ol_arg in
		oopslimit.target=*) ol_target=${_ol_arg#*=} ;;
		oopslimit.mntopts=*) ol_mntopts=${_ol_arg#*=} ;;
		oopslimit.path=*) ol_path=${_ol_arg#*=} ;;
		oopslimit.fallback=*) ol_fallback=${_ol_arg#*=} ;;
		oopslimit.collector=*) ol_collector=${_ol_arg#*=} ;;
		oopslimit.mount_wait=*) ol_mount_wait=${_ol_arg#*=} ;;
		oopslimit.final=*) ol_final=${_ol_arg#*=} ;;
		oopslimit.failure=*) ol_failure=${_ol_arg#*=} ;;
		oopslimit.failure_target=*) ol_failure_target=${_ol_arg#*=} ;;
		oopslimit.failure_path=*) ol_failure_dir=${_ol_arg#*=} ;;
		oopslimit.keep=*) ol_keep=${_ol_arg#*=} ;;
		oopslimit.min_free=*) ol_min_free=${_ol_arg#*=} ;;
		oopslimit.deadline=*) ol_deadline=${_ol_arg#*=} ;;
		oopslimit.server=*) ol_net_ip=${_ol_arg#*=} ;;
		oopslimit.net=*)
			_ol_v=${_ol_arg#*=}
			ol_net_mac=${_ol_v%%,*} _ol_v=${_ol_v#*,}
			ol_net_addr=${_ol_v%%,*} ol_net_gw=${_ol_v#*,}
			[ "$ol_net_gw" != - ] || ol_net_gw='' ;;
		esac
	done
	ol_failure=${ol_failure:-$ol_final}
}
