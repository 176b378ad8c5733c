#!/bin/bash
# Cross-builds the test module (tests/module) for a Debian stock kernel of
# another machine than this one (scripts/debian-kernel.sh -a arm64), for the
# busybox guest that boots it: a kernel without LKDTM gets its warnings and
# oopses from /proc/oopslimit-test.  The build runs as Debian builds such a
# module across architectures, in a root of the kernel's own release
# (mmdebstrap, minbase): the release's cross compiler (the one the kernel was
# built with, gcc-14 for Debian 13), linux-kbuild for this machine, and the
# kernel's linux-headers packages for its architecture unpacked in it.
# Nothing is installed on this machine.  Prints the module's path, cached by
# the kernel and the module's sources:
#   OOPSLIMIT_CACHE/modules/RELEASE-VERSION-KEY/oopslimit_test.ko
#
# Usage: scripts/test-module.sh KERNEL_DIR   (a directory debian-kernel.sh printed)
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=debian-suite.sh
. "$OOPSLIMIT_TOP/scripts/debian-suite.sh"

[ $# -eq 1 ] || die "usage: $prog KERNEL_DIR"
kdir=$1
for f in kernelrelease version suite arch config; do
	[ -r "$kdir/$f" ] || die "$kdir has no $f: not a directory scripts/debian-kernel.sh -a made"
done
release=$(cat "$kdir/kernelrelease")
version=$(cat "$kdir/version")
suite=$(cat "$kdir/suite")
debarch=$(cat "$kdir/arch")
[ "$debarch" = arm64 ] || die "$kdir is a $debarch kernel: this builds for arm64 kernels (x86_64's module is built in its Debian guest)"
[ "$(id -u)" -eq 0 ] || die "the build root needs root (mmdebstrap, chroot, mount)"
src=$OOPSLIMIT_TOP/tests/module
key=$(key_of "$src/Kbuild" "$src/Makefile" "$src/oopslimit_test.c" "$kdir/config" "$0")
out=$OOPSLIMIT_CACHE/modules/$release-$version-$key
if [ -e "$out/oopslimit_test.ko" ]; then
	printf '%s\n' "$out/oopslimit_test.ko"
	exit 0
fi
mkdir -p "$OOPSLIMIT_CACHE/modules"
cache_lock "modules/$release"
if [ -e "$out/oopslimit_test.ko" ]; then
	printf '%s\n' "$out/oopslimit_test.ko"
	exit 0
fi
# The compiler the kernel was built with: "aarch64-linux-gnu-gcc-14 (Debian ...)"
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$kdir/config")
case $cc in
*-linux-gnu-gcc-[0-9]*) ;;
*) die "$kdir/config names the compiler '$cc', not a Debian cross compiler" ;;
esac
cross=${cc%gcc-*}
# its package: aarch64-linux-gnu-gcc-14 is gcc-14-aarch64-linux-gnu
ccpkg=gcc-${cc##*-}-${cross%-}

work=$(mktemp -d "$OOPSLIMIT_CACHE/modules/.work.XXXXXX")
# shellcheck disable=SC2064  # expand now
trap "grep -q ' $work/' /proc/self/mounts || rm -rf '$work'" EXIT
t0=$(now_ms)
mkdir -p "$work/debs"
suite_apt "$suite" "$debarch"
# the headers' parts, as the package names them: linux-headers-*-common, and
# linux-kbuild-* (this machine's, in the build root)
common='' kbuild=''
for p in $(apt-cache "${apt_opts[@]}" depends "linux-headers-$release" 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\)-[^ ]*\)$/\1/p'); do
	case $p in
	linux-headers-*-common*) common=$p ;;
	linux-kbuild-*) kbuild=$p ;;
	esac
done
{ [ -n "$common" ] && [ -n "$kbuild" ]; } || die "cannot tell linux-headers-$release's -common and kbuild packages"
say "downloading linux-headers-$release and $common ($suite, $debarch)"
suite_download "$work/debs" "linux-headers-$release=$version" "$common=$version"
say "making the build root ($suite: $ccpkg, $kbuild; log: $work/mmdebstrap.log)"
# shellcheck disable=SC2016  # mmdebstrap's hooks expand $1, the tree, themselves
suite_mmdebstrap "$work/mmdebstrap.log" "$suite" "$work/root" "deb $(host_mirror) $suite main" --variant=minbase \
	--include="make,$ccpkg,$kbuild" \
	--customize-hook="for d in $work/debs/*.deb; do dpkg-deb -x \"\$d\" \"\$1\"; done" ||
	die "mmdebstrap failed to make the build root of $release"
mkdir -p "$work/root/oopslimit-build"
cp "$src/Kbuild" "$src/Makefile" "$src/oopslimit_test.c" "$work/root/oopslimit-build/"
# the kernel's ARCH is Debian's architecture for arm64, the one row this serves
(root_run "$work/root" -- make -C /oopslimit-build KDIR="/usr/src/linux-headers-$release" \
	ARCH="$debarch" CROSS_COMPILE="$cross") \
	>"$work/build.log" 2>&1 || die "the module did not build: $(tail -n 3 "$work/build.log" | tr '\n' ' ')"
mkdir -p "$work/out"
cp "$work/root/oopslimit-build/oopslimit_test.ko" "$work/out/" || die "the build made no oopslimit_test.ko"
cp "$work/build.log" "$work/out/"
rm -rf "$out"
mv "$work/out" "$out"
say "the test module for $release in $(since "$t0") s"
printf '%s\n' "$out/oopslimit_test.ko"
