#!/bin/bash
# shellcheck disable=SC2154  # moddir and initdir are set by dracut
# dracut module: the oopslimit capture initramfs.  It saves /proc/vmcore,
# the kernel log and the reason for the panic, then reboots; it never mounts
# a root file system.
#
# Built alone (dracut -m oopslimit, as scripts/capture-initramfs.sh does) it
# brings its own small /init: no udev, no systemd, nothing that waits for a
# root device, which keeps the image small enough for crashkernel=64M.
# Added to a full dracut image instead (--add oopslimit), it runs from a
# cmdline hook before dracut's base would look for root=.

# Only when asked for: this module turns an initramfs into a capture one.
check() {
	return 255
}

depends() {
	return 0
}

install() {
	local reason
	inst_multiple sh makedumpfile vmcore-dmesg \
		mount umount mkdir mv cp rm sync date cat sleep tail grep tr sed
	# The recorder: installed (make -C kdump install) or, for a build tree,
	# named by OOPSLIMIT_REASON (dracut sets its own PATH).
	reason=${OOPSLIMIT_REASON:-$(command -v oopslimit-reason)} || reason=''
	if [ ! -x "$reason" ]; then
		dfatal "oopslimit-reason not found: make -C kdump install, or set OOPSLIMIT_REASON"
		exit 1
	fi
	inst "$reason" /usr/sbin/oopslimit-reason
	inst_script "$moddir/oopslimit-capture.sh" /usr/sbin/oopslimit-capture
	if dracut_module_included base; then
		inst_hook cmdline 00 "$moddir/oopslimit-hook.sh"
	else
		inst_script "$moddir/oopslimit-init.sh" /init
		mkdir -p "$initdir/proc" "$initdir/sys" "$initdir/dev" "$initdir/tmp" "$initdir/run"
	fi
	# Nothing may re-apply the production kernel's panic policy here: the
	# capture kernel would panic on the first warning it met while saving.
	rm -rf -- "${initdir:?}/etc/sysctl.d" "${initdir:?}/usr/lib/sysctl.d" "${initdir:?}/etc/sysctl.conf"
}
