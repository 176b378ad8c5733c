#!/bin/bash
# Fetches a Debian release's stock kernel packages and unpacks them into the
# cache: the image (vmlinuz, modules, config), the headers an out-of-tree
# module builds against, and the -dbg package's vmlinux for crash and drgn on
# the host.  Prints the directory, keyed by the kernel's release and package
# version (or, with -d, by the packages' content):
#   DIR/vmlinuz DIR/vmlinux DIR/System.map DIR/config DIR/kernelrelease
#   DIR/version (the image package's) DIR/suite (the Debian release it
#   belongs to, per scripts/debian-releases) DIR/headers (the kbuild
#   directory for M=) DIR/root (every package unpacked) DIR/debs (the .deb
#   files) DIR/image-debs (the file names of those the guest installs: the
#   image, or Debian 14's linux-image, -binary, -modules and -base parts)
#   DIR/headers-debs (those of the headers)
# Whatever the release calls its packages: a signed linux-image-RELEASE or its
# -unsigned twin, Debian 14's split, modules under /lib or /usr/lib, plain or
# compressed.  Nothing is installed on this machine: apt-get download and
# dpkg-deb -x only, through an apt configuration of the suite's own
# (scripts/debian-suite.sh) when the host's sources do not serve it.
#
# With -d, the kernel is the one packaged in DEBDIR instead of one apt offers
# (scripts/verify.sh -d): DEBDIR holds its image package(s), its -dbg
# package (the vmlinux with debug info) and linux-headers-RELEASE with the
# linux-headers-* and linux-kbuild-* packages it depends on, as Debian's
# archive and "make bindeb-pkg" name them; other .debs there are ignored.
# The release it belongs to is the suite whose "releases" pattern its
# release matches, or -s SUITE; with -g that release must have a Debian guest
# (scripts/debian-releases' "guest" column), checked before anything is
# unpacked.
#
# Usage: scripts/stock-kernel.sh [-s SUITE] [METAPACKAGE]
#            (default: bookworm, and the metapackage its Debian guest boots)
#        scripts/stock-kernel.sh [-s SUITE] [-g] -d DEBDIR
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=debian-suite.sh
. "$OOPSLIMIT_TOP/scripts/debian-suite.sh"

usage="usage: $prog [-s SUITE] [METAPACKAGE] | [-s SUITE] [-g] -d DEBDIR"
suite='' debdir='' need_guest=''
while getopts s:d:g opt; do
	case $opt in
	s) suite=$OPTARG ;;
	g) need_guest=1 ;;
	d) debdir=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$suite" ] && suite_field "$suite" suite >/dev/null

# The packages of one kernel among the .debs of a directory: sets release,
# version, chosen (the .deb files), image_set and headers_set (package
# names), or stops naming what is missing.
choose_debs() {
	local dir=$1 deb p dep images=() want r
	local -A file_of=() release_of=()
	for deb in "$dir"/*.deb; do
		[ -e "$deb" ] || die "$dir holds no .deb packages"
		p=$(dpkg-deb -f "$deb" Package 2>/dev/null) || die "$deb is not a .deb package"
		[ -z "${file_of[$p]:-}" ] || die "$dir holds two $p packages: ${file_of[$p]##*/} and ${deb##*/}"
		file_of[$p]=$deb
	done
	# The image: the package with /boot/vmlinuz-RELEASE or
	# /usr/lib/modules/RELEASE/vmlinuz (not a metapackage, which only
	# depends on one).
	for p in "${!file_of[@]}"; do
		case $p in linux-image-*-dbg) continue ;; linux-image-* | linux-binary-*) ;; *) continue ;; esac
		r=$(dpkg-deb -c "${file_of[$p]}" | sed -n 's#.* \./boot/vmlinuz-\([^/]*\)$#\1#p; s#.* \./usr/lib/modules/\([^/]*\)/vmlinuz$#\1#p' | head -n 1)
		[ -z "$r" ] || { images+=("$p"); release_of[$p]=$r; }
	done
	[ ${#images[@]} -gt 0 ] || die "$dir holds no kernel image: a linux-image-RELEASE (or linux-binary-RELEASE) .deb with its vmlinuz"
	[ ${#images[@]} -eq 1 ] || die "$dir holds several kernel images (${images[*]}): give one kernel's packages"
	release=${release_of[${images[0]}]}
	[ "$(dpkg-deb -f "${file_of[${images[0]}]}" Architecture)" = amd64 ] ||
		die "${images[0]} is for $(dpkg-deb -f "${file_of[${images[0]}]}" Architecture), not amd64"
	version=$(dpkg-deb -f "${file_of[${images[0]}]}" Version)
	image_set=("${images[0]}")
	# Debian 14: the image is linux-image-RELEASE over linux-binary-RELEASE,
	# linux-modules-RELEASE and linux-base-RELEASE.
	for p in "linux-image-$release" "linux-modules-$release" "linux-base-$release"; do
		[ "$p" = "${images[0]}" ] || [ -z "${file_of[$p]:-}" ] || image_set+=("$p")
	done
	for p in "${image_set[@]}"; do
		for dep in $(dpkg-deb -f "${file_of[$p]}" Depends | sed 's/([^)]*)//g; s/[,|]/ /g'); do
			case $dep in linux-modules-"$release" | linux-base-"$release" | linux-binary-"$release") ;; *) continue ;; esac
			[ -n "${file_of[$dep]:-}" ] || die "$dir has no $dep package, which $p depends on"
		done
	done
	[ -n "${file_of[linux-image-$release-dbg]:-}" ] ||
		die "$dir has no linux-image-$release-dbg package: crash needs the vmlinux with debug info"
	[ -n "${file_of[linux-headers-$release]:-}" ] ||
		die "$dir has no linux-headers-$release package: the test module builds against it"
	headers_set=("linux-headers-$release")
	# Debian splits the headers: the -common package and linux-kbuild-*.
	for dep in $(dpkg-deb -f "${file_of[linux-headers-$release]}" Depends | sed 's/([^)]*)//g; s/[,|]/ /g'); do
		case $dep in linux-headers-* | linux-kbuild-*) ;; *) continue ;; esac
		want=${file_of[$dep]:-}
		[ -n "$want" ] || die "$dir has no $dep package, which linux-headers-$release depends on"
		headers_set+=("$dep")
	done
	chosen=()
	for p in "${image_set[@]}" "${headers_set[@]}" "linux-image-$release-dbg"; do chosen+=("${file_of[$p]}"); done
}

if [ -n "$debdir" ]; then
	[ $# -eq 0 ] || die "$usage"
	[ -d "$debdir" ] || die "no directory $debdir"
	choose_debs "$debdir"
	if [ -z "$suite" ]; then
		suite=$(suite_of_release "$release")
		[ -n "$suite" ] ||
			die "$release belongs to no release of scripts/debian-releases (its 'releases' patterns): name one with -s SUITE"
	fi
	[ -z "$need_guest" ] || [ "$(suite_field "$suite" guest)" != - ] ||
		die "$release is $suite's kernel, and scripts/debian-releases makes no Debian guest for $suite"
	out=$OOPSLIMIT_CACHE/stock/$release-$version-$(key_of "${chosen[@]}")
else
	[ $# -le 1 ] || die "$usage"
	suite=${suite:-bookworm}
	meta=${1:-$(suite_field "$suite" guest)}
	[ "$meta" != - ] || die "scripts/debian-releases names no guest kernel for $suite: give a metapackage"
	command -v apt-get >/dev/null || die "apt-get is missing: this script needs Debian's apt"
	suite_apt "$suite"
	# The metapackage names the release's packages: linux-image-6.1.0-57-cloud-amd64,
	# or Debian 14's linux-image-, linux-binary-, linux-modules-, linux-base-RELEASE.
	mapfile -t image_set < <(kernel_packages "$meta")
	[ ${#image_set[@]} -gt 0 ] || die "apt knows no $meta in $suite with a linux-image dependency"
	release=${image_set[0]#linux-image-}
	version=$(apt-cache "${apt_opts[@]}" policy "${image_set[0]}" | sed -n 's/^ *Candidate: //p')
	case $version in '' | '(none)') die "apt has no candidate version of ${image_set[0]} in $suite" ;; esac
	headers=linux-headers-$release
	headers_set=("$headers")
	for p in $(apt-cache "${apt_opts[@]}" depends "$headers" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\)-[^ ]*\)$/\1/p'); do
		case $p in *'<'*) continue ;; esac
		headers_set+=("$p")
	done
	[ ${#headers_set[@]} -ge 2 ] || die "cannot tell which packages $headers needs"
	out=$OOPSLIMIT_CACHE/stock/$release-$version
fi
made() { [ -e "$out/kernelrelease" ] && [ -e "$out/image-debs" ]; }
kernel_cache_begin "$out" made
# deb_name FILE: the name dpkg gives a package file, PACKAGE_VERSION_ARCH.deb
deb_name() {
	local v
	v=$(dpkg-deb -f "$1" Version)
	printf '%s_%s_%s.deb\n' "$(dpkg-deb -f "$1" Package)" "${v#*:}" "$(dpkg-deb -f "$1" Architecture)"
}
if [ -n "$debdir" ]; then
	say "copying the packages of $release ($version) from $debdir"
	for deb in "${chosen[@]}"; do
		cp --reflink=auto "$deb" "$work/debs/$(deb_name "$deb")" || die "cannot copy $deb"
	done
else
	pkgs=()
	for p in "${image_set[@]}" "${headers_set[@]}"; do
		case $p in linux-kbuild-*) pkgs+=("$p") ;; *) pkgs+=("$p=$version") ;; esac
	done
	pkgs+=("linux-image-$release-dbg=$version")
	say "downloading ${pkgs[*]} ($suite; the -dbg package is large: 280 MB to 1 GB)"
	suite_download "$work/debs" "${pkgs[@]}"
fi
vmlinux=''
for deb in "$work"/debs/*.deb; do
	case ${deb##*/} in
	linux-image-*-dbg_*) vmlinux=$(dbg_vmlinux "$deb" "$work/root" "$release") ;;
	*) dpkg-deb -x "$deb" "$work/root" || die "cannot unpack $deb" ;;
	esac
done
[ -n "$vmlinux" ] || die "no linux-image-$release-dbg package was fetched"
for p in "${image_set[@]}"; do
	f=("$work/debs/${p}_"*.deb)
	[ -e "${f[0]}" ] || die "no $p package was fetched"
	printf '%s\n' "${f[0]##*/}"
done >"$work/image-debs"
for p in "${headers_set[@]}"; do
	f=("$work/debs/${p}_"*.deb)
	[ -e "${f[0]}" ] || die "no $p package was fetched"
	printf '%s\n' "${f[0]##*/}"
done >"$work/headers-debs"

root=$work/root
kernel_layout "$root"
[ "$krelease" = "$release" ] || die "the packages of $release hold the kernel $krelease"
[ -d "$root/usr/src/linux-headers-$release" ] || die "linux-headers-$release has no /usr/src/linux-headers-$release"
# The headers' Makefile includes the -common package's by its installed,
# absolute path: point it at the unpacked copy.
sed -i "s#^include /usr/src/#include $out/root/usr/src/#" "$root/usr/src/linux-headers-$release/Makefile"
# Paths relative to the directory, so that the cache can move.
ln -s "${kimage#"$work"/}" "$work/vmlinuz"
ln -s "${vmlinux#"$work"/}" "$work/vmlinux"
if [ -r "$root/boot/System.map-$release" ]; then
	ln -s "root/boot/System.map-$release" "$work/System.map"
else
	nm -n "$vmlinux" >"$work/System.map" || die "cannot read the symbols of $vmlinux"
fi
ln -s "${kconfig#"$work"/}" "$work/config"
ln -s "root/usr/src/linux-headers-$release" "$work/headers"
printf '%s\n' "$version" >"$work/version"
printf '%s\n' "$release" >"$work/kernelrelease"
printf '%s\n' "$suite" >"$work/suite"
trap - EXIT
rm -rf "$out"
mv "$work" "$out"
printf '%s\n' "$out"
