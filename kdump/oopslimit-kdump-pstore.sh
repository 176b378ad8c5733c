# shellcheck shell=sh disable=SC2034,SC2154
# (SC2154, SC2034: the loader sets what these read, and reads what they set)
# oopslimit-kdump, a reason without kdump (sourced by it; installed beside
# oopslimit-lib.sh): "last --boot" judges pstore's record of a panic that
# no capture covers.

# When kdump was not loaded (or the panic came before it), nothing is
# captured, but a pstore backend (ramoops, efi-pstore) may hold the end of
# the kernel log the panic wrote: /sys/fs/pstore/dmesg-*, or the copy
# systemd-pstore archived in /var/lib/systemd/pstore.  "last --boot" judges
# such a record with the recorder (oopslimit-reason --pstore: the same table
# as a dump's log), when no new capture covers that boot, and writes the
# report into $vardir/pstore/STAMP/ beside a copy of the record: "last"
# shows it like a capture.  Each record is looked at once ($vardir/
# pstore-seen); one that is not a panic's, from another boot, or unreadable
# is skipped, or judged unknown, with one line saying why.
# (other places for the tests: tests/unit/pstore-boot.sh)
pstore_live=${OOPSLIMIT_PSTORE_LIVE:-/sys/fs/pstore}
pstore_archive=${OOPSLIMIT_PSTORE_ARCHIVE:-/var/lib/systemd/pstore}

# boot_starts: sets this_start (this boot's start, seconds since the epoch)
# and prev_start (the boot before's, as that boot noted it; empty when no
# boot before noted one), and notes this one.
boot_starts() {
	read -r up _ </proc/uptime
	now=$(date +%s)
	this_start=$((now - ${up%.*}))
	prev_start=''
	id=$(boot_id)
	if read -r pid pstart pprev 2>/dev/null <"$vardir/boot-start"; then
		if [ "$pid" = "$id" ]; then
			prev_start=$pprev
		else
			prev_start=$pstart
		fi
	fi
	mkdir -p "$vardir"
	echo "$id $this_start $prev_start" | ol_write_atomic "$vardir/boot-start" || die "$ol_error"
}

# pstore_records: "MTIME PATH" of each dmesg record, newest first.
pstore_records() {
	for dir in "$pstore_live" "$pstore_archive"; do
		[ -d "$dir" ] || continue
		find "$dir" -maxdepth 3 -type f -name 'dmesg-*' -printf '%T@ %p\n' 2>/dev/null
	done | sed 's/^\([0-9]*\)[.0-9]* /\1 /' | sort -rn
}

# A record by its name, size and time: the same record once systemd-pstore
# has copied it (it keeps the time) is not looked at twice.
pstore_seen_key() {
	echo "$(basename "$2") $(stat -c %s "$2" 2>/dev/null) $1"
}

# pstore_take COVERED: judges the newest unseen panic record of the boot
# before; COVERED names a new capture, which makes every record "seen".
pstore_take() {
	covered=$1 judged=''
	[ "$(ol_conf_value pstore)" = yes ] || return 0
	# every boot notes its start: the next one tells the records apart by it
	boot_starts
	recs=$(pstore_records)
	[ -n "$recs" ] || return 0
	# each record is judged into a directory of its own; the one kept is the
	# newest with a known verdict, else the newest judged unknown
	chosen='' chosen_reason='' chosen_stamp=''
	while read -r mtime rec; do
		[ -n "$rec" ] || continue
		key=$(pstore_seen_key "$mtime" "$rec")
		! grep -qxF -- "$key" "$vardir/pstore-seen" 2>/dev/null || continue
		archived=no
		case $rec in "$pstore_live"/*) ;; *) archived=yes ;; esac
		# A record's file has pstore's time of it, and systemd-pstore's
		# copy keeps it; a copy newer than this boot's start lost it
		# (another copier): made this boot from what pstore held at boot.
		why='' when=''
		if [ -n "$covered" ]; then
			why="the capture $covered covers the panic before this boot"
		elif [ "$mtime" -ge "$this_start" ]; then
			[ $archived = yes ] || why="written during this boot"
		elif [ -z "$prev_start" ]; then
			why="no earlier boot noted its start: cannot tell which boot wrote it"
		elif [ "$mtime" -lt "$prev_start" ]; then
			why="written $(date -u -d "@$mtime" +%Y-%m-%dT%H:%M:%SZ), before the last boot began: from an earlier boot"
		else
			when=$mtime
		fi
		# looked at once; one of this boot waits for the next
		[ "$why" = "written during this boot" ] || printf '%s\n' "$key" >>"$vardir/pstore-seen"
		if [ -n "$why" ]; then
			echo "$prog: pstore record $rec skipped: $why"
			continue
		fi
		if [ -n "$when" ]; then
			stamp=$(date -u -d "@$when" +%Y-%m-%d-%H%M%S)
		else
			stamp=$(date -u +%Y-%m-%d-%H%M%S)
		fi
		mkdir -p "$vardir/pstore"
		out=$(mktemp -d "$vardir/pstore/.new.XXXXXX") || die "cannot make a directory in $vardir/pstore"
		cp "$rec" "$out/" || die "cannot copy $rec to $out"
		rc=0
		err=$("$(recorder)" --pstore ${when:+--crash-time "$when"} -j "$out/reason.json" -t "$out/reason.txt" \
			"$out/$(basename "$rec")" 2>&1) || rc=$?
		if [ $rc -ne 0 ]; then
			rm -rf "$out"
			if [ $rc -eq 4 ]; then
				echo "$prog: pstore record $rec skipped: ${err#oopslimit-reason: }"
			else
				echo "$prog: pstore record $rec could not be judged: $(one_line "$err")"
			fi
			continue
		fi
		report_read "$out/reason.json" reason reason
		if [ -z "$chosen" ] || { [ "$chosen_reason" = unknown ] && [ "$reason" != unknown ]; }; then
			[ -z "$chosen" ] || {
				echo "$prog: pstore record $judged not kept: its verdict is unknown, $rec has one"
				rm -rf "$chosen"
			}
			chosen=$out chosen_reason=$reason chosen_stamp=$stamp judged=$rec
		else
			rm -rf "$out"
			echo "$prog: pstore record $rec skipped: another record, $judged, is the panic's"
		fi
	done <<EOF
$recs
EOF
	[ -n "$chosen" ] || return 0
	rm -rf "${vardir:?}/pstore/$chosen_stamp"
	mv -T "$chosen" "$vardir/pstore/$chosen_stamp" || die "cannot rename $chosen"
}

# pstore_newest: the newest report judged from a pstore record.
pstore_newest() {
	for p in "$vardir"/pstore/[0-9]*; do
		[ -r "$p/reason.json" ] && echo "$p"
	done | sort | tail -n 1
}
