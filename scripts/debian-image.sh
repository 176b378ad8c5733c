#!/bin/bash
# Builds the Debian guest of a release (bookworm: Debian 12, trixie: Debian
# 13, any suite scripts/debian-releases gives a guest kernel): a raw ext4 disk
# image (root on virtio-blk, /dev/vda) with systemd, the release's stock
# kernel, kexec-tools, makedumpfile, dracut-core, the project's oopslimit-kdump
# package as built for that release, the test module and the test plan
# runner (tests/guest-debian/), plus the kernel and initramfs it boots with,
# copied out of it.  mmdebstrap builds the tree and "mkfs.ext4 -d" the disk:
# nothing is mounted on this machine.
#
# The test module is built in the tree itself, against the kernel's
# linux-headers packages with the release's own compiler (Debian 13's headers
# want gcc-14 and its kbuild tools trixie's libc), which are then purged: the
# guest carries no compiler.  The package comes from scripts/deb.sh: built
# here for the release this machine runs, in a clean chroot of the release
# (deb.sh -r) for any other.
#
# The image is then booted once, as a user's machine would be after the
# install: oopslimit-kdump.service finds no capture initramfs (the package
# cannot build one in a chroot, where the dump target's drivers cannot be
# found), builds it for the real root disk and loads it.  Runs start from
# copies of that image.
#
# Prints the directory (disk.img, vmlinuz, initrd.img, kernelrelease, suite,
# stock: the stock-kernel.sh directory with the -dbg vmlinux), cached by its
# inputs: the Debian package versions, the kernel's packages, the .debs, the
# module, the runner, this script.
#
# The kernel is installed from its packages in a scripts/stock-kernel.sh
# directory: the one it makes of what the release's apt offers (the
# "guest" metapackage of scripts/debian-releases), or with
# OOPSLIMIT_STOCK_KERNEL=DIR the kernel in DIR, whose release decides the
# guest's (scripts/verify.sh -d points it at the kernel it verifies).
#
# Usage: [OOPSLIMIT_STOCK_KERNEL=DIR] scripts/debian-image.sh [SUITE]   (default bookworm)
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=debian-suite.sh
. "$OOPSLIMIT_TOP/scripts/debian-suite.sh"
# shellcheck source=debian-guest.sh
. "$OOPSLIMIT_TOP/scripts/debian-guest.sh"

for tool in mmdebstrap mkfs.ext4 qemu-system-x86_64; do
	command -v "$tool" >/dev/null || die "$tool is missing: run scripts/deps.sh"
done
[ "$(id -u)" -eq 0 ] || die "mmdebstrap needs root here (it builds the tree with chroot)"

[ $# -le 1 ] || die "usage: $prog [SUITE]"
suite=${1:-}
if [ -n "${OOPSLIMIT_STOCK_KERNEL:-}" ]; then
	stock=$(cd "$OOPSLIMIT_STOCK_KERNEL" 2>/dev/null && pwd -P) ||
		die "OOPSLIMIT_STOCK_KERNEL: no directory $OOPSLIMIT_STOCK_KERNEL"
	ksuite=$(cat "$stock/suite" 2>/dev/null) || die "$stock is not a stock-kernel.sh directory: no suite"
	[ -z "$suite" ] || [ "$suite" = "$ksuite" ] || die "the kernel in $stock is $ksuite's, not $suite's"
	suite=$ksuite
else
	suite=${suite:-bookworm}
	[ "$(suite_field "$suite" guest)" != - ] || die "scripts/debian-releases makes no Debian guest for $suite"
	stock=$("$OOPSLIMIT_TOP/scripts/stock-kernel.sh" -s "$suite") || die "cannot fetch $suite's stock kernel"
fi
release=$(cat "$stock/kernelrelease" 2>/dev/null) || die "$stock is not a stock-kernel.sh directory: no kernelrelease"
# The kernel goes in from its packages (apt installs them, the archive's copy or not).
mapfile -t image_debs < <(sed "s#^#$stock/debs/#" "$stock/image-debs" 2>/dev/null)
mapfile -t headers_debs < <(sed "s#^#$stock/debs/#" "$stock/headers-debs" 2>/dev/null)
{ [ ${#image_debs[@]} -gt 0 ] && [ ${#headers_debs[@]} -gt 0 ]; } ||
	die "$stock names no image and headers packages (image-debs, headers-debs): made by an older stock-kernel.sh?"
sources=$(suite_field "$suite" sources)
suite_apt "$suite"
if [ "$sources" = host ]; then
	# shellcheck disable=SC1091  # the host's
	host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ "$host_suite" = "$suite" ] ||
		die "scripts/debian-releases has $suite come from this machine's sources, but it runs ${host_suite:-an unknown release}"
	mapfile -t debs < <("$OOPSLIMIT_TOP/scripts/deb.sh" | grep '/oopslimit-kdump_[^/]*\.deb$') ||
		die "building the packages failed"
	mirror_spec=/etc/apt/sources.list.d/debian.sources
	[ -r "$mirror_spec" ] || mirror_spec=/etc/apt/sources.list
else
	mapfile -t debs < <("$OOPSLIMIT_TOP/scripts/deb.sh" -r "$suite" | grep '/oopslimit-kdump_[^/]*\.deb$') ||
		die "building the packages for $suite failed"
	mirror_spec="deb $(host_mirror) $suite main"
fi
[ ${#debs[@]} -eq 1 ] || die "scripts/deb.sh gave no oopslimit-kdump package"
# A newer suite's makedumpfile where the release's own gets pages of its
# kernel wrong (the "makedumpfile" column of scripts/debian-releases)
md_debs=()
if [ "$(suite_field "$suite" makedumpfile)" != - ]; then
	mapfile -t md_debs < <("$OOPSLIMIT_TOP/scripts/makedumpfile-backport.sh" "$suite") ||
		die "cannot bring $suite a newer makedumpfile"
	[ ${#md_debs[@]} -eq 1 ] || die "scripts/makedumpfile-backport.sh gave no package"
fi

# What the guest holds from Debian, at the versions apt offers now.
# (linux-base and initramfs-tools: what a Debian kernel package depends on;
# the guest boots with the initrd initramfs-tools makes)
# (the libkdumpfile the package was built against, whatever its soname in
# the release, comes with it: apt installs the package)
# (iproute2, openssh-client and -server, nfs-kernel-server: the ssh and NFS
# targets and the dump server guest, whose services stay off until a plan
# starts them; cryptsetup-bin: a LUKS dump disk, which check refuses)
packages=(systemd systemd-sysv udev kmod e2fsprogs linux-base initramfs-tools kexec-tools makedumpfile lvm2 mdadm
	dracut-core prometheus-node-exporter curl jq iproute2 openssh-client openssh-server nfs-kernel-server cryptsetup-bin)
versions=$(apt-cache "${apt_opts[@]}" policy "${packages[@]}" 2>/dev/null | awk '/^[^ ]/ { p = $1 } /Candidate:/ { print p, $2 }')
runner=$OOPSLIMIT_TOP/tests/guest-debian
# (key_of alone first: a file it cannot read must stop the script)
key=$(key_of "${image_debs[@]}" "${headers_debs[@]}" "${debs[@]}" "${md_debs[@]}" "$OOPSLIMIT_TOP/scripts/debian-releases" "$OOPSLIMIT_TOP"/tests/module/{Kbuild,Makefile,oopslimit_test.c} \
	"$runner"/oopslimit-test{-run,-setup.service,.service} "$0" \
	"$OOPSLIMIT_TOP/scripts/debian-guest.sh" "$OOPSLIMIT_TOP/scripts/qemu-run.sh")
key=$(printf '%s\n' "$key" "$suite" "$versions" "$stock" | sha256sum | cut -c1-16)
out=$OOPSLIMIT_CACHE/debian/image-$suite-$key
if [ ! -e "$out/disk.img" ]; then
	# (tests/run.sh builds the images in the background while the kernels
	# build: a scenario that needs one waits for that build)
	cache_lock "debian/image-$suite"
fi
if [ -e "$out/disk.img" ]; then
	printf '%s\n' "$out"
	exit 0
fi

archives=$OOPSLIMIT_CACHE/debian/archives/$suite
mkdir -p "$archives"
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

# The tree and its disk image, before the first boot (no guest boots for
# it): kept beside the image as IMAGE.tree, so that a first boot that fails
# or is not wanted yet does not make it again.  OOPSLIMIT_IMAGE_TREE=1
# stops there and prints that directory.
build_tree() {
	# What runs inside the tree: the kernel installed from its packages; the
	# test module built against its headers with the release's compiler; the
	# headers and the compiler purged again.
	cat >"$work/in-tree.sh" <<EOF
set -e
case \$1 in
kernel) apt-get install -q -y --no-install-recommends /oopslimit-build/kernel/*.deb ;;
module)
	apt-get install -q -y --no-install-recommends make /oopslimit-build/headers/*.deb
	dpkg-query -W -f '\${Package} \${Version}\n' 'gcc-[0-9]*' | awk '\$1 ~ /^gcc-[0-9]+\$/' >/oopslimit-build/module/compiler
	make -C /oopslimit-build/module KDIR=/usr/src/linux-headers-$release ;;
purge)
	apt-get purge -q -y --autoremove make \$(cd /oopslimit-build/headers && ls | sed 's/_.*//')
	apt-get clean ;;
esac
EOF
	say "building the $suite tree with mmdebstrap (log: $work/mmdebstrap.log)"
	include=$(
		IFS=,
		echo "${packages[*]}"
	)
	mkdir -p "$work/root"
	# shellcheck disable=SC2016  # mmdebstrap's hooks expand $1, the tree, themselves
	if ! suite_mmdebstrap "$work/mmdebstrap.log" "$suite" "$work/root" "$mirror_spec" --variant=minbase --include="$include" \
		--setup-hook="mkdir -p \"\$1/var/cache/apt/archives\" && { cp $archives/*.deb \"\$1/var/cache/apt/archives/\" 2>/dev/null || true; }" \
		--customize-hook="mkdir -p \"\$1/oopslimit-build/kernel\" \"\$1/oopslimit-build/headers\" \"\$1/oopslimit-build/module\"" \
		--customize-hook="copy-in ${image_debs[*]} /oopslimit-build/kernel" \
		--customize-hook="copy-in ${headers_debs[*]} /oopslimit-build/headers" \
		--customize-hook="copy-in $OOPSLIMIT_TOP/tests/module/Kbuild $OOPSLIMIT_TOP/tests/module/Makefile $OOPSLIMIT_TOP/tests/module/oopslimit_test.c /oopslimit-build/module" \
		--customize-hook="copy-in $work/in-tree.sh /oopslimit-build" \
		--customize-hook='chroot "$1" sh /oopslimit-build/in-tree.sh kernel' \
		--customize-hook="chroot \"\$1\" sh /oopslimit-build/in-tree.sh module >\"$work/module.log\" 2>&1" \
		--customize-hook="cp \"\$1/oopslimit-build/module/compiler\" \"$work/module.compiler\"" \
		--customize-hook="cp \"\$1\"/var/cache/apt/archives/*.deb $archives/ 2>/dev/null || true" \
		--customize-hook='chroot "$1" sh /oopslimit-build/in-tree.sh purge' \
		--customize-hook="copy-in ${debs[0]} /oopslimit-build" \
		--customize-hook="chroot \"\$1\" apt-get install -q -y --no-install-recommends /oopslimit-build/${debs[0]##*/}" \
		${md_debs[0]:+--customize-hook="copy-in ${md_debs[0]} /oopslimit-build"} \
		${md_debs[0]:+--customize-hook="chroot \"\$1\" apt-get install -q -y --no-install-recommends /oopslimit-build/${md_debs[0]##*/}"} \
		--customize-hook="mkdir -p \"\$1/lib/modules/$release/extra\" \"\$1/usr/local/sbin\"" \
		--customize-hook="cp \"\$1/oopslimit-build/module/oopslimit_test.ko\" \"\$1/lib/modules/$release/extra/\"" \
		--customize-hook='rm -rf "$1/oopslimit-build"' \
		--customize-hook="chroot \"\$1\" depmod -a $release" \
		--customize-hook="copy-in $runner/oopslimit-test-run /usr/local/sbin" \
		--customize-hook="copy-in $runner/oopslimit-test-setup.service $runner/oopslimit-test.service /etc/systemd/system" \
		--customize-hook='chroot "$1" systemctl enable oopslimit-test-setup.service oopslimit-test.service' \
		--customize-hook='for u in ssh.service ssh.socket nfs-server.service rpcbind.service rpcbind.socket; do ! chroot "$1" systemctl -q is-enabled "$u" 2>/dev/null || chroot "$1" systemctl -q disable "$u" || exit 1; done' \
		--customize-hook='echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" >"$1/etc/fstab"' \
		--customize-hook='echo oopslimit-debian >"$1/etc/hostname"' \
		--customize-hook='chroot "$1" passwd -d root'; then
		[ ! -s "$work/module.log" ] || tail -n 5 "$work/module.log" >&2
		die "mmdebstrap failed to build the $suite tree"
	fi
	kernel_image=$work/root/boot/vmlinuz-$release
	# (Debian 14: the image lives in the modules directory)
	[ -r "$kernel_image" ] || kernel_image=$work/root/usr/lib/modules/$release/vmlinuz
	[ -r "$kernel_image" ] || die "the tree has no /boot/vmlinuz-$release"
	[ -r "$work/root/boot/initrd.img-$release" ] || die "the tree has no /boot/initrd.img-$release"
	[ -x "$work/root/usr/sbin/oopslimit-kdump" ] || die "the tree lacks oopslimit-kdump"

	mkdir -p "$work/image"
	cp "$kernel_image" "$work/image/vmlinuz"
	cp "$work/root/boot/initrd.img-$release" "$work/image/initrd.img"
	echo "$release" >"$work/image/kernelrelease"
	echo "$suite" >"$work/image/suite"
	cp "$work/module.compiler" "$work/image/module.compiler"
	ln -s "$stock" "$work/image/stock"
	# Room for the system (about 500 MB), the capture images and a few dumps.
	mkfs.ext4 -q -F -L debian-root -d "$work/root" "$work/image/disk.img" 3G >"$work/mkfs.log" 2>&1 ||
		die "mkfs.ext4 -d failed: $(tail -n 2 "$work/mkfs.log" | tr '\n' ' ')"
	rm -rf "$work/root"
	rm -rf "$tree"
	mv "$work/image" "$tree"
	say "tree and disk image in $(since "$t0") s"
}
tree=$out.tree
[ -e "$tree/disk.img" ] || build_tree
if [ -n "${OOPSLIMIT_IMAGE_TREE:-}" ]; then
	printf '%s\n' "$tree"
	exit 0
fi
mkdir -p "$work/image"
cp -a --sparse=always "$tree/." "$work/image/"
say "the $suite guest's first boot (the capture initramfs is built there)"

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
rm -rf "$tree"
say "the $suite guest image is ready in $(since "$t0") s: $(du -sh --apparent-size "$out/disk.img" | cut -f1) apparent, $(du -sh "$out/disk.img" | cut -f1) used"
printf '%s\n' "$out"
