#!/bin/bash
# shellcheck disable=SC2015  # "test && ok || nok": ok never fails
# The network targets' pieces that run without a network: oopslimit-receive
# (kdump/oopslimit-receive) as an ssh forced command would run it, with
# $SSH_ORIGINAL_COMMAND, in a directory made here: a whole dump's requests,
# makedumpfile -R rebuilding a flattened stream made here, retention, and
# the requests it refuses; and ol_resolve_net (oopslimit-lib.sh) on the
# routing tables of tests/unit/net, through $OL_IP and $OL_SYSFS.
# TAP; "N passed, N failed" last.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
export OOPSLIMIT_LIB=$top/kdump/oopslimit-lib.sh
recv=$top/kdump/oopslimit-receive
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
nok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
}

mkdir "$work/dumps"
s1=2026-01-02-030405
out=$(SSH_ORIGINAL_COMMAND=check "$recv" "$work/dumps" 2>&1) && [[ $out =~ ^ok\ $work/dumps\ [0-9]+$ ]] &&
	ok "check: ok DIR FREE" || nok "check: $out"

out=$(SSH_ORIGINAL_COMMAND="begin $s1 0 0" "$recv" "$work/dumps" 2>&1) && [ -d "$work/dumps/$s1" ] &&
	[[ $out == free\ * ]] && ok "begin makes the dump directory, says the room" || nok "begin: $out"

printf 'the log\n' >"$work/log"
SSH_ORIGINAL_COMMAND="put $s1 vmcore-dmesg.txt" "$recv" "$work/dumps" <"$work/log" &&
	cmp -s "$work/log" "$work/dumps/$s1/vmcore-dmesg.txt" && ok "put writes a dump's file" || nok "put"

# a flattened stream (makedumpfile -F's format): the 4 KiB header, blocks of
# big-endian offset and size with their data, the end mark
python3 - "$work/flat" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    hdr = b"makedumpfile".ljust(16, b"\0") + struct.pack(">qq", 1, 1)
    f.write(hdr.ljust(4096, b"\0"))
    for off, data in ((0, b"KDUMP   " + b"\1" * 4088), (8192, b"\2" * 4096)):
        f.write(struct.pack(">qq", off, len(data)) + data)
    f.write(struct.pack(">qq", -1, -1))
PY
if command -v makedumpfile >/dev/null; then
	out=$(SSH_ORIGINAL_COMMAND="vmcore $s1 0" "$recv" "$work/dumps" <"$work/flat" 2>&1) &&
		[ "$out" = "saved 12288" ] && [ "$(head -c 8 "$work/dumps/$s1/vmcore")" = "KDUMP   " ] &&
		[ ! -e "$work/dumps/$s1/vmcore-incomplete" ] &&
		ok "vmcore: the flattened stream rebuilt whole, renamed vmcore, its size said" || nok "vmcore: $out"
	printf 'not a flattened stream\n' >"$work/junk"
	s2=2026-01-03-000000
	SSH_ORIGINAL_COMMAND="begin $s2 0 0" "$recv" "$work/dumps" >/dev/null
	if out=$(SSH_ORIGINAL_COMMAND="vmcore $s2 0" timeout 60 "$recv" "$work/dumps" <"$work/junk" 2>&1); then
		nok "vmcore took a stream that is not one: $out"
	else
		[ ! -e "$work/dumps/$s2/vmcore" ] && [[ $out == *"not makedumpfile's flattened format"* ]] &&
			ok "vmcore: what is no stream leaves no vmcore, one line: ${out#*error: }" || nok "vmcore junk: $out"
	fi
	# cut short, as by a broken connection: makedumpfile -R would wait for ever
	head -c 6000 "$work/flat" >"$work/short"
	if out=$(SSH_ORIGINAL_COMMAND="vmcore $s2 0" timeout 60 "$recv" "$work/dumps" <"$work/short" 2>&1); then
		nok "vmcore took a stream cut short: $out"
	else
		[ ! -e "$work/dumps/$s2/vmcore" ] && [[ $out == *"cut short (no end mark after 6000 bytes)"* ]] &&
			ok "vmcore: a stream cut short is refused at once: ${out#*error: }" || nok "vmcore short: $out"
	fi
	out=$(SSH_ORIGINAL_COMMAND=last "$recv" "$work/dumps")
	[ "$out" = "dump $s2 incomplete" ] && ok "last: the newest dump, incomplete" || nok "last: $out"
	# keep 2 after a third, complete dump: the oldest complete one goes,
	# the incomplete one stays (it is not complete: "after" removes only
	# complete ones)
	s3=2026-01-04-000000
	SSH_ORIGINAL_COMMAND="begin $s3 2 0" "$recv" "$work/dumps" >"$work/out"
	grep -qx "removed $s2 incomplete" "$work/out" && ok "begin with keep 2: the incomplete dump goes first" ||
		nok "begin keep: $(tr '\n' ' ' <"$work/out")"
	out=$(SSH_ORIGINAL_COMMAND="vmcore $s3 1" "$recv" "$work/dumps" <"$work/flat")
	[ "$out" = "removed $s1 complete
saved 12288" ] && [ ! -e "$work/dumps/$s1" ] && [ -e "$work/dumps/$s3/vmcore" ] &&
		ok "vmcore with keep 1: the older complete dump goes once the new one is whole" || nok "vmcore keep: $out"
	out=$(SSH_ORIGINAL_COMMAND="get $s3 vmcore-dmesg.txt" "$recv" "$work/dumps" 2>&1 || true)
	[[ $out == *"no vmcore-dmesg.txt in"* ]] && ok "get: a file the dump lacks is one line" || nok "get missing: $out"
else
	echo "# makedumpfile is not installed: the vmcore requests are not tried"
fi

# refused: other commands, paths, names, links
for req in "sh -c id" "put $s1 ../../etc/passwd" "put $s1 vmcore" "begin ../x 0 0" "begin $s1 x 0" \
	"get $s1 /etc/shadow" "put 2026-09-09-090909 reason.json" "" "check extra"; do
	if out=$(SSH_ORIGINAL_COMMAND=$req "$recv" "$work/dumps" 2>&1 </dev/null); then
		nok "refuses '$req': it did not ($out)"
	elif [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && [[ $out == "oopslimit-receive: error: "* ]]; then
		ok "refuses '$req': ${out#*error: }"
	else
		nok "refuses '$req' in one line: $out"
	fi
done
s4=2026-02-02-020202
ln -s /etc "$work/dumps/$s4"
if out=$(SSH_ORIGINAL_COMMAND="put $s4 reason.json" "$recv" "$work/dumps" 2>&1 </dev/null) ||
	out=$(SSH_ORIGINAL_COMMAND="begin $s4 0 0" "$recv" "$work/dumps" 2>&1 </dev/null); then
	nok "a dump directory that is a symbolic link was written through"
else
	ok "a dump directory that is a symbolic link is refused: ${out#*error: }"
fi
ln -s /etc/hostname "$work/dumps/$s3/reason.json"
if SSH_ORIGINAL_COMMAND="put $s3 reason.json" "$recv" "$work/dumps" </dev/null 2>/dev/null; then
	nok "put replaced a symbolic link"
else
	ok "put never writes through a symbolic link"
fi

# --- ol_resolve_net on recorded routing tables -------------------------------------------
# tests/unit/net/CASE/: "route" and "addr" (what ip -o prints), sys/ (the
# interface's sysfs), "expect" (the variables, or "error: TEXT")
# shellcheck source=../../kdump/oopslimit-lib.sh
. "$top/kdump/oopslimit-lib.sh"
for c in "$top"/tests/unit/net/*/; do
	c=${c%/}
	export OL_SYSFS=$c/sys OL_IP=$work/ip
	printf '#!/bin/sh\ncase "$*" in *route*) cat %s/route ;; *addr*) cat %s/addr ;; esac\n' "$c" "$c" >"$work/ip"
	chmod +x "$work/ip"
	printf '%s\n' "target $(cat "$c/target")" >"$work/conf"
	if ol_conf_load "$work/conf" 6.1.0; then
		got="$ol_net_ip $ol_net_dev $ol_net_mac $ol_net_addr ${ol_net_gw:--} $ol_net_dynamic $(ol_capture_args | tr ' ' '\n' | grep -E 'server|net=' | tr '\n' ' ')"
	else
		got="error: $ol_error"
	fi
	want=$(cat "$c/expect")
	case $want in
	error:*) [[ $got == "error: "*"${want#error: }"* ]] ;;
	*) [ "$got" = "$want" ] ;;
	esac && ok "${c##*/}: $got" || nok "${c##*/}: expected '$want', got '$got'"
	# and back from the capture kernel's command line
	if [[ $got != error:* ]]; then
		# shellcheck disable=SC2046  # words
		ol_capture_parse $(ol_capture_args)
		[ "$ol_net_ip $ol_net_mac $ol_net_addr ${ol_net_gw:--}" = "$(echo "$want" | awk '{ print $1, $3, $4, $5 }')" ] &&
			ok "${c##*/}: the capture kernel reads the network back" || nok "${c##*/}: capture parse: $ol_net_ip $ol_net_mac $ol_net_addr $ol_net_gw"
	fi
done
unset OL_SYSFS OL_IP
# the target's syntax
for t in "ssh:root@192.0.2.1" "ssh:dumps.example" "nfs:192.0.2.1:/srv/dumps" "nfs4:host:/x"; do
	ol_conf_check target "$t" && ok "target $t is valid" || nok "target $t: $ol_error"
done
for t in "ssh:root@fe80::1" "ssh:@host" "ssh:a@b@c" "nfs:host" "nfs:fe80::1:/x" "ssh:"; do
	ol_conf_check target "$t" && nok "target $t was accepted" || ok "target $t refused: $ol_error"
done

echo "$((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
