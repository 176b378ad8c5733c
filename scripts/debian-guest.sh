# shellcheck shell=bash
# Runs test plans in the Debian 12 guest (scripts/debian-image.sh builds it).
# Source it after lib.sh; it defines functions and runs nothing.
#
# debian_guest_setup
#     Builds (or finds in the cache) the guest image and sets debian_image,
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
#     debian_append (more kernel command line).
#     Leaves, as the busybox guest does: RUNDIR/results ("booted RELEASE",
#     "record NAME VALUE", "trigger ...", "kdump ARGS => STATUS LAST-LINE",
#     "error ...", "finished"), RUNDIR/console.log (every boot's and the
#     capture kernel's console), and RUNDIR/dumps/<stamp>/ (the dump
#     directories, copied out of the disk image with debugfs, no mounting).
#     Returns qemu-run.sh's status: 0 when the guest powered off, 124 when
#     the time limit ended it, 1 on another failure.

debian_guest_setup() {
	debian_image=$("$OOPSLIMIT_TOP/scripts/debian-image.sh") || die "building the Debian guest image failed"
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
	rm -f "$dir/disk.img" "$dir/results"
	rm -rf "$dir/dumps"
	cp --sparse=always "$debian_image/disk.img" "$dir/disk.img"
	# The KVM probe boots the project's busybox guest; this kernel cannot
	# answer it.  Use its answer if there is one, TCG otherwise.
	accel=$(known_accel)
	local crashkernel=${debian_crashkernel-256M}
	OOPSLIMIT_ACCEL=$accel "$OOPSLIMIT_TOP/scripts/qemu-run.sh" -R -N \
		-k "$debian_image/vmlinuz" -i "$debian_image/initrd.img" -d "$dir" -b "$dir/disk.img" \
		-m "${debian_mem:-1G}" -t "${debian_timeout:-900}" -S "$dir/results" "${fw[@]}" \
		-a "root=/dev/vda rw${crashkernel:+ crashkernel=$crashkernel}${debian_append:+ $debian_append}" ||
		rc=$?
	debian_guest_dumps "$dir"
	return $rc
}

# debian_guest_dumps RUNDIR: /var/crash of RUNDIR/disk.img into RUNDIR/dumps.
debian_guest_dumps() {
	local dir=$1
	rm -rf "$dir/dumps" "$dir/.rdump"
	mkdir -p "$dir/.rdump"
	if debugfs -R "rdump /var/crash $dir/.rdump" "$dir/disk.img" >"$dir/debugfs.log" 2>&1 &&
		[ -d "$dir/.rdump/crash" ]; then
		mv "$dir/.rdump/crash" "$dir/dumps"
	else
		mkdir -p "$dir/dumps"
	fi
	rm -rf "$dir/.rdump"
}
