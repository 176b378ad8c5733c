#!/bin/bash
# Builds the capture initramfs with dracut and the module in initramfs/, the
# way a machine would: the host's makedumpfile, vmcore-dmesg and libraries,
# plus our recorder and config library.  For the project's own kernel, which
# has every driver built in: no kernel modules (--no-kernel), so the image
# serves any dump target.  Prints the image's path, cached by its inputs.
# Usage: scripts/capture-initramfs.sh KERNELRELEASE
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $prog KERNELRELEASE"
kver=$1
for tool in dracut makedumpfile vmcore-dmesg; do
	command -v "$tool" >/dev/null || die "$tool is missing: run scripts/deps.sh"
done
[ -r /usr/include/libkdumpfile/kdumpfile.h ] || die "libkdumpfile is missing: apt-get install libkdumpfile-dev"

mod=$OOPSLIMIT_TOP/initramfs/99oopslimit
versions=$(dpkg-query -W -f '${Package} ${Version}\n' dracut-core makedumpfile kexec-tools \
	libkdumpfile-dev libc6 bash coreutils util-linux 2>/dev/null || true)
# the recorder is built from recorder/*.[ch] and all of common/ (key_of alone
# first: a file it cannot read must stop the script)
key=$(key_of "$mod"/* "$OOPSLIMIT_TOP"/kdump/oopslimit-lib.sh "$OOPSLIMIT_TOP"/kdump/oopslimit-store.sh "$OOPSLIMIT_TOP"/recorder/*.[ch] \
	"$OOPSLIMIT_TOP"/recorder/Makefile "$OOPSLIMIT_TOP"/kdump/Makefile "$OOPSLIMIT_TOP"/common/* "$0")
key=$(printf '%s\n' "$key" "$kver" "$versions" | sha256sum | cut -c1-16)
out=$OOPSLIMIT_CACHE/initramfs/capture-$key.img
if [ -e "$out" ]; then
	printf '%s\n' "$out"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/empty" "$work/dracut/modules.d"
make -s -C "$OOPSLIMIT_TOP/kdump" O="$work/bin" >"$work/make.log" 2>&1 ||
	die "building the recorder (recorder/) failed: $(tail -n 3 "$work/make.log")"

# dracut looks for modules only under its base directory: give it one that is
# the host's plus ours, without touching /usr/lib/dracut.
for f in /usr/lib/dracut/*; do
	[ "${f##*/}" = modules.d ] || ln -s "$f" "$work/dracut/"
done
ln -s /usr/lib/dracut/modules.d/* "$work/dracut/modules.d/"
ln -s "$mod" "$work/dracut/modules.d/99oopslimit"

say "building the capture initramfs with dracut (log: $work/dracut.log)"
if ! dracutbasedir=$work/dracut OOPSLIMIT_REASON=$work/bin/oopslimit-reason \
	OOPSLIMIT_LIB=$OOPSLIMIT_TOP/kdump/oopslimit-lib.sh \
	dracut --quiet --force --no-hostonly --no-kernel --no-early-microcode --gzip \
	--conf /dev/null --confdir "$work/empty" --tmpdir "$work" \
	--modules oopslimit --kver "$kver" "$work/capture.img" >"$work/dracut.log" 2>&1; then
	cat "$work/dracut.log" >&2
	die "dracut failed to build the capture initramfs"
fi
# dracut carries on when a module's install() fails: check the result.
listing=$(zcat "$work/capture.img" | cpio -t --quiet 2>/dev/null) || die "dracut wrote an unreadable image"
for f in init usr/sbin/oopslimit-capture usr/sbin/oopslimit-reason usr/bin/makedumpfile \
	usr/sbin/vmcore-dmesg usr/bin/sh usr/lib/oopslimit/oopslimit-lib.sh usr/lib/oopslimit/oopslimit-store.sh; do
	grep -qx "$f" <<<"$listing" || { cat "$work/dracut.log" >&2; die "the capture initramfs lacks /$f"; }
done
grep -q '^etc/sysctl' <<<"$listing" && die "the capture initramfs carries sysctl settings"
mkdir -p "$(dirname "$out")"
mv "$work/capture.img" "$out"
printf '%s\n' "$out"
