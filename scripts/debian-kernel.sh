#!/bin/bash
# Fetches a Debian release's stock kernel for the project's busybox guest
# (scenarios with "kernel debian:SUITE"), through an apt configuration of its
# own, so that the host's sources stay as they are: the image and its
# modules, whatever the release calls them (linux-image-RELEASE, its
# -unsigned twin, or Debian 14's linux-binary-RELEASE, linux-modules-RELEASE
# and linux-base-RELEASE), modules under /lib or /usr/lib, plain, xz- or
# zstd-compressed.  The guest gets the few modules it needs (9p for the run
# directory, fw_cfg for the VMCOREINFO note of QEMU's dumps) as an initramfs
# part to append to the guest's own.  With -a, the kernel of another machine
# of scripts/arches (arm64: Debian's arm64 kernel, its apt configuration of
# its own).  Prints the directory, keyed by suite, machine, release and
# package version:
#   DIR/bzImage (the image, whatever the machine calls it) DIR/kernelrelease
#   DIR/version DIR/suite DIR/arch DIR/config
#   DIR/guest-modules.cpio.gz  (lib/oopslimit/modules/*.ko and their order)
#   DIR/vmlinux DIR/System.map (with -g: the -dbg package's vmlinux)
# Nothing is installed on this machine: apt-get download and dpkg-deb -x.
#
# Usage: scripts/debian-kernel.sh [-g] [-a ARCH] SUITE
#            (a suite of scripts/debian-releases, a machine of scripts/arches)
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=debian-suite.sh
. "$OOPSLIMIT_TOP/scripts/debian-suite.sh"

# The modules the busybox guest loads, when the kernel does not have them
# built in; their dependencies come along.
guest_modules='9p 9pnet_virtio virtio_pci qemu_fw_cfg'

dbg=no arch=x86_64
while getopts ga: opt; do
	case $opt in
	g) dbg=yes ;;
	a) arch=$OPTARG ;;
	*) die "usage: $prog [-g] [-a ARCH] SUITE" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || die "usage: $prog [-g] [-a ARCH] SUITE"
suite=$1
# The release's own metapackage on x86_64 (scripts/debian-releases), the
# machine's flavour (scripts/arches) on the others.
if [ "$arch" = x86_64 ]; then
	meta=$(suite_field "$suite" kernel)
else
	meta=$(arch_field "$arch" kernel)
fi
suite_apt "$suite" "$(arch_field "$arch" deb)"

mapfile -t pkgs < <(kernel_packages "$meta")
[ ${#pkgs[@]} -gt 0 ] || die "$meta in $suite depends on no kernel package"
version=$(apt-cache "${apt_opts[@]}" show --no-all-versions "${pkgs[0]}" | sed -n 's/^Version: //p')
out=$OOPSLIMIT_CACHE/debian-kernels/$suite-${pkgs[0]#linux-image-}-$version
# the same package on two machines of one kind (arm64, arm64-lpa2) is one entry
[ "$arch" = x86_64 ] || out=$out-$(arch_field "$arch" deb)
complete() { [ -e "$out/.complete" ] && { [ $dbg = no ] || [ -e "$out/vmlinux" ]; }; }
# --- the packages, unpacked in a directory of their own --------------------------------
kernel_cache_begin "$out" complete
mkdir -p "$work/new"

# unpack_image: the image packages, downloaded and unpacked; the kernel,
# its config and the guest's modules into $work/new.
unpack_image() {
	say "downloading ${pkgs[*]} ($suite, $version)"
	suite_download "$work/debs" "${pkgs[@]}"
	for deb in "$work"/debs/*.deb; do
		dpkg-deb -x "$deb" "$work/root" || die "cannot unpack ${deb##*/}"
	done

	kernel_layout "$work/root" "$arch"
	release=$krelease moddir=$kmoddir
	cp "$kimage" "$work/new/bzImage"
	cp "$kconfig" "$work/new/config"
	printf '%s\n' "$release" >"$work/new/kernelrelease"
	printf '%s\n' "$version" >"$work/new/version"
	printf '%s\n' "$suite" >"$work/new/suite"
	arch_field "$arch" deb >"$work/new/arch"

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
		module_unpack "$f" "$work/mods/lib/oopslimit/modules/$m.ko"
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
	suite_download "$work/debs" "$dbgpkg"
	mv "$(dbg_vmlinux "$work"/debs/"$dbgpkg"_*.deb "$work/root" "$release")" "$work/new/vmlinux"
	# the binutils of the machine's compiler (aarch64-linux-gnu-gcc: aarch64-linux-gnu-nm)
	cc=$(arch_field "$arch" cc)
	"${cc%gcc}nm" -n "$work/new/vmlinux" >"$work/new/System.map" || die "cannot read the symbols of the vmlinux"
fi

touch "$work/new/.complete"
rm -rf "$out"
mv -T "$work/new" "$out"
printf '%s\n' "$out"
