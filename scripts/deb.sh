#!/bin/bash
# Builds the Debian packages (oopslimit-kdump, crash-oopslimit) with
# dpkg-buildpackage from a copy of the working tree, so the tree itself gets
# no build products, and checks them with lintian.  Prints the .deb paths,
# one a line; cached by the content of every file the build reads.
#
# Usage: scripts/deb.sh [-o OUTDIR]   (OUTDIR: also copy the .debs there)
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

outdir=''
while getopts o: opt; do
	case $opt in
	o) outdir=$OPTARG ;;
	*) die "usage: $prog [-o OUTDIR]" ;;
	esac
done
for tool in dpkg-buildpackage dh lintian; do
	command -v "$tool" >/dev/null || die "$tool is missing: run scripts/deps.sh"
done

cd "$OOPSLIMIT_TOP"
# What the packages are built from: debian/ and the trees its Makefiles read.
mapfile -t files < <(git ls-files -co --exclude-standard -- debian kdump initramfs common crash-ext |
	while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done)
[ ${#files[@]} -gt 0 ] || die "no debian/ directory to build from"
# (key_of alone first: a file it cannot read must stop the script)
key=$(key_of "${files[@]}" "$0")
key=$( {
	printf '%s\n' "$key"
	dpkg-query -W -f '${Package} ${Version}\n' debhelper crash libkdumpfile-dev gcc 2>/dev/null
} | sha256sum | cut -c1-16)
out=$OOPSLIMIT_CACHE/debs/$key
if [ ! -e "$out/done" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	mkdir -p "$work/src"
	tar -cf - "${files[@]}" | tar -xf - -C "$work/src"
	say "building the packages (log: $work/build.log)"
	if ! (cd "$work/src" && DEB_BUILD_OPTIONS=noddebs dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
		tail -n 20 "$work/build.log" >&2
		die "dpkg-buildpackage failed"
	fi
	# lintian errors fail the build; its warnings are kept beside the .debs
	lintian --fail-on error "$work"/*.changes >"$work/lintian.txt" 2>&1 || {
		cat "$work/lintian.txt" >&2
		die "lintian found errors in the packages"
	}
	rm -rf "$out"
	mkdir -p "$out"
	mv "$work"/*.deb "$work/lintian.txt" "$out/"
	touch "$out/done"
fi
for deb in "$out"/*.deb; do
	if [ -n "$outdir" ]; then
		mkdir -p "$outdir"
		cp "$deb" "$outdir/"
	fi
	printf '%s\n' "$deb"
done
