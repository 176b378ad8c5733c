#!/bin/bash
# The recorder's time limit on reading a dump (recorder/oopslimit-reason.c,
# OOPSLIMIT_READ_SECONDS): its child reads the dump, and a child that takes
# longer is killed and reported in dump_read_error, while the verdict from
# the log stands.  The stall is a disk that stops answering:
# tests/unit/stall.c, preloaded, makes each pread() wait.
# TAP; "N passed, N failed" last.
#
# Usage: tests/unit/reader-deadline.sh RECORDER   (the built oopslimit-reason)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
recorder=${1:?usage: reader-deadline.sh RECORDER}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# shellcheck source=tap.sh
. "$top/tests/unit/tap.sh"

gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$t/stall.so" "$top/tests/unit/stall.c" -ldl
# an ELF file whose header is garbage: read in full, it is refused at once
head -c 4096 /dev/urandom >"$t/vmcore"
printf '\177ELF' | dd of="$t/vmcore" conv=notrunc status=none
log=$top/tests/unit/warn-limit-dmesg.txt

# run STALL LIMIT NAME: the recorder on the dump, each pread() STALL s late,
# the reader given LIMIT s; its exit status, wall time in s and reports kept.
run() {
	local t0 rc=0
	t0=$(date +%s%N)
	OOPSLIMIT_TEST_STALL=$1 OOPSLIMIT_READ_SECONDS=$2 LD_PRELOAD=$t/stall.so \
		"$recorder" -j "$t/$3.json" -t "$t/$3.txt" -l "$log" "$t/vmcore" 2>"$t/$3.err" || rc=$?
	echo "$rc $((($(date +%s%N) - t0) / 1000000000))" >"$t/$3.rc"
}
member() {
	/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@"
}

# a disk that answers: the dump's own fault, not the time limit
run 0 2 quick
read -r rc secs <"$t/quick.rc"
check "no stall: the damaged dump refused for what it is (exit $rc, $secs s): $(member "$t/quick.json" dump_read_error)" \
	bash -c "[ $rc -eq 3 ] && [ $secs -le 1 ] && ! grep -q 'took more than' '$t/quick.json'"

# a disk that stalls for a minute on every read, the reader given 2 s
run 60 2 stalled
read -r rc secs <"$t/stalled.rc"
check "a stalled read: stopped after the limit, not the stall (exit $rc after $secs s)" \
	test "$rc" -eq 3 -a "$secs" -ge 2 -a "$secs" -le 5
check "a stalled read: dump_read_error says so" \
	test "$(member "$t/stalled.json" dump_read_error)" = "$t/vmcore could not be read: the reader took more than 2 s and was stopped"
check "a stalled read: the verdict from the log stands" \
	test "$(member "$t/stalled.json" reason)" = warn_limit
check "a stalled read: reason.txt has the verdict" grep -q 'VERDICT: warn_limit' "$t/stalled.txt"
check "a stalled read: the reader is gone, not left sleeping" \
	bash -c "! pgrep -f '[o]opslimit-reason -j $t/stalled.json' >/dev/null"

# the default limit is 300 s: a bad value falls back to it, never to none
(run 60 abc badlimit) 2>/dev/null &
sleep 3
check "a bad OOPSLIMIT_READ_SECONDS: still reading after 3 s (the default, 300 s, not 0)" \
	test ! -e "$t/badlimit.rc"
pkill -KILL -f "[o]opslimit-reason -j $t/badlimit.json" || :
wait

tap_done
