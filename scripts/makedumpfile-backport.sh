#!/bin/bash
# Brings a Debian release the makedumpfile of a newer suite, where the
# release's own gets pages of its own kernel wrong (kdump/makedumpfile-pairs):
# the package of the suite scripts/debian-releases names in the release's
# "makedumpfile" column, as that suite's archive has it (apt-get download,
# through the suite's apt configuration in the cache: the host's sources are
# not touched), then installed with apt in a clean chroot of the release
# (scripts/debian-suite.sh's suite_chroot), its dependencies from the
# release alone, and run there (makedumpfile -v): a package that does not
# install or run on the release stops here, not in a guest.
#
# Why not a rebuild of the newer source package, as Debian builds a
# backport: the mirror this machine reaches serves no source packages
# (apt-get source gets 404 for the .dsc).  Unstable's makedumpfile 1:1.7.8-1
# asks for libc6 >= 2.38, libdw1t64, libelf1t64, liblzo2-2, libzstd1 and
# zlib1g, all of which Debian 13 has, so its own binary serves.
#
# Why: Debian 13's makedumpfile 1.7.6 keeps every free page of its own 6.12
# kernel; unstable's 1.7.8 carries the upstream fix (72c3414, in 1.7.7).
# scripts/debian-image.sh installs the result in the release's guest.
#
# Prints the .deb's path, cached by its version, the chroot and this script.
#
# Usage: scripts/makedumpfile-backport.sh SUITE
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=debian-suite.sh
. "$OOPSLIMIT_TOP/scripts/debian-suite.sh"

[ $# -eq 1 ] || die "usage: $prog SUITE"
suite=$1
from=$(suite_field "$suite" makedumpfile)
[ "$from" != - ] || die "scripts/debian-releases has $suite keep its own makedumpfile: nothing to bring"
[ "$(id -u)" -eq 0 ] || die "the check needs root (mmdebstrap's root mode, chroot, mount)"

suite_apt "$from"
version=$(apt-cache "${apt_opts[@]}" show --no-all-versions makedumpfile 2>/dev/null | sed -n 's/^Version: //p')
[ -n "$version" ] || die "$from has no makedumpfile package"
suite_chroot "$suite"
key=$(printf '%s\n' "$version" "$from" "$suite" "$(stat -c '%s %Y' "$tarball")" "$(key_of "$0")" | sha256sum | cut -c1-16)
out=$OOPSLIMIT_CACHE/backports/$suite-makedumpfile-$key
if [ ! -e "$out/done" ]; then
	t0=$(now_ms)
	work=$(mktemp -d "$OOPSLIMIT_CACHE/chroots/.backport.XXXXXX")
	trap 'rm -rf --one-file-system "$work"' EXIT
	mkdir -p "$work/debs" "$work/root"
	suite_download "$work/debs" "makedumpfile=$version"
	say "makedumpfile $version of $from for $suite: installing it in a clean $suite chroot ($chroot_note)"
	new_root "$work/root"
	mkdir -p "$work/root/oopslimit"
	cp "$work"/debs/makedumpfile_*.deb "$work/root/oopslimit/"
	if ! (root_run "$work/root" -- /bin/sh -ec 'apt-get -q update
		apt-get -q -y --no-install-recommends install /oopslimit/makedumpfile_*.deb
		makedumpfile -v') >"$work/install.log" 2>&1; then
		tail -n 15 "$work/install.log" >&2
		die "makedumpfile $version of $from does not install or run on $suite"
	fi
	grep -q "^makedumpfile: version ${version#*:}" "$work/install.log" ||
		grep -q "^makedumpfile: version $(printf '%s' "${version#*:}" | sed 's/-[^-]*$//')" "$work/install.log" ||
		die "makedumpfile $version of $from did not say its version on $suite: $(grep -m1 '^makedumpfile' "$work/install.log")"
	mkdir -p "$work/out"
	cp "$work"/debs/makedumpfile_*.deb "$work/install.log" "$work/out/"
	rm -rf "$out"
	mkdir -p "${out%/*}"
	mv "$work/out" "$out"
	touch "$out/done"
	say "makedumpfile $version of $from installs and runs on $suite ($(since "$t0") s)"
fi
printf '%s\n' "$out"/makedumpfile_*.deb
