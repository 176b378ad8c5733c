#!/bin/bash
# Installs the Debian 12 packages oopslimit needs, if any is missing.
# Usage: scripts/deps.sh
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

packages=(
	# the kernel source and what building it takes
	linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
	cpio xz-utils ccache kmod file patch binutils perl
	# the guest, and the arm64 one (scripts/arches: its QEMU, the cross
	# compiler of its static helper, QEMU's user-mode emulator that lists
	# its busybox's applets here)
	qemu-system-x86 busybox-static
	qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
	# capture and analysis
	kexec-tools makedumpfile crash dracut-core libkdumpfile-dev e2fsprogs jq zstd
	# the fleet summary's index (oopslimit-triage --index)
	libsqlite3-dev
	python3-drgn python3-jsonschema
	# the project's own checks
	shellcheck clang-14 libclang-rt-14-dev man-db
	# the Debian packages and the Debian guest (scripts/deb.sh, debian-image.sh)
	debhelper dpkg-dev lintian mmdebstrap
	# the Debian guest's XFS dump disks, and the partitions of its LVM, md and
	# multi-partition ones (scripts/debian-guest.sh)
	xfsprogs fdisk
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}); run as root or install them"
say "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null || die "apt-get update failed"
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
	die "apt-get install ${missing[*]} failed"
