#!/bin/bash
# Builds the Debian 12 guest: a raw ext4 disk image (root on virtio-blk,
# /dev/vda) with systemd, Debian's stock cloud kernel, kexec-tools,
# makedumpfile, dracut-core, the project's oopslimit-kdump package, the test
# module and the test plan runner (tests/guest-debian/), plus the kernel and
# initramfs it boots with, copied out of it.  mmdebstrap builds the tree and
# "mkfs.ext4 -d" the disk: nothing is mounted on this machine.
#
# The image is then booted once, as a user's machine would be after the
# install: oopslimit-kdump.service finds no capture initramfs (the package
# cannot build one in a chroot, where the dump target's drivers cannot be
# found), builds it for the real root disk and loads it.  Runs start from
# copies of that image.
#
# Prints the directory (disk.img, vmlinuz, initrd.img, kernelrelease, stock:
# the stock-kernel.sh directory with the -dbg vmlinux), cached by its inputs:
# the Debian package versions, the kernel's image package and directory, the
# .debs, the module, the runner, this script.
#
# The kernel is installed from the image package in a scripts/stock-kernel.sh
# directory: the one it makes of what apt offers, or with
# OOPSLIMIT_STOCK_KERNEL=DIR the kernel in DIR (scripts/verify.sh -d points
# it at the kernel it verifies).
#
# Usage: [OOPSLIMIT_STOCK_KERNEL=DIR] scripts/debian-image.sh
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=debian-guest.sh
. "$OOPSLIMIT_TOP/scripts/debian-guest.sh"

for tool in mmdebstrap mkfs.ext4 qemu-system-x86_64; do
	command -v "$tool" >/dev/null || die "$tool is missing: run scripts/deps.sh"
done
[ "$(id -u)" -eq 0 ] || die "mmdebstrap needs root here (it builds the tree with chroot)"

if [ -n "${OOPSLIMIT_STOCK_KERNEL:-}" ]; then
	stock=$(cd "$OOPSLIMIT_STOCK_KERNEL" 2>/dev/null && pwd -P) ||
		die "OOPSLIMIT_STOCK_KERNEL: no directory $OOPSLIMIT_STOCK_KERNEL"
else
	stock=$("$OOPSLIMIT_TOP/scripts/stock-kernel.sh") || die "cannot fetch Debian's stock kernel"
fi
release=$(cat "$stock/kernelrelease" 2>/dev/null) || die "$stock is not a stock-kernel.sh directory: no kernelrelease"
[ -r "$stock/headers/Makefile" ] || die "$stock has no headers for the test module"
# The kernel goes in from its package with dpkg -i, the archive's copy or not.
image_debs=("$stock/debs/linux-image-${release}_"*.deb)
{ [ -r "${image_debs[0]}" ] && [ ${#image_debs[@]} -eq 1 ]; } ||
	die "$stock/debs holds no single linux-image-${release} package"
mapfile -t debs < <("$OOPSLIMIT_TOP/scripts/deb.sh" | grep '/oopslimit-kdump_[^/]*\.deb$') ||
	die "building the packages failed"
[ ${#debs[@]} -eq 1 ] || die "scripts/deb.sh gave no oopslimit-kdump package"

# What the guest holds from Debian, at the versions apt offers now.
# (linux-base and initramfs-tools: what a Debian kernel package depends on;
# the guest boots with the initrd initramfs-tools makes)
packages=(systemd systemd-sysv udev kmod e2fsprogs linux-base initramfs-tools kexec-tools makedumpfile
	dracut-core libkdumpfile10)
versions=$(apt-cache policy "${packages[@]}" 2>/dev/null | awk '/^[^ ]/ { p = $1 } /Candidate:/ { print p, $2 }')
runner=$OOPSLIMIT_TOP/tests/guest-debian
# (key_of alone first: a file it cannot read must stop the script)
key=$(key_of "${image_debs[0]}" "${debs[@]}" "$OOPSLIMIT_TOP"/tests/module/{Kbuild,Makefile,oopslimit_test.c} \
	"$runner"/oopslimit-test{-run,-setup.service,.service} "$0" \
	"$OOPSLIMIT_TOP/scripts/debian-guest.sh" "$OOPSLIMIT_TOP/scripts/qemu-run.sh")
key=$(printf '%s\n' "$key" "$versions" "$stock" | sha256sum | cut -c1-16)
out=$OOPSLIMIT_CACHE/debian/image-$key
if [ -e "$out/disk.img" ]; then
	printf '%s\n' "$out"
	exit 0
fi

mkdir -p "$OOPSLIMIT_CACHE/debian/archives"
work=$(mktemp -d "$OOPSLIMIT_CACHE/debian/.work.XXXXXX")
# mmdebstrap mounts /proc, /sys and /dev into the tree while it works: never
# remove a tree it left something mounted in.
cleanup() {
	if grep -q " $work/" /proc/self/mounts; then
		say "left $work in place: something is still mounted in it"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
t0=$(now_ms)

say "building the test module against linux-headers-$release"
make -s -C "$OOPSLIMIT_TOP/tests/module" KDIR="$stock/headers" O="$work/module" >"$work/module.log" 2>&1 ||
	die "building tests/module failed: $(tail -n 3 "$work/module.log" | tr '\n' ' ')"

say "building the Debian 12 tree with mmdebstrap (log: $work/mmdebstrap.log)"
archives=$OOPSLIMIT_CACHE/debian/archives
include=$(
	IFS=,
	echo "${packages[*]}"
)
mkdir -p "$work/root"
# shellcheck disable=SC2016  # mmdebstrap's hooks expand $1, the tree, themselves
if ! mmdebstrap --variant=minbase --aptopt='APT::Sandbox::User "root"' \
	--include="$include" \
	--setup-hook="mkdir -p \"\$1/var/cache/apt/archives\" && { cp $archives/*.deb \"\$1/var/cache/apt/archives/\" 2>/dev/null || true; }" \
	--customize-hook="cp \"\$1\"/var/cache/apt/archives/*.deb $archives/ 2>/dev/null || true" \
	--customize-hook="copy-in ${image_debs[0]} /tmp" \
	--customize-hook="chroot \"\$1\" dpkg -i /tmp/${image_debs[0]##*/}" \
	--customize-hook="rm -f \"\$1/tmp/${image_debs[0]##*/}\"" \
	--customize-hook="copy-in ${debs[0]} /tmp" \
	--customize-hook="chroot \"\$1\" dpkg -i /tmp/${debs[0]##*/}" \
	--customize-hook="rm -f \"\$1/tmp/${debs[0]##*/}\"" \
	--customize-hook="mkdir -p \"\$1/lib/modules/$release/extra\" \"\$1/usr/local/sbin\"" \
	--customize-hook="copy-in $work/module/oopslimit_test.ko /lib/modules/$release/extra" \
	--customize-hook="chroot \"\$1\" depmod -a $release" \
	--customize-hook="copy-in $runner/oopslimit-test-run /usr/local/sbin" \
	--customize-hook="copy-in $runner/oopslimit-test-setup.service $runner/oopslimit-test.service /etc/systemd/system" \
	--customize-hook='chroot "$1" systemctl enable oopslimit-test-setup.service oopslimit-test.service' \
	--customize-hook='echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" >"$1/etc/fstab"' \
	--customize-hook='echo oopslimit-debian >"$1/etc/hostname"' \
	--customize-hook='chroot "$1" passwd -d root' \
	bookworm "$work/root" /etc/apt/sources.list.d/debian.sources >"$work/mmdebstrap.log" 2>&1; then
	tail -n 15 "$work/mmdebstrap.log" >&2
	die "mmdebstrap failed to build the Debian tree"
fi
[ -r "$work/root/boot/vmlinuz-$release" ] || die "the tree has no /boot/vmlinuz-$release"
[ -r "$work/root/boot/initrd.img-$release" ] || die "the tree has no /boot/initrd.img-$release"
[ -x "$work/root/usr/sbin/oopslimit-kdump" ] || die "the tree lacks oopslimit-kdump"

mkdir -p "$work/image"
cp "$work/root/boot/vmlinuz-$release" "$work/image/vmlinuz"
cp "$work/root/boot/initrd.img-$release" "$work/image/initrd.img"
echo "$release" >"$work/image/kernelrelease"
ln -s "$stock" "$work/image/stock"
# Room for the system (about 500 MB), the capture images and a few dumps.
mkfs.ext4 -q -F -L debian-root -d "$work/root" "$work/image/disk.img" 3G >"$work/mkfs.log" 2>&1 ||
	die "mkfs.ext4 -d failed: $(tail -n 2 "$work/mkfs.log" | tr '\n' ' ')"
rm -rf "$work/root"
say "tree and disk image in $(since "$t0") s; first boot (the capture initramfs is built there)"

# The first boot, as after an install: the unit builds the capture image and
# loads it.
printf '%s\n' "unit first oopslimit-kdump.service" "kdump status" >"$work/first.plan"
mkdir -p "$work/first"
debian_image=$work/image debian_crashkernel=256M \
	debian_guest_run "$work/first" "$work/first.plan" ||
	die "the first boot failed (console: $work/first/console.log)"
grep -qx 'record first active' "$work/first/results" ||
	die "oopslimit-kdump.service did not start at the first boot: $(grep '^record first.log' "$work/first/results" | cut -d' ' -f3-) (console: $work/first/console.log)"
mv "$work/first/disk.img" "$work/image/disk.img"
cp "$work/first/results" "$work/image/first-boot.results"
rm -rf "$out"
mv "$work/image" "$out"
say "the Debian guest image is ready in $(since "$t0") s: $(du -sh --apparent-size "$out/disk.img" | cut -f1) apparent, $(du -sh "$out/disk.img" | cut -f1) used"
printf '%s\n' "$out"
