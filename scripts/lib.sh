# shellcheck shell=bash
# Helpers shared by the oopslimit scripts.  Source it; it defines functions and
# a few variables and runs nothing else.

OOPSLIMIT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything built (kernel trees, objects, kernels, initramfs images) lives
# here, outside the repository, keyed by the inputs that made it.
OOPSLIMIT_CACHE=${OOPSLIMIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/oopslimit}
OOPSLIMIT_TARBALL=${OOPSLIMIT_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
# The config library, and its other half with ol_write_atomic FILE (standard
# input into FILE, through a unique temporary renamed into place).
# shellcheck source=../kdump/oopslimit-lib.sh
. "$OOPSLIMIT_TOP/kdump/oopslimit-lib.sh"
# shellcheck source=../kdump/oopslimit-store.sh
. "$OOPSLIMIT_TOP/kdump/oopslimit-store.sh"

prog=$(basename "$0")

die() {
	printf '%s: error: %s\n' "$prog" "$*" >&2
	exit 1
}

# Progress goes to stderr so that stdout stays for results.
say() {
	printf '%s: %s\n' "$prog" "$*" >&2
}

# accel_memo: the file in which qemu-run.sh remembers, for this host boot,
# whether KVM works here ("kvm" or "tcg").
accel_memo() {
	printf '%s/accel.%s\n' "$OOPSLIMIT_CACHE" "$(cat /proc/sys/kernel/random/boot_id)"
}

# known_accel: the accelerator, without probing: OOPSLIMIT_ACCEL, else the
# answer remembered for this host boot, else tcg.  For kernels that cannot
# answer the probe (it boots the project's busybox guest) and for reports.
known_accel() {
	if [ -n "${OOPSLIMIT_ACCEL:-}" ]; then
		printf '%s\n' "$OOPSLIMIT_ACCEL"
	else
		cat "$(accel_memo)" 2>/dev/null || echo tcg
	fi
}

# cache_lock NAME: holds $OOPSLIMIT_CACHE/NAME.lock (file descriptor 8) until
# the script ends, waiting (and saying so) while another run holds it: one
# build of a cache entry at a time, the second run finding the first's.
cache_lock() {
	mkdir -p "$(dirname "$OOPSLIMIT_CACHE/$1")"
	exec 8>"$OOPSLIMIT_CACHE/$1.lock"
	flock -n 8 || {
		say "waiting for another run building $1"
		flock 8
	}
}

# sha256 of the named files, in the order given, as one short key.
key_of() {
	local f
	for f in "$@"; do
		[ -r "$f" ] || die "cannot read $f"
		printf '%s  %s\n' "$(sha256sum <"$f" | cut -c1-64)" "${f##*/}"
	done | sha256sum | cut -c1-16
}

# The patch files named by patches/series, with their full paths.  $1 is
# "upstream", "oopslimit" or "all".
series_patches() {
	local want=$1 line
	while IFS= read -r line; do
		case $line in '' | '#'*) continue ;; esac
		[ -r "$OOPSLIMIT_TOP/patches/$line" ] ||
			die "patches/series names $line, which does not exist"
		case $want/$line in
		all/* | upstream/upstream/* | oopslimit/oopslimit/*)
			printf '%s\n' "$OOPSLIMIT_TOP/patches/$line" ;;
		esac
	done <"$OOPSLIMIT_TOP/patches/series"
}

# The files the given patches touch, one path a line, each once.
patch_files() {
	sed -n 's#^diff --git a/\([^ ]*\) b/.*#\1#p' "$@" | sort -u
}

# apply_series DIR forward|reverse PATCH...: stops at the first patch that does
# not apply without fuzz and prints its name.
apply_series() {
	local dir=$1 dir_flag=$2 p
	shift 2
	local flags=(-p1 -F0 -f -s --no-backup-if-mismatch -r - -d "$dir")
	[ "$dir_flag" = reverse ] && flags+=(-R)
	for p in "$@"; do
		if ! patch "${flags[@]}" <"$p" >/dev/null 2>&1; then
			printf '%s\n' "${p#"$OOPSLIMIT_TOP"/}"
			return 1
		fi
	done
}

# kbuild BASE TARGET...: make in BASE/linux with objects in BASE/obj, through
# ccache and reproducibly (fixed timestamp, user, host and version).  Every
# tree lives at BASE/linux, so with CCACHE_BASEDIR=BASE ccache sees the same
# relative paths in any copy of a tree and reuses its objects.  Depend mode
# (CCACHE_DEPEND): a miss runs the compiler once, with no preprocessor pass
# before it (the limits kernel from a cold cache: 712 s, against 718 s in
# ccache's default mode; on 40 files alone the difference looked larger,
# but this machine's timings of a few files vary by a third run to run).
kbuild() {
	local base=$1
	shift
	CCACHE_DIR=$OOPSLIMIT_CACHE/ccache CCACHE_MAXSIZE=4G \
		CCACHE_BASEDIR=$base CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1 \
		KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026" \
		KBUILD_BUILD_USER=oopslimit KBUILD_BUILD_HOST=oopslimit KBUILD_BUILD_VERSION=1 \
		make -C "$base/linux" O="$base/obj" -j"$(($(nproc) + 1))" CC="ccache gcc" "$@"
}

# host_mirror: the Debian mirror the host's apt sources use for their main
# component (not the security archive), to ask it for another suite
# without touching those sources.
host_mirror() {
	apt-cache policy 2>/dev/null | awk '$3 ~ /\/main$/ && $2 ~ /^https?:/ && $2 !~ /security/ { print $2; exit }'
}

# arch_field ARCH COLUMN
#     The column (arch, deb, kernel, image, qemu, machine, console, cc,
#     append, dump, user) of the machine's row of scripts/arches; stops, naming the rows, when it has
#     none.
arch_field() {
	local col
	case $2 in
	arch) col=1 ;; deb) col=2 ;; kernel) col=3 ;; image) col=4 ;; qemu) col=5 ;; machine) col=6 ;;
	console) col=7 ;; cc) col=8 ;; append) col=9 ;; dump) col=10 ;; user) col=11 ;;
	*) die "arch_field: no column '$2'" ;;
	esac
	awk -v a="$1" -v c="$col" '!/^#/ && $1 == a { print $c; f = 1 } END { exit !f }' "$OOPSLIMIT_TOP/scripts/arches" ||
		die "no machine '$1' in scripts/arches (it has: $(awk '!/^#/ && NF { printf "%s ", $1 }' "$OOPSLIMIT_TOP/scripts/arches"))"
}

now_ms() {
	date +%s%3N
}

# Elapsed seconds since a now_ms value, with one decimal.
since() {
	local t=$(($(now_ms) - $1))
	printf '%d.%d' $((t / 1000)) $((t % 1000 / 100))
}
