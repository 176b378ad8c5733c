#!/bin/bash
# Builds the test guest's initramfs: busybox-static, tests/guest/init, the
# provoke helper, and kdump's loader with the host's kexec and its libraries.  Prints the path of the gzip'd cpio, cached by its inputs.
# Usage: scripts/guest-initramfs.sh
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

busybox=/bin/busybox
"$busybox" --list >/dev/null 2>&1 ||
	die "$busybox is missing: apt-get install busybox-static"
file -b "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	die "$busybox is not the static build: apt-get install busybox-static"

src=$OOPSLIMIT_TOP/tests/guest
kexec=$(command -v kexec) || die "kexec is missing: apt-get install kexec-tools"
# kexec and the shared objects it loads, each once.
elf_closure() {
	printf '%s\n' "$1"
	ldd "$1" | sed -n 's#.*=> \(/[^ ]*\).*#\1#p; s#^[[:space:]]*\(/[^ ]*\) (.*#\1#p'
}
objects=$(elf_closure "$kexec" | sort -u)
# shellcheck disable=SC2086  # one path a line, none with blanks
key=$(key_of "$busybox" "$src/init" "$src/provoke.c" "$OOPSLIMIT_TOP/kdump/oopslimit-kdump" \
	"$OOPSLIMIT_TOP"/kdump/oopslimit-lib.sh "$OOPSLIMIT_TOP"/kdump/oopslimit-store.sh "$OOPSLIMIT_TOP"/kdump/oopslimit-kdump-*.sh "$0" $objects)
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
for applet in $("$busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
gcc -static -O2 -Wall -Wextra -Werror -o "$root/bin/provoke" "$src/provoke.c" ||
	die "cannot build tests/guest/provoke.c"
install -m 755 "$src/init" "$root/init"
install -m 755 "$OOPSLIMIT_TOP/kdump/oopslimit-kdump" "$root/sbin/oopslimit-kdump"
for f in "$OOPSLIMIT_TOP"/kdump/oopslimit-lib.sh "$OOPSLIMIT_TOP"/kdump/oopslimit-store.sh "$OOPSLIMIT_TOP"/kdump/oopslimit-kdump-*.sh; do
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
