# shellcheck shell=sh
# shellcheck disable=SC2034  # the ol_ variables are set for the callers
# oopslimit-lib.sh: the one definition of kdump.conf (its keys, their
# defaults and what each accepts), of the dump target's kind, and of how the
# capture settings travel to the capture kernel.  The capture initramfs
# carries it (with oopslimit-store.sh) and nothing else of the loader's:
# what runs on the running system only (the mount table, the block layers,
# the route to a dump server) is oopslimit-kdump-discover.sh, beside it.
# Sourced by the loader, by the capture script, by the dracut module, by
# oopslimit-receive on a dump server and by the test harness.  POSIX sh: it
# runs under dash, bash and busybox sh.  It defines functions and variables
# and runs nothing but the loop that lists the keys.
#
# Functions (all names start with ol_; so do the variables they set):
#   ol_conf_known_key KEY       true when KEY is a kdump.conf key
#   ol_conf_default KEY [REL]   KEY's default (kernel and initrd name REL)
#   ol_conf_check KEY VALUE     true when VALUE is valid for KEY; else false
#                               with the reason in $ol_error
#   ol_conf_get FILE KEY        KEY's last value in FILE, or its default
#   ol_conf_value KEY           KEY's value in the file ol_conf_load
#                               (oopslimit-kdump-discover.sh) read
#   ol_size_bytes SIZE          SIZE (N, NK, NM, NG) in bytes, 64-bit;
#                               false when it is not a size
#   ol_is_size N                true when N is a byte count (64-bit)
#   ol_normpath PATH            PATH without "//", "/./", "x/.." or a
#                               trailing "/"
#   ol_kind TARGET              the target's kind: fs, 9p, ssh or nfs
#   ol_is_network_target TARGET true for a dump server (ssh, nfs)
#   ol_net_host TARGET          a dump server's name or address in TARGET
#   ol_capture_args             the oopslimit.*= words for the capture kernel
#   ol_capture_parse WORDS...   sets the capture settings from such words,
#                               defaults for those missing

# Every key of kdump.conf, in the order it describes them: its name, its
# default ("-": none; for the policy keys, the running kernel's value is
# kept; RELEASE: the kernel release the capture image is for) and what it
# is.  ol_conf_check holds what each accepts; tests/check.sh holds
# kdump/kdump.conf and oopslimit-kdump.conf.5 to this list (each describes
# every key, and no other).
OL_CONF_TABLE='
target              auto                               where the capture saves the dump
mount_options       -                                  the options for mounting the target
path                /var/crash                         the dump directory
sshkey              /etc/oopslimit/ssh/id_ed25519      the dump key of an ssh target
mount_wait          30                                 seconds to wait for the target
capture_deadline    auto                               seconds the whole capture may take
compress            lzo                                the dump page compression
dump_level          31                                 the dump page filter
final_action        reboot                             what follows a capture
failure_action      -                                  what follows a failed capture
keep                0                                  how many dumps to keep
min_free            0                                  the free space a dump begins with
kernel              /boot/vmlinuz-RELEASE              the capture kernel
initrd              /boot/initrd.img-RELEASE-oopslimit the capture initramfs
capture_append      -                                  more of the capture command line
oops_limit          -                                  kernel.oops_limit
warn_limit          -                                  kernel.warn_limit
panic_on_oops       -                                  kernel.panic_on_oops
panic_on_warn       -                                  kernel.panic_on_warn
metrics_dir         /var/lib/prometheus/node-exporter  where the live metrics go
pstore              yes                                whether boot judges a pstore record
pstore_before_kdump -                                  crash_kexec_post_notifiers
'
OL_CONF_KEYS=''
while read -r _ol_k _; do
	[ -z "$_ol_k" ] || OL_CONF_KEYS="${OL_CONF_KEYS:+$OL_CONF_KEYS }$_ol_k"
done <<EOF
$OL_CONF_TABLE
EOF
# The panic policy: applied to the running kernel, never to the capture one.
OL_POLICY_KEYS='oops_limit warn_limit panic_on_oops panic_on_warn'
ol_error=''

ol_conf_known_key() {
	case " $OL_CONF_KEYS " in *" $1 "*) return 0 ;; esac
	return 1
}

# ol_conf_default KEY [REL]: KEY's default in the table.
ol_conf_default() {
	while read -r _ol_k _ol_d _; do
		[ "$_ol_k" = "$1" ] || continue
		case $_ol_d in
		-) _ol_d='' ;;
		*RELEASE*) _ol_d=${_ol_d%%RELEASE*}${2:-$(uname -r)}${_ol_d#*RELEASE} ;;
		esac
		echo "$_ol_d"
		return 0
	done <<EOF
$OL_CONF_TABLE
EOF
	echo ''
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

# --- the dump target's kind -------------------------------------------------------
# Each kind is one set of functions: kind_KIND_* on the running system
# (oopslimit-kdump-kinds.sh: what reaching it takes, the drivers and files
# the capture image carries, the memory it needs at run time, fetching a
# capture back) and save_KIND in the capture kernel
# (initramfs/99oopslimit/oopslimit-capture.sh); its syntax is checked in
# ol_conf_check above.  The kinds, and how a target names its own:
#   fs   FSTYPE:SOURCE, a local file system ("auto" resolves to one)
#   9p   9p:TAG, a QEMU virtio-9p share
#   ssh  ssh:USER@HOST, oopslimit-receive on a dump server
#   nfs  nfs:HOST:/EXPORT or nfs4:HOST:/EXPORT, an NFS export
ol_kind() {
	case $1 in
	ssh:*) echo ssh ;;
	nfs:* | nfs4:*) echo nfs ;;
	9p:*) echo 9p ;;
	*) echo fs ;;
	esac
}

# ol_is_network_target TARGET: a dump server, which the capture kernel
# reaches through the interface the running system reaches it through
# (ol_resolve_net).
ol_is_network_target() {
	case $(ol_kind "$1") in ssh | nfs) return 0 ;; esac
	return 1
}

# ol_net_host TARGET: a dump server's name or address in TARGET.
ol_net_host() {
	case $(ol_kind "$1") in
	ssh) _ol_h=${1#ssh:} && echo "${_ol_h#*@}" ;;
	nfs) _ol_h=${1#*:} && echo "${_ol_h%%:*}" ;;
	esac
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
