#!/bin/sh
# /init of the capture initramfs.  It mounts what the capture needs and
# hands over to oopslimit-capture, which loads the target's drivers, saves
# the dump and ends with a reboot (or power-off).  It never looks for a root
# file system and starts no udev: devtmpfs makes the device nodes.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
# everything the capture writes is root's alone (oopslimit-capture sets it
# too)
umask 077
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
# makedumpfile writes temporary files; the initramfs itself is writable,
# but a tmpfs keeps that off the capture kernel's small rootfs accounting.
mount -t tmpfs -o mode=1777 tmpfs /tmp 2>/dev/null
if [ -e /proc/vmcore ]; then
	/usr/sbin/oopslimit-capture
	echo "oopslimit: the capture script returned; rebooting" >/dev/console
else
	echo "oopslimit: this is a kdump capture initramfs, but there is no /proc/vmcore; rebooting" >/dev/console
fi
sync
echo b >/proc/sysrq-trigger
