#!/bin/bash
# Finds writers that use a predictable temporary name: a file named like
# X.tmp, X.new or X.part (a name anyone who can write the directory can
# plant a symbolic link at), a fixed name under /tmp or /var/tmp, and the C
# and Python calls that make such names (tmpnam, tempnam, mktemp(3),
# tempfile.mktemp).  A mktemp template (X.tmp.XXXXXX) and a glob over such
# temporaries (X.tmp.*) are fine.  Comments and documentation are not code
# and are not read.
#
# Usage: tests/tempnames.sh [FILE...]   (default: the repository's tracked
# code, less this file and tests/tempnames/, what it must find).  Prints FILE:LINE: TEXT for each finding; exit 1 when there is one.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

# The tracked files that are code: sources, scripts, makefiles, packaging.
code_files() {
	git -C "$top" ls-files | while IFS= read -r f; do
		case $f in
		*.md | *.8 | *.5 | *.txt | *.json | *.patch | *.def | *.scn | */changelog | */copyright) continue ;;
		tests/tempnames.sh | tests/tempnames/*) continue ;;
		# plants a link at the old writer's NAME.tmp on purpose
		tests/unit/outfile-test.c) continue ;;
		esac
		[ -f "$top/$f" ] && printf '%s\n' "$top/$f"
	done
}

if [ $# -eq 0 ]; then
	mapfile -t files < <(code_files)
else
	files=("$@")
fi

# One awk pass per file: comment lines skipped, each pattern reported.
found=0
for f in "${files[@]}"; do
	case $f in
	*.c | *.h) lang=c ;;
	*.py) lang=py ;;
	*) lang=script ;;
	esac
	awk -v lang="$lang" -v name="${f#"$top"/}" '
		# A fixed /tmp name written to: in C or Python any such literal
		# (it is there to be opened), in a script one a redirection or a
		# writing command names; a mention (a value, a message) is not.
		function fixed_tmp(l, lang,    p) {
			p = "(\\/var)?\\/tmp\\/[A-Za-z0-9_.-]"
			if (l ~ "\\/tmp\\/[A-Za-z0-9_.-]*XXXXXX")
				return 0
			if (lang == "c")
				return l ~ ("\"" p)
			if (lang == "py")
				return l ~ ("[\"\x27]" p)
			return l ~ ("(>|>>|\\|[ \t]*tee([ \t]+-a)?|(^|[ \t;(])(touch|cp|mv|install|ln)[ \t].*)[ \t]*[\"\x27]?" p)
		}
		{ line = $0 }
		lang == "c" && (line ~ /^[ \t]*(\/\*|\*|\/\/)/) { next }
		lang != "c" && (line ~ /^[ \t]*#/) { next }
		{
			why = ""
			if (line ~ /\.(tmp|temp|new|part|partial)(["'"'"' \t)\/};:]|$)/)
				why = "a fixed temporary name (use mktemp / mkstemp beside the file)"
			else if (fixed_tmp(line, lang))
				why = "a fixed name under /tmp (use mktemp)"
			else if (lang == "c" && line ~ /(^|[^A-Za-z0-9_])(tmpnam|tempnam|mktemp)[ \t]*\(/)
				why = "tmpnam/tempnam/mktemp(3) name a file without creating it (use mkstemp)"
			else if (line ~ /tempfile\.mktemp[ \t]*\(/)
				why = "tempfile.mktemp names a file without creating it (use mkstemp)"
			if (why != "") {
				sub(/^[ \t]+/, "", line)
				printf "%s:%d: %s: %s\n", name, NR, why, line
				found = 1
			}
		}
		END { exit found }
	' "$f" || found=1
done
exit $found
