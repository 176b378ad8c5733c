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
# the server's own bounds: none here but the ones a test sets; root (who
# may run this) served too, as the dump account is
export OOPSLIMIT_RECEIVE_CONF=$work/receive.conf
printf 'min_free 0\nallow_root yes\n' >"$OOPSLIMIT_RECEIVE_CONF"
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

out=$(umask 022 && SSH_ORIGINAL_COMMAND="begin $s1 0 0" "$recv" "$work/dumps" 2>&1) && [ -d "$work/dumps/$s1" ] &&
	[[ $out == free\ * ]] && ok "begin makes the dump directory, says the room" || nok "begin: $out"

printf 'the log\n' >"$work/log"
(umask 022 && SSH_ORIGINAL_COMMAND="put $s1 vmcore-dmesg.txt" "$recv" "$work/dumps" <"$work/log") &&
	cmp -s "$work/log" "$work/dumps/$s1/vmcore-dmesg.txt" && ok "put writes a dump's file" || nok "put"
modes=$(stat -c '%a' "$work/dumps/$s1" "$work/dumps/$s1/vmcore-dmesg.txt" | tr '\n' ' ')
[ "$modes" = "700 600 " ] && ok "begin's directory 0700, put's file 0600 under umask 022" || nok "modes after put: $modes"
# put is bounded: one byte past 64 MiB is refused, and nothing of it stays
if out=$(head -c $((64 * 1048576 + 1)) /dev/zero | SSH_ORIGINAL_COMMAND="put $s1 reason.txt" "$recv" "$work/dumps" 2>&1); then
	nok "put took a file past 64 MiB: $out"
elif [[ $out == *"larger than 64 MiB"* ]] && [ ! -e "$work/dumps/$s1/reason.txt" ] &&
	[ -z "$(find "$work/dumps/$s1" -name '.put.*')" ]; then
	ok "put refuses a file past 64 MiB and keeps none of it: ${out#*error: }"
else
	nok "put past 64 MiB: $out"
fi

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
			[ ! -e "$work/dumps/$s2/vmcore.flat" ] && [ ! -e "$work/dumps/$s2/vmcore-incomplete" ] &&
			ok "vmcore: a stream cut short is refused at once, and removed: ${out#*error: }" || nok "vmcore short: $out"
	fi
	# whole, but makedumpfile -R fails on it (a block at a negative offset),
	# or would wait ten minutes (a block larger than what follows): refused
	# in one line, nothing of it kept
	python3 - "$work/bad-seek" "$work/bad-size" <<'PY'
import struct, sys
hdr = (b"makedumpfile".ljust(16, b"\0") + struct.pack(">qq", 1, 1)).ljust(4096, b"\0")
for path, off, size in ((sys.argv[1], -4096, 8), (sys.argv[2], 0, 1 << 40)):
    with open(path, "wb") as f:
        f.write(hdr + struct.pack(">qq", off, size) + b"KDUMP   " + struct.pack(">qq", -1, -1))
PY
	for bad in "bad-seek:could not rebuild the dump: write_buffer: Can't seek" "bad-size:did not rebuild the dump within 3 s"; do
		if out=$(SSH_ORIGINAL_COMMAND="vmcore $s2 0" OOPSLIMIT_RECEIVE_REBUILD_SECONDS=3 timeout 60 "$recv" \
			"$work/dumps" <"$work/${bad%%:*}" 2>&1); then
			nok "vmcore took a stream makedumpfile cannot rebuild (${bad%%:*}): $out"
		elif [[ $out == *"${bad#*:}"* ]] && [ ! -e "$work/dumps/$s2/vmcore" ] &&
			[ ! -e "$work/dumps/$s2/vmcore.flat" ] && [ ! -e "$work/dumps/$s2/vmcore-incomplete" ]; then
			ok "vmcore: a failed rebuild (${bad%%:*}) is refused, and nothing of it stays: ${out#*error: }"
		else
			nok "vmcore ${bad%%:*}: $out"
		fi
	done
	out=$(SSH_ORIGINAL_COMMAND=last "$recv" "$work/dumps")
	[ "$out" = "dump $s2 none" ] && ok "last: the newest dump, its stream gone: none" || nok "last: $out"
	# keep 2 after a third, complete dump: the oldest complete one goes,
	# the incomplete one stays (it is not complete: "after" removes only
	# complete ones)
	s3=2026-01-04-000000
	SSH_ORIGINAL_COMMAND="begin $s3 2 0" "$recv" "$work/dumps" >"$work/out"
	grep -qx "removed $s2 incomplete" "$work/out" && ok "begin with keep 2: the incomplete dump goes first" ||
		nok "begin keep: $(tr '\n' ' ' <"$work/out")"
	out=$(umask 022 && SSH_ORIGINAL_COMMAND="vmcore $s3 1" "$recv" "$work/dumps" <"$work/flat")
	[ "$out" = "removed $s1 complete
saved 12288" ] && [ ! -e "$work/dumps/$s1" ] && [ -e "$work/dumps/$s3/vmcore" ] &&
		ok "vmcore with keep 1: the older complete dump goes once the new one is whole" || nok "vmcore keep: $out"
	# a dump is all of a machine's memory: nobody but the dump account
	# reads it, whatever the umask the server's sshd gives
	modes=$(umask 022 && stat -c '%a' "$work/dumps/$s3" "$work/dumps/$s3/vmcore" | tr '\n' ' ')
	[ "$modes" = "700 600 " ] && ok "the dump directory 0700, its vmcore 0600" || nok "modes of a dump: $modes"
	[ ! -e "$work/dumps/$s2/vmcore.flat" ] && ok "a stream that was no stream left nothing" || nok "vmcore.flat left"
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

# a stamp seen before is refused, never a dump's directory reused
s5=2026-03-03-030303
SSH_ORIGINAL_COMMAND="begin $s5 0 0" "$recv" "$work/dumps" >/dev/null
SSH_ORIGINAL_COMMAND="put $s5 vmcore-dmesg.txt" "$recv" "$work/dumps" <"$work/log"
if out=$(SSH_ORIGINAL_COMMAND="begin $s5 0 0" "$recv" "$work/dumps" 2>&1 </dev/null); then
	nok "begin reused the dump directory of $s5: $out"
else
	[ -e "$work/dumps/$s5/vmcore-dmesg.txt" ] && [[ $out == *"is there already"* ]] &&
		ok "begin refuses a stamp seen before: ${out#*error: }" || nok "begin again: $out"
fi
# no pattern in a request is expanded: run where the dumps are, a glob
# would name $s5
for req in "put 2026-03-0[3]-030303 reason.txt" "put 2026-03-0?-030303 reason.txt" "get 2026-03-03-* vmcore-dmesg.txt"; do
	if out=$(cd "$work/dumps" && SSH_ORIGINAL_COMMAND=$req "$recv" "$work/dumps" 2>&1 </dev/null); then
		nok "'$req' was expanded into a dump's name: $out"
	else
		[ ! -e "$work/dumps/$s5/reason.txt" ] && [[ $out == *"not a dump's time stamp"* ]] &&
			ok "'$req' is no stamp, not a pattern: ${out#*error: }" || nok "'$req': $out"
	fi
done
for req in "begin ../../etc 0 0" "put ../../etc reason.json" "get .. reason.json" "begin 2026-01-02-030405/.. 0 0"; do
	if out=$(SSH_ORIGINAL_COMMAND=$req "$recv" "$work/dumps" 2>&1 </dev/null); then
		nok "traversal '$req' taken: $out"
	else
		ok "traversal '$req' refused: ${out#*error: }"
	fi
done

# min_free of 4 GiB and more: the loader's value goes to the server whole
s6=2026-04-04-040404
printf 'target ssh:dumps.example\nmin_free 8G\n' >"$work/conf8"
mf=$(. "$top/kdump/oopslimit-lib.sh" && . "$top/kdump/oopslimit-kdump-discover.sh" && ol_resolve_net() { :; } && ol_conf_load "$work/conf8" 6.1.0 && echo "$ol_min_free") || mf="error"
[ "$mf" = 8589934592 ] && ok "min_free 8G loads as 8589934592 bytes" || nok "min_free 8G loads as '$mf'"
if out=$(SSH_ORIGINAL_COMMAND="begin $s6 0 $mf" "$recv" "$work/dumps" 2>&1 </dev/null) && [[ $out == *"free "* ]]; then
	ok "begin takes a min_free of 8 GiB: $(tail -n 1 <<<"$out")"
else
	nok "begin with min_free 8G: $out"
fi
i=0
for v in 5000000000 0009 8589934591G; do
	i=$((i + 1))
	out=$(SSH_ORIGINAL_COMMAND="begin 2026-04-04-05050$i 0 $(. "$top/kdump/oopslimit-lib.sh" && ol_size_bytes "$v")" "$recv" "$work/dumps" 2>&1 </dev/null) &&
		ok "min_free $v: the server takes it" || nok "min_free $v: $out"
done
for v in 8589934592G 9223372036854775808 99999999999999999999; do
	(. "$top/kdump/oopslimit-lib.sh" && ol_conf_check min_free "$v") && nok "min_free $v (past 64 bits) accepted" ||
		ok "min_free $v is past 64 bits: refused"
done

# --- the server's bounds (receive.conf) -----------------------------------------------
mkdir "$work/q"
mkdir "$work/q/2025-05-05-050505"
head -c 2097152 /dev/zero >"$work/q/2025-05-05-050505/vmcore"
refused() { # refused DESCRIPTION EXPECTED-TEXT REQUEST [DIR]
	local out
	if out=$(SSH_ORIGINAL_COMMAND=$3 "$recv" "${4:-$work/q}" 2>&1); then
		nok "$1: taken ($out)"
	elif [[ $out == *"$2"* ]] && [ "$(wc -l <<<"$out")" -eq 1 ]; then
		ok "$1: ${out#*error: }"
	else
		nok "$1: $out"
	fi
}
printf 'quota 1M\nmin_free 0\nallow_root yes\n' >"$OOPSLIMIT_RECEIVE_CONF"
refused "begin beyond the host's quota" "its quota is 1 MiB" "begin 2026-05-05-050505 0 0"
[ ! -e "$work/q/2026-05-05-050505" ] && ok "a refused begin leaves no directory" || nok "a refused begin left its directory"
printf 'min_free 1000000G\nallow_root yes\n' >"$OOPSLIMIT_RECEIVE_CONF"
refused "begin below the server's floor" "its floor is 1024000000 MiB" "begin 2026-05-05-050505 0 0"
# a stream larger than half the room: cut, refused, removed
printf 'quota %s\nmin_free 0\nallow_root yes\n' $(($(du -sk "$work/q" | cut -f 1) * 1024 + 20480)) >"$OOPSLIMIT_RECEIVE_CONF"
out=$(SSH_ORIGINAL_COMMAND="begin 2026-05-05-050505 0 0" "$recv" "$work/q" 2>&1) &&
	room=$(sed -n 's/^room //p' <<<"$out") && [ -n "$room" ] && [ "$room" -le 20480 ] &&
	ok "begin says the room left within the quota: $room bytes" || nok "begin's room: $out"
if command -v makedumpfile >/dev/null; then
	refused "a stream past half the room" "half the room this host has" "vmcore 2026-05-05-050505 0" <"$work/flat"
	[ ! -e "$work/q/2026-05-05-050505/vmcore.flat" ] && ok "the stream past the room is removed" || nok "vmcore.flat left past the room"
fi
for bad in "quota lots" "min_free -1" "colour blue" "allow_root maybe"; do
	printf '%s\n' "$bad" >"$OOPSLIMIT_RECEIVE_CONF"
	refused "receive.conf '$bad' refuses every request" "receive.conf:1: " check
done
if [ "$(id -u)" = 0 ]; then
	printf 'min_free 0\n' >"$OOPSLIMIT_RECEIVE_CONF"
	refused "root is refused without allow_root" "runs as the dump account, not root" check
fi
printf 'min_free 0\nallow_root yes\n' >"$OOPSLIMIT_RECEIVE_CONF"

# --authorize: the authorized_keys line, made on the server from checked words
export OOPSLIMIT_RECEIVE_KEYS=$work/authorized_keys
k1="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOZlbm9uZS1rZXktb25lLWZvci10ZXN0cy1vbmx5 oopslimit-kdump@web1.example"
k2="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHR3by1rZXktdHdvLWZvci10ZXN0cy1vbmx5LTI= oopslimit-kdump@web1.other"
out=$("$recv" --authorize oopslimit /srv/oopslimit/web1.example 192.0.2.2 <<<"$k1" 2>&1) &&
	grep -qxF "restrict,from=\"192.0.2.2\",command=\"/usr/lib/oopslimit/oopslimit-receive /srv/oopslimit/web1.example\" $k1" "$OOPSLIMIT_RECEIVE_KEYS" &&
	[ "$(stat -c %a "$OOPSLIMIT_RECEIVE_KEYS")" = 644 ] &&
	ok "--authorize: restrict, from= and the forced command: $out" || nok "--authorize: $out: $(cat "$OOPSLIMIT_RECEIVE_KEYS")"
"$recv" --authorize oopslimit /srv/oopslimit/web1.example 192.0.2.9 <<<"$k1" >/dev/null 2>&1 &&
	[ "$(grep -c . "$OOPSLIMIT_RECEIVE_KEYS")" = 1 ] && grep -q 'from="192.0.2.9"' "$OOPSLIMIT_RECEIVE_KEYS" &&
	ok "--authorize again: the key's line replaced, not added" || nok "--authorize again: $(cat "$OOPSLIMIT_RECEIVE_KEYS")"
# a second machine that asks for the first one's directory (one short host
# name, two machines) is refused: they would prune each other's dumps
if out=$("$recv" --authorize oopslimit /srv/oopslimit/web1.example/ <<<"$k2" 2>&1); then
	nok "a second key was given the first one's directory"
else
	[[ $out == *"another key"* ]] && ok "a directory another key sends to: refused: ${out#*error: }" || nok "shared directory: $out"
fi
# shellcheck disable=SC2089,SC2090  # literal quotes: they are the test
for args in "root /srv/x" "oops\$x /srv/x" "oopslimit relative" "oopslimit /srv/x\"y" "oopslimit /srv/x 192.0.2" "oopslimit /srv/x 192.0.2.1\"" "oopslimit /"; do
	# shellcheck disable=SC2086,SC2090  # the words
	if out=$(set -f && "$recv" --authorize $args <<<"$k1" 2>&1); then
		nok "--authorize $args: taken"
	else
		ok "--authorize $args: ${out#*error: }"
	fi
done
if out=$("$recv" --authorize oopslimit /srv/y <<<'ssh-ed25519 AAAA" command="sh' 2>&1); then
	nok "--authorize took a key with a quote"
else
	ok "--authorize refuses what is no key: ${out#*error: }"
fi
unset OOPSLIMIT_RECEIVE_KEYS

# --- the client's side of the wire -----------------------------------------------------
# shellcheck source=../../kdump/oopslimit-lib.sh
. "$top/kdump/oopslimit-lib.sh"
# shellcheck source=../../kdump/oopslimit-kdump-discover.sh
. "$top/kdump/oopslimit-kdump-discover.sh"
# shellcheck source=../../kdump/oopslimit-store.sh
. "$top/kdump/oopslimit-store.sh"
# what "last --boot" takes from the server's answer, before any path is made
command -v ol_last_parse >/dev/null || ol_last_parse() {
	ol_error="no ol_last_parse: the answer is not checked"
	return 2
}
for line in "dump $s1 complete" "dump $s1 incomplete" "dump none none"; do
	ol_last_parse "$line" && [ "${ol_last_stamp:-} ${ol_last_state:-}" = "${line#dump }" ] &&
		ok "last answer '$line' read" || nok "last answer '$line': $ol_error"
done
for line in "dump ../../../etc complete" "dump * complete" "dump 2026-01-02-03040? complete" "dump $s1 gone" \
	"dump $s1/../.. complete" "dump  complete" "dump -rf complete" "" "dump $s1 complete extra"; do
	rc=0
	ol_last_parse "$line" || rc=$?
	if [ $rc -ne 1 ]; then
		nok "last answer '$line' taken: ${ol_last_stamp:-} ${ol_last_state:-}"
	else
		ok "last answer '$line' refused: $ol_error"
	fi
done
# a path goes into the server's authorized_keys line and commands
# shellcheck disable=SC2016  # a literal $(...) is the point
for p in '/var/crash/x"y' '/var/crash/$(id)' "/var/crash/a'b" '/v/a\b' '/var/crash/a;b' '/var/crash/a`id`' '/var/crash/*'; do
	ol_conf_check path "$p" && nok "path '$p' accepted" || ok "path '$p' refused: $ol_error"
done
for p in /var/crash /srv/oopslimit/host-1.example.org /var/crash/web+1; do
	ol_conf_check path "$p" && ok "path '$p' is valid" || nok "path '$p': $ol_error"
done

# --- retention (ol_prune) on a tree made here -----------------------------------------
# three complete dumps of 32 MiB (written, not sparse) and an incomplete
# one; the floor is set from what this file system has free now
ret=$work/ret
mkdir "$ret"
seed_dumps() {
	rm -rf "${ret:?}"/*
	for d in 2025-01-01-000000 2025-01-02-000000 2025-01-03-000000; do
		mkdir "$ret/$d"
		head -c 33554432 /dev/zero >"$ret/$d/vmcore"
	done
	mkdir "$ret/2025-01-04-000000"
	: >"$ret/2025-01-04-000000/vmcore-incomplete"
	sync
}
left() {
	ol_dumps_in "$ret" | sed 's|.*/||' | tr '\n' ' '
}
mib=1048576
seed_dumps
out=$(ol_prune "$ret" before 2026-01-01-000000 0 $(($(ol_free_bytes "$ret") + 1024 * mib)) | tr '\n' ' ')
[ "$(left)" = "2025-01-01-000000 2025-01-02-000000 2025-01-03-000000 " ] && [[ $out == *unreachable* ]] &&
	ok "min_free out of reach: no complete dump removed, only the incomplete one ($out)" ||
	nok "min_free out of reach: left $(left), said $out"
seed_dumps
out=$(ol_prune "$ret" before 2026-01-01-000000 0 $(($(ol_free_bytes "$ret") + 48 * mib)) | tr '\n' ' ')
[ "$(left)" = "2025-01-03-000000 " ] &&
	ok "min_free within reach: the two oldest complete dumps go, as many as it takes ($out)" ||
	nok "min_free within reach: left $(left), said $out"
# the same in the capture kernel, whose PATH holds only the commands
# initramfs/99oopslimit/module-setup.sh installs (dracut's own sh among them)
capbin=$work/capbin
mkdir "$capbin"
for c in $(sed -n '/inst_multiple sh makedumpfile/,/[^\\]$/p' "$top/initramfs/99oopslimit/module-setup.sh" |
	tr -d '\134' | sed 's/inst_multiple//'); do
	p=$(command -v "$c" 2>/dev/null) || continue
	ln -s "$p" "$capbin/$c"
done
seed_dumps
floor=$(($(ol_free_bytes "$ret") + 48 * mib))
# shellcheck disable=SC2016 # expanded by the inner shell
out=$(PATH=$capbin "$capbin/sh" -c '. "$OOPSLIMIT_LIB" && . "${OOPSLIMIT_LIB%/*}/oopslimit-store.sh" && ol_prune "$1" before 2026-01-01-000000 0 "$2"' sh "$ret" "$floor" 2>&1 |
	tr '\n' ' ')
[ "$(left)" = "2025-01-03-000000 " ] &&
	ok "min_free within reach with only the capture image's commands ($(find "$capbin" -mindepth 1 | wc -l) of them): the same two go ($out)" ||
	nok "min_free within reach, capture image's PATH: left $(left), said $out"
seed_dumps
out=$(ol_prune "$ret" before 2026-01-01-000000 1 0 | tr '\n' ' ')
[ "$(left)" = "2025-01-01-000000 2025-01-02-000000 2025-01-03-000000 " ] &&
	ok "keep 1 before a dump: no complete dump goes until the new one is whole ($out)" ||
	nok "keep 1 before: left $(left), said $out"
out=$(ol_prune "$ret" after 2025-01-03-000000 2 0 | tr '\n' ' ')
[ "$(left)" = "2025-01-02-000000 2025-01-03-000000 " ] && ok "keep 2 after: the oldest complete dump goes ($out)" ||
	nok "keep 2 after: left $(left), said $out"
rm -rf "$ret"

# --- ol_resolve_net on recorded routing tables -------------------------------------------
# tests/unit/net/CASE/: "route" and "addr" (what ip -o prints), sys/ (the
# interface's sysfs), "expect" (the variables, or "error: TEXT")
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
for t in "ssh:root@fe80::1" "ssh:@host" "ssh:a@b@c" "nfs:host" "nfs:fe80::1:/x" "ssh:" "ssh:-oProxyCommand@host" "ssh:root@-F.x" "ssh:-host"; do
	ol_conf_check target "$t" && nok "target $t was accepted" || ok "target $t refused: $ol_error"
done

# --- bounds on a stalled server ------------------------------------------------------
# NFS: soft with bounded tries, unless the admin says otherwise
o=$(ol_nfs_options "" 192.0.2.1 192.0.2.2/24)
[ "$o" = "addr=192.0.2.1,clientaddr=192.0.2.2,nolock,soft,timeo=100,retrans=3" ] &&
	ok "NFS mounted soft,timeo=100,retrans=3: $o" || nok "NFS options: $o"
o=$(ol_nfs_options "hard,timeo=600" 192.0.2.1 192.0.2.2/24)
[ "$o" = "hard,timeo=600,addr=192.0.2.1,clientaddr=192.0.2.2,nolock,retrans=3" ] &&
	ok "NFS: the admin's hard and timeo kept: $o" || nok "NFS options with hard: $o"
# the capture's deadline: sized from memory and the link, or set, or none
printf 'MemTotal:        4194304 kB\n' >"$work/meminfo"
export OL_MEMINFO=$work/meminfo
d=$(ol_net_dev='' ol_mount_wait=30 ol_deadline_auto)
[ "$d" = $((300 + 60 + 4294967296 / 20971520)) ] && ok "deadline to a disk, 4 GiB of memory: $d s" || nok "deadline to a disk: $d"
mkdir -p "$work/sys/class/net/eth9"
echo 1000 >"$work/sys/class/net/eth9/speed"
d=$(OL_SYSFS=$work/sys ol_net_dev=eth9 ol_mount_wait=30 ol_deadline_auto)
[ "$d" = $((300 + 60 + 4294967296 / 31250000)) ] && ok "deadline over a 1 Gb/s link: $d s" || nok "deadline over 1 Gb/s: $d"
unset OL_MEMINFO
for v in 0 600 auto; do
	ol_conf_check capture_deadline "$v" && ok "capture_deadline $v is valid" || nok "capture_deadline $v: $ol_error"
done
for v in -1 10m soon; do
	ol_conf_check capture_deadline "$v" && nok "capture_deadline $v accepted" || ok "capture_deadline $v refused: $ol_error"
done
ol_target=ext4:/dev/vdb ol_path=/ ol_collector=-l ol_mount_wait=30 ol_final=reboot ol_failure=reboot ol_deadline=1234
ol_net_ip='' ol_keep=0 ol_min_free=0
args=$(ol_capture_args)
# shellcheck disable=SC2086  # words
ol_capture_parse $args
[ "$ol_deadline" = 1234 ] && [[ $args == *" oopslimit.deadline=1234"* ]] &&
	ok "the deadline travels to the capture kernel: oopslimit.deadline=1234" || nok "deadline on the command line: $args"
ol_capture_parse oopslimit.target=ext4:/dev/vdb
[ "$ol_deadline" = 0 ] && ok "no oopslimit.deadline: no deadline" || nok "deadline without the word: $ol_deadline"
# a report read back from an NFS export: never through a link
mkdir "$work/export"
echo '{"real": 1}' >"$work/export/reason.json"
ln -s /etc/shadow "$work/export/reason.txt"
ol_copy_plain "$work/export/reason.json" "$work/copy.json" && cmp -s "$work/export/reason.json" "$work/copy.json" &&
	ok "a report on the export is copied" || nok "ol_copy_plain of a file"
if ol_copy_plain "$work/export/reason.txt" "$work/copy.txt" || [ -e "$work/copy.txt" ] || [ -L "$work/copy.txt" ]; then
	nok "a link on the export was followed or copied"
else
	ok "a link on the export is not followed, nothing copied"
fi

echo "$((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
