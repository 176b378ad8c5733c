# shellcheck shell=sh disable=SC2034,SC2154
# (SC2154, SC2034: the loader sets what these read, and reads what they set)
# oopslimit-kdump, the live metrics (sourced by it; installed beside
# oopslimit-lib.sh): "metrics" for node_exporter's textfile collector, and
# the rate "status" shows.  The functions use the loader's settings and
# helpers (conf, state, vardir, ksys, kproc, die, load_config, ...).

# --- live metrics ------------------------------------------------------------------------
# "metrics" (oopslimit-metrics.timer, every minute) writes what the running
# kernel holds now in node_exporter's text format, into metrics_dir: whole
# through ol_write_atomic (a temporary named oopslimit.prom.tmp.*, which the
# textfile collector does not read, renamed over oopslimit.prom), or not at
# all.  Each run also keeps a sample of the counters in $vardir/samples
# ("EPOCH BOOT_ID OOPS_COUNT WARN_COUNT", the last two hours), which the
# rate "status" shows is estimated from.
samples_keep=7200

# A label value in the text format: backslash, double quote, newline escaped.
prom_label() {
	printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | sed ':a;N;$!ba;s/\n/\\n/g'
}

# A kernel file's value when it is a plain unsigned number, else false.
knum() {
	_k=$(cat "$1" 2>/dev/null) || return 1
	case $_k in '' | *[!0-9]*) return 1 ;; esac
	echo "$_k"
}

# The metrics read every kernel file they need with one process, once (the
# timer runs them every minute): kvals_read FILE... keeps "FILE:VALUE"
# lines of those there, kval VAR FILE sets VAR to FILE's number from them
# (false, VAR empty, when it is not one).  Not the shell's read on the
# files: it reads a byte at a time, and a /proc/sys file gives its first
# byte alone at that.
kvals_read() {
	kvals=$(grep -s -H '' "$@") || true
}

kval() {
	_kv=${kvals#*"$2":}
	if [ "$_kv" = "$kvals" ]; then
		_kv=''
	else
		_kv=${_kv%%"
"*}
	fi
	case $_kv in '' | *[!0-9]*) _kv='' ;; esac
	eval "$1=\$_kv"
	[ -n "$_kv" ]
}

# metric NAME TYPE HELP [SAMPLE...]: one family, nothing without a sample;
# a SAMPLE is "{LABELS} VALUE" or a bare value.
metric() {
	_n=$1 _t=$2 _h=$3
	shift 3
	[ $# -gt 0 ] || return 0
	printf '# HELP %s %s\n# TYPE %s %s\n' "$_n" "$_h" "$_n" "$_t"
	for _v in "$@"; do
		case $_v in
		'{'*) printf '%s%s\n' "$_n" "$_v" ;;
		*) printf '%s %s\n' "$_n" "$_v" ;;
		esac
	done
}

# The report of the last panic "last --boot" reported (a capture's
# reason.json, a failed capture's report, a pstore record's report): false
# when there is none.  A panic is only ever reported at the boot after it.
last_report() {
	read -r _d 2>/dev/null <"$vardir/last-reported" || return 1
	if [ -f "$_d" ]; then
		echo "$_d"
	elif [ -n "$_d" ] && [ -r "$_d/reason.json" ]; then
		echo "$_d/reason.json"
	else
		return 1
	fi
}

# headroom VAR COUNT LIMIT: VAR set as common/report.c's ol_headroom()
# counts; empty when the limit is 0 or a value is missing.
headroom() {
	_hr=''
	if [ -n "$2" ] && [ -n "$3" ] && [ "$3" -gt 0 ]; then
		_hr=$(($3 > $2 ? $3 - $2 : 0))
	fi
	eval "$1=\$_hr"
}

metrics_text() {
	# the other panic settings of the variable table (common/vars.def, which
	# the recorder prints), as the running kernel holds them: their files
	settings=$("$(recorder)" --settings 2>/dev/null) || settings=''
	files='' paths=''
	while read -r key sysctl; do
		case $key in '' | oops_limit | warn_limit) continue ;; esac
		case $sysctl in *.*) ;; *) continue ;; esac
		# kernel.panic_on_oops: kernel/panic_on_oops
		f=$sysctl
		while :; do
			case $f in *.*) f=${f%%.*}/${f#*.} ;; *) break ;; esac
		done
		files="$files $sysctl=$kproc/$f" paths="$paths $kproc/$f"
	done <<EOF
$settings
EOF
	# shellcheck disable=SC2086  # the files' names are words: no blanks in them
	kvals_read "$ksys/oops_count" "$ksys/warn_count" "$ksys/kexec_crash_loaded" "$ksys/kexec_crash_size" \
		"$kproc/kernel/oops_limit" "$kproc/kernel/warn_limit" $paths
	oc='' wc='' ol='' wl=''
	kval oc "$ksys/oops_count" || true
	kval wc "$ksys/warn_count" || true
	kval ol "$kproc/kernel/oops_limit" || true
	kval wl "$kproc/kernel/warn_limit" || true
	headroom oh "$oc" "$ol"
	headroom wh "$wc" "$wl"
	metric oopslimit_oopses_total counter "Oopses since boot (/sys/kernel/oops_count)." ${oc:+"$oc"}
	metric oopslimit_warnings_total counter "Warnings since boot: WARN, KASAN, UBSAN, KFENCE, KCSAN, scheduling while atomic (/sys/kernel/warn_count)." ${wc:+"$wc"}
	metric oopslimit_oops_limit gauge "kernel.oops_limit: the oops count that panics (0: never)." ${ol:+"$ol"}
	metric oopslimit_warn_limit gauge "kernel.warn_limit: the warning count that panics (0: never)." ${wl:+"$wl"}
	metric oopslimit_oops_headroom gauge "Oopses until the one that panics, that one included (0: reached; absent when oops_limit is 0)." ${oh:+"$oh"}
	metric oopslimit_warn_headroom gauge "Warnings until the one that panics, that one included (0: reached; absent when warn_limit is 0)." ${wh:+"$wh"}
	set --
	for sf in $files; do
		kval v "${sf#*=}" || continue
		set -- "$@" "{setting=\"${sf%%=*}\"} $v"
	done
	metric oopslimit_panic_setting gauge "A panic setting in force, by its sysctl (0: off)." "$@"
	kval cl "$ksys/kexec_crash_loaded" || true
	metric oopslimit_capture_kernel_loaded gauge "1 when a kdump capture kernel is loaded." ${cl:+"$cl"}
	kval rs "$ksys/kexec_crash_size" || true
	metric oopslimit_crashkernel_reserved_bytes gauge "Memory reserved for the capture kernel (crashkernel=)." ${rs:+"$rs"}
	# the last capture's reason, when its dump directory is here to read
	if rep=$(last_report); then
		report_read "$rep" reason reason setting setting t crash_time
		metric oopslimit_last_panic_info gauge "The last recorded panic: its reason and the setting that enabled it (oopslimit-kdump last)." \
			"{reason=\"$(prom_label "${reason:-unknown}")\",setting=\"$(prom_label "$setting")\"} 1"
		[ -z "$t" ] || t=$(date -u -d "$t" +%s 2>/dev/null) || t=''
		metric oopslimit_last_panic_timestamp_seconds gauge "When the last recorded panic happened (the dump's CRASHTIME)." ${t:+"$t"}
	fi
}

# The one line a run says when metrics_dir will not do, once a boot for
# each different reason (a timer every minute must not fill the journal);
# exit status 4.
metrics_trouble() {
	mkdir -p "$state" 2>/dev/null || true
	if [ "$(cat "$state/metrics-trouble" 2>/dev/null)" != "$1" ]; then
		echo "$prog: $1" >&2
		echo "$1" | ol_write_atomic "$state/metrics-trouble" 2>/dev/null || true
	fi
	exit 4
}

do_metrics() {
	# the one key it needs, without validating the whole file every minute
	# (the loader does that at boot)
	[ -r "$conf" ] || die "cannot read the config $conf"
	dir=$(ol_conf_get "$conf" metrics_dir)
	ol_conf_check metrics_dir "$dir" || die "$conf: $ol_error"
	# the sample first: the rate needs no node_exporter
	now=$(date +%s)
	kvals_read "$ksys/oops_count" "$ksys/warn_count"
	kval oc "$ksys/oops_count" || oc=-
	kval wc "$ksys/warn_count" || wc=-
	# (a sysctl, read whole: see kvals_read)
	bid=$(boot_id)
	sample="$now $bid $oc $wc"
	if mkdir -p "$vardir" 2>/dev/null; then
		{ awk -v old=$((now - samples_keep)) '$1 >= old' "$vardir/samples" 2>/dev/null; echo "$sample"; } |
			ol_write_atomic "$vardir/samples" || echo "$prog: warning: $ol_error" >&2
	fi
	if [ ! -e "$dir" ]; then
		metrics_trouble "metrics not written: $dir does not exist (install prometheus-node-exporter, or set metrics_dir in $conf)"
	elif [ ! -d "$dir" ]; then
		metrics_trouble "metrics not written: $dir is not a directory (set metrics_dir in $conf)"
	fi
	text=$(metrics_text)
	# a here-document, not a pipe: ol_error must reach this shell
	ol_write_atomic "$dir/oopslimit.prom" 644 2>/dev/null <<EOF ||
$text
EOF
		metrics_trouble "metrics not written: $ol_error"
	rm -f "$state/metrics-trouble"
}

# rate_line KIND: the last hour's rate of KIND (oops or warn) from the
# samples of this boot, and what it means for KIND's limit, in one line.
rate_line() {
	kind=$1
	now=$(date +%s)
	count=$(knum "$ksys/${kind}_count") || { echo "not in this kernel"; return; }
	limit=$(knum "$kproc/kernel/${kind}_limit") || limit=0
	[ "$kind" = oops ] && col=3 what=oopses || col=4 what=warnings
	[ -r "$vardir/samples" ] || { echo "no rate yet: oopslimit-metrics.timer samples the counters every minute"; return; }
	awk -v now="$now" -v boot="$(boot_id)" -v col="$col" -v count="$count" -v limit="$limit" \
		-v kind="$kind" -v what="$what" '
		$2 == boot && $1 >= now - 3600 && $col ~ /^[0-9]+$/ && (t0 == "" || $1 < t0) { t0 = $1; c0 = $col }
		END {
			span = now - t0
			if (t0 == "" || span < 60) { print "no rate yet: oopslimit-metrics.timer samples the counters every minute"; exit }
			d = count - c0
			s = sprintf("%d %s in the last %d min", d, what, (span + 30) / 60)
			if (limit == 0) { print s "; " kind "_limit is 0: no panic by count"; exit }
			if (count >= limit) { print s "; " kind "_limit " limit " is reached"; exit }
			if (d <= 0) { print s "; at that rate " kind "_limit is never reached"; exit }
			h = (limit - count) / (d / span * 3600)
			print s "; at the last hour'"'"'s rate " kind "_limit is reached in ~" \
				(h < 10 ? sprintf("%.1f", h) : sprintf("%d", h + 0.5)) " h" }' "$vardir/samples"
}
