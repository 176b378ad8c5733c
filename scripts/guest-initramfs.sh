#!/bin/bash
# Builds the test guest's initramfs: busybox-static, tests/guest/init, the
# provoke helper, and kdump's loader with the host's kexec and its libraries.
# Prints the path of the gzip'd cpio, cached by its inputs.
#
# With -a, for another machine of scripts/arches (arm64): busybox from that
# architecture's busybox-static package of the host's Debian release
# (fetched through an apt configuration of its own, never installed), provoke
# built by the row's cross compiler, and no kexec (the host's is x86_64's:
# that guest has no kdump steps).
# Usage: scripts/guest-initramfs.sh [-a ARCH]
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=debian-suite.sh
. "$OOPSLIMIT_TOP/scripts/debian-suite.sh"

arch=x86_64
while getopts a: opt; do
	case $opt in
	a) arch=$OPTARG ;;
	*) die "usage: $prog [-a ARCH]" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die "usage: $prog [-a ARCH]"
debarch=$(arch_field "$arch" deb)
cc=$(arch_field "$arch" cc)
command -v "$cc" >/dev/null || die "$cc is missing (scripts/arches, $arch): scripts/deps.sh installs it"

src=$OOPSLIMIT_TOP/tests/guest
# elf_closure FILE: FILE and the shared objects it loads, each once.
elf_closure() {
	printf '%s\n' "$1"
	ldd "$1" | sed -n 's#.*=> \(/[^ ]*\).*#\1#p; s#^[[:space:]]*\(/[^ ]*\) (.*#\1#p'
}
if [ "$debarch" = "$(dpkg --print-architecture)" ]; then
	busybox=/bin/busybox
	"$busybox" --list >/dev/null 2>&1 ||
		die "$busybox is missing: apt-get install busybox-static"
	kexec=$(command -v kexec) || die "kexec is missing: apt-get install kexec-tools"
	objects=$(elf_closure "$kexec" | sort -u)
else
	# the host's release's busybox-static for the guest's architecture
	suite=$(. /etc/os-release && printf '%s\n' "$VERSION_CODENAME")
	bbdir=$OOPSLIMIT_CACHE/initramfs/busybox-$suite-$debarch
	if [ ! -x "$bbdir/bin/busybox" ]; then
		suite_apt "$suite" "$debarch"
		bbwork=$(mktemp -d "$OOPSLIMIT_CACHE/initramfs/.busybox.XXXXXX")
		trap 'rm -rf "$bbwork"' EXIT
		suite_download "$bbwork" busybox-static
		dpkg-deb -x "$bbwork"/busybox-static_*.deb "$bbwork/root" || die "cannot unpack busybox-static ($debarch)"
		rm -rf "$bbdir"
		mv -T "$bbwork/root" "$bbdir"
		rm -rf "$bbwork"
		trap - EXIT
	fi
	busybox=$bbdir/bin/busybox
	objects=''
fi
file -b "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	die "$busybox is not the static build: apt-get install busybox-static"
# shellcheck disable=SC2086  # one path a line, none with blanks
key=$(key_of "$busybox" "$src/init" "$src/provoke.c" "$OOPSLIMIT_TOP/kdump/oopslimit-kdump" \
	"$OOPSLIMIT_TOP"/kdump/oopslimit-lib.sh "$OOPSLIMIT_TOP"/kdump/oopslimit-store.sh "$OOPSLIMIT_TOP"/kdump/oopslimit-kdump-*.sh \
	"$OOPSLIMIT_TOP"/kdump/oopslimit-makedumpfile.sh "$OOPSLIMIT_TOP"/kdump/makedumpfile-pairs "$0" $objects)
out=$OOPSLIMIT_CACHE/initramfs/guest-$key.cpio.gz
if [ -e "$out" ]; then
	printf '%s\n' "$out"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,host}
cp "$busybox" "$root/bin/busybox"
# the applets' names, from busybox's own list (another architecture's binary
# runs under QEMU's user-mode emulator, called by name: no binfmt handler)
user=$(arch_field "$arch" user)
[ "$user" = - ] && user=''
applets=$(${user:+"$user"} "$busybox" --list) || die "cannot list $busybox's applets${user:+ (under $user)}"
for applet in $applets; do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
nice -n 10 "$cc" -static -O2 -Wall -Wextra -Werror -o "$root/bin/provoke" "$src/provoke.c" ||
	die "cannot build tests/guest/provoke.c"
install -m 755 "$src/init" "$root/init"
install -m 755 "$OOPSLIMIT_TOP/kdump/oopslimit-kdump" "$root/sbin/oopslimit-kdump"
# the loader's library and every part of it, as the package installs them
for f in "$OOPSLIMIT_TOP"/kdump/oopslimit-lib.sh "$OOPSLIMIT_TOP"/kdump/oopslimit-store.sh "$OOPSLIMIT_TOP"/kdump/oopslimit-kdump-*.sh \
	"$OOPSLIMIT_TOP"/kdump/oopslimit-makedumpfile.sh "$OOPSLIMIT_TOP"/kdump/makedumpfile-pairs; do
	install -D -m 644 "$f" "$root/usr/lib/oopslimit/${f##*/}"
done
for o in $objects; do
	mkdir -p "$root$(dirname "$o")"
	cp -L "$o" "$root$o"
done

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) | gzip -9 >"$work/image"
mv "$work/image" "$out"
printf '%s\n' "$out"
