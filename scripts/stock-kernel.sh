#!/bin/bash
# Fetches Debian's stock kernel packages and unpacks them into the cache: the
# image (vmlinuz and modules), the headers an out-of-tree module builds
# against, and the -dbg package's vmlinux for crash and drgn on the host.
# Prints the directory, keyed by the kernel's ABI name and package version:
#   DIR/vmlinuz DIR/vmlinux DIR/System.map DIR/config DIR/kernelrelease
#   DIR/version (the image package's) DIR/headers (the kbuild directory for
#   M=) DIR/root (every package unpacked) DIR/debs (the .deb files)
# Nothing is installed on this machine: apt-get download and dpkg-deb -x only.
#
# With -d, the kernel is the one packaged in DEBDIR instead of the one apt
# offers (scripts/verify.sh -d): DEBDIR holds its linux-image-RELEASE
# package, linux-image-RELEASE-dbg (the vmlinux with debug info) and
# linux-headers-RELEASE with the linux-headers-* and linux-kbuild-* packages
# it depends on, as Debian's archive and "make bindeb-pkg" name them; other
# .debs there are ignored.  The directory is keyed by their content.
#
# Usage: scripts/stock-kernel.sh [METAPACKAGE]   (default linux-image-cloud-amd64)
#        scripts/stock-kernel.sh -d DEBDIR
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The packages of one kernel among the .debs of a directory: sets release,
# version and chosen (the .deb files), or stops naming what is missing.
choose_debs() {
	local dir=$1 deb p dep images=() want
	local -A file_of=()
	for deb in "$dir"/*.deb; do
		[ -e "$deb" ] || die "$dir holds no .deb packages"
		p=$(dpkg-deb -f "$deb" Package 2>/dev/null) || die "$deb is not a .deb package"
		[ -z "${file_of[$p]:-}" ] || die "$dir holds two $p packages: ${file_of[$p]##*/} and ${deb##*/}"
		file_of[$p]=$deb
	done
	# The image: linux-image-RELEASE with /boot/vmlinuz-RELEASE (not a
	# metapackage, which only depends on one).
	for p in "${!file_of[@]}"; do
		case $p in linux-image-*-dbg) continue ;; linux-image-*) ;; *) continue ;; esac
		dpkg-deb -c "${file_of[$p]}" | grep " \./boot/vmlinuz-${p#linux-image-}$" >/dev/null && images+=("$p")
	done
	[ ${#images[@]} -gt 0 ] || die "$dir holds no kernel image: a linux-image-RELEASE .deb with /boot/vmlinuz-RELEASE"
	[ ${#images[@]} -eq 1 ] || die "$dir holds several kernel images (${images[*]}): give one kernel's packages"
	release=${images[0]#linux-image-}
	version=$(dpkg-deb -f "${file_of[${images[0]}]}" Version)
	chosen=("${file_of[${images[0]}]}")
	[ -n "${file_of[linux-image-$release-dbg]:-}" ] ||
		die "$dir has no linux-image-$release-dbg package: crash needs the vmlinux with debug info"
	chosen+=("${file_of[linux-image-$release-dbg]}")
	[ -n "${file_of[linux-headers-$release]:-}" ] ||
		die "$dir has no linux-headers-$release package: the test module builds against it"
	chosen+=("${file_of[linux-headers-$release]}")
	# Debian splits the headers: the -common package and linux-kbuild-*.
	for dep in $(dpkg-deb -f "${file_of[linux-headers-$release]}" Depends | sed 's/([^)]*)//g; s/[,|]/ /g'); do
		case $dep in linux-headers-* | linux-kbuild-*) ;; *) continue ;; esac
		want=${file_of[$dep]:-}
		[ -n "$want" ] || die "$dir has no $dep package, which linux-headers-$release depends on"
		chosen+=("$want")
	done
}

debdir=''
if [ "${1:-}" = -d ]; then
	[ $# -eq 2 ] || die "usage: $prog -d DEBDIR"
	debdir=$2
	[ -d "$debdir" ] || die "no directory $debdir"
else
	[ $# -le 1 ] || die "usage: $prog [METAPACKAGE] | -d DEBDIR"
fi

if [ -n "$debdir" ]; then
	chosen=()
	choose_debs "$debdir"
	out=$OOPSLIMIT_CACHE/stock/$release-$version-$(key_of "${chosen[@]}")
else
	meta=${1:-linux-image-cloud-amd64}
	command -v apt-get >/dev/null || die "apt-get is missing: this script needs Debian's apt"
	# The metapackage names the ABI package: linux-image-6.1.0-57-cloud-amd64.
	image=$(apt-cache depends "$meta" 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
	[ -n "$image" ] || die "apt knows no $meta with a linux-image dependency (run apt-get update)"
	release=${image#linux-image-}
	version=$(apt-cache policy "$image" | sed -n 's/^ *Candidate: //p')
	case $version in '' | '(none)') die "apt has no candidate version of $image" ;; esac
	headers=linux-headers-$release
	common=$(apt-cache depends "$headers" | sed -n 's/^ *Depends: \(linux-headers-[^ ]*-common[^ ]*\)$/\1/p' | head -n 1)
	kbuild=$(apt-cache depends "$headers" | sed -n 's/^ *Depends: \(linux-kbuild-[^ ]*\)$/\1/p' | head -n 1)
	{ [ -n "$common" ] && [ -n "$kbuild" ]; } || die "cannot tell which packages $headers needs"
	out=$OOPSLIMIT_CACHE/stock/$release-$version
fi
if [ -e "$out/kernelrelease" ]; then
	printf '%s\n' "$out"
	exit 0
fi

mkdir -p "$OOPSLIMIT_CACHE/stock"
work=$(mktemp -d "$OOPSLIMIT_CACHE/stock/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/debs" "$work/root"
if [ -n "$debdir" ]; then
	say "copying the packages of $release ($version) from $debdir"
	# under the names dpkg gives them: PACKAGE_VERSION_ARCH.deb
	for deb in "${chosen[@]}"; do
		v=$(dpkg-deb -f "$deb" Version)
		cp --reflink=auto "$deb" "$work/debs/$(dpkg-deb -f "$deb" Package)_${v#*:}_$(dpkg-deb -f "$deb" Architecture).deb" ||
			die "cannot copy $deb"
	done
else
	pkgs=("$image=$version" "$headers=$version" "$common=$version" "$kbuild" "$image-dbg=$version")
	say "downloading ${pkgs[*]} (the -dbg package is about 280 MB)"
	# apt-get download writes into the current directory; _apt cannot write here.
	(cd "$work/debs" && apt-get download -q -o APT::Sandbox::User=root "${pkgs[@]}" >"$work/apt.log" 2>&1) ||
		die "apt-get download failed: $(tail -n 2 "$work/apt.log" | tr '\n' ' ')"
	rm -f "$work/apt.log"
fi
for deb in "$work"/debs/*.deb; do
	dpkg-deb -x "$deb" "$work/root" || die "cannot unpack $deb"
done

root=$work/root
[ -r "$root/boot/vmlinuz-$release" ] || die "linux-image-$release has no /boot/vmlinuz-$release"
[ -r "$root/boot/config-$release" ] || die "linux-image-$release has no /boot/config-$release"
[ -d "$root/lib/modules/$release/kernel" ] || die "linux-image-$release has no modules for $release"
vmlinux=$root/usr/lib/debug/boot/vmlinux-$release
[ -r "$vmlinux" ] || vmlinux=$root/usr/lib/debug/lib/modules/$release/vmlinux
[ -r "$vmlinux" ] || die "linux-image-$release-dbg has no vmlinux"
[ -d "$root/usr/src/linux-headers-$release" ] || die "linux-headers-$release has no /usr/src/linux-headers-$release"
# The headers' Makefile includes the -common package's by its installed,
# absolute path: point it at the unpacked copy.
sed -i "s#^include /usr/src/#include $out/root/usr/src/#" "$root/usr/src/linux-headers-$release/Makefile"
# Paths relative to the directory, so that the cache can move.
ln -s "root/boot/vmlinuz-$release" "$work/vmlinuz"
ln -s "${vmlinux#"$work"/}" "$work/vmlinux"
if [ -r "$root/boot/System.map-$release" ]; then
	ln -s "root/boot/System.map-$release" "$work/System.map"
else
	nm -n "$vmlinux" >"$work/System.map" || die "cannot read the symbols of $vmlinux"
fi
ln -s "root/boot/config-$release" "$work/config"
ln -s "root/usr/src/linux-headers-$release" "$work/headers"
printf '%s\n' "$version" >"$work/version"
printf '%s\n' "$release" >"$work/kernelrelease"
trap - EXIT
rm -rf "$out"
mv "$work" "$out"
printf '%s\n' "$out"
