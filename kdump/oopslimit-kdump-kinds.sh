# shellcheck shell=sh disable=SC2034,SC2154
# (SC2154, SC2034: the loader and dracut set what these read, and read what
# they set)
# oopslimit-kdump-kinds.sh: each kind of dump target (ol_kind in
# oopslimit-lib.sh lists them) as one block of functions, on the running
# system: sourced by the loader (oopslimit-kdump) and by the dracut module
# when it builds the capture image; the capture kernel's side of a kind is
# its save_KIND in initramfs/99oopslimit/oopslimit-capture.sh.  A kind
# defines the functions it needs; kind_do runs one by name, and a function
# a kind does not define is nothing to do.  POSIX sh.
#
# The functions, KIND_ being fs_, 9p_, ssh_ or nfs_:
#   kind_KIND_reach           one line: how the capture kernel reaches the
#                             target (the block layers, the interface);
#                             false with $ol_error when it cannot
#   kind_KIND_ready           false with $ol_error when "load" must not go
#                             on yet (the ssh dump key is not made)
#   kind_KIND_stale INITRD    why INITRD is older than what it carries, or
#                             nothing
#   kind_KIND_estimate LINE   the "estimate" line of what the capture image
#                             carries for it (LINE: kind_KIND_reach's)
#   kind_KIND_runtime_mib     what sending the dump takes at run time, MiB
#   kind_KIND_check           "check"'s lines of its own
#   kind_KIND_root            where this system sees the dump directories
#   kind_KIND_fetch DIR       a dump server's newest capture into DIR:
#                             sets r_stamp (none: there is none) and
#                             r_state, copies its reports; false with
#                             $remote_error
#   kind_KIND_where STAMP     where the server keeps STAMP, as scp and
#                             mount write it
#   kind_KIND_propagate [ADMIN]  "propagate": the server's side set up once
#   kind_KIND_modules TARGET  (dracut) the modules the capture loads for
#                             TARGET, in load order
#   kind_KIND_image           (dracut) the tools and files the capture
#                             image carries for it

# kind_do OP [ARGS...]: the target's kind's OP, if it has one.
kind_do() {
	_kd_f=kind_$(ol_kind "$ol_target")_$1
	shift
	command -v "$_kd_f" >/dev/null 2>&1 || return 0
	"$_kd_f" "$@"
}

# kind_has OP: whether the target's kind has an OP.
kind_has() {
	command -v "kind_$(ol_kind "$ol_target")_$1" >/dev/null 2>&1
}

# --- fs: a local file system, FSTYPE:SOURCE --------------------------------------------
kind_fs_reach() {
	# (a command substitution: its $ol_error comes back on the last line)
	_kr=$(ol_target_layout || printf '\nerror: %s\n' "$ol_error")
	case $_kr in *'
error: '*)
		ol_error="the dump target $ol_target cannot be reached from the capture kernel: ${_kr##*error: }"
		return 1 ;;
	esac
	printf '%s\n' "$_kr" | awk 'NF { printf "%s%s", (n++ ? " on " : ""), $0 } END { if (n) print "" }'
}

kind_fs_estimate() {
	# what the target's layers add (lvm, mdadm and their modules) is in the
	# image: counted packed and unpacked
	case $1 in
	*lvm* | *md*) printf '%-15s %s\n' "layout:" "$1 (lvm, mdadm, dm_mod, raid1 as needed: in the initramfs below)" ;;
	esac
}

# Where this system sees the target's dump directories: PATH itself for an
# "auto" target (ol_resolve_target found which file system holds it, and
# where in it), else the dump directory under the target's mount point, if
# it is mounted.
kind_fs_root() {
	if [ "$(ol_conf_value target)" = auto ]; then
		echo "$ol_local_dir"
		return
	fi
	_kr=$(target_device)
	_kr=$(awk -v s="$_kr" '$1 == s { print $2; exit }' /proc/self/mounts 2>/dev/null)
	[ -n "$_kr" ] || return 1
	ol_normpath "$_kr/$ol_dump_dir"
}

# The disk's bus and disk drivers, the layers' (LVM, md) and the file
# system's; a kernel with them built in has none to load.
kind_fs_modules() {
	_kf=${1%%:*} _ks=${1#*:}
	case $_kf in
	cifs | smb3)
		derror "oopslimit: a $_kf dump target is not supported: the capture image sends dumps over ssh or to NFS"
		return 1 ;;
	esac
	case $_ks in
	UUID=* | LABEL=* | PARTUUID=* | PARTLABEL=*)
		_kd=$(blkid -o device -t "$_ks" 2>/dev/null | head -n 1) ;;
	/dev/*) _kd=$_ks ;;
	*) _kd='' ;;
	esac
	if [ -z "$_kd" ] || [ ! -b "$_kd" ]; then
		derror "oopslimit: the dump target's device $_ks is not on this machine: cannot tell which drivers it needs"
		return 1
	fi
	_km=$(oopslimit_block_modules "$_kd") || return 1
	[ -z "$_km" ] || printf '%s\n' "$_km" | awk '!seen[$0]++'
	printf '%s\n' "$_kf"
}

# --- 9p: a QEMU virtio-9p share, 9p:TAG --------------------------------------------------
kind_9p_root() {
	kind_fs_root
}

# the virtio bus, its 9p transport, the file system
kind_9p_modules() {
	printf '%s\n' virtio_pci 9pnet_virtio 9p
}

# --- what the two dump servers share -------------------------------------------------------
# net_reach: how the capture kernel reaches the server, one line.
net_reach() {
	_kdrv=$(basename "$(readlink -f "$ol_net_sys/driver" 2>/dev/null)" 2>/dev/null) || _kdrv=''
	printf '%s\n' "server $ol_net_ip via $ol_net_dev (${_kdrv:-no driver?}, $ol_net_mac) as $ol_net_addr${ol_net_gw:+, gateway $ol_net_gw}$([ "$ol_net_dynamic" != yes ] || echo ', a DHCP lease: the capture reuses it as it is now')"
}

# net_modules: the interface the running system reaches the server through
# (ol_resolve_net found it), from its bus up.
net_modules() {
	if [ -z "${ol_net_sys:-}" ]; then
		derror "oopslimit: no interface found for the network target $1"
		return 1
	fi
	oopslimit_disk_modules "$ol_net_sys"
}

# net_image: ip, to bring the interface up.
net_image() {
	inst_multiple ip || { derror "oopslimit: cannot install ip (apt-get install iproute2)"; return 1; }
}

# The server's dumps: "last" reads copies of the newest one's reports.
net_root() {
	echo "$vardir/remote"
}

# --- ssh: oopslimit-receive on a dump server, ssh:USER@HOST -------------------------------
kind_ssh_reach() {
	net_reach
}

kind_ssh_ready() {
	if [ ! -r "$ol_sshkey" ] || [ ! -s "${ol_sshkey%/*}/known_hosts" ]; then
		ol_error="the ssh target $ol_target needs the dump key $ol_sshkey and the server's host key: run '$prog propagate'"
		return 1
	fi
}

kind_ssh_stale() {
	[ -z "$(find "$ol_sshkey" "${ol_sshkey%/*}/known_hosts" -newer "$1" 2>/dev/null)" ] ||
		echo "is older than the dump key or the server's host key (${ol_sshkey%/*})"
}

kind_ssh_estimate() {
	printf '%-15s %s\n' "network:" "$1 (the NIC's driver, ip, ssh and its libraries: in the initramfs below)"
}

# the ssh client with libcrypto beside makedumpfile, and the socket
# buffers: see kind_nfs_runtime_mib
kind_ssh_runtime_mib() {
	echo 8
}

# a dump server is asked, not required: it may be down for now
kind_ssh_check() {
	printf '%-15s %s\n' sshkey: "$ol_sshkey"
	if [ ! -r "$ol_sshkey" ] || [ ! -s "${ol_sshkey%/*}/known_hosts" ]; then
		printf '%-15s %s\n' server: "not set up: run '$prog propagate'"
	elif _ko=$(kind_ssh_request check </dev/null 2>&1); then
		printf '%-15s %s\n' server: "takes dumps into $(echo "$_ko" | cut -d' ' -f2), $(mib "$(echo "$_ko" | cut -d' ' -f3)") MiB free"
	else
		printf '%-15s %s\n' server: "not reachable now: $(printf '%s' "$_ko" | tr '\n' ' ')"
	fi
}

kind_ssh_root() {
	net_root
}

# the dump account on the server: ssh:USER@HOST's USER, oopslimit for ssh:HOST
kind_ssh_user() {
	case ${ol_target#ssh:} in *@*) echo "${ol_target#ssh:}" | cut -d@ -f1 ;; *) echo oopslimit ;; esac
}

# kind_ssh_request REQUEST...: a request to oopslimit-receive on the
# server, with the dump key, as the capture kernel makes it.
kind_ssh_request() {
	ol_ssh "$ol_sshkey" "${ol_sshkey%/*}/known_hosts" "$(ol_net_host "$ol_target")" "$(kind_ssh_user)@$ol_net_ip" "$@"
}

kind_ssh_fetch() {
	if [ ! -r "$ol_sshkey" ]; then
		remote_error="no dump key $ol_sshkey yet (oopslimit-kdump propagate)"
		return 1
	fi
	if ! _kl=$(kind_ssh_request last </dev/null 2>"$1/err"); then
		remote_error="ssh $(kind_ssh_user)@$(ol_net_host "$ol_target"): $(tr '\n' ' ' <"$1/err" | sed 's/ *$//')"
		return 1
	fi
	rm -f "$1/err"
	# the server's words are checked before a path is made of them
	if ! ol_last_parse "$_kl"; then
		remote_error=$ol_error
		return 1
	fi
	r_stamp=$ol_last_stamp r_state=$ol_last_state
	[ "$r_stamp" != none ] || return 0
	for _kf in reason.json reason.txt; do
		kind_ssh_request get "$r_stamp" "$_kf" </dev/null >"$1/$_kf" 2>/dev/null || rm -f "$1/$_kf"
	done
}

kind_ssh_where() {
	echo "${ol_target#ssh:}:$(ol_normpath "$ol_dump_dir/$1")"
}

kind_ssh_modules() {
	net_modules "$1"
}

# the client, the dump key "oopslimit-kdump propagate" made, the server's
# host key it recorded and the user database ssh insists on
kind_ssh_image() {
	net_image || return 1
	_kk=${ol_sshkey%/*}/known_hosts
	if [ ! -r "$ol_sshkey" ] || [ ! -s "$_kk" ]; then
		derror "oopslimit: the ssh target $ol_target needs the dump key $ol_sshkey and the server's host key in $_kk: run 'oopslimit-kdump propagate'"
		return 1
	fi
	inst_multiple ssh || { derror "oopslimit: cannot install ssh (apt-get install openssh-client)"; return 1; }
	mkdir -p "$initdir/etc/oopslimit/ssh" "$initdir/root"
	if ! { cp "$ol_sshkey" "$initdir/etc/oopslimit/ssh/id" && chmod 600 "$initdir/etc/oopslimit/ssh/id" &&
		cp "$_kk" "$initdir/etc/oopslimit/ssh/known_hosts"; }; then
		derror "oopslimit: cannot copy the dump key into the image"
		return 1
	fi
	grep -q '^root:' "$initdir/etc/passwd" 2>/dev/null || echo 'root:x:0:0:root:/root:/bin/sh' >>"$initdir/etc/passwd"
	grep -q '^root:' "$initdir/etc/group" 2>/dev/null || echo 'root:x:0:' >>"$initdir/etc/group"
	dinfo "oopslimit: ssh to $ol_target with $ol_sshkey"
}

# kind_ssh_propagate [ADMIN]: "propagate", the dump key on the server, as
# the loader's header says.  The one connection made with the admin's own
# identity (ADMIN, default root: their key, or a password typed here)
# records the server's host key,
# trusted at this first use (its fingerprint is printed to compare), under
# the server's name as kdump.conf writes it, and runs "oopslimit-receive
# --authorize" there (through sudo -n for an ADMIN other than root): the
# dump account USER (made if missing), the dump directory owned by it, and
# the dump key's line in its authorized_keys, restricted to
# oopslimit-receive for that directory and, unless the address here is a
# DHCP lease, to this machine's address (from=).
kind_ssh_propagate() {
	for t in ssh ssh-keygen; do
		command -v $t >/dev/null || die "$t is missing: apt-get install openssh-client"
	done
	admin=${1:-root}
	case $admin in '' | -* | *[!A-Za-z0-9._-]*) die "not a login name: '$admin'" ;; esac
	host=$(ol_net_host "$ol_target") user=$(kind_ssh_user) known=${ol_sshkey%/*}/known_hosts
	[ "$user" != root ] ||
		die "the dump account cannot be root (it parses every client's stream): target ssh:oopslimit@$host, an account propagate makes there"
	dir=$(ol_normpath "$ol_path")
	from=''
	[ "$ol_net_dynamic" = yes ] || from=${ol_net_addr%/*}
	if [ ! -e "$ol_sshkey" ]; then
		mkdir -p "${ol_sshkey%/*}"
		chmod 700 "${ol_sshkey%/*}"
		ssh-keygen -q -t ed25519 -N '' -C "oopslimit-kdump@$(host_id)" -f "$ol_sshkey" </dev/null ||
			die "ssh-keygen could not make the dump key $ol_sshkey"
		echo "$prog: made the dump key $ol_sshkey"
	fi
	[ -r "$ol_sshkey.pub" ] || die "no public key $ol_sshkey.pub beside the dump key"
	sudo=''
	[ "$admin" = root ] || sudo='sudo -n '
	touch "$known"
	# (every word of the command was checked: the user and host by the
	# target's syntax, the path by path's, the address is digits)
	if ! err=$(ssh -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile="$known" \
		-o HostKeyAlias="$host" -o ConnectTimeout=10 -- "$admin@$ol_net_ip" \
		"${sudo}/usr/lib/oopslimit/oopslimit-receive --authorize $user $dir${from:+ $from}" <"$ol_sshkey.pub" 2>&1); then
		case $err in *'oopslimit-receive: '*) err=${err##*oopslimit-receive: } ;; esac
		die "cannot install the dump key on $host as $admin: $(printf '%s' "$err" | tr '\n' ' ')"
	fi
	printf '%s\n' "$err" | sed -n 's/^oopslimit-receive: /'"$prog"': the server: /p'
	out=$(kind_ssh_request check </dev/null 2>&1) ||
		die "the dump key was installed for $user@$host but does not work: $(printf '%s' "$out" | tr '\n' ' ')"
	fp=$(ssh-keygen -l -F "$host" -f "$known" 2>/dev/null | awk '!/^#/ { print $(NF - 1) " " $NF; exit }')
	echo "$prog: $user@$host ($ol_net_ip) takes dumps into $dir with the key $ol_sshkey${from:+ from $from} ($(mib "$(echo "$out" | cut -d' ' -f3)") MiB free there); its host key ${fp:-?} is recorded in $known"
	echo "$prog: load again (or restart oopslimit-kdump.service) for a capture image with the key"
}

# --- nfs: an NFS export, nfs:HOST:/EXPORT or nfs4:HOST:/EXPORT ---------------------------
kind_nfs_reach() {
	net_reach
}

kind_nfs_estimate() {
	printf '%-15s %s\n' "network:" "$1 (the NIC's driver, ip and the NFS client: in the initramfs below)"
}

# What sending the dump takes at run time, beyond the image.  Measured
# (scripts/bench.sh targets, 1 GiB guest): ssh captured at 100M and failed
# at 96M where the image alone asked for 98M; NFS captured at 100M and
# failed at 96M (unpacking the image) where the image alone asked for 101M.
# Both are margins for a larger dump or a slower server, not a measured
# need: at these sizes the image decides.
kind_nfs_runtime_mib() {
	echo 4
}

kind_nfs_root() {
	net_root
}

kind_nfs_fetch() {
	mkdir "$1/mnt"
	_ke=${ol_target#*:}
	if ! _kerr=$(timeout -s KILL 15 mount -t "${ol_target%%:*}" -o "ro,$(ol_nfs_options "$ol_mntopts" "$ol_net_ip" "$ol_net_addr")" \
		"$ol_net_ip:${_ke#*:}" "$1/mnt" 2>&1); then
		remote_error="cannot mount $ol_net_ip:${_ke#*:}: $(printf '%s' "${_kerr:-no answer within 15 s}" | tr '\n' ' ')"
		return 1
	fi
	_kd=$(ol_dumps_in "$(ol_normpath "$1/mnt/$ol_dump_dir")" | tail -n 1)
	r_stamp=none r_state=none
	if [ -n "$_kd" ] && ol_is_stamp "${_kd##*/}"; then
		r_stamp=${_kd##*/}
		[ ! -e "$_kd/vmcore-incomplete" ] || r_state=incomplete
		[ ! -e "$_kd/vmcore" ] || r_state=complete
		# whoever owns the export could plant links: never followed
		for _kf in reason.json reason.txt; do
			ol_copy_plain "$_kd/$_kf" "$1/$_kf" || rm -f "$1/$_kf"
		done
	fi
	umount "$1/mnt" 2>/dev/null || umount -l "$1/mnt" 2>/dev/null
	rmdir "$1/mnt" 2>/dev/null
	return 0
}

kind_nfs_where() {
	_ke=${ol_target#*:}
	echo "${_ke%%:*}:$(ol_normpath "${_ke#*:}/$ol_dump_dir/$1")"
}

# the interface's drivers, then NFS's client
kind_nfs_modules() {
	net_modules "$1" || return 1
	case ${1%%:*} in
	nfs) printf '%s\n' nfs nfsv3 nfsv4 ;;
	nfs4) printf '%s\n' nfs nfsv4 ;;
	esac
}

kind_nfs_image() {
	net_image
}

# --- fetching a capture back from a dump server ----------------------------------------
# A kind that keeps its dumps on a server (kind_KIND_fetch): "last" copies
# the newest one's reports into $vardir/remote/STAMP/, with ".remote"
# saying "STATE WHERE" (complete, incomplete or none; where the dump is),
# and reads them there like a local dump.  False with $remote_error when
# the server cannot be asked.
remote_fetch() {
	remote_error=''
	mkdir -p "$vardir/remote"
	_rt=$(mktemp -d "$vardir/remote/.fetch.XXXXXX") || { remote_error="cannot make a directory in $vardir/remote"; return 1; }
	if ! kind_do fetch "$_rt"; then
		rm -rf "$_rt"
		return 1
	fi
	rm -f "$_rt/err"
	# the newest only: older copies go
	for _ro in "$vardir"/remote/[0-9]*; do
		[ ! -d "$_ro" ] || [ "${_ro##*/}" = "$r_stamp" ] || rm -rf "$_ro"
	done
	if [ "$r_stamp" = none ]; then
		rm -rf "$_rt"
		return 0
	fi
	echo "$r_state $(kind_do where "$r_stamp")" >"$_rt/.remote"
	rm -rf "${vardir:?}/remote/$r_stamp"
	mv "$_rt" "$vardir/remote/$r_stamp"
}
