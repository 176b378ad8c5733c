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
limits_src=$(cat "$(sed -n 1p <<<"$kernels")/source")
baseline_dir=$(sed -n 2p <<<"$kernels")
[ "$(cat "$baseline_dir/series-mode")" = shipped ] ||
	die "the tree lacks the series; the limits build already applied it forward patch by patch"
baseline_src=$(cat "$baseline_dir/source")

# Same layout as the variants (work/<name>/{linux,obj}): see kbuild().  The
# objects are not copied: their dependency files name the baseline's paths.
# One run of this script at a time (it owns work/series); the kernels' lock
# only while the baseline tree is copied, shared, so that no kernel build
# changes it meanwhile and none waits for the builds below.
base=$OOPSLIMIT_CACHE/work/series
exec 9>"$OOPSLIMIT_CACHE/series.lock"
flock 9
rm -rf "$base"
mkdir -p "$base/obj"
(
	flock -s 7
	cp -a "$baseline_src" "$base/linux"
	cp "${baseline_src%/linux}/obj/.config" "$base/obj/.config"
	# the baseline shares the limits tree's headers; the series starts
	# from the ones it had before
	if [ -d "$baseline_dir/prior" ]; then
		(cd "$baseline_dir/prior" && find . -type f) | while read -r f; do
			f=${f#./}
			case $f in
			*.absent) rm -f "$base/linux/${f%.absent}" ;;
			*) rm -f "$base/linux/$f" && cp "$baseline_dir/prior/$f" "$base/linux/$f" ;;
			esac
		done
	fi
) 7>"$OOPSLIMIT_CACHE/build.lock" || die "cannot copy the baseline tree $baseline_src"

mapfile -t series < <(series_patches all)
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

while read -r f; do
	cmp -s "$base/linux/$f" "$limits_src/$f" ||
		die "after the whole series $f differs from the limits tree"
done < <(patch_files "${series[@]}")
say "all patches build on their own; the result equals the limits tree"
rm -rf "$base"
