#!/bin/bash
# Proves that every patch in patches/series builds on its own: starting from
# the baseline tree (6.1 before the limit series), applies the series one
# patch at a time and builds bzImage after each.  At the end the touched files
# must equal the limits tree's.  Prints one line a patch with its build time.
#
# Usage: scripts/check-series.sh      (after scripts/build-kernel.sh)
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

kernels=$("$OOPSLIMIT_TOP/scripts/build-kernel.sh" limits baseline) || die "building the kernels failed"
limits_dir=$(sed -n 1p <<<"$kernels")
baseline_dir=$(sed -n 2p <<<"$kernels")
[ "$(cat "$baseline_dir/series-mode")" = shipped ] ||
	die "the tree lacks the series; the limits build already applied it forward patch by patch"
pristine=$(cat "$baseline_dir/pristine")

# Same layout as the kernels' tree (work/<name>/{linux,obj}): see kbuild().
# The tree is the pristine one (hard links) with the baseline's version of
# each file the series touches, its headers as they were before the series
# (prior/); the objects start empty.  One run of this script at a time (it
# owns work/series); the kernels' lock only while it copies their files,
# shared, so that no build replaces them meanwhile and none waits for the
# builds below.
base=$OOPSLIMIT_CACHE/work/series
exec 9>"$OOPSLIMIT_CACHE/series.lock"
flock 9
rm -rf "$base"
mkdir -p "$base/obj"
mapfile -t series < <(series_patches all)
mapfile -t touched < <(patch_files "${series[@]}")
(
	flock -s 7
	cp -al "$pristine" "$base/linux"
	cp "$baseline_dir/config" "$base/obj/.config"
	# (patch and cp write into the files they change: first a copy of each
	# of their own, not a link to the pristine tree's)
	for f in "${touched[@]}"; do
		rm -f "$base/linux/$f"
		if [ -e "$baseline_dir/files/$f" ]; then
			cp "$baseline_dir/files/$f" "$base/linux/$f"
		fi
	done
	if [ -d "$baseline_dir/prior" ]; then
		(cd "$baseline_dir/prior" && find . -type f) | while read -r f; do
			f=${f#./}
			case $f in
			*.absent) rm -f "$base/linux/${f%.absent}" ;;
			*) rm -f "$base/linux/$f" && cp "$baseline_dir/prior/$f" "$base/linux/$f" ;;
			esac
		done
	fi
) 7>"$OOPSLIMIT_CACHE/build.lock" || die "cannot copy the baseline tree from $pristine and $baseline_dir"

t=0
while read -r p; do
	t=$((t + 1))
	name=${p#"$OOPSLIMIT_TOP"/patches/}
	apply_series "$base/linux" forward "$p" >/dev/null ||
		die "$name does not apply on top of the patches before it"
	t0=$(now_ms)
	kbuild "$base" bzImage >"$base/build-$t.log" 2>&1 ||
		die "the tree does not build after $name; log: $base/build-$t.log"
	printf 'builds: %s (%s s)\n' "$name" "$(since "$t0")"
done < <(printf '%s\n' "${series[@]}")

for f in "${touched[@]}"; do
	if [ -e "$limits_dir/files/$f" ]; then
		cmp -s "$base/linux/$f" "$limits_dir/files/$f"
	else
		[ ! -e "$base/linux/$f" ]
	fi || die "after the whole series $f differs from the limits tree"
done
say "all patches build on their own; the result equals the limits tree"
rm -rf "$base"
