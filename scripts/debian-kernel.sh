#!/bin/bash
# Fetches a Debian release's stock kernel for the project's busybox guest
# (scenarios with "kernel debian:SUITE"), through an apt configuration of its
# own, so that the host's sources stay as they are: the image and its
# modules, whatever the release calls them (linux-image-RELEASE, its
# -unsigned twin, or Debian 14's linux-binary-RELEASE, linux-modules-RELEASE
# and linux-base-RELEASE), modules under /lib or /usr/lib, plain, xz- or
# zstd-compressed.  The guest gets the few modules it needs (9p for the run
# directory, fw_cfg for the VMCOREINFO note of QEMU's dumps) as an initramfs
# part to append to the guest's own.  Prints the directory, keyed by suite,
# release and package version:
#   DIR/bzImage DIR/kernelrelease DIR/version DIR/suite DIR/config
#   DIR/guest-modules.cpio.gz  (lib/oopslimit/modules/*.ko and their order)
#   DIR/vmlinux DIR/System.map (with -g: the -dbg package's vmlinux)
# Nothing is installed on this machine: apt-get download and dpkg-deb -x.
#
# Usage: scripts/debian-kernel.sh [-g] SUITE   (a suite of scripts/debian-releases)
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The modules the busybox guest loads, when the kernel does not have them
# built in; their dependencies come along.
guest_modules='9p 9pnet_virtio virtio_pci qemu_fw_cfg'

dbg=no
while getopts g opt; do
	case $opt in
	g) dbg=yes ;;
	*) die "usage: $prog [-g] SUITE" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || die "usage: $prog [-g] SUITE"
suite=$1
releases=$OOPSLIMIT_TOP/scripts/debian-releases
meta=$(awk -v s="$suite" '!/^#/ && $1 == s { print $3 }' "$releases")
[ -n "$meta" ] || die "no suite '$suite' in scripts/debian-releases (it has: $(awk '!/^#/ && NF { printf "%s ", $1 }' "$releases"))"

# --- apt for that suite ------------------------------------------------------------
# The host's own Debian mirror (the one serving its main component), asked for
# another suite.
mirror=$(host_mirror)
[ -n "$mirror" ] || die "the host's apt sources name no Debian mirror with a main component"
aptdir=$OOPSLIMIT_CACHE/apt/$suite
mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial"
printf 'deb %s %s main\n' "$mirror" "$suite" | ol_write_atomic "$aptdir/sources.list" ||
	die "cannot write $aptdir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$aptdir/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$aptdir/lists"
	-o "Dir::Cache=$aptdir/cache" -o APT::Sandbox::User=root -o Debug::NoLocking=1)
exec 9>"$aptdir/lock"
flock 9
# the lists once a day
if [ -z "$(find "$aptdir/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null)" ]; then
	say "reading the $suite package lists"
	apt-get "${apt_opts[@]}" -q update >"$aptdir/update.log" 2>&1 ||
		die "apt-get update for $suite failed: $(grep -m1 -E '^(E|Err):' "$aptdir/update.log" || tail -n 1 "$aptdir/update.log")"
fi

# A package's dependencies that are parts of one kernel release (image,
# binary, modules, base: linux-base-RELEASE holds Debian 14's config).
kernel_parts() {
	apt-cache "${apt_opts[@]}" show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Depends: //p' | tr ',' '\n' | sed 's/([^)]*)//; s/|.*//; s/[[:space:]]//g' |
		grep -E '^linux-(image|binary|modules|base)-[0-9]' || true
}
pkgs=()
for p in $(kernel_parts "$meta"); do
	pkgs+=("$p")
	for q in $(kernel_parts "$p"); do pkgs+=("$q"); done
done
[ ${#pkgs[@]} -gt 0 ] || die "$meta in $suite depends on no kernel package"
version=$(apt-cache "${apt_opts[@]}" show --no-all-versions "${pkgs[0]}" | sed -n 's/^Version: //p')
out=$OOPSLIMIT_CACHE/debian-kernels/$suite-${pkgs[0]#linux-image-}-$version
if [ -e "$out/.complete" ] && { [ $dbg = no ] || [ -e "$out/vmlinux" ]; }; then
	printf '%s\n' "$out"
	exit 0
fi

# --- the packages, unpacked in a directory of their own --------------------------------
mkdir -p "$OOPSLIMIT_CACHE/debian-kernels"
work=$(mktemp -d "$OOPSLIMIT_CACHE/debian-kernels/.work.XXXXXX")
# shellcheck disable=SC2064  # expand now
trap "rm -rf '$work'" EXIT
mkdir -p "$work/debs" "$work/root" "$work/new"

# unpack_image: the image packages, downloaded and unpacked; the kernel,
# its config and the guest's modules into $work/new.
unpack_image() {
	say "downloading ${pkgs[*]} ($suite, $version)"
	(cd "$work/debs" && apt-get "${apt_opts[@]}" -q download "${pkgs[@]}") >"$work/download.log" 2>&1 ||
		die "cannot download ${pkgs[*]}: $(grep -m1 -E '^(E|Err):' "$work/download.log" || tail -n 1 "$work/download.log")"
	for deb in "$work"/debs/*.deb; do
		dpkg-deb -x "$deb" "$work/root" || die "cannot unpack ${deb##*/}"
	done

	# The image: /boot/vmlinuz-RELEASE (Debian up to 13) or
	# /usr/lib/modules/RELEASE/vmlinuz (Debian 14).
	mapfile -t images < <(find "$work/root/boot" "$work/root/usr/lib/modules" -maxdepth 2 \
		\( -path '*/boot/vmlinuz-*' -o -path '*/modules/*/vmlinuz' \) 2>/dev/null)
	[ ${#images[@]} -eq 1 ] || die "${pkgs[*]} hold ${#images[@]} kernel images, not one"
	case ${images[0]} in
	*/vmlinuz) release=$(basename "$(dirname "${images[0]}")") ;;
	*) release=${images[0]##*/vmlinuz-} ;;
	esac
	[ "$(file -b "${images[0]}" | cut -d, -f1)" = "Linux kernel x86 boot executable bzImage" ] ||
		die "${images[0]#"$work/root"} is not an x86 bzImage: $(file -b "${images[0]}" | cut -d, -f1)"
	moddir=''
	for d in "$work/root/lib/modules/$release" "$work/root/usr/lib/modules/$release"; do
		[ -d "$d/kernel" ] && moddir=$d
	done
	[ -n "$moddir" ] || die "${pkgs[*]} have no modules for $release (neither /lib/modules nor /usr/lib/modules)"
	cp "${images[0]}" "$work/new/bzImage"
	for c in "$work/root/boot/config-$release" "$moddir/config"; do
		[ ! -r "$c" ] || cp "$c" "$work/new/config"
	done
	[ -e "$work/new/config" ] || die "${pkgs[*]} have no config for $release"
	printf '%s\n' "$release" >"$work/new/kernelrelease"
	printf '%s\n' "$version" >"$work/new/version"
	printf '%s\n' "$suite" >"$work/new/suite"

	# --- the guest's modules ----------------------------------------------------------
	# module_file NAME: the module's file, any compression, - and _ alike.
	module_file() {
		find "$moddir/kernel" -type f \( -name "$1.ko" -o -name "$1.ko.*" -o -name "${1//_/-}.ko" \
			-o -name "${1//_/-}.ko.*" \) | head -n 1
	}
	declare -A placed=()
	order=()
	# place NAME: the module after those it depends on, each once.
	place() {
		local m=$1 f dep
		[ -z "${placed[$m]:-}" ] || return 0
		placed[$m]=1
		grep -qE "/(${m}|${m//_/-})\.ko$" "$moddir/modules.builtin" 2>/dev/null && return 0
		f=$(module_file "$m")
		[ -n "$f" ] || die "the $release kernel has neither a built-in $m nor a $m module"
		for dep in $(modinfo -F depends "$f" | tr ',' ' '); do place "$dep"; done
		mkdir -p "$work/mods/lib/oopslimit/modules"
		case $f in
		*.ko) cp "$f" "$work/mods/lib/oopslimit/modules/$m.ko" ;;
		*.ko.xz) xz -dc "$f" >"$work/mods/lib/oopslimit/modules/$m.ko" ;;
		*.ko.zst) zstd -qdc "$f" >"$work/mods/lib/oopslimit/modules/$m.ko" ;;
		*.ko.gz) gzip -dc "$f" >"$work/mods/lib/oopslimit/modules/$m.ko" ;;
		*) die "$f: a module compressed in a way this script does not know" ;;
		esac || die "cannot decompress $f"
		order+=("$m")
	}
	for m in $guest_modules; do place "$m"; done
	mkdir -p "$work/mods/lib/oopslimit"
	printf '%s\n' "${order[@]}" >"$work/mods/lib/oopslimit/modules.order"
	(cd "$work/mods" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -n) >"$work/new/guest-modules.cpio.gz"
	say "$suite's kernel $release ($version): $(du -k "$work/new/guest-modules.cpio.gz" | cut -f1) KiB of guest modules (${order[*]:-none needed})"
}

if [ -e "$out/.complete" ]; then
	# the kernel is here already, only its -dbg package is missing
	cp -a "$out/." "$work/new"
	rm -f "$work/new/.complete"
	release=$(cat "$out/kernelrelease")
else
	unpack_image
fi

# --- the -dbg package's vmlinux, when asked -------------------------------------------
if [ $dbg = yes ]; then
	dbgpkg=linux-image-$release-dbg
	say "downloading $dbgpkg (the vmlinux with debug info: a large package)"
	(cd "$work/debs" && apt-get "${apt_opts[@]}" -q download "$dbgpkg") >"$work/download.log" 2>&1 ||
		die "cannot download $dbgpkg: $(grep -m1 -E '^(E|Err):' "$work/download.log" || tail -n 1 "$work/download.log")"
	dpkg-deb --fsys-tarfile "$work"/debs/"$dbgpkg"_*.deb |
		tar -x -C "$work/root" --wildcards '*/vmlinux-*' '*/vmlinux' 2>/dev/null || true
	vml=$(find "$work/root/usr/lib/debug" -type f \( -name "vmlinux-$release" -o -path "*/$release/vmlinux" \) | head -n 1)
	[ -n "$vml" ] || die "$dbgpkg has no vmlinux for $release"
	mv "$vml" "$work/new/vmlinux"
	nm -n "$work/new/vmlinux" >"$work/new/System.map"
fi

touch "$work/new/.complete"
rm -rf "$out"
mv -T "$work/new" "$out"
printf '%s\n' "$out"
