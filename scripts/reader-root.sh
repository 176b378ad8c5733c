#!/bin/bash
# The readers of a Debian release, as a user of that release has them: a
# root file system of the release (mmdebstrap, minbase) with its crash, its
# drgn (python3-drgn) and the project's packages as built for it (scripts/deb.sh
# -r: crash-oopslimit's extension, oopslimit-kdump's recorder), in which the
# harness reads the dumps of that release's kernels.  A crash older than the
# kernel cannot open its dumps (Debian 12's crash 8.0.2 stops at start-up on a
# 6.12 dump), so a Debian 13 dump is read with Debian 13's crash 8.0.6.
# Prints the directory, cached by its inputs (the packages' versions, the
# .debs, this script).
#
#   scripts/reader-root.sh SUITE
#   scripts/reader-root.sh -r ROOT|SUITE COMMAND [ARG...]
#       runs COMMAND in ROOT (a directory the first form printed, or the
#       root of SUITE, found or made first), as root,
#       with root_run (scripts/debian-suite.sh): the cache (OOPSLIMIT_CACHE)
#       and the repository bound at their own paths; its status is the
#       command's.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=debian-suite.sh
. "$OOPSLIMIT_TOP/scripts/debian-suite.sh"

if [ "${1:-}" = -r ]; then
	[ $# -ge 3 ] || die "usage: $prog -r ROOT|SUITE COMMAND [ARG...]"
	out=$2
	shift 2
	if [ ! -e "$out/.complete" ]; then
		# a suite: its root, made or found first (slower: the packages' key)
		out=$("$0" "$out") || exit 1
	fi
	root_run "$out" -w "$OOPSLIMIT_CACHE" -w "$OOPSLIMIT_TOP" -- "$@"
fi
[ $# -eq 1 ] || die "usage: $prog SUITE | -r ROOT|SUITE COMMAND [ARG...]"
suite=$1
[ "$(suite_field "$suite" sources)" != host ] ||
	die "$suite is this machine's own release: its readers are this machine's"
[ "$(id -u)" -eq 0 ] || die "the reader root needs root (mmdebstrap, chroot, mount)"

root_of() {
	local debs packages versions key
	suite_apt "$suite"
	mapfile -t debs < <("$OOPSLIMIT_TOP/scripts/deb.sh" -r "$suite") || die "building the packages for $suite failed"
	[ ${#debs[@]} -eq 2 ] || die "scripts/deb.sh -r $suite gave ${#debs[@]} packages, not 2"
	packages=(crash python3-drgn)
	versions=$(apt-cache "${apt_opts[@]}" policy "${packages[@]}" 2>/dev/null | awk '/^[^ ]/ { p = $1 } /Candidate:/ { print p, $2 }')
	key=$(key_of "${debs[@]}" "$0")
	key=$(printf '%s\n' "$key" "$versions" | sha256sum | cut -c1-16)
	out=$OOPSLIMIT_CACHE/readers/$suite-$key
	[ ! -e "$out/.complete" ] || return 0
	mkdir -p "$OOPSLIMIT_CACHE/readers"
	cache_lock "readers/$suite"
	[ ! -e "$out/.complete" ] || return 0
	local work t0
	work=$(mktemp -d "$OOPSLIMIT_CACHE/readers/.work.XXXXXX")
	# shellcheck disable=SC2064  # expand now
	trap "grep -q ' $work/' /proc/self/mounts || rm -rf '$work'" EXIT
	t0=$(now_ms)
	say "making $suite's reader root (crash, drgn, the packages; log: $work/mmdebstrap.log)"
	mkdir -p "$work/root"
	# shellcheck disable=SC2016  # mmdebstrap's hooks expand $1, the tree, themselves
	suite_mmdebstrap "$work/mmdebstrap.log" "$suite" "$work/root" "deb $(host_mirror) $suite main" --variant=minbase \
		--include="$(
			IFS=,
			echo "${packages[*]}"
		)" \
		--customize-hook='mkdir -p "$1/oopslimit-debs"' \
		--customize-hook="copy-in ${debs[*]} /oopslimit-debs" \
		--customize-hook='chroot "$1" sh -c "apt-get install -q -y --no-install-recommends /oopslimit-debs/*.deb && apt-get clean"' \
		--customize-hook='rm -rf "$1/oopslimit-debs"' ||
		die "mmdebstrap failed to make $suite's reader root"
	[ -r "$work/root/usr/lib/crash/extensions/oopslimit.so" ] || die "$suite's reader root lacks the crash extension"
	rm -rf "$out"
	mv "$work/root" "$out"
	touch "$out/.complete"
	say "$suite's reader root in $(since "$t0") s: $(du -sh "$out" | cut -f1)"
}
root_of
printf '%s\n' "$out"
