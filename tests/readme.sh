#!/bin/bash
# A page's command lines, run, and its links followed: every `crash ...`,
# `oopslimit-kdump ...` and `make ...` it shows in a code span, so that a line
# a reader copies is one the tool accepts, and every relative link, so that
# it leads somewhere.  Nothing here touches the machine: crash gets files that
# do not exist in place of the page's vmlinux and vmcore (and must complain
# about those, not about a word it took for a file), oopslimit-kdump a config
# that does not exist (and must get as far as reading it: its arguments were
# accepted), and a make line is held against its Makefile (each target a rule
# there, each VAR=VALUE a variable it uses), never run.  A link is to a file
# or directory that exists, and its #anchor, in a Markdown page, to one of
# that page's headings.  One line per command and per broken link, then
# "N checked, N failed"; exit 1 on a failure.
#
# Usage: tests/readme.sh [PAGE]     (default: README.md; make check runs it on
#                                    README.md, every docs/*.md and every man
#                                    page, whose .nf examples it reads)
set -eu
# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

readme=${1:-$OOPSLIMIT_TOP/README.md}
dir=$(dirname "$readme")
[ -r "$readme" ] || die "cannot read $readme"
command -v crash >/dev/null || die "crash is missing: run scripts/deps.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

checked=0 failed=0
bad() {
	echo "not ok: \`$1\`: $2"
	failed=$((failed + 1))
}

# The command lines of ours a page shows (not synopses with [...]).  In
# Markdown, the code spans outside fenced blocks, a span that a line break
# cuts taken whole.  In a man page, the lines of its .nf examples, the
# escapes undone, a line ending in a backslash joined to the next, a shell
# prompt ($, #) dropped (crash> lines are inside a session: not shell
# commands).
page_lines() {
	case $readme in
	*.[1-8])
		awk '/^\.nf/ { f = 1; next } /^\.fi/ { f = 0 } f && !/^\./' "$readme" |
			sed 's/\\-/-/g; s/\\e/\\/g; s/\\f[BIRP]//g' | sed -e ':a' -e '/\\$/{N;s/\\\n[[:space:]]*/ /;ba' -e '}' |
			sed 's/^[$#] //' ;;
	*)
		# shellcheck disable=SC2016  # backquotes, not an expansion
		awk '/^```/ { fenced = !fenced; next } !fenced' "$readme" | tr -s '\n ' '  ' |
			grep -o '`[^`]*`' | tr -d '`' ;;
	esac
}
mapfile -t lines < <(page_lines | grep -E '^(crash|oopslimit-kdump|make) ' | grep -v '[][]' | sort -u)

# Is $2 a rule's target in Makefile $1, and is $3 a variable it reads?
make_target() {
	grep -Eq "^([^:#=[:space:]]+ )*$2( [^:#=]*)?:([^=]|$)" "$1"
}
make_variable() {
	grep -Fq "\$($2)" "$1"
}

# The GitHub anchor of each heading of Markdown page $1: lower case, the
# punctuation but - and _ dropped, spaces made -.
anchors() {
	sed -n 's/^#\{1,6\} \(.*\)$/\1/p' "$1" | tr '[:upper:]' '[:lower:]' |
		sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}

for line in "${lines[@]}"; do
	checked=$((checked + 1))
	# a quoted value ("warn-limit debian-nfs-target") is one word, and so is
	# a word with a command substitution in it (vmlinux-$(uname -r))
	# shellcheck disable=SC2001,SC2016  # sed patterns, not globs or expansions
	read -r -a words <<<"$(sed 's/"[^"]*"/QUOTED/g; s/\$([^)]*)/SUBST/g' <<<"$line")"
	case ${words[0]} in
	crash)
		# the page's vmlinux and vmcore (placeholders, or paths such as
		# /var/crash/*/vmcore) become files that are not there
		args=()
		for w in "${words[@]:1}"; do
			case $w in
			-*) args+=("$w") ;;
			*vmlinux*) args+=("$tmp/vmlinux") ;;
			*vmcore*) args+=("$tmp/vmcore") ;;
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
		load | check | estimate | last | test | cmdline | policy | rebuild | metrics) ;;
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
	make)
		mk=$OOPSLIMIT_TOP/Makefile
		set -- "${words[@]:1}"
		if [ "${1:-}" = -C ]; then
			mk=$OOPSLIMIT_TOP/${2:-}/Makefile
			shift 2 || true
		fi
		if [ ! -r "$mk" ]; then
			bad "$line" "no Makefile ${mk#"$OOPSLIMIT_TOP"/}"
			continue
		fi
		why=
		for w in "$@"; do
			case $w in
			*=*) make_variable "$mk" "${w%%=*}" || why="${mk#"$OOPSLIMIT_TOP"/} does not use ${w%%=*}" ;;
			-*) why="an option this check does not know: $w" ;;
			*) make_target "$mk" "$w" || why="${mk#"$OOPSLIMIT_TOP"/} has no target $w" ;;
			esac
			[ -z "$why" ] || break
		done
		if [ -z "$why" ]; then echo "ok: \`$line\`"; else bad "$line" "$why"; fi ;;
	esac
done

# The relative links: [text](target) and [text](target#anchor).
mapfile -t links < <(grep -o '\](\([^)]*\))' "$readme" | sed 's/^](\(.*\))$/\1/' |
	grep -Ev '^(https?|mailto|ftp):' | sort -u)
for link in "${links[@]}"; do
	checked=$((checked + 1))
	file=${link%%#*} anchor=
	case $link in *'#'*) anchor=${link#*#} ;; esac
	target=$readme
	[ -z "$file" ] || target=$dir/$file
	if [ ! -e "$target" ]; then
		bad "($link)" "no such file: ${target#"$OOPSLIMIT_TOP"/}"
	elif [ -n "$anchor" ] && [ -f "$target" ] && ! anchors "$target" | grep -qxF -- "$anchor"; then
		bad "($link)" "no heading in ${target#"$OOPSLIMIT_TOP"/} has the anchor #$anchor"
	else
		echo "ok: ($link)"
	fi
done
echo "$checked checked, $failed failed"
# (a man page may show no command line of ours and link nowhere)
case $readme in *.[1-8]) [ $failed -eq 0 ] ;; *) [ $failed -eq 0 ] && [ $checked -gt 0 ] ;; esac
