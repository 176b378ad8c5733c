#!/bin/bash
# The kernel/makedumpfile pairs (kdump/makedumpfile-pairs, read by
# kdump/oopslimit-makedumpfile.sh): the table well formed; each Debian
# release's kernel with its own makedumpfile and with the one the project
# brings it, matched to the right rows; the dump level masked where a row
# says; the loader's check naming the pair in one line, with this machine's
# own makedumpfile; makedumpfile's version as it prints it; and a real
# makedumpfile log (tests/unit/makedumpfile-progress.log: makedumpfile
# 1.7.2's output in the capture kernel, as the capture script kept it before
# it filtered it, kdump-panic-on-oom's) kept as its messages and each bar's
# last frame.
# TAP; "N passed, N failed" last.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=../../kdump/oopslimit-makedumpfile.sh
. "$top/kdump/oopslimit-makedumpfile.sh"
table=$top/kdump/makedumpfile-pairs
n=0 failed=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

# the table: eight fields a row, versions, a commit, a scenario that exists
bad=''
while IFS= read -r row; do
	case $row in '' | '#'*) continue ;; esac
	IFS=$'\t' read -r k m p e c f l t <<<"$row"
	[ "$(awk -F '\t' '{ print NF }' <<<"$row")" = 8 ] || bad="$bad; not 8 fields: $row"
	[[ $k =~ ^[0-9]+\.[0-9]+$ ]] || bad="$bad; kernel '$k'"
	[[ $m =~ ^[0-9.]+-[0-9.]+$ ]] || bad="$bad; makedumpfile '$m'"
	case $p in free | tail | slab) ;; *) bad="$bad; pages '$p'" ;; esac
	case $e in kept | lost) ;; *) bad="$bad; effect '$e'" ;; esac
	[[ $c =~ ^[0-9a-f]{7,40}$ ]] || bad="$bad; commit '$c'"
	[[ $f =~ ^([0-9.]+|-)$ ]] || bad="$bad; fixed '$f'"
	[[ $l =~ ^([0-9]+|-)$ ]] || bad="$bad; level '$l'"
	[ "$t" = - ] || [ -r "$top/tests/scenarios/$t.scn" ] || bad="$bad; no scenario $t"
done <"$table"
ok "$([ -z "$bad" ] && echo 0 || echo 1)" "the table's rows are well formed${bad:+:$bad}"

# versions compare as numbers
cmp() {
	if ol_md_vercmp "$1" "$2"; then echo older; else echo not; fi
}
got="$(cmp 1.7.6 1.7.7) $(cmp 1.7.10 1.7.9) $(cmp 6.12.117+deb13-amd64 7.1) $(cmp 7.2.13+deb14-amd64 7.1) $(cmp 1.7.8 1.7.8)"
ok "$([ "$got" = "older not older not not" ] && echo 0 || echo 1)" "versions compare as numbers: $got"

# pair KERNEL MDVER COLLECTOR WANT-COLLECTOR WANT-COMMITS: the rows matched
pair() {
	local commits
	ol_md_guard "$table" "$1" "$2" "$3"
	commits=$(ol_md_pairs "$table" "$1" "$2" | cut -f5 | tr '\n' ' ' | sed 's/ $//')
	ok "$([ "$ol_md_collector" = "$4" ] && [ "$commits" = "$5" ] && [ "$(grep -c . <<<"$ol_md_lines")" = "$(wc -w <<<"$5")" ] && echo 0 || echo 1)" \
		"kernel $1, makedumpfile $2: ${5:-no row}, collector $ol_md_collector${ol_md_lines:+; $(head -n 1 <<<"$ol_md_lines")}"
}
# Debian 12: 6.1 and its 1.7.2
pair 6.1.0-57-cloud-amd64 1.7.2 -l,-d,31 -l,-d,31 ''
# a 6.12 kernel with Debian 12's own 1.7.2
pair 6.12.0 1.7.2 -l,-d,31 -l,-d,31 '5f17bdd bad2a7c'
# Debian 13: 6.12 and its 1.7.6; then with unstable's 1.7.8
pair 6.12.117+deb13-amd64 1.7.6 -l,-d,31 -l,-d,31 72c3414
pair 6.12.117+deb13-amd64 1.7.8 -l,-d,31 -l,-d,31 ''
# unstable: 7.2 and its 1.7.8: the level masked, whatever the compression
pair 7.2.13+deb14-amd64 1.7.8 -l,-d,31 -l,-d,17 f50c015
pair 7.2.13+deb14-amd64 1.7.8 -c,-d,8 -c,-d,0 f50c015
# the fix's release (after 1.7.9)
pair 7.2.13+deb14-amd64 1.8.0 -l,-d,31 -l,-d,31 ''
# no version: nothing said, nothing masked
pair 7.2.13+deb14-amd64 '' -l,-d,31 -l,-d,31 ''

# the line that names the pair: the version, the kernel, the commit, the fix
ol_md_guard "$table" 6.12.117+deb13-amd64 1.7.6 -l,-d,31
want='makedumpfile 1.7.6 saves the free pages of kernel 6.12.117+deb13-amd64 (the dump can be the size of memory): install makedumpfile 1.7.7 or later (upstream 72c3414)'
ok "$([ "$ol_md_lines" = "$want" ] && echo 0 || echo 1)" "the kept pair's line: $ol_md_lines"

# this machine's makedumpfile says its version, and the loader's check names
# the pair for a 7.2 kernel with it, in one line, the level masked
if command -v makedumpfile >/dev/null; then
	v=$(ol_md_version)
	ok "$([[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] && echo 0 || echo 1)" "makedumpfile -v: version '$v'"
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	mkdir -p "$t/crash"
	printf 'target auto\npath %s/crash\n' "$t" >"$t/kdump.conf"
	out=$(OL_MD_KERNEL=7.2.13+deb14-amd64 OOPSLIMIT_KDUMP_STATE=$t/run "$top/kdump/oopslimit-kdump" -c "$t/kdump.conf" check 2>&1) || true
	line=$(grep -c 'warning: makedumpfile .* compound tail pages of kernel 7.2.13+deb14-amd64 .*f50c015.*masked with 17' <<<"$out" || true)
	ok "$([ "$line" = 1 ] && grep -q "^collector: *makedumpfile $v -l -d 17$" <<<"$out" && echo 0 || echo 1)" \
		"check on 7.2 with makedumpfile $v: $(grep -m1 '^collector:' <<<"$out"); $(grep -m1 'f50c015' <<<"$out" | cut -c1-90)..."
fi

# the log: messages and each bar's last frame, no carriage return left
log=$top/tests/unit/makedumpfile-progress.log
got=$(ol_md_messages <"$log")
frames=$(tr -cd '\r' <"$log" | wc -c)
ok "$([ -n "$got" ] && ! grep -q $'\r' <<<"$got" && grep -q '^Copying data  *: \[100.0 %\]' <<<"$got" &&
	grep -q '^Excluding unnecessary pages  *: \[100.0 %\]' <<<"$got" &&
	[ "$(grep -c ' : \[' <<<"$got")" = 3 ] && grep -q 'The dumpfile is saved to' <<<"$got" &&
	[ "$(tail -n 1 <<<"$got")" = 'makedumpfile Completed.' ] && echo 0 || echo 1)" \
	"makedumpfile.log: $frames carriage returns in, $(grep -c . <<<"$got") lines out: $(tr '\n' '|' <<<"$got" | cut -c1-120)"

# the capture image's side: the pairs read with the tools the dracut module
# installs alone (its inst_multiple list), as the capture script reads them
bin=$(mktemp -d)
for tool in $(sed -n '/inst_multiple sh makedumpfile/,/[^\\]$/p' "$top/initramfs/99oopslimit/module-setup.sh" |
	tr -d "\\\\" | sed 's/inst_multiple//'); do
	p=$(command -v "$tool" 2>/dev/null) && ln -s "$p" "$bin/$tool"
done
# shellcheck disable=SC2016  # the inner shell expands its own arguments
got=$(env -i PATH="$bin" "$bin/sh" -c '. "$1"; ol_md_guard "$2" 7.2.13+deb14-amd64 1.7.8 -l,-d,31; printf "%s|%s" "$ol_md_collector" "$ol_md_lines"' \
	sh "$top/kdump/oopslimit-makedumpfile.sh" "$top/kdump/makedumpfile-pairs" 2>&1)
rm -rf "$bin"
ok "$(case $got in '-l,-d,17|makedumpfile 1.7.8 leaves out compound tail pages of kernel 7.2.13+deb14-amd64'*) echo 0 ;; *) echo 1 ;; esac)" \
	"the pairs read with the capture image's tools alone: ${got%%:*}"

echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
