# shellcheck shell=bash
# Runs test plans in the Debian guest of a release (scripts/debian-image.sh
# builds it: Debian 12 by default, Debian 13 with "release trixie").
# Source it after lib.sh; it defines functions and runs nothing.
#
# debian_guest_setup [SUITE]
#     Builds (or finds in the cache) the guest image of SUITE (default
#     bookworm) and sets debian_image and debian_images[SUITE] to it,
#     the directory with disk.img, vmlinuz, initrd.img, kernelrelease and
#     stock/ (scripts/stock-kernel.sh's directory: stock/vmlinux is the -dbg
#     vmlinux for crash and drgn).
#
# debian_guest_run RUNDIR PLAN [KDUMP-LINES]
#     Boots a copy of the image (RUNDIR/disk.img) with the image's own kernel
#     and initramfs, root=/dev/vda, KASLR on as Debian boots, and runs PLAN
#     (a file of steps, see tests/guest-debian/oopslimit-test-run) after
#     systemd started oopslimit-kdump.service; KDUMP-LINES (a file) is
#     appended to the guest's /etc/oopslimit/kdump.conf before the service
#     starts.  The plan spans reboots: a panic goes to the capture kernel,
#     which saves the dump to /var/crash/<stamp>/ on the root disk and
#     reboots, and the next boot goes on with the plan; QEMU ends when the
#     plan is done and the guest powers off.
#     Settings (variables): debian_image (required), debian_crashkernel
#     (crashkernel= size, empty for none; default 256M), debian_mem (1G),
#     debian_timeout (seconds for the whole run, default 900),
#     debian_append (more kernel command line), debian_disks (an array of
#     "SIZE FSTYPE BUS MOUNTPOINT [LAYOUT]": more disks, each one file
#     system made here (ext4 or xfs, labelled oldiskN), or with LAYOUT
#     (part: the second of two GPT partitions; lvm: an LVM volume there;
#     luks: a LUKS volume there; md: md RAID1 over two disks of one
#     partition each) partitioned here and built by the guest's runner (a line
#     of fw_cfg opt/oopslimit/layout); on BUS (virtio, sata,
#     scsi, nvme; see qemu-run.sh -E), which the guest mounts at MOUNTPOINT
#     through /etc/fstab before oopslimit-kdump.service starts, a MOUNTPOINT
#     that holds files getting a copy of them first, as when /var moves to
#     a disk of its own).
#     debian_net ("SOCKET PEER MAC ADDRESS/PREFIX": a NIC on a wire to one
#     other guest, qemu-run.sh -n, which the guest sets up with that
#     address), debian_fw (an array of NAME=FILE: more fw_cfg items, such as
#     the ssh keys the runner installs).
#     Leaves, as the busybox guest does: RUNDIR/results ("booted RELEASE",
#     "record NAME VALUE", "trigger ...", "kdump ARGS => STATUS LAST-LINE",
#     "error ...", "finished"), RUNDIR/console.log (every boot's and the
#     capture kernel's console), and RUNDIR/dumps/<stamp>/ (the dump
#     directories, copied out of the disk image with debugfs, no mounting).
#     Returns qemu-run.sh's status: 0 when the guest powered off, 124 when
#     the time limit ended it, 1 on another failure.

declare -A debian_images=()
debian_guest_setup() {
	local suite=${1:-bookworm}
	debian_image=$("$OOPSLIMIT_TOP/scripts/debian-image.sh" "$suite") || die "building the $suite guest image failed"
	# shellcheck disable=SC2034  # read by scenario.sh
	debian_images[$suite]=$debian_image
}

debian_guest_run() {
	local dir=$1 plan=$2 conf=${3:-} rc=0 accel
	{ [ -n "${debian_image:-}" ] && [ -r "$debian_image/disk.img" ]; } ||
		die "no Debian guest image: call debian_guest_setup first"
	[ -r "$plan" ] || die "plan $plan not found"
	mkdir -p "$dir"
	cp "$plan" "$dir/plan"
	local fw=(-F "plan=$dir/plan")
	if [ -n "$conf" ]; then
		cp "$conf" "$dir/kdump.conf.add"
		fw+=(-F "kdump.conf=$dir/kdump.conf.add")
	fi
	rm -f "$dir/disk.img" "$dir/results" "$dir"/disk[0-9]*.img "$dir/fstab.add" "$dir/layout.add"
	rm -rf "$dir/dumps"
	cp --sparse=always "$debian_image/disk.img" "$dir/disk.img"
	local n=0 spec size fstype bus mp layout extra=()
	rm -f "$dir/layout.add"
	# shellcheck disable=SC2154  # the caller's setting, empty or unset for none
	for spec in "${debian_disks[@]}"; do
		n=$((n + 1))
		read -r size fstype bus mp layout <<<"$spec"
		truncate -s "$size" "$dir/disk$n.img"
		if [ -n "$layout" ]; then
			# GPT partitions named oldiskN-..., which the guest finds in
			# /dev/disk/by-partlabel; it builds the rest
			case $layout in
			part | lvm | luks) printf 'size=64MiB, name=oldisk%s-p1\nname=oldisk%s-%s\n' "$n" "$n" "$layout" >"$dir/sfdisk.in" ;;
			md)
				printf 'name=oldisk%s-md0\n' "$n" >"$dir/sfdisk.in"
				truncate -s "$size" "$dir/disk$n-b.img"
				printf 'label: gpt\nname=oldisk%s-md1\n' "$n" | sfdisk -q "$dir/disk$n-b.img" >"$dir/sfdisk.log" 2>&1 ||
					die "sfdisk failed for $dir/disk$n-b.img: $(tail -n 1 "$dir/sfdisk.log")"
				extra+=(-E "$dir/disk$n-b.img,$bus") ;;
			*) die "a disk's layout is part, lvm, md or luks, not '$layout'" ;;
			esac
			{ echo 'label: gpt'; cat "$dir/sfdisk.in"; } | sfdisk -q "$dir/disk$n.img" >"$dir/sfdisk.log" 2>&1 ||
				die "sfdisk failed for $dir/disk$n.img: $(tail -n 1 "$dir/sfdisk.log")"
			extra+=(-E "$dir/disk$n.img,$bus")
			printf '%s oldisk%s %s %s\n' "$layout" "$n" "$fstype" "$mp" >>"$dir/layout.add"
			continue
		fi
		case $fstype in
		ext4) mkfs.ext4 -q -F -L "oldisk$n" "$dir/disk$n.img" >"$dir/mkfs.log" 2>&1 ;;
		xfs) mkfs.xfs -q -f -L "oldisk$n" "$dir/disk$n.img" >"$dir/mkfs.log" 2>&1 ;;
		*) die "a disk's file system is ext4 or xfs, not '$fstype'" ;;
		esac || die "mkfs.$fstype failed for $dir/disk$n.img"
		extra+=(-E "$dir/disk$n.img,$bus")
		printf 'LABEL=oldisk%s %s %s defaults 0 2\n' "$n" "$mp" "$fstype" >>"$dir/fstab.add"
	done
	local net=() item
	if [ -n "${debian_net:-}" ]; then
		local sock peer mac addr
		read -r sock peer mac addr <<<"$debian_net"
		printf '%s\n' "$addr" >"$dir/net.add"
		fw+=(-F "net=$dir/net.add")
		net=(-n "$sock,$peer,$mac")
	fi
	# shellcheck disable=SC2154  # the caller's setting, unset for none
	for item in "${debian_fw[@]}"; do
		fw+=(-F "$item")
	done
	[ ! -e "$dir/fstab.add" ] || fw+=(-F "fstab=$dir/fstab.add")
	[ ! -e "$dir/layout.add" ] || fw+=(-F "layout=$dir/layout.add")
	# The KVM probe boots the project's busybox guest; this kernel cannot
	# answer it.  Use its answer if there is one, TCG otherwise.
	accel=$(known_accel)
	local crashkernel=${debian_crashkernel-256M}
	OOPSLIMIT_ACCEL=$accel "$OOPSLIMIT_TOP/scripts/qemu-run.sh" -R -N \
		-k "$debian_image/vmlinuz" -i "$debian_image/initrd.img" -d "$dir" -b "$dir/disk.img" \
		-m "${debian_mem:-1G}" -t "${debian_timeout:-900}" -S "$dir/results" "${fw[@]}" "${extra[@]}" "${net[@]}" \
		-a "root=/dev/vda rw${crashkernel:+ crashkernel=$crashkernel}${debian_append:+ $debian_append}" ||
		rc=$?
	debian_guest_dumps "$dir"
	return $rc
}

# debian_guest_dumps RUNDIR: the dump directories into RUNDIR/dumps, out of
# RUNDIR/disk.img: /var/crash, or /oopslimit-dumps, where the runner copies
# them when they are on another disk.
debian_guest_dumps() {
	local dir=$1 from
	rm -rf "$dir/dumps" "$dir/.rdump"
	mkdir -p "$dir/.rdump"
	from=/var/crash
	debugfs -R "stat /oopslimit-dumps" "$dir/disk.img" 2>/dev/null | grep -q 'Type: directory' && from=/oopslimit-dumps
	if debugfs -R "rdump $from $dir/.rdump" "$dir/disk.img" >"$dir/debugfs.log" 2>&1 &&
		[ -d "$dir/.rdump/${from##*/}" ]; then
		mv "$dir/.rdump/${from##*/}" "$dir/dumps"
	else
		mkdir -p "$dir/dumps"
	fi
	rm -rf "$dir/.rdump"
}
