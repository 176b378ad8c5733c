# shellcheck shell=sh disable=SC2034,SC2154
# (SC2154, SC2034: the loader sets what these read, and reads what they set)
# oopslimit-kdump, after the panic (sourced by it; installed beside
# oopslimit-lib.sh): dumps on a dump server, the fallback spot, a capture
# that never began and "last", pstore's record of a panic at the next boot,
# and the panic's journal event.  The functions use the loader's settings
# and helpers (conf, state, vardir, die, load_config, dump_root, ...).

# --- dumps on a dump server ----------------------------------------------------------------
# An ssh or NFS target keeps its dumps on the server: "last" copies the
# newest one's reports into $vardir/remote/STAMP/, with ".remote" saying
# "STATE WHERE" (complete, incomplete or none; where the dump is), and reads
# them there like a local dump.  False with $remote_error when the server
# cannot be asked.
remote_fetch() {
	remote_error=''
	mkdir -p "$vardir/remote"
	tmp=$(mktemp -d "$vardir/remote/.fetch.XXXXXX") || { remote_error="cannot make a directory in $vardir/remote"; return 1; }
	case $(ol_net_kind "$ol_target") in
	ssh)
		if [ ! -r "$ol_sshkey" ]; then
			remote_error="no dump key $ol_sshkey yet (oopslimit-kdump propagate)"
			rm -rf "$tmp"
			return 1
		fi
		if ! line=$(ssh_dump last </dev/null 2>"$tmp/err"); then
			remote_error="ssh $(ssh_user)@$(ol_net_host "$ol_target"): $(tr '\n' ' ' <"$tmp/err" | sed 's/ *$//')"
			rm -rf "$tmp"
			return 1
		fi
		# the server's words are checked before a path is made of them
		if ! ol_last_parse "$line"; then
			remote_error=$ol_error
			rm -rf "$tmp"
			return 1
		fi
		r_stamp=$ol_last_stamp r_state=$ol_last_state
		if [ "$r_stamp" != none ]; then
			for f in reason.json reason.txt; do
				ssh_dump get "$r_stamp" "$f" </dev/null >"$tmp/$f" 2>/dev/null || rm -f "$tmp/$f"
			done
		fi ;;
	nfs)
		mkdir "$tmp/mnt"
		e=${ol_target#*:}
		if ! err=$(timeout -s KILL 15 mount -t "${ol_target%%:*}" -o "ro,$(ol_nfs_options "$ol_mntopts" "$ol_net_ip" "$ol_net_addr")" \
			"$ol_net_ip:${e#*:}" "$tmp/mnt" 2>&1); then
			remote_error="cannot mount $ol_net_ip:${e#*:}: $(printf '%s' "${err:-no answer within 15 s}" | tr '\n' ' ')"
			rm -rf "$tmp"
			return 1
		fi
		d=$(ol_dumps_in "$(ol_normpath "$tmp/mnt/$ol_dump_dir")" | tail -n 1)
		r_stamp=none r_state=none
		if [ -n "$d" ] && ol_is_stamp "${d##*/}"; then
			r_stamp=${d##*/}
			[ ! -e "$d/vmcore-incomplete" ] || r_state=incomplete
			[ ! -e "$d/vmcore" ] || r_state=complete
			# whoever owns the export could plant links: never followed
			for f in reason.json reason.txt; do
				ol_copy_plain "$d/$f" "$tmp/$f" || rm -f "$tmp/$f"
			done
		fi
		umount "$tmp/mnt" 2>/dev/null || umount -l "$tmp/mnt" 2>/dev/null
		rmdir "$tmp/mnt" 2>/dev/null ;;
	esac
	rm -f "$tmp/err"
	# the newest only: older copies go
	for o in "$vardir"/remote/[0-9]*; do
		[ ! -d "$o" ] || [ "${o##*/}" = "$r_stamp" ] || rm -rf "$o"
	done
	if [ "$r_stamp" = none ]; then
		rm -rf "$tmp"
		return 0
	fi
	# where, as scp and mount write it: USER@HOST:DIR, HOST:/EXPORT/DIR
	case $(ol_net_kind "$ol_target") in
	ssh) where=${ol_target#ssh:}:$(ol_normpath "$ol_dump_dir/$r_stamp") ;;
	*) e=${ol_target#*:} where=${e%%:*}:$(ol_normpath "${e#*:}/$ol_dump_dir/$r_stamp") ;;
	esac
	echo "$r_state $where" >"$tmp/.remote"
	rm -rf "${vardir:?}/remote/$r_stamp"
	mv "$tmp" "$vardir/remote/$r_stamp"
}

# --- the fallback spot -------------------------------------------------------------------
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
	if [ "$(head -n 1 "$f" 2>/dev/null)" = "$fb_report" ]; then
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
	[ -f "$f" ] && [ "$(head -n 1 "$f" 2>/dev/null)" = "$fb_report" ] || return 0
	s=$(sed -n '2s/^stamp: //p' "$f")
	case $s in '' | *[!0-9-]*) s=$(date -u +%Y-%m-%d-%H%M%S) ;; esac
	mkdir -p "$vardir/failed"
	tr -d '\000' <"$f" | ol_write_atomic "$vardir/failed/$s.txt" || die "$ol_error"
	fallback_empty "$f" || die "cannot empty the fallback spot $f"
}

# --- a capture that never began --------------------------------------------------------
# A capture kernel that dies before its script runs (a reservation too small
# to unpack its initramfs) leaves nothing anywhere.  "load" notes this boot
# in $vardir/armed and "unload" (the unit's stop, at every shutdown) removes
# it: found at the next boot, it says the boot before ended with the capture
# kernel loaded and without a shutdown.
boot_id() {
	cat "$kproc/kernel/random/boot_id" 2>/dev/null || echo unknown
}

# armed_unanswered: prints the time "load" armed a boot that ended without
# a shutdown and whose crash left no capture (a newer dump directory or
# failed capture's report would be its answer); the note goes either way.
armed_unanswered() {
	a=$vardir/armed
	[ -r "$a" ] || return 1
	read -r id at <"$a" || { rm -f "$a"; return 1; }
	[ "$id" != "$(boot_id)" ] || return 1
	rm -f "$a"
	newest=$(newest_capture)
	[ -z "$newest" ] || [ "$(printf '%s\n' "$at" "$(basename "$newest" .txt)" | sort | tail -n 1)" = "$at" ] || return 1
	echo "$at"
}

# newest_capture: the newest dump directory or failed capture's report,
# whichever is newer (both are named by UTC time stamps).
newest_capture() {
	{
		d=$(last_dir) && [ -n "$d" ] && printf '%s %s\n' "$(basename "$d")" "$d"
		# dumps the failure action saved into its fallback directory
		if [ -n "$ol_failure_local" ]; then
			for d in "$ol_failure_local"/[0-9][0-9][0-9][0-9]-*; do
				[ -d "$d" ] && printf '%s %s\n' "$(basename "$d")" "$d"
			done
		fi
		for r in "$vardir"/failed/[0-9]*.txt; do
			[ -f "$r" ] && printf '%s %s\n' "$(basename "$r" .txt)" "$r"
		done
		p=$(pstore_newest) && [ -n "$p" ] && printf '%s %s\n' "$(basename "$p")" "$p"
	} | sort | tail -n 1 | cut -d' ' -f2-
}

# pstore_newest: the newest report judged from a pstore record.
pstore_newest() {
	for p in "$vardir"/pstore/[0-9]*; do
		[ -r "$p/reason.json" ] && echo "$p"
	done | sort | tail -n 1
}

# capture_text REPORT: the capture member of REPORT in the words of
# reason.txt's CAPTURE line (common/report-text.c), less the count of old
# dumps removed; nothing when the report has none.
capture_text() {
	report_read "$1" c_status capture.status c_file capture.dump_file c_bytes capture.dump_bytes \
		c_secs capture.seconds c_exit capture.collector_exit c_target capture.target \
		c_action capture.failure_action c_error capture.error c_warning capture.warning
	[ -n "$c_status" ] || return 0
	printf '%s\n' "$c_status${c_file:+, $c_file}${c_bytes:+ $c_bytes bytes}${c_secs:+ in $c_secs s}${c_exit:+ (collector exit $c_exit)}${c_target:+ to $c_target}${c_action:+; failure action $c_action}${c_error:+: $c_error}${c_warning:+; warning: $c_warning}"
}

# capture_summary DIR: one line: the directory, complete or not, the verdict.
capture_summary() {
	d=$1
	if [ -f "$d" ]; then
		# a failed capture's report, out of the fallback spot
		report_read "$d" verdict reason
		echo "last capture $(basename "$d" .txt): failed, nothing saved: $(sed -n 's/^error: //p' "$d" | head -n 1); verdict ${verdict:-unknown}; its report: $d"
		return
	fi
	case $d in "$vardir"/pstore/*)
		report_read "$d/reason.json" verdict reason sig signature from reader.log_from
		echo "last panic $d: no capture (kdump was not loaded, or stopped before it); the log from $from; verdict ${verdict:-unknown}${sig:+; signature $sig}"
		return ;;
	esac
	name=$d
	if [ -r "$d/.remote" ]; then
		read -r status name <"$d/.remote"
		[ "$status" != none ] || status='no vmcore'
	elif [ -e "$d/vmcore" ]; then
		status=complete
	elif [ -e "$d/vmcore-incomplete" ]; then
		status=incomplete
	else
		status='no vmcore'
	fi
	verdict='' capture='' counters='' sig=''
	if [ -r "$d/reason.json" ]; then
		report_read "$d/reason.json" verdict reason origin origin detail detail sig signature \
			oops_n oops_count oops_l oops_limit warn_n warn_count warn_l warn_limit
		# as reason.txt's VERDICT line says it
		if [ -n "$origin" ]; then
			verdict="$verdict (origin: $origin)"
		elif [ -n "$detail" ]; then
			verdict="$verdict ($detail)"
		fi
		capture=$(capture_text "$d/reason.json")
		[ -z "$oops_n" ] || counters="oops_count $oops_n${oops_l:+ of $oops_l}"
		[ -z "$warn_n" ] || counters="$counters${counters:+, }warn_count $warn_n${warn_l:+ of $warn_l}"
		# a dump saved with the collector's doubts is not plainly complete
		case $capture in *'; warning: '*)
			[ "$status" != complete ] || status="complete, with a warning: ${capture#*; warning: }"
			capture=${capture%%; warning: *} ;;
		esac
	fi
	echo "last capture $name: $status; verdict ${verdict:-unknown (no reason.json)}${counters:+; $counters}${capture:+; capture $capture}${sig:+; signature $sig}"
}

do_last() {
	boot=no
	case ${1:-} in
	'') ;;
	--boot) boot=yes ;;
	*) usage ;;
	esac
	load_config
	judged='' remote_error=''
	if ol_net_kind "$ol_target" >/dev/null && ! remote_fetch; then
		# what this machine holds still counts: the failure action's
		# fallback directory, a failed capture's report, pstore
		echo "$prog: warning: cannot ask the dump server for the last capture: $remote_error" >&2
	fi
	if [ $boot = yes ]; then
		fallback_take
		# a capture not reported yet covers the panic a pstore record may hold
		new=$(newest_capture)
		[ "$(cat "$vardir/last-reported" 2>/dev/null)" != "$new" ] || new=''
		pstore_take "$new"
		# a record judged answers for the boot armed_unanswered asks about
		[ -z "$judged" ] || rm -f "$vardir/armed"
	fi
	if ! root=$(dump_root) && [ -z "$(pstore_newest)" ]; then
		# at boot, "load" says what is wrong with the target
		[ $boot = no ] || exit 0
		echo "$prog: dumps go to $(dumps_where), which is not mounted here: mount it to read the last capture" >&2
		exit 1
	fi
	if [ $boot = yes ]; then
		if at=$(armed_unanswered); then
			echo "$prog: last capture: none saved: the boot before this one ended without a shutdown while the capture kernel was loaded (since $at), and nothing reached $(dumps_where) or the fallback spot: the capture kernel stopped before its capture script ran (a reservation too small to unpack its initramfs? see '$prog estimate'), or the machine was reset"
			exit 0
		fi
	fi
	d=$(newest_capture)
	if [ -z "$d" ]; then
		[ $boot = yes ] && exit 0
		[ -z "$remote_error" ] || die "no capture here, and the dump server could not be asked: $remote_error"
		echo "$prog: no capture in $(dumps_where)"
		exit 0
	fi
	if [ $boot = yes ]; then
		# once: the first boot after the capture says it, later ones do not
		[ "$(cat "$vardir/last-reported" 2>/dev/null)" != "$d" ] || exit 0
		mkdir -p "$vardir"
		echo "$d" | ol_write_atomic "$vardir/last-reported" || die "cannot write $vardir/last-reported"
	fi
	# the whole report first, the one-line summary last
	if [ $boot = no ] && [ -f "$d" ]; then
		sed -n '/[^[:space:]]/p' "$d"
	elif [ $boot = no ] && [ -r "$d/.remote" ]; then
		echo "on the dump server: $(cut -d' ' -f2- "$d/.remote")"
		[ ! -r "$d/reason.txt" ] || sed -n '/[^[:space:]]/p' "$d/reason.txt"
	elif [ $boot = no ]; then
		ls -l "$d"
		[ ! -r "$d/reason.txt" ] || sed -n '/[^[:space:]]/p' "$d/reason.txt"
	fi
	if [ -r "$vardir/test-pending" ]; then
		test_result "$d" || true
	fi
	if [ $boot = yes ]; then
		panic_event "$d" "$prog: $(capture_summary "$d")"
	else
		echo "$prog: $(capture_summary "$d")"
	fi
}

# --- a reason without kdump: pstore --------------------------------------------------
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

# --- the journal event ------------------------------------------------------------------
# After the boot that followed a capture, one structured journal entry says
# why the machine went down, for whoever watches the journal (journalctl
# MESSAGE_ID=..., a log shipper) rather than /var/crash.  Its MESSAGE_ID is
# fixed, its fields are documented in oopslimit-kdump(8), EVENTS.
panic_msgid=c7be4352f62d488990f29772b78e9cea

# A journal field's value on one line (the native protocol takes a
# newline-free value as it is).
field() {
	printf '%s=%s\n' "$1" "$(printf '%s' "$2" | tr '\n' ' ')"
}

# panic_event DIR SUMMARY: the entry through logger's native journal
# protocol; where there is no journal (or no logger), SUMMARY on standard
# output, which the unit's journal gets.  OBJECT_SYSTEMD_UNIT ties the entry
# to the unit even when journald cannot read the cgroup of a logger that
# has already exited ("journalctl -u oopslimit-kdump" shows it).
panic_event() {
	d=$1
	rep='' vmcore='' complete=0
	if [ -f "$d" ]; then
		rep=$d
	else
		[ ! -r "$d/reason.json" ] || rep=$d/reason.json
		if [ -r "$d/.remote" ]; then
			read -r st where <"$d/.remote"
			case $st in
			complete) vmcore=$where/vmcore complete=1 ;;
			incomplete) vmcore=$where/vmcore-incomplete ;;
			esac
		elif [ -e "$d/vmcore" ]; then
			vmcore=$d/vmcore complete=1
		elif [ -e "$d/vmcore-incomplete" ]; then
			vmcore=$d/vmcore-incomplete
		fi
	fi
	r_reason='' r_setting='' r_sig='' r_oc='' r_ol='' r_wc='' r_wl=''
	[ -z "$rep" ] || report_read "$rep" r_reason reason r_setting setting r_sig signature \
		r_oc oops_count r_ol oops_limit r_wc warn_count r_wl warn_limit
	if [ -S "${OOPSLIMIT_JOURNAL_SOCKET:-/run/systemd/journal/socket}" ] && {
		field MESSAGE_ID "$panic_msgid"
		field MESSAGE "$2"
		field PRIORITY 4
		field SYSLOG_IDENTIFIER "$prog"
		field OBJECT_SYSTEMD_UNIT oopslimit-kdump.service
		field OOPSLIMIT_REASON "$r_reason"
		field OOPSLIMIT_SETTING "$r_setting"
		# what to bucket the panic by across boots and hosts (schema 3)
		field OOPSLIMIT_SIGNATURE "$r_sig"
		field OOPSLIMIT_VMCORE "$vmcore"
		field OOPSLIMIT_COMPLETE "$complete"
		field OOPSLIMIT_REPORT "$rep"
		case $d in "$vardir"/pstore/*) field OOPSLIMIT_SOURCE pstore ;; *) field OOPSLIMIT_SOURCE kdump ;; esac
		field OOPSLIMIT_OOPS_COUNT "$r_oc"
		field OOPSLIMIT_OOPS_LIMIT "$r_ol"
		field OOPSLIMIT_WARN_COUNT "$r_wc"
		field OOPSLIMIT_WARN_LIMIT "$r_wl"
	} | logger --journald 2>/dev/null; then
		return 0
	fi
	echo "$2"
}
