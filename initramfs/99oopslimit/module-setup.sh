#!/bin/bash
# shellcheck disable=SC2154  # moddir, initdir and kernel are set by dracut
# dracut module: the oopslimit capture initramfs.  It saves /proc/vmcore,
# the kernel log and the reason for the panic, then reboots; it never mounts
# a root file system.
#
# Built alone (dracut -m oopslimit, as "oopslimit-kdump rebuild" and
# scripts/capture-initramfs.sh do) it brings its own small /init: no udev, no
# systemd, nothing that waits for a root device, which keeps the image small
# enough for a small crashkernel= reservation.  On a modular kernel the image
# carries the drivers of the configured dump target, found here when the image
# is built (the block device's driver chain in sysfs and its file system), and
# the capture script loads them before it mounts the target.
#
# Files: module-setup.sh (this), oopslimit-init.sh (the /init),
# oopslimit-capture.sh (the capture), and the capture-side library
# oopslimit-lib.sh with oopslimit-store.sh, taken from where the loader
# takes them.  What the target's kind needs in the image comes from the
# kind's functions (oopslimit-kdump-kinds.sh, beside the library), with
# what the running system tells (oopslimit-kdump-discover.sh): both are
# read here, never carried into the image.

# Only when asked for: this module turns an initramfs into a capture one.
check() {
	return 255
}

depends() {
	return 0
}

# The config library on this machine (OOPSLIMIT_LIB names it in a build tree),
# with its other half, the dump store, beside it.
oopslimit_lib() {
	local lib=${OOPSLIMIT_LIB:-/usr/lib/oopslimit/oopslimit-lib.sh}
	if [ ! -r "$lib" ] || [ ! -r "${lib%/*}/oopslimit-store.sh" ]; then
		dfatal "oopslimit: cannot read the config library $lib or oopslimit-store.sh beside it (install oopslimit-kdump, or set OOPSLIMIT_LIB)"
		return 1
	fi
	printf '%s\n' "$lib"
}

# The running system's side, beside the library: what it tells (the layout,
# the route) and the target kinds' functions.
oopslimit_host_parts() {
	local dir=$1 part
	for part in oopslimit-kdump-discover.sh oopslimit-kdump-kinds.sh; do
		if [ ! -r "$dir/$part" ]; then
			derror "oopslimit: cannot read $part beside the config library in $dir (install oopslimit-kdump whole)"
			return 1
		fi
		# shellcheck source=/dev/null
		. "$dir/$part"
	done
}

# oopslimit_disk_modules SYSDIR: the modules that drive the disk at SYSDIR,
# from the disk up to its bus, one a line, the bus first (the load order).
oopslimit_disk_modules() {
	local sys=$1 mods='' m
	while [ "$sys" != /sys/devices ] && [ "$sys" != / ]; do
		if [ -e "$sys/driver/module" ]; then
			m=$(basename "$(readlink -f "$sys/driver/module")")
			case " $mods " in *" $m "*) ;; *) mods="$m $mods" ;; esac
		fi
		sys=${sys%/*}
	done
	for m in $mods; do
		printf '%s\n' "$m"
	done
}

# oopslimit_block_modules DEV: the modules the capture loads to reach block
# device DEV, in load order: the disks' drivers, then raid1 for md RAID1,
# then dm_mod for an LVM volume.  What must be assembled (md arrays, then
# the LVM volume) goes into the image's /etc/oopslimit/assemble, lowest
# layer first; the layout comes from ol_layout_of (oopslimit-lib.sh), which
# refuses what the image cannot rebuild.
oopslimit_block_modules() {
	local dev=$1 sys layers kind name vglv uuid
	if ! sys=$(ol_sys_of "$dev") || [ ! -d "$sys" ]; then
		derror "oopslimit: $dev has no sysfs entry: cannot tell which drivers it needs"
		return 1
	fi
	layers=$(ol_layout_of "$sys" || printf '\nerror: %s\n' "$ol_error")
	case $layers in *'
error: '*)
		derror "oopslimit: the dump target cannot be reached from the capture kernel: ${layers##*error: }"
		return 1 ;;
	esac
	mkdir -p "$initdir/etc/oopslimit"
	# lowest layer first
	while read -r kind name _; do
		case $kind in
		disk) oopslimit_disk_modules "$(readlink -f "/sys/class/block/$name")" ;;
		md)
			uuid=$(mdadm --detail --export "/dev/$name" 2>/dev/null | sed -n 's/^MD_UUID=//p')
			if [ -z "$uuid" ]; then
				derror "oopslimit: mdadm cannot tell the UUID of /dev/$name"
				return 1
			fi
			printf 'md /dev/%s %s\n' "$name" "$uuid" >>"$initdir/etc/oopslimit/assemble"
			echo raid1 ;;
		lvm)
			vglv=$(lvs --noheadings -o vg_name,lv_name "/dev/mapper/$name" 2>/dev/null | awk 'NF == 2 { print $1 "/" $2 }')
			if [ -z "$vglv" ]; then
				derror "oopslimit: lvs cannot tell which logical volume /dev/mapper/$name is"
				return 1
			fi
			printf 'lvm %s\n' "$vglv" >>"$initdir/etc/oopslimit/assemble"
			echo dm_mod ;;
		esac
	done < <(printf '%s\n' "$layers" | tac)
}

# The tools of the layers to assemble, and their configuration for a
# capture kernel without udev: LVM creates its device nodes itself and scans
# /dev, not a devices file; mdadm finds members in /proc/partitions.
oopslimit_install_assembly() {
	local f=$initdir/etc/oopslimit/assemble
	if grep -q '^md ' "$f"; then
		inst_multiple mdadm || { derror "oopslimit: cannot install mdadm"; return 1; }
		{
			echo 'DEVICE partitions'
			awk '$1 == "md" { print "ARRAY " $2 " UUID=" $3 }' "$f"
		} >"$initdir/etc/oopslimit/mdadm.conf"
	fi
	if grep -q '^lvm ' "$f"; then
		inst_multiple lvm || { derror "oopslimit: cannot install lvm"; return 1; }
		mkdir -p "$initdir/etc/lvm" "$initdir/run/lock/lvm"
		cat >"$initdir/etc/lvm/lvm.conf" <<-EOF
			devices {
				use_devicesfile = 0
				obtain_device_list_from_udev = 0
				external_device_info_source = "none"
			}
			activation {
				udev_sync = 0
				udev_rules = 0
				monitoring = 0
			}
			global {
				use_lvmpolld = 0
			}
			backup {
				backup = 0
				archive = 0
			}
		EOF
	fi
	[ -s "$f" ] && dinfo "oopslimit: assembles $(tr '\n' ';' <"$f")"
	return 0
}

installkernel() {
	local lib mods fbmods m
	lib=$(oopslimit_lib) || return 1
	# shellcheck source=../../kdump/oopslimit-lib.sh
	. "$lib"
	oopslimit_host_parts "${lib%/*}" || return 1
	if ! ol_conf_load "${OOPSLIMIT_KDUMP_CONF:-/etc/oopslimit/kdump.conf}" "$kernel"; then
		derror "oopslimit: $ol_error"
		return 1
	fi
	mkdir -p "$initdir/etc/oopslimit"
	: >"$initdir/etc/oopslimit/assemble"
	mods=$(kind_do modules "$ol_target") || return 1
	# the local disk of "failure_action fallback PATH" too, after the target's
	if [ -n "$ol_failure_target" ]; then
		fbmods=$(kind_fs_modules "$ol_failure_target") || return 1
		mods=$(printf '%s\n' "$mods" "$fbmods" | awk 'NF && !seen[$0]++')
	fi
	mkdir -p "$initdir/etc/oopslimit"
	: >"$initdir/etc/oopslimit/modules"
	for m in $mods; do
		# a module built into this kernel needs no loading
		if grep -q "/${m//_/[_-]}\.ko" "$srcmods/modules.builtin" 2>/dev/null; then
			continue
		fi
		hostonly='' instmods -c "$m" || {
			derror "oopslimit: the $m module of $kernel cannot be installed"
			return 1
		}
		printf '%s\n' "$m" >>"$initdir/etc/oopslimit/modules"
	done
	oopslimit_install_assembly || return 1
	kind_do image || return 1
	# modprobe (with libkmod's libraries, some megabytes) only when there is
	# something to load
	if [ -s "$initdir/etc/oopslimit/modules" ]; then
		inst_multiple modprobe
		dinfo "oopslimit: drivers for $ol_target: $(tr '\n' ' ' <"$initdir/etc/oopslimit/modules")"
	fi
}

install() {
	local reason lib
	if dracut_module_included base; then
		dfatal "oopslimit: this module builds a capture image of its own; build it alone (dracut -m oopslimit), not added to a full image"
		exit 1
	fi
	lib=$(oopslimit_lib) || exit 1
	inst_multiple sh makedumpfile vmcore-dmesg \
		mount umount mkdir mktemp chmod mv cp rm sync date cat sleep tail head dd grep tr sed \
		stat wc timeout du cut awk paste
	# The recorder: installed, or, for a build tree, named by OOPSLIMIT_REASON
	# (dracut sets its own PATH).
	reason=${OOPSLIMIT_REASON:-$(command -v oopslimit-reason)} || reason=''
	if [ ! -x "$reason" ]; then
		dfatal "oopslimit-reason not found: install oopslimit-kdump, or set OOPSLIMIT_REASON"
		exit 1
	fi
	inst "$reason" /usr/sbin/oopslimit-reason
	inst_simple "$lib" /usr/lib/oopslimit/oopslimit-lib.sh
	inst_simple "${lib%/*}/oopslimit-store.sh" /usr/lib/oopslimit/oopslimit-store.sh
	inst_simple "${lib%/*}/oopslimit-makedumpfile.sh" /usr/lib/oopslimit/oopslimit-makedumpfile.sh
	inst_simple "${lib%/*}/makedumpfile-pairs" /usr/lib/oopslimit/makedumpfile-pairs
	inst_script "$moddir/oopslimit-capture.sh" /usr/sbin/oopslimit-capture
	inst_script "$moddir/oopslimit-init.sh" /init
	mkdir -p "$initdir/proc" "$initdir/sys" "$initdir/dev" "$initdir/tmp" "$initdir/run" "$initdir/etc/oopslimit"
	# Nothing may re-apply the production kernel's panic policy here: the
	# capture kernel would panic on the first warning it met while saving.
	rm -rf -- "${initdir:?}/etc/sysctl.d" "${initdir:?}/usr/lib/sysctl.d" "${initdir:?}/etc/sysctl.conf"
}
