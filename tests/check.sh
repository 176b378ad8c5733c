#!/bin/bash
# The fast lane: every check that needs no kernel build and no QEMU, in about
# a minute.  checkpatch on each patch, shellcheck on every shell script, the C
# unit tests under ASan and UBSan (and recorder/dump.c's file checks), the
# recorder and the crash extension built
# with -Werror and installed into a DESTDIR, the report schema against
# common/vars.def and against the unit tests' documents, and the kernel
# build's refusal of bad input.  TAP, ending with "N passed, N failed".
#
# Usage: tests/check.sh          (make check)
# tests/run.sh sources it and runs static_checks before anything boots.
set -eu
# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
# shellcheck source=../scripts/scenario.sh
. "$OOPSLIMIT_TOP/scripts/scenario.sh"

# checkpatch.pl and its data files, out of the linux-source tarball once.
checkpatch_dir() {
	local key dir
	key=$(key_of "$OOPSLIMIT_TARBALL")
	dir=$OOPSLIMIT_CACHE/checkpatch/$key
	if [ ! -e "$dir/.complete" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -xJf "$OOPSLIMIT_TARBALL" -C "$dir" --strip-components=1 --wildcards \
			'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' '*/scripts/const_structs.checkpatch' ||
			die "cannot take checkpatch.pl out of $OOPSLIMIT_TARBALL"
		touch "$dir/.complete"
	fi
	printf '%s\n' "$dir"
}

# Every tracked shell script: by its #! line or a shellcheck shell= directive.
shell_scripts() {
	local f
	git -C "$OOPSLIMIT_TOP" ls-files | while IFS= read -r f; do
		[ -f "$OOPSLIMIT_TOP/$f" ] || continue
		case $(head -c 64 "$OOPSLIMIT_TOP/$f" | head -n 2) in
		'#!/bin/sh'* | '#!/bin/bash'* | '#!/usr/bin/env bash'* | *'# shellcheck shell='*)
			printf '%s\n' "$f" ;;
		esac
	done
}

# unit_script NAME TITLE WHAT [ARG...]: tests/unit/NAME.sh ARG... as one
# result: "TITLE: " and its last line when it passes, its failures and
# "TITLE: WHAT" when not.
unit_script() {
	local name=$1 title=$2 what=$3 out
	shift 3
	if out=$("$OOPSLIMIT_TOP/tests/unit/$name.sh" "$@" 2>&1); then
		result OK "$title: $(tail -n 1 <<<"$out")"
	else
		grep -v '^ok' <<<"$out" | sed 's/^/#   /'
		result FAIL "$title: $what"
	fi
}

static_checks() {
	local tree p out shells=() u ok
	local unit=$scratch_check/unit
	mkdir -p "$unit/json"

	tier_check
	tree=$(checkpatch_dir)
	while read -r p; do
		if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict -q --no-tree "$p" 2>&1) && [ -z "$out" ]; then
			result OK "checkpatch --strict: ${p#"$OOPSLIMIT_TOP"/}"
		else
			printf '%s\n' "$out" | sed 's/^/#   /'
			result FAIL "checkpatch --strict: ${p#"$OOPSLIMIT_TOP"/}"
		fi
	done < <(series_patches all)

	mapfile -t shells < <(shell_scripts)
	# (a shellcheck a core, each on its share of the scripts: most of the
	# time goes to the files they source, which each run reads again)
	local cores share
	cores=$(nproc)
	share=$(((${#shells[@]} + cores - 1) / cores))
	if out=$(cd "$OOPSLIMIT_TOP" && printf '%s\0' "${shells[@]}" | xargs -0 -n "$share" -P "$cores" shellcheck -x 2>&1); then
		result OK "shellcheck: ${#shells[@]} scripts"
	else
		printf '%s\n' "$out" | sed 's/^/#   /'
		result FAIL "shellcheck"
	fi

	# Each page's command lines, run, and its links followed
	# (tests/readme.sh): crash's, the loader's and make's arguments as a
	# reader would copy them, from the README, docs/ and the man pages'
	# examples.  The README is a front door: a screen or four.
	local page lines
	for page in "$OOPSLIMIT_TOP"/README.md "$OOPSLIMIT_TOP"/docs/*.md "$OOPSLIMIT_TOP"/kdump/*.[58] \
		"$OOPSLIMIT_TOP"/recorder/*.[18] "$OOPSLIMIT_TOP"/crash-ext/*.7; do
		if out=$("$OOPSLIMIT_TOP/tests/readme.sh" "$page" 2>&1); then
			result OK "${page#"$OOPSLIMIT_TOP"/}: command lines run, links lead somewhere: $(tail -n 1 <<<"$out")"
		else
			grep -v '^ok' <<<"$out" | sed 's/^/#   /'
			result FAIL "${page#"$OOPSLIMIT_TOP"/}: command lines run, links lead somewhere"
		fi
	done
	lines=$(wc -l <"$OOPSLIMIT_TOP/README.md")
	if [ "$lines" -le 220 ]; then
		result OK "README.md is a front door: $lines lines (at most 220)"
	else
		result FAIL "README.md is $lines lines, over 220: move reference material into docs/"
	fi

	# Every man page renders without a warning from man or groff (what
	# lintian's groff check runs), and the extension's page has each option
	# of its "help oopslimit" synopsis.
	local page_err synopsis opt missing_opts
	for page in "$OOPSLIMIT_TOP"/kdump/*.[1-8] "$OOPSLIMIT_TOP"/recorder/*.[1-8] "$OOPSLIMIT_TOP"/crash-ext/*.[1-8]; do
		page_err=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null) ||
			page_err="man failed: $page_err"
		if [ -z "$page_err" ]; then
			result OK "man page ${page#"$OOPSLIMIT_TOP"/} renders without warnings"
		else
			printf '%s\n' "$page_err" | sed 's/^/#   /'
			result FAIL "man page ${page#"$OOPSLIMIT_TOP"/} renders without warnings"
		fi
	done
	synopsis=$(sed -n '/^static char \*help_oopslimit\[\] = {/,/^};/p' "$OOPSLIMIT_TOP/crash-ext/oopslimit.c" |
		sed -n '4s/^[[:space:]]*"\(.*\)",$/\1/p')
	missing_opts=''
	while read -r opt; do
		grep -q "^\.RB \[ \\\\$opt \]\$" "$OOPSLIMIT_TOP/crash-ext/crash-oopslimit.7" || missing_opts+=" $opt"
	done < <(grep -o -- '-[a-z]' <<<"$synopsis")
	if [ -n "$synopsis" ] && [ -z "$missing_opts" ]; then
		result OK "crash-oopslimit(7) has every option of help oopslimit: $synopsis"
	else
		result FAIL "crash-oopslimit(7) lacks options of help oopslimit ($synopsis):$missing_opts"
	fi

	# kdump.conf's keys are one table (kdump/oopslimit-lib.sh): kdump.conf and
	# oopslimit-kdump.conf(5) describe each key of it, and no other.
	unit_script conf-keys "kdump.conf's keys" "kdump.conf and oopslimit-kdump.conf(5) against the key table"

	# The loader's "target auto": the file system that holds the dump path
	# and the directory within it, from mount tables (tests/unit/mountinfo).
	unit_script auto-target "target auto" "the file system and directory that hold the dump path"

	# The network targets without a network: oopslimit-receive as the ssh
	# forced command runs it, and the route to a dump server
	# (tests/unit/dump-server.sh, tests/unit/net).
	unit_script dump-server "dump server" "oopslimit-receive's requests and refusals, the route to the server"

	# The kernel/makedumpfile pairs, the masked dump level, makedumpfile's
	# log without its progress bar (tests/unit/makedumpfile-pairs.sh).
	unit_script makedumpfile-pairs "makedumpfile pairs" "the pairs matched, the level masked, check's line, the log"

	# The unit tests: each with all of common/ and crash-ext's plain C part.
	for u in "$OOPSLIMIT_TOP"/tests/unit/*-test.c; do
		local base=${u##*/}
		if ! out=$(gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
			-fno-sanitize-recover=all -o "$unit/${base%.c}" "$u" "$OOPSLIMIT_TOP"/common/*.c \
			"$OOPSLIMIT_TOP"/crash-ext/symfile.c 2>&1); then
			printf '%s\n' "$out" | sed 's/^/#   /'
			result FAIL "unit tests: tests/unit/$base builds"
			continue
		fi
		if out=$(cd "$unit" && "./${base%.c}" --json "$unit/json" 2>&1); then
			result OK "unit tests: tests/unit/$base: $(tail -n 1 <<<"$out")"
		else
			grep -v '^ok' <<<"$out" | sed 's/^/#   /'
			result FAIL "unit tests: tests/unit/$base"
		fi
	done

	# recorder/dump-check.c's checks of a file before libkdumpfile sees it, on small
	# made-up files (tests/damage/open-test.c; it links libkdumpfile).
	if out=$(make -s -C "$OOPSLIMIT_TOP/tests/damage" check O="$unit/damage" 2>&1); then
		result OK "unit tests: tests/damage/open-test.c: $(tail -n 1 <<<"$out")"
	else
		grep -v '^ok' <<<"$out" | tail -n 20 | sed 's/^/#   /'
		result FAIL "unit tests: tests/damage/open-test.c"
	fi

	# The two readers build with -Werror and install where they belong.
	ok=0
	out=$(make -s -B -C "$OOPSLIMIT_TOP/kdump" O="$unit" 2>&1) || ok=1
	out+=$(make -s -B -C "$OOPSLIMIT_TOP/crash-ext" 2>&1) || ok=1
	out+=$(make -s -C "$OOPSLIMIT_TOP/crash-ext" install DESTDIR="$unit/dest" 2>&1) || ok=1
	[ -f "$unit/dest/usr/lib/crash/extensions/oopslimit.so" ] || ok=1
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/#   /'
	check_result $ok "oopslimit-reason and oopslimit.so build with -Wall -Wextra -Werror; make install DESTDIR= places the extension"

	# The live metrics and the rate, with the recorder just built
	# (tests/unit/metrics.sh).
	unit_script metrics "live metrics" "oopslimit.prom, the rate, bad directories" "$unit/oopslimit-reason"

	# The fleet summary over a generated dump server tree, and the files it
	# must skip (tests/unit/triage.sh).
	unit_script triage "fleet summary" "oopslimit-triage's groups and their members, --known, the index, the files it skips" "$unit/oopslimit-triage"

	# A panic's pstore record judged at the next boot, and the records that
	# are not (tests/unit/pstore-boot.sh).
	unit_script pstore-boot "pstore at boot" "which records are judged, which skipped" "$unit/oopslimit-reason"

	# The recorder's time limit on a dump whose reads stall
	# (tests/unit/reader-deadline.sh).
	unit_script reader-deadline "a stalled dump read" "the reader stopped at its limit, the verdict kept" "$unit/oopslimit-reason"

	# What a clean chroot's package build needs, checked here without one: every
	# header the two builds read comes from build-essential or from a package
	# debian/control's Build-Depends names (crash's defs.h includes zlib.h, which
	# crash does not bring), and kdump's make install puts nothing under /bin,
	# /sbin or /lib, aliases of /usr that Debian 13's lintian refuses.
	local bdeps hdrs owners missing aliased='' a
	ok=0
	bdeps=$(awk '/^[^ \t#]/ { on = /^Build-Depends:/; sub(/^Build-Depends:/, "") } on && !/^#/' \
		"$OOPSLIMIT_TOP/debian/control" | sed 's/[,|]/\n/g' | sed 's/([^)]*)//; s/\[[^]]*\]//; s/:.*//; s/[[:space:]]//g' | grep .)
	hdrs=$( {
		make -s -C "$OOPSLIMIT_TOP/crash-ext" headers
		cd "$OOPSLIMIT_TOP" && gcc -std=gnu11 -M recorder/oopslimit-reason.c recorder/reason-*.c recorder/dump.c recorder/dump-check.c recorder/triage-*.c common/*.c
	} | sed 's/[ \\]/\n/g' | grep '^/usr/' | sort -u) || ok=1
	owners=$(printf '%s\n' "$hdrs" | xargs dpkg -S 2>&1 | sed 's/: \/.*//' | tr ',' '\n' | sed 's/:.*//; s/[[:space:]]//g' | sort -u) || ok=1
	missing=$(comm -23 <(printf '%s\n' "$owners" | grep -vxE 'libc6-dev|linux-libc-dev|libcrypt-dev|(lib)?gcc-[0-9]+(-dev)?') \
		<(printf '%s\n' "$bdeps" | sort -u) | tr '\n' ' ')
	if [ -z "$hdrs" ] || [ -n "$missing" ]; then
		ok=1
		note "headers from packages not in Build-Depends: $missing"
	fi
	out=$(make -s -C "$OOPSLIMIT_TOP/kdump" install O="$unit" DESTDIR="$unit/kdest" 2>&1) || { ok=1; note "$out"; }
	for a in bin sbin lib lib32 lib64 libx32; do [ ! -e "$unit/kdest/$a" ] || aliased+="/$a "; done
	[ -z "$aliased" ] || { ok=1; note "make -C kdump install writes under $aliased"; }
	check_result $ok "debian/control's Build-Depends bring every header the builds read ($(wc -l <<<"$hdrs") files); kdump installs nothing under /bin, /sbin, /lib"

	writer_checks "$unit"

	# The schema: valid, exactly the variables of vars.def, and every report
	# the unit tests wrote (report-test --json) and the recorder's report of a
	# log without a dump validate against it.
	"$unit/oopslimit-reason" -j "$unit/json/recorder-no-dump.json" -l "$OOPSLIMIT_TOP/tests/unit/warn-limit-dmesg.txt" \
		/dev/null 2>/dev/null || true
	if out=$(/usr/bin/python3 - "$schema" "$OOPSLIMIT_TOP/common/vars.def" "$unit"/json/*.json <<-'EOF'
		import json, re, sys
		import jsonschema
		schema = json.load(open(sys.argv[1]))
		jsonschema.Draft202012Validator.check_schema(schema)
		keys = re.findall(r'^OL_VAR\(\w+, "(\w+)"', open(sys.argv[2]).read(), re.M)
		bad = []
		props = set(schema["properties"])
		readers = set(schema["properties"]["reader"]["properties"]["variables"]["properties"])
		for k in keys:
		    if k not in props or k not in schema["required"]:
		        bad.append("vars.def's %s is not a required member of the schema" % k)
		    if k not in readers:
		        bad.append("vars.def's %s is not in reader.variables" % k)
		for k in readers - set(keys):
		    bad.append("reader.variables.%s is not in vars.def" % k)
		docs = sys.argv[3:]
		if len(docs) < 3:
		    bad.append("only %d reports to validate" % len(docs))
		for path in docs:
		    for err in jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(path))):
		        bad.append("%s: %s at %s" % (path.rsplit("/", 1)[-1], err.message, "/".join(map(str, err.path))))
		print("\n".join(bad) if bad else "%d reports valid" % len(docs))
		sys.exit(1 if bad else 0)
	EOF
	); then
		result OK "report schema: matches common/vars.def; $out"
	else
		printf '%s\n' "$out" | sed 's/^/#   /'
		result FAIL "report schema: matches common/vars.def; the unit tests' reports validate"
	fi

	# Bad input to the kernel build: one clear line and a non-zero exit, with
	# a throwaway cache and small fake tarballs (nothing here builds a kernel).
	expect_build_error "a missing tarball" "$scratch_check/none.tar.xz" "apt-get install linux-source-6.1"
	expect_build_error "a tree of another version" "$(fake_tree 5 10 0)" "holds Linux 5.10.0; the series is for 6.1.y"
	expect_build_error "a tree the series does not fit" "$(fake_tree 6 1 0)" "does not fit this tree"

	# A release scripts/debian-releases does not name: one line, nothing
	# fetched, nothing left in the cache (no network needed to say so).
	local rc=0 err
	err=$(OOPSLIMIT_CACHE=$scratch_check/cache "$OOPSLIMIT_TOP/scripts/debian-kernel.sh" woody 2>&1 >/dev/null) || rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && grep -q "no suite 'woody' in scripts/debian-releases" <<<"$err" &&
		[ ! -e "$scratch_check/cache" ]; then
		result OK "debian-kernel.sh rejects a release it does not know, with one line"
	else
		note "status $rc, said: $err"
		result FAIL "debian-kernel.sh rejects a release it does not know, with one line"
	fi
	rm -rf "$scratch_check/cache"
	kernel_package_checks
}

# fake_deb DIR PACKAGE ARCH [FILE] [DEPENDS]: a small .deb in DIR holding
# FILE (a path), for the package set checks; no kernel in it.
fake_deb() {
	local root
	root=$(mktemp -d "$1/.root.XXXXXX")
	mkdir -p "$root/DEBIAN"
	printf 'Package: %s\nVersion: 1.0-1\nArchitecture: %s\nMaintainer: t <t@example.org>\nDescription: t\n' \
		"$2" "$3" >"$root/DEBIAN/control"
	[ -z "${5:-}" ] || printf 'Depends: %s\n' "$5" >>"$root/DEBIAN/control"
	if [ -n "${4:-}" ]; then
		mkdir -p "$root$(dirname "$4")"
		echo t >"$root$4"
	fi
	dpkg-deb -Zgzip --root-owner-group -b "$root" "$1/$2_1.0-1_$3.deb" >/dev/null
	rm -rf "$root"
}

# kernel_package_checks: scripts/verify.sh -d given a kernel package set
# that is incomplete, of another architecture or of a release without a
# Debian guest says so in one line, exit 1, and leaves nothing in the cache.
kernel_package_checks() {
	local c dir name want r rc err pkgs p
	# CASE|RELEASE|PACKAGES (kind:arch)|TEXT
	local cases=(
		"no -dbg package|6.12.117+deb13-amd64|image:amd64 headers:amd64|has no linux-image-6.12.117+deb13-amd64-dbg package"
		"no headers|6.12.117+deb13-amd64|image:amd64 dbg:amd64|has no linux-headers-6.12.117+deb13-amd64 package"
		"Debian 14's image without its modules|7.2.13+deb14-amd64|binary:amd64 meta:amd64 dbg:amd64 headers:amd64|has no linux-modules-7.2.13+deb14-amd64 package"
		"another architecture|6.12.117+deb13-arm64|image:arm64 dbg:arm64 headers:arm64|is for arm64, not amd64"
		"a release without a Debian guest|5.10.0-32-amd64|image:amd64 dbg:amd64 headers:amd64|is bullseye's kernel, and scripts/debian-releases makes no Debian guest for bullseye"
		"no image at all|6.12.117+deb13-amd64|dbg:amd64 headers:amd64|holds no kernel image"
	)
	for c in "${cases[@]}"; do
		IFS='|' read -r name r pkgs want <<<"$c"
		dir=$(mktemp -d "$scratch_check/debs.XXXXXX")
		for p in $pkgs; do
			case ${p%:*} in
			image) fake_deb "$dir" "linux-image-$r" "${p#*:}" "/boot/vmlinuz-$r" ;;
			binary) fake_deb "$dir" "linux-binary-$r" "${p#*:}" "/usr/lib/modules/$r/vmlinuz" ;;
			meta) fake_deb "$dir" "linux-image-$r" "${p#*:}" '' "linux-binary-$r (= 1.0-1), linux-modules-$r (= 1.0-1)" ;;
			dbg) fake_deb "$dir" "linux-image-$r-dbg" "${p#*:}" "/usr/lib/debug/boot/vmlinux-$r" ;;
			headers) fake_deb "$dir" "linux-headers-$r" "${p#*:}" "/usr/src/linux-headers-$r/Makefile" ;;
			esac
		done
		rc=0
		err=$(OOPSLIMIT_CACHE=$scratch_check/cache "$OOPSLIMIT_TOP/scripts/verify.sh" -d "$dir" 2>&1 >/dev/null) || rc=$?
		if [ $rc -eq 1 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && grep -qF "$want" <<<"$err" && [ ! -e "$scratch_check/cache" ]; then
			result OK "verify -d refuses a kernel package set: $name, in one line"
		else
			note "status $rc, said: $err"
			result FAIL "verify -d refuses a kernel package set: $name, in one line"
		fi
		rm -rf "$dir" "$scratch_check/cache"
	done
}

# writer_checks DIR: no writer in the tree uses a predictable temporary
# name (tests/tempnames.sh, itself shown to catch one of each kind), and
# the recorder built in DIR writes to a device as it is and refuses a
# symbolic link with one line, the file it leads to untouched.
writer_checks() {
	local dir=$1 fix=$OOPSLIMIT_TOP/tests/tempnames out rc err
	if out=$("$OOPSLIMIT_TOP/tests/tempnames.sh" 2>&1); then
		result OK "no writer in the tree uses a predictable temporary name"
	else
		printf '%s\n' "$out" | sed 's/^/#   /'
		result FAIL "no writer in the tree uses a predictable temporary name"
	fi
	rc=0
	out=$("$OOPSLIMIT_TOP/tests/tempnames.sh" "$fix"/bad.sh "$fix"/bad.c 2>&1) || rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <<<"$out")" -eq 4 ] && grep -q 'bad.sh:3: a fixed temporary' <<<"$out" &&
		grep -q 'bad.sh:4: a fixed name under /tmp' <<<"$out" && grep -q 'bad.c:4: a fixed temporary' <<<"$out" &&
		grep -q 'bad.c:5: tmpnam' <<<"$out"; then
		result OK "tests/tempnames.sh finds each kind of predictable name in tests/tempnames/, and not comments or mktemp templates"
	else
		note "status $rc, said: $out"
		result FAIL "tests/tempnames.sh finds each kind of predictable name in tests/tempnames/, and not comments or mktemp templates"
	fi

	# the recorder itself: -j /dev/null, then -j at a symbolic link
	rc=0
	"$dir/oopslimit-reason" -j /dev/null -t /dev/null -l "$OOPSLIMIT_TOP/tests/unit/warn-limit-dmesg.txt" \
		/dev/null 2>/dev/null || rc=$?
	if [ $rc -eq 3 ] && [ -c /dev/null ]; then
		result OK "oopslimit-reason -j /dev/null -t /dev/null: written, /dev/null still a character device"
	else
		note "status $rc; /dev/null: $(ls -l /dev/null)"
		result FAIL "oopslimit-reason -j /dev/null -t /dev/null: written, /dev/null still a character device"
	fi
	fix=$scratch_check/writer
	mkdir -p "$fix"
	printf 'keep me\n' >"$fix/victim"
	ln -s "$fix/victim" "$fix/reason.json"
	rc=0
	err=$("$dir/oopslimit-reason" -j "$fix/reason.json" -l "$OOPSLIMIT_TOP/tests/unit/warn-limit-dmesg.txt" \
		/dev/null 2>&1) || rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && grep -q 'is a symbolic link' <<<"$err" &&
		[ "$(cat "$fix/victim")" = 'keep me' ] && [ -L "$fix/reason.json" ]; then
		result OK "oopslimit-reason -j LINK: refused with one line, exit 1, the file it leads to untouched"
	else
		note "status $rc, said: $err"
		result FAIL "oopslimit-reason -j LINK: refused with one line, exit 1, the file it leads to untouched"
	fi
}

# The feature families make test must boot one scenario of (issue 28's
# list): a name, then an extended regular expression that some line of a
# "tier test" scenario matches (a family of several lines: all in one
# scenario, separated by " && ").
tier_families=(
	"the core: kdump, warn_limit exhausted|^kdump[[:space:]]+warn_limit && ^step[[:space:]]+kdump load"
	"oops_limit|^kdump[[:space:]]+oops_limit"
	"panic_on_warn|^kdump[[:space:]]+panic_on_warn"
	"panic_on_oops|^kdump[[:space:]]+panic_on_oops"
	"UBSAN|ARRAY_BOUNDS"
	"the baseline kernel|^kernel[[:space:]]+baseline"
	"panic_on_taint|panic_on_taint"
	"the lockup and hang detectors|softlockup_panic|hung_task_panic"
	"panic_on_oom|panic_on_oom"
	"a damaged dump|^damage[[:space:]]"
	"the Debian 12 system|^guest[[:space:]]+debian && ^kernel[[:space:]]+stock"
	"the Debian 13 system|^release[[:space:]]+trixie"
	"a dump disk of its own|^disk[[:space:]]+[0-9]+[MG] (ext4|xfs) "
	"a stacked block device|^disk[[:space:]].* (lvm|md)$"
	"a dump server|^server[[:space:]]+(ssh|nfs)"
	"metrics, the journal event, pstore|ramoops && ^step[[:space:]]+journal && ^step[[:space:]]+scrape"
	"a refusal|^expect[[:space:]]+kdump load => [1-9]"
	"an old kernel line (5.10)|^kernel[[:space:]]+debian:bullseye"
	"the newest kernel line|^kernel[[:space:]]+debian:sid"
)
# tier_check: every scenario names its tier; each family has a "tier test" one.
tier_check() {
	local f fam name pats p hit missing=() untiered=()
	for f in "$scenario_dir"/*.scn; do
		grep -Eq '^tier[[:space:]]+(test|full)$' "$f" || untiered+=("$(basename "$f")")
	done
	for fam in "${tier_families[@]}"; do
		name=${fam%%|*} pats=${fam#*|} hit=
		for f in "$scenario_dir"/*.scn; do
			[ "$(scenario_tier "$f")" = test ] || continue
			hit=$f
			while read -r p; do
				grep -Eq -- "$p" "$f" || { hit=; break; }
			done <<<"${pats// && /$'\n'}"
			[ -z "$hit" ] || break
		done
		[ -n "$hit" ] || missing+=("$name")
	done
	if [ ${#untiered[@]} -eq 0 ] && [ ${#missing[@]} -eq 0 ]; then
		result OK "scenario tiers: every scenario names one; make test boots one of each of ${#tier_families[@]} families"
	else
		[ ${#untiered[@]} -eq 0 ] || note "no tier line: ${untiered[*]}"
		[ ${#missing[@]} -eq 0 ] || note "no tier test scenario for: $(printf '%s; ' "${missing[@]}")"
		result FAIL "scenario tiers: every scenario names one; make test boots one of each of ${#tier_families[@]} families"
	fi
}

# expect_build_error NAME TARBALL TEXT
expect_build_error() {
	local err rc=0
	err=$(OOPSLIMIT_CACHE=$scratch_check/cache OOPSLIMIT_TARBALL=$2 \
		"$OOPSLIMIT_TOP/scripts/build-kernel.sh" limits 2>&1 >/dev/null) || rc=$?
	if [ $rc -ne 0 ] && [ "$(grep -c ': error: ' <<<"$err")" -eq 1 ] &&
		grep ': error: ' <<<"$err" | grep -qF -- "$3"; then
		result OK "build rejects $1"
	else
		note "status $rc, said: $err"
		result FAIL "build rejects $1"
	fi
	# An unpacked pristine tree is complete by then; anything else is not.
	if [ -n "$(find "$scratch_check/cache" -mindepth 1 -maxdepth 2 \( -name '*.tmp.*' -o -name 'stage.*' -o -name kernels -o -name work \) 2>/dev/null)" ]; then
		note "a half-made tree or kernel was left in $scratch_check/cache"
		result FAIL "build leaves nothing behind after rejecting $1"
	fi
	rm -rf "$scratch_check/cache"
}

# fake_tree VERSION PATCHLEVEL SUBLEVEL: a tarball with just a Makefile.
fake_tree() {
	rm -rf "$scratch_check/t"
	mkdir -p "$scratch_check/t/linux-source-x/kernel"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\n' "$1" "$2" "$3" >"$scratch_check/t/linux-source-x/Makefile"
	printf '/* not the real one */\n' >"$scratch_check/t/linux-source-x/kernel/exit.c"
	tar -cJf "$scratch_check/fake-$1.$2.$3.tar.xz" -C "$scratch_check/t" linux-source-x
	printf '%s\n' "$scratch_check/fake-$1.$2.$3.tar.xz"
}

scratch_check=$(mktemp -d)
# shellcheck disable=SC2064  # expand now
trap "rm -rf '$scratch_check'" EXIT

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	"$OOPSLIMIT_TOP/scripts/deps.sh"
	test_begin
	static_checks
	tap_end
fi
