#!/bin/bash
# The README's command lines, run: every `crash ...` and `oopslimit-kdump ...`
# it shows in a code span, so that a line a reader copies is one the tool
# accepts.  Nothing here touches the machine: crash gets files that do not
# exist in place of the README's vmlinux and vmcore (and must complain about
# those, not about a word it took for a file), and oopslimit-kdump a config
# that does not exist (and must get as far as reading it: its arguments were
# accepted).  One line per command, then "N checked, N failed"; exit 1 on a
# failure.
#
# Usage: tests/readme.sh [README]
set -eu
# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

readme=${1:-$OOPSLIMIT_TOP/README.md}
[ -r "$readme" ] || die "cannot read $readme"
command -v crash >/dev/null || die "crash is missing: run scripts/deps.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

checked=0 failed=0
bad() {
	echo "not ok: \`$1\`: $2"
	failed=$((failed + 1))
}

# The code spans that are command lines of ours (not synopses with [...]).
# shellcheck disable=SC2016  # backquotes, not an expansion
mapfile -t lines < <(grep -o '`[^`]*`' "$readme" | tr -d '`' |
	grep -E '^(crash|oopslimit-kdump) ' | grep -v '[][]' | sort -u)

for line in "${lines[@]}"; do
	checked=$((checked + 1))
	read -r -a words <<<"$line"
	case ${words[0]} in
	crash)
		# the README's placeholders become files that are not there
		args=()
		for w in "${words[@]:1}"; do
			case $w in
			vmlinux) args+=("$tmp/vmlinux") ;;
			vmcore) args+=("$tmp/vmcore") ;;
			*) args+=("$w") ;;
			esac
		done
		out=$(cd "$tmp" && timeout 60 crash -s "${args[@]}" </dev/null 2>&1) || true
		missing=$(sed -n 's/^crash: \(.*\): No such file or directory$/\1/p' <<<"$out" | head -n 1)
		case $missing in
		"$tmp/vmlinux" | "$tmp/vmcore") echo "ok: \`$line\`" ;;
		'') bad "$line" "crash did not take the vmlinux and vmcore: $(grep -m 1 . <<<"$out")" ;;
		*) bad "$line" "crash takes '$missing' for a file (crash: $missing: No such file or directory)" ;;
		esac ;;
	oopslimit-kdump)
		# only commands that read the config before anything else
		case ${words[1]:-} in
		load | check | estimate | last | test | cmdline | policy | rebuild) ;;
		*)
			bad "$line" "not a command this check runs safely (it reads the config first): ${words[1]:-none}"
			continue ;;
		esac
		rc=0
		out=$(OOPSLIMIT_KDUMP_CONF=$tmp/kdump.conf OOPSLIMIT_KDUMP_VAR=$tmp/var OOPSLIMIT_KDUMP_STATE=$tmp/run \
			"$OOPSLIMIT_TOP/kdump/oopslimit-kdump" "${words[@]:1}" </dev/null 2>&1) || rc=$?
		if [ $rc -eq 1 ] && [ "$out" = "oopslimit-kdump: error: cannot read the config $tmp/kdump.conf" ]; then
			echo "ok: \`$line\`"
		else
			bad "$line" "status $rc: $(head -n 1 <<<"$out")"
		fi ;;
	esac
done
echo "$checked checked, $failed failed"
[ $failed -eq 0 ] && [ $checked -gt 0 ]
