#!/bin/bash
# Builds the guest kernels from Debian's linux-source-6.1 tarball.
#
# Usage: scripts/build-kernel.sh VARIANT...
#   limits    the tree as Debian ships it, plus this project's own patches
#             (patches/oopslimit/); a tree that lacks the limit series gets
#             patches/upstream/ applied forward first
#   baseline  the tree as it was before the limit series: patches/upstream/
#             reverse-applied (or the tree as it is, if it lacks the series),
#             keeping the limits tree's include/ headers (declarations, no
#             code: the two kernels share all but a few objects); the
#             headers as they were before the series are in its prior/
#
# Both variants are built in one tree and one object directory
# ($OOPSLIMIT_CACHE/work/kernel): switching from one to the other rewrites
# the few files the series touches, so make recompiles those and links.
#
# Prints, for each variant, the directory holding bzImage, vmlinux,
# System.map, config, kernelrelease, pristine (the unpacked tarball's path)
# and files/ (the variant's version of every file the series touches).
# Everything is built under $OOPSLIMIT_CACHE (default ~/.cache/oopslimit)
# and reused while its inputs (the tarball, patches/, patches/guest.config,
# this script) are unchanged.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || die "usage: $prog limits|baseline..."
for v in "$@"; do
	case $v in limits | baseline) ;; *) die "unknown variant '$v' (limits or baseline)" ;; esac
done

fragment=$OOPSLIMIT_TOP/patches/guest.config
[ -r "$OOPSLIMIT_TARBALL" ] ||
	die "$OOPSLIMIT_TARBALL not found: install it with 'apt-get install linux-source-6.1'"
mkdir -p "$OOPSLIMIT_CACHE"
exec 9>"$OOPSLIMIT_CACHE/build.lock"
flock -n 9 || { say "waiting for another build of the kernels to finish"; flock 9; }

mapfile -t upstream < <(series_patches upstream)
mapfile -t ours < <(series_patches oopslimit)
[ ${#upstream[@]} -gt 0 ] || die "patches/series names no upstream/ patch"

tarball_key=$(key_of "$OOPSLIMIT_TARBALL")
inputs_key=$(key_of "$OOPSLIMIT_TOP/patches/series" "${upstream[@]}" "${ours[@]}" \
	"$fragment" "$0" "$OOPSLIMIT_TOP/scripts/lib.sh")
pristine=$OOPSLIMIT_CACHE/src/$tarball_key/linux

# --- the pristine tree, unpacked once per tarball -----------------------------
unpack_pristine() {
	[ -e "$pristine/.oopslimit-complete" ] && return 0
	local tmp ver
	rm -rf "$OOPSLIMIT_CACHE/src/$tarball_key"
	mkdir -p "$OOPSLIMIT_CACHE/src"
	tmp=$(mktemp -d "$OOPSLIMIT_CACHE/src/$tarball_key.tmp.XXXXXX") || die "cannot make a directory in $OOPSLIMIT_CACHE/src"
	say "unpacking $OOPSLIMIT_TARBALL"
	tar -xJf "$OOPSLIMIT_TARBALL" -C "$tmp" || die "cannot unpack $OOPSLIMIT_TARBALL"
	set -- "$tmp"/*/Makefile
	if [ $# -ne 1 ] || [ ! -r "$1" ]; then
		rm -rf "$tmp"
		die "$OOPSLIMIT_TARBALL does not hold one kernel tree"
	fi
	ver=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$1" | paste -sd.)
	case $ver in
	6.1.*) ;;
	*) rm -rf "$tmp"; die "$OOPSLIMIT_TARBALL holds Linux $ver; the series is for 6.1.y" ;;
	esac
	mkdir -p "$OOPSLIMIT_CACHE/src/$tarball_key"
	mv "${1%/Makefile}" "$pristine"
	rm -rf "$tmp"
	touch "$pristine/.oopslimit-complete"
}

# --- the stage: copies of the touched files, patched ---------------------------
reversed() {
	local i
	for ((i = $# ; i > 0; i--)); do printf '%s\n' "${!i}"; done
}

# stage_files DIR FILE...: copies the pristine version of each file into DIR.
stage_files() {
	local dir=$1 f
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	for f in "$@"; do
		[ -e "$pristine/$f" ] || continue
		mkdir -p "$dir/$(dirname "$f")"
		cp "$pristine/$f" "$dir/$f"
	done
}

# Does the pristine tree carry the limit series (shipped) or lack it?
detect_mode() {
	local stage=$OOPSLIMIT_CACHE/stage.detect bad_rev bad_fwd
	mapfile -t rev_upstream < <(reversed "${upstream[@]}")
	stage_files "$stage" "${touched[@]}"
	if bad_rev=$(apply_series "$stage" reverse "${rev_upstream[@]}"); then
		mode=shipped
	else
		stage_files "$stage" "${touched[@]}"
		if bad_fwd=$(apply_series "$stage" forward "${upstream[@]}"); then
			mode=lacking
		elif [ "$bad_rev" = "${rev_upstream[0]#"$OOPSLIMIT_TOP"/}" ]; then
			rm -rf "$stage"
			die "$bad_fwd does not fit this tree: it neither applies nor reverse-applies"
		else
			rm -rf "$stage"
			die "$bad_rev does not fit this tree: the series is only partly there"
		fi
	fi
	rm -rf "$stage"
}

# --- one variant ----------------------------------------------------------------
build_variant() {
	local variant=$1 out=$OOPSLIMIT_CACHE/kernels/$1-$tarball_key-$inputs_key
	if [ -e "$out/.complete" ]; then
		say "$variant kernel is up to date"
		printf '%s\n' "$out"
		return
	fi
	local t0 base=$OOPSLIMIT_CACHE/work/kernel
	local tree=$base/linux obj=$base/obj
	local stage=$OOPSLIMIT_CACHE/stage.$variant bad f
	t0=$(now_ms)

	# A tree from another tarball is thrown away with its objects.
	if [ "$(cat "$tree/.oopslimit-pristine" 2>/dev/null)" != "$tarball_key" ]; then
		say "copying the pristine tree"
		rm -rf "$tree" "$obj"
		mkdir -p "$(dirname "$tree")"
		local copy
		copy=$(mktemp -d "$tree.tmp.XXXXXX") || die "cannot make a directory beside $tree"
		# hard links: nothing writes into a source tree (kbuild writes
		# into O=, and a patched file replaces its link, below)
		cp -al "$pristine/." "$copy" || { rm -rf "$copy"; die "cannot copy $pristine"; }
		mv -T "$copy" "$tree"
		printf '%s\n' "$tarball_key" >"$tree/.oopslimit-pristine"
		: >"$tree/.oopslimit-touched"
	fi

	# Every file the old or the new series touches is recomputed in a stage
	# and copied into the tree only if its content changed, so make rebuilds
	# what the change affects and nothing else.
	local all
	mapfile -t all < <({ cat "$tree/.oopslimit-touched"; printf '%s\n' "${touched[@]}"; } | sort -u)
	stage_files "$stage" "${all[@]}"
	patch_stage "$stage" "$variant" "${all[@]}"
	# The baseline keeps the limits tree's headers (include/ and
	# arch/*/include/: declarations and stubs, no code), so that it shares
	# every object with the limits kernel but those of the .c files the
	# series touches: a few files to compile instead of a second whole
	# build (nearly every file includes panic.h).  The headers as they
	# were before the series are kept in prior/ for check-series.sh.
	rm -rf "$base/prior"
	if [ "$variant" = baseline ]; then
		local lstage=$OOPSLIMIT_CACHE/stage.baseline-headers
		patch_stage "$lstage" limits "${all[@]}"
		for f in "${all[@]}"; do
			case $f in include/*.h | arch/*/include/*.h) ;; *) continue ;; esac
			mkdir -p "$(dirname "$base/prior/$f")"
			if [ -e "$stage/$f" ]; then cp "$stage/$f" "$base/prior/$f"; else : >"$base/prior/$f.absent"; fi
			rm -f "$stage/$f"
			[ ! -e "$lstage/$f" ] || cp "$lstage/$f" "$stage/$f"
		done
		rm -rf "$lstage"
	fi
	for f in "${all[@]}"; do
		if [ -e "$stage/$f" ]; then
			# (rm first: the tree's file may be a hard link to the pristine one)
			cmp -s "$stage/$f" "$tree/$f" ||
				{ mkdir -p "$(dirname "$tree/$f")"; rm -f "$tree/$f"; cp "$stage/$f" "$tree/$f"; }
		else
			rm -f "$tree/$f"
		fi
	done
	rm -rf "$stage"
	printf '%s\n' "${touched[@]}" >"$tree/.oopslimit-touched"

	configure "$variant" "$tree" "$obj"

	local log=$obj/build.log
	say "building $variant kernel (log: $log)"
	if ! kbuild "$base" bzImage >"$log" 2>&1; then
		tail -n 15 "$log" >&2
		die "the $variant kernel did not build; log: $log"
	fi

	local new
	mkdir -p "$(dirname "$out")"
	new=$(mktemp -d "$out.tmp.XXXXXX") || die "cannot make a directory beside $out"
	chmod 755 "$new"
	cp "$obj/arch/x86/boot/bzImage" "$obj/vmlinux" "$obj/System.map" "$new/"
	cp "$obj/.config" "$new/config"
	[ ! -d "$base/prior" ] || cp -a "$base/prior" "$new/prior"
	make -s -C "$tree" O="$obj" kernelrelease >"$new/kernelrelease"
	printf '%s\n' "$mode" >"$new/series-mode"
	printf '%s\n' "$pristine" >"$new/pristine"
	for f in "${touched[@]}"; do
		[ -e "$tree/$f" ] || continue
		mkdir -p "$(dirname "$new/files/$f")"
		cp "$tree/$f" "$new/files/$f"
	done
	touch "$new/.complete"
	# Older builds of this variant are of no further use.
	for f in "$OOPSLIMIT_CACHE/kernels/$variant"-*; do
		[ "$f" = "$new" ] || rm -rf "$f"
	done
	mv -T "$new" "$out"
	say "$variant kernel built in $(since "$t0") s"
	printf '%s\n' "$out"
}

# patch_stage DIR VARIANT FILE...: the pristine FILEs in DIR, patched as
# VARIANT has them.
patch_stage() {
	local dir=$1 variant=$2 bad
	shift 2
	stage_files "$dir" "$@"
	case $variant/$mode in
	limits/shipped) bad=$(apply_series "$dir" forward "${ours[@]}") ;;
	limits/lacking) bad=$(apply_series "$dir" forward "${upstream[@]}" "${ours[@]}") ;;
	baseline/shipped) bad=$(apply_series "$dir" reverse "${rev_upstream[@]}") ;;
	baseline/lacking) bad= ;;
	esac || { rm -rf "$dir"; die "$bad does not apply to the $variant tree"; }
}

# configure VARIANT TREE OBJ: tinyconfig + guest.config, checked, written to
# OBJ/.config only if it differs (so an unchanged config rebuilds nothing).
configure() {
	local variant=$1 tree=$2 obj=$3 cfg=$OOPSLIMIT_CACHE/config.$1 line opt
	rm -rf "$cfg"
	mkdir -p "$cfg" "$obj"
	{
		make -s -C "$tree" O="$cfg" tinyconfig &&
			"$tree/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" "$fragment" &&
			make -s -C "$tree" O="$cfg" olddefconfig
	} >"$cfg.log" 2>&1 || die "configuring the $variant kernel failed; log: $cfg.log"
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF "$line" "$cfg/.config" ||
				die "$line did not stick in the $variant config (a dependency is missing); see $cfg/.config" ;;
		'# CONFIG_'*' is not set')
			opt=${line#\# }
			opt=${opt%% *}
			! grep -q "^$opt=" "$cfg/.config" ||
				die "$opt is set in the $variant config, guest.config wants it off" ;;
		esac
	done <"$fragment"
	cmp -s "$cfg/.config" "$obj/.config" || cp "$cfg/.config" "$obj/.config"
	rm -rf "$cfg" "$cfg.log"
}

mapfile -t touched < <(patch_files "${upstream[@]}" "${ours[@]}")
# (one tree for both variants since 2026-12: the per-variant ones are stale)
rm -rf "$OOPSLIMIT_CACHE/work/limits" "$OOPSLIMIT_CACHE/work/baseline"
unpack_pristine
detect_mode
case $mode in
shipped) say "the tree carries the limit series: baseline reverse-applies it" ;;
lacking) say "the tree lacks the limit series: limits applies it forward" ;;
esac
for v in "$@"; do
	build_variant "$v"
done
