#!/bin/bash
# Adds the dumps in the cache to the fuzzing seeds: for every saved vmcore
# (kdump captures and QEMU memory dumps of the scenarios, the stock-kernel
# dumps), an image of everything the decoders read from it, and its
# vmcore-dmesg.txt as a log seed.
# Usage: tests/fuzz/corpus.sh OUTDIR   (make -C tests/fuzz corpus)
set -eu
# shellcheck source=../../scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $prog OUTDIR"
out=$1
[ -x "$out/olread" ] || die "$out/olread is missing: run make -C tests/fuzz first"
mkdir -p "$out/seeds/dump" "$out/seeds/log"

n=0
while IFS= read -r -d '' dump; do
	dir=$(dirname "$dump")
	name=$(printf '%s' "${dump#"$OOPSLIMIT_CACHE"/}" | tr -c 'A-Za-z0-9._-' '_')
	tmp=$(mktemp "$out/seeds/dump/.$name.tmp.XXXXXX") || die "cannot make a file in $out/seeds/dump"
	# a dump that cannot be read whole still gives the reads that worked
	"$out/olread" -v -d -i "$tmp" "$dump" >/dev/null 2>&1 || true
	if [ -s "$tmp" ]; then
		mv -fT "$tmp" "$out/seeds/dump/$name.img"
		n=$((n + 1))
	else
		rm -f "$tmp"
	fi
	[ ! -r "$dir/vmcore-dmesg.txt" ] || cp "$dir/vmcore-dmesg.txt" "$out/seeds/log/$name.txt"
done < <(find "$OOPSLIMIT_CACHE/runs" "$OOPSLIMIT_CACHE/stock" -type f \
	\( -name vmcore -o -name '*.vmcore' -o -name '*.elf' \) -print0 2>/dev/null)
say "$n dump images in $out/seeds/dump"
