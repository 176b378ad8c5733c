# shellcheck shell=sh disable=SC2034,SC2154
# (SC2154, SC2034: the loader sets what these read, and reads what they set)
# oopslimit-kdump's fallback spot (sourced by it; installed beside
# oopslimit-lib.sh): "load" sets it up, "last --boot" takes a failed
# capture's report out of it.  The capture kernel's side is fallback_write
# in initramfs/99oopslimit/oopslimit-capture.sh.

# A capture that cannot save anything on the target (its file system's
# driver did not load, the directory cannot be made) still leaves its report
# where the next boot finds it: "load" keeps a 64 KiB file in the dump
# directory, filled with an empty marker, and gives the capture kernel its
# device and byte offset (oopslimit.fallback=DEVICE:OFFSET), which the
# capture writes through the block device, over the marker only.  "last
# --boot" moves a report found there to $vardir/failed/STAMP.txt.
fb_size=65536
fb_empty='oopslimit-fallback: empty'
fb_report='oopslimit-fallback: report'

# A failed capture's report, as the capture kernel's fallback_write writes
# it: "oopslimit-fallback: report", "stamp: STAMP", "error: TEXT", then the
# recorder's JSON.  fallback_header FILE stamp|error: that line's value,
# nothing when FILE is no such report.
fallback_header() {
	{ IFS= read -r _fh1 && IFS= read -r _fhs && IFS= read -r _fhe; } <"$1" 2>/dev/null || return 0
	[ "$_fh1" = "$fb_report" ] || return 0
	case $2 in
	stamp) _fhv=$_fhs ;;
	*) _fhv=$_fhe ;;
	esac
	case $_fhv in "$2: "*) printf '%s\n' "${_fhv#"$2: "}" ;; esac
}

# fallback_is_report FILE: whether FILE is a failed capture's report.
fallback_is_report() {
	[ "$(head -n 1 "$1" 2>/dev/null)" = "$fb_report" ]
}

# fallback_json FILE: the JSON of a failed capture's report.
fallback_json() {
	tail -n +4 "$1"
}

fallback_file() {
	echo "$1/.oopslimit-fallback"
}

# fallback_empty FILE: the empty marker, then zeros, written over FILE in
# place (the same blocks), and flushed to the disk.
fallback_empty() {
	{ printf '%s\n' "$fb_empty"; head -c $fb_size /dev/zero; } | head -c $fb_size |
		dd of="$1" bs=4096 conv=notrunc,fsync 2>/dev/null
}

# setup_fallback: sets ol_fallback to DEVICE:OFFSET of the spot, or leaves
# it empty (with a warning) when the spot cannot be had.
setup_fallback() {
	ol_fallback=''
	root=$(dump_root) || return 0
	dev=$(target_device)
	case $dev in /dev/*) ;; *) return 0 ;; esac
	f=$(fallback_file "$root")
	if [ -L "$f" ] || { [ -e "$f" ] && [ ! -f "$f" ]; }; then
		echo "$prog: warning: $f is not a regular file: no fallback spot for a failed capture" >&2
		return 0
	fi
	if fallback_is_report "$f"; then
		echo "$prog: warning: $f holds a failed capture's report no boot has read: kept ('$prog last --boot' reads it); no fallback spot this time" >&2
		return 0
	fi
	[ "$(stat -c %s "$f" 2>/dev/null)" = $fb_size ] || rm -f "$f"
	mkdir -p "$root"
	fallback_empty "$f" || { echo "$prog: warning: cannot write $f: no fallback spot for a failed capture" >&2; return 0; }
	# one extent, written on the disk (not unwritten, inline or shared)
	off=$(filefrag -v -b512 "$f" 2>/dev/null | awk -v n=$((fb_size / 512)) '
		/extents? found/ { found = $2 }
		$1 == "0:" && $2 == "0.." && $3 == (n - 1) ":" && $6 == n ":" && $0 !~ /unwritten|unknown|delalloc|inline|encoded|not_aligned|shared/ {
			sub(/\.\.$/, "", $4); off = $4 * 512 }
		END { if (found == 1 && off != "") print off }')
	if [ -z "$off" ]; then
		echo "$prog: warning: cannot tell where $f lies on $dev (filefrag): no fallback spot for a failed capture" >&2
		return 0
	fi
	ol_fallback=$dev:$off
}

# fallback_take: a report in the fallback spot goes to $vardir/failed, and
# the spot is emptied for the next capture.
fallback_take() {
	root=$(dump_root) || return 0
	f=$(fallback_file "$root")
	[ -f "$f" ] && fallback_is_report "$f" || return 0
	s=$(fallback_header "$f" stamp)
	case $s in '' | *[!0-9-]*) s=$(date -u +%Y-%m-%d-%H%M%S) ;; esac
	mkdir -p "$vardir/failed"
	tr -d '\000' <"$f" | ol_write_atomic "$vardir/failed/$s.txt" || die "$ol_error"
	fallback_empty "$f" || die "cannot empty the fallback spot $f"
}
