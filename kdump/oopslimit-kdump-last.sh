# shellcheck shell=sh disable=SC2034,SC2154
# (SC2154, SC2034: the loader sets what these read, and reads what they set)
# oopslimit-kdump, after the panic (sourced by it; installed beside
# oopslimit-lib.sh): "last", and a capture that never began.  Its helpers
# beside it: a dump server's capture fetched back (remote_fetch,
# oopslimit-kdump-kinds.sh), the fallback spot (oopslimit-kdump-fallback.sh),
# pstore's record of a panic (oopslimit-kdump-pstore.sh) and the panic's
# journal event (oopslimit-kdump-event.sh).  The functions use the loader's
# settings and helpers (conf, state, vardir, die, load_config, dump_root,
# ...).

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
		echo "last capture $(basename "$d" .txt): failed, nothing saved: $(fallback_header "$d" error); verdict ${verdict:-unknown}; its report: $d"
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
			limits has_limits oops_n oops_count oops_l oops_limit warn_n warn_count warn_l warn_limit
		# as reason.txt's VERDICT line says it
		if [ -n "$origin" ]; then
			verdict="$verdict (origin: $origin)"
		elif [ -n "$detail" ]; then
			verdict="$verdict ($detail)"
		fi
		capture=$(capture_text "$d/reason.json")
		# the counters of a kernel with limits, as reason.txt's budget says them
		if [ "$limits" = true ]; then
			[ -z "$oops_n" ] || counters="oops_count $oops_n${oops_l:+ of $oops_l}"
			[ -z "$warn_n" ] || counters="$counters${counters:+, }warn_count $warn_n${warn_l:+ of $warn_l}"
		fi
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
	if kind_has fetch && ! remote_fetch; then
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

