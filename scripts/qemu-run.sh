#!/bin/bash
# Boots a kernel in QEMU with a run directory shared over 9p.
#
# Usage: scripts/qemu-run.sh -k BZIMAGE -i INITRD -d RUNDIR [-a APPEND]
#                            [-t SECONDS] [-m MEM] [-D DUMPFILE] [-b DISK]
#                            [-E DISK,BUS]... [-R] [-N] [-S FILE] [-F NAME=FILE]...
#                            [-n SOCKET,PEER,MAC] [-P] [-A ARCH]
#
# -A boots another machine of scripts/arches (arm64: qemu-system-aarch64's
# virt machine and the row's CPU, console ttyAMA0, always TCG).
#
# The serial console goes to RUNDIR/console.log; the guest mounts RUNDIR as
# 9p tag "host".  QEMU runs with -no-reboot, so a guest reboot or a panic
# (panic=-1) ends it.  With -D, the guest is instead left standing after a
# panic (panic=0) and, once it has panicked or said "holding" in
# RUNDIR/results, its memory is written to DUMPFILE (ELF) before QEMU quits.
# With -b, the raw image DISK is the guest's virtio disk /dev/vda.  -E adds
# the raw image DISK on BUS: virtio (virtio-blk), sata (an AHCI controller),
# scsi (virtio-scsi) or nvme.
#
# For a distribution guest (scripts/debian-guest.sh): -R keeps QEMU running
# across guest reboots (a capture kernel's reboot, then the next boot), so
# QEMU ends when the guest powers off; -N leaves out the 9p share (a kernel
# without 9p); -S appends the guest's second serial port (ttyS1) to FILE;
# -F passes FILE to the guest as fw_cfg item opt/oopslimit/NAME.
#
# -n gives the guest a virtio NIC with hardware address MAC on a wire of its
# own: QEMU's datagram netdev over unix sockets, this guest's at SOCKET (a
# path), its one peer's at PEER (the other guest's SOCKET).  Frames go from
# one QEMU to the other and nowhere else: nothing touches this machine's
# network stack, and a PEER nobody holds is a cable to nowhere.
#
# Exit status: 0 when QEMU ended by itself, 124 when the time limit ended it,
# 1 on any other failure.  KVM is used only if a real boot of this kernel
# under it finishes within 10 s (probed once per host boot, and remembered;
# OOPSLIMIT_ACCEL=tcg|kvm overrides); -P probes and prints the answer only,
# so a caller can probe while it builds something else.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

kernel='' initrd='' rundir='' append='' limit=300 mem=512M dump='' disk=''
reboot=no share=yes serial2='' fwcfg=() extra_disks=() nic=
probe_only=no arch=x86_64
while getopts k:i:d:a:t:m:D:b:E:RNS:F:n:PA: opt; do
	case $opt in
	A) arch=$OPTARG ;;
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	d) rundir=$OPTARG ;;
	a) append=$OPTARG ;;
	t) limit=$OPTARG ;;
	m) mem=$OPTARG ;;
	D) dump=$OPTARG ;;
	b) disk=$OPTARG ;;
	E)
		case $OPTARG in ?*,virtio | ?*,sata | ?*,scsi | ?*,nvme) ;;
		*) die "-E takes DISK,virtio|sata|scsi|nvme, not '$OPTARG'" ;;
		esac
		[ -w "${OPTARG%,*}" ] || die "disk image ${OPTARG%,*} not found or not writable"
		extra_disks+=("$OPTARG") ;;
	n)
		[[ $OPTARG =~ ^/[^,]+,/[^,]+,([0-9a-f]{2}:){5}[0-9a-f]{2}$ ]] || die "-n takes SOCKET,PEER,MAC (absolute paths), not '$OPTARG'"
		# a unix socket's path has room for 107 bytes
		for p in "${OPTARG%%,*}" "$(echo "$OPTARG" | cut -d, -f2)"; do
			[ ${#p} -le 107 ] || die "-n: the socket path $p is longer than 107 bytes"
		done
		nic=$OPTARG ;;
	P) probe_only=yes ;;
	R) reboot=yes ;;
	N) share=no ;;
	S) serial2=$OPTARG ;;
	F)
		[[ $OPTARG == [a-z]*=?* ]] || die "-F takes NAME=FILE, not '$OPTARG'"
		[ -r "${OPTARG#*=}" ] || die "fw_cfg file ${OPTARG#*=} not found"
		fwcfg+=(-fw_cfg "name=opt/oopslimit/${OPTARG%%=*},file=${OPTARG#*=}") ;;
	*) die "usage: $prog -k BZIMAGE -i INITRD -d RUNDIR [-a APPEND] [-t SECONDS] [-m MEM] [-D DUMPFILE] [-b DISK] [-R] [-N] [-S FILE] [-F NAME=FILE] [-n SOCKET,PEER,MAC] [-A ARCH]" ;;
	esac
done
if [ -z "$kernel" ] || [ -z "$initrd" ] || [ -z "$rundir" ]; then
	die "-k, -i and -d are required"
fi
[ -r "$kernel" ] || die "kernel $kernel not found"
[ -r "$initrd" ] || die "initrd $initrd not found"
[ -d "$rundir" ] || die "run directory $rundir not found"
[ -z "$disk" ] || [ -w "$disk" ] || die "disk image $disk not found or not writable"
qemu=$(arch_field "$arch" qemu)
command -v "$qemu" >/dev/null || die "$qemu missing: scripts/deps.sh installs it"
console=$(arch_field "$arch" console)
# the machine and CPU, "-" for QEMU's default PC
machine=()
m=$(arch_field "$arch" machine)
[ "$m" = - ] || machine=(-M "${m%%:*}" -cpu "${m#*:}")
dump_opts=$(arch_field "$arch" dump)
[ "$dump_opts" != - ] || dump_opts=''

# qemu_boot ACCEL SECONDS PANIC: runs QEMU in the background with its monitor
# on RUNDIR/monitor.in and .out (read into monitor.log); sets $qemu_pid and
# $monitor_reader.
qemu_boot() {
	local panic=$3 drive=() extra=()
	[ -z "$disk" ] || drive=(-drive "file=$disk,format=raw,if=virtio")
	local n=0 e
	for e in "${extra_disks[@]}"; do
		n=$((n + 1))
		case ${e##*,} in
		virtio) drive+=(-drive "file=${e%,*},format=raw,if=virtio") ;;
		sata) drive+=(-device "ahci,id=ahci$n" -drive "file=${e%,*},format=raw,if=none,id=disk$n"
			-device "ide-hd,drive=disk$n,bus=ahci$n.0") ;;
		scsi) drive+=(-device "virtio-scsi-pci,id=scsi$n" -drive "file=${e%,*},format=raw,if=none,id=disk$n"
			-device "scsi-hd,drive=disk$n,bus=scsi$n.0") ;;
		nvme) drive+=(-drive "file=${e%,*},format=raw,if=none,id=disk$n" -device "nvme,serial=oopslimit$n,drive=disk$n") ;;
		esac
	done
	[ $reboot = yes ] || extra+=(-no-reboot)
	[ $share = no ] ||
		extra+=(-virtfs "local,path=$rundir,mount_tag=host,security_model=none,id=host")
	[ -z "$serial2" ] || extra+=(-chardev "file,id=serial2,path=$serial2,append=on" -serial chardev:serial2)
	if [ -n "$nic" ]; then
		IFS=, read -r sock peer mac <<<"$nic"
		rm -f "$sock"
		extra+=(-netdev "dgram,id=wire,local.type=unix,local.path=$sock,remote.type=unix,remote.path=$peer"
			-device "virtio-net-pci,netdev=wire,mac=$mac")
	fi
	: >"$rundir/console.log"
	rm -f "$rundir/monitor.in" "$rundir/monitor.out" "$rundir/results"
	mkfifo "$rundir/monitor.in" "$rundir/monitor.out"
	cat "$rundir/monitor.out" >"$rundir/monitor.log" &
	monitor_reader=$!
	timeout --kill-after=5 "$2" "$qemu" "${machine[@]}" -accel "$1" -m "$mem" -smp 1 \
		-nodefaults -display none \
		-serial "file:$rundir/console.log" \
		-monitor "pipe:$rundir/monitor" \
		-device vmcoreinfo \
		"${extra[@]}" "${fwcfg[@]}" \
		"${drive[@]}" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=$console panic=$panic $append" \
		>"$rundir/qemu.log" 2>&1 &
	qemu_pid=$!
}

# Is KVM usable?  /dev/kvm can exist while guests hang under it, so ask a real
# boot of this kernel, with no plan, to report back within 10 seconds.
pick_accel() {
	if [ -n "${OOPSLIMIT_ACCEL:-}" ]; then
		printf '%s\n' "$OOPSLIMIT_ACCEL"
		return
	fi
	# another architecture than the host's is emulated
	if [ "$(arch_field "$arch" deb)" != "$(dpkg --print-architecture)" ]; then
		echo tcg
		return
	fi
	local cache
	cache=$(accel_memo)
	if [ ! -s "$cache" ]; then
		local choice=tcg saved_rundir=$rundir
		if [ -w /dev/kvm ]; then
			rundir=$(mktemp -d)
			: >"$rundir/plan"
			# a KVM boot to "finished" takes a second; TCG's takes two
			qemu_boot kvm 10 -1
			wait "$qemu_pid" 2>/dev/null || true
			grep -qx finished "$rundir/results" 2>/dev/null && choice=kvm
			rm -rf "$rundir"
			rundir=$saved_rundir
		fi
		mkdir -p "$OOPSLIMIT_CACHE"
		printf '%s\n' "$choice" | ol_write_atomic "$cache" || die "cannot write $cache"
	fi
	cat "$cache"
}

accel=$(pick_accel)
# -P: only find out whether KVM works (remembered for this host boot)
if [ "$probe_only" = yes ]; then
	printf '%s\n' "$accel"
	exit 0
fi
# Stopped from outside (a caller gave up on the run), take QEMU down too.
trap 'exit 143' TERM INT
trap 'kill ${qemu_pid:-} ${monitor_reader:-} 2>/dev/null || true; rm -f "$rundir/monitor.in" "$rundir/monitor.out" ${nic:+"${nic%%,*}"}' EXIT

if [ -n "$dump" ]; then
	qemu_boot "$accel" "$limit" 0
	# Wait for a panic or a holding guest, then dump and quit.
	exec 8>"$rundir/monitor.in"
	while kill -0 "$qemu_pid" 2>/dev/null; do
		if grep -q -- '---\[ end Kernel panic' "$rundir/console.log" ||
			grep -qx holding "$rundir/results" 2>/dev/null; then
			dump_tmp=$(mktemp "$dump.tmp.XXXXXX") || die "cannot make a file beside $dump"
			# x86_64's -p: with the guest's virtual addresses, which drgn needs
			printf 'dump-guest-memory %s%s\n' "${dump_opts:+$dump_opts }" "$dump_tmp" >&8
			printf 'quit\n' >&8
			break
		fi
		sleep 0.5
	done
	rc=0
	wait "$qemu_pid" || rc=$?
	exec 8>&-
	if [ -n "${dump_tmp:-}" ] && [ -s "$dump_tmp" ] && [ $rc -eq 0 ]; then
		chmod 644 "$dump_tmp"
		mv -fT "$dump_tmp" "$dump"
	else
		rm -f "${dump_tmp:-}"
	fi
else
	qemu_boot "$accel" "$limit" -1
	rc=0
	wait "$qemu_pid" || rc=$?
fi

case $rc in
0) ;;
124 | 137) say "QEMU did not finish within $limit s (console: $rundir/console.log)"; exit 124 ;;
*) die "QEMU failed with status $rc: $(head -c 300 "$rundir/qemu.log")" ;;
esac
