# shellcheck shell=sh disable=SC2034,SC2154
# (SC2154, SC2034: the loader sets what these read, and reads what they set)
# oopslimit-kdump, the panic's journal event (sourced by it; installed
# beside oopslimit-lib.sh): "last --boot" says once why the machine went
# down.

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
