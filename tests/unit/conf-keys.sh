#!/bin/bash
# shellcheck disable=SC2015  # "test && ok || nok": ok never fails
# kdump.conf's keys, one table (OL_CONF_TABLE in kdump/oopslimit-lib.sh):
# kdump/kdump.conf describes every key of it and no other, and so does
# oopslimit-kdump.conf(5); ol_conf_check takes each key's default.  Then
# the same comparison on copies with a key taken out and one added, which
# it must catch.
# TAP; "N passed, N failed" last.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=../../kdump/oopslimit-lib.sh
. "$top/kdump/oopslimit-lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# The keys kdump.conf describes: a "# KEY ..." line followed by its
# description, indented five blanks ("#     ...").
conf_keys() {
	awk 'prev != "" && /^#     / { print prev } { prev = "" } /^# [a-z_]+( |$)/ { prev = $2 }' "$1" | sort -u
}

# The keys the man page describes: the first word of each tagged paragraph
# (.TP, then .B, .BI or .BR KEY).
man_keys() {
	awk 'tp && /^\.B[IR]? / { w = $2; gsub(/"/, "", w); print w } { tp = ($0 == ".TP") }' "$1" | sort -u
}

# compare WHAT KEYS: the table's keys against KEYS; the difference, if any.
compare() {
	local table
	# shellcheck disable=SC2086  # the keys, a word each
	table=$(printf '%s\n' $OL_CONF_KEYS | sort -u)
	comm -3 <(printf '%s\n' "$table") <(printf '%s\n' "$2") |
		awk -v w="$1" '/^\t/ { sub(/^\t/, ""); printf "%s describes %s, which is not a key; ", w, $0; next }
			{ printf "%s lacks %s; ", w, $0 }'
}

conf=$top/kdump/kdump.conf man=$top/kdump/oopslimit-kdump.conf.5
d=$(compare kdump.conf "$(conf_keys "$conf")")
[ -z "$d" ] && ok "kdump.conf describes the table's $(wc -w <<<"$OL_CONF_KEYS") keys and no other" || nok "$d"
d=$(compare oopslimit-kdump.conf.5 "$(man_keys "$man")")
[ -z "$d" ] && ok "oopslimit-kdump.conf(5) describes the table's keys and no other" || nok "$d"

# every key's default passes its own check (ol_conf_check knows the key)
for k in $OL_CONF_KEYS; do
	[ "$k" != capture_append ] || continue
	ol_conf_check "$k" "$(ol_conf_default "$k" 6.1.0)" || nok "the default of $k: $ol_error"
done
ok "ol_conf_check takes every key's default"
ol_conf_check no_such_key 1 && nok "ol_conf_check took an unknown key" || ok "ol_conf_check refuses a key not in the table: $ol_error"

# the comparison catches a key taken out, and one that does not exist
sed '/^# keep N$/,/^keep 0$/d' "$conf" >"$work/conf-less"
d=$(compare kdump.conf "$(conf_keys "$work/conf-less")")
[ "$d" = "kdump.conf lacks keep; " ] && ok "a kdump.conf without keep is caught: $d" || nok "a kdump.conf without keep: '$d'"
sed 's/^\.BI keep " N"$/.BI keep_all " N"/' "$man" >"$work/man-more"
d=$(compare oopslimit-kdump.conf.5 "$(man_keys "$work/man-more")")
case $d in
*"lacks keep; "*"describes keep_all, which is not a key; "* | *"describes keep_all, which is not a key; "*"lacks keep; "*)
	ok "a man page describing keep_all instead of keep is caught: $d" ;;
*) nok "a man page describing keep_all: '$d'" ;;
esac

echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
