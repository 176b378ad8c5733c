#!/bin/bash
# Fetches Debian's stock kernel packages and unpacks them into the cache: the
# image (vmlinuz and modules), the headers an out-of-tree module builds
# against, and the -dbg package's vmlinux for crash and drgn on the host.
# Prints the directory, keyed by the kernel's ABI name and package version:
#   DIR/vmlinuz DIR/vmlinux DIR/System.map DIR/config DIR/kernelrelease
#   DIR/headers (the kbuild directory for M=) DIR/root (every package unpacked)
#   DIR/debs (the .deb files as downloaded)
# Nothing is installed on this machine: apt-get download and dpkg-deb -x only.
#
# Usage: scripts/stock-kernel.sh [METAPACKAGE]   (default linux-image-cloud-amd64)
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -le 1 ] || die "usage: $prog [METAPACKAGE]"
meta=${1:-linux-image-cloud-amd64}
command -v apt-get >/dev/null || die "apt-get is missing: this script needs Debian's apt"

# The metapackage names the ABI package: linux-image-6.1.0-57-cloud-amd64.
image=$(apt-cache depends "$meta" 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
[ -n "$image" ] || die "apt knows no $meta with a linux-image dependency (run apt-get update)"
abi=${image#linux-image-}
version=$(apt-cache policy "$image" | sed -n 's/^ *Candidate: //p')
case $version in '' | '(none)') die "apt has no candidate version of $image" ;; esac
headers=linux-headers-$abi
common=$(apt-cache depends "$headers" | sed -n 's/^ *Depends: \(linux-headers-[^ ]*-common[^ ]*\)$/\1/p' | head -n 1)
kbuild=$(apt-cache depends "$headers" | sed -n 's/^ *Depends: \(linux-kbuild-[^ ]*\)$/\1/p' | head -n 1)
{ [ -n "$common" ] && [ -n "$kbuild" ]; } || die "cannot tell which packages $headers needs"

out=$OOPSLIMIT_CACHE/stock/$abi-$version
if [ -e "$out/kernelrelease" ]; then
	printf '%s\n' "$out"
	exit 0
fi

mkdir -p "$OOPSLIMIT_CACHE/stock"
work=$(mktemp -d "$OOPSLIMIT_CACHE/stock/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/debs" "$work/root"
pkgs=("$image=$version" "$headers=$version" "$common=$version" "$kbuild" "$image-dbg=$version")
say "downloading ${pkgs[*]} (the -dbg package is about 280 MB)"
# apt-get download writes into the current directory; _apt cannot write here.
(cd "$work/debs" && apt-get download -q -o APT::Sandbox::User=root "${pkgs[@]}" >"$work/apt.log" 2>&1) ||
	die "apt-get download failed: $(tail -n 2 "$work/apt.log" | tr '\n' ' ')"
for deb in "$work"/debs/*.deb; do
	dpkg-deb -x "$deb" "$work/root" || die "cannot unpack $deb"
done

release=$abi
root=$work/root
[ -r "$root/boot/vmlinuz-$release" ] || die "$image has no /boot/vmlinuz-$release"
[ -d "$root/lib/modules/$release/kernel" ] || die "$image has no modules for $release"
vmlinux=$root/usr/lib/debug/boot/vmlinux-$release
[ -r "$vmlinux" ] || vmlinux=$root/usr/lib/debug/lib/modules/$release/vmlinux
[ -r "$vmlinux" ] || die "$image-dbg has no vmlinux"
[ -d "$root/usr/src/linux-headers-$release" ] || die "$headers has no /usr/src/linux-headers-$release"
# The headers' Makefile includes the -common package's by its installed,
# absolute path: point it at the unpacked copy.
sed -i "s#^include /usr/src/#include $out/root/usr/src/#" "$root/usr/src/linux-headers-$release/Makefile"
# Paths relative to the directory, so that the cache can move.
ln -s "root/boot/vmlinuz-$release" "$work/vmlinuz"
ln -s "${vmlinux#"$work"/}" "$work/vmlinux"
ln -s "root/boot/System.map-$release" "$work/System.map"
ln -s "root/boot/config-$release" "$work/config"
ln -s "root/usr/src/linux-headers-$release" "$work/headers"
printf '%s\n' "$version" >"$work/version"
printf '%s\n' "$release" >"$work/kernelrelease"
rm -f "$work/apt.log"
trap - EXIT
rm -rf "$out"
mv "$work" "$out"
printf '%s\n' "$out"
