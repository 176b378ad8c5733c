#!/bin/bash
# Builds the Debian packages (oopslimit-kdump, crash-oopslimit) with
# dpkg-buildpackage from a copy of the working tree, so the tree itself gets
# no build products, and checks them with lintian.  Prints the .deb paths,
# one a line; cached by the content of every file the build reads.
#
# With -r SUITE, as a buildd would, in a clean chroot of that Debian release
# (bookworm, trixie: a suite of scripts/debian-releases): mmdebstrap's
# "buildd" variant (essential, apt, build-essential), kept as a tarball in the
# cache, plus the Build-Depends; dpkg-buildpackage as an unprivileged user;
# that release's lintian; then the .debs installed with apt in a second clean
# chroot, dependencies from the same release, and there what runs without a
# kernel (deb-check.sh).  The chroots reach the release through the host's
# own Debian mirror; the host's apt sources are not touched.
#
# Usage: scripts/deb.sh [-o OUTDIR] [-r SUITE]   (OUTDIR: also copy the .debs there)
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=debian-suite.sh
. "$OOPSLIMIT_TOP/scripts/debian-suite.sh"

usage="usage: $prog [-o OUTDIR] [-r SUITE]"
outdir=''
suite=''
while getopts o:r: opt; do
	case $opt in
	o) outdir=$OPTARG ;;
	r) suite=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die "$usage"

cd "$OOPSLIMIT_TOP"
# What the packages are built from: debian/ and the trees its Makefiles read.
mapfile -t files < <(git ls-files -co --exclude-standard -- debian kdump recorder initramfs common crash-ext |
	while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done)
[ ${#files[@]} -gt 0 ] || die "no debian/ directory to build from"
# (key_of alone first: a file it cannot read must stop the script)
key=$(key_of "${files[@]}" "$0" "$OOPSLIMIT_TOP/scripts/deb-check.sh")

# print_debs DIR: the .debs of DIR, also copied to OUTDIR when asked
print_debs() {
	local deb
	for deb in "$1"/*.deb; do
		if [ -n "$outdir" ]; then
			mkdir -p "$outdir"
			cp "$deb" "$outdir/"
		fi
		printf '%s\n' "$deb"
	done
}

work=''
roots=()
cleanup() {
	local r
	# the chroots' mounts lived in namespaces that are gone; --one-file-system
	# all the same, so that nothing mounted is ever followed
	for r in "${roots[@]}"; do rm -rf --one-file-system "$r"; done
	[ -z "$work" ] || rm -rf "$work"
}
trap cleanup EXIT

# --- on this machine ---------------------------------------------------------------
if [ -z "$suite" ]; then
	for tool in dpkg-buildpackage dh lintian; do
		command -v "$tool" >/dev/null || die "$tool is missing: run scripts/deps.sh"
	done
	key=$( {
		printf '%s\n' "$key"
		dpkg-query -W -f '${Package} ${Version}\n' debhelper crash libkdumpfile-dev gcc 2>/dev/null
	} | sha256sum | cut -c1-16)
	out=$OOPSLIMIT_CACHE/debs/$key
	[ -e "$out/done" ] || cache_lock debs/host
	if [ ! -e "$out/done" ]; then
		work=$(mktemp -d)
		mkdir -p "$work/src"
		tar -cf - "${files[@]}" | tar -xf - -C "$work/src"
		say "building the packages (log: $work/build.log)"
		if ! (cd "$work/src" && DEB_BUILD_OPTIONS=noddebs dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
			tail -n 20 "$work/build.log" >&2
			die "dpkg-buildpackage failed"
		fi
		# lintian errors fail the build; its warnings are kept beside the .debs
		lintian --fail-on error "$work"/*.changes >"$work/lintian.txt" 2>&1 || {
			cat "$work/lintian.txt" >&2
			die "lintian found errors in the packages"
		}
		rm -rf "$out"
		mkdir -p "$out"
		mv "$work"/*.deb "$work/lintian.txt" "$out/"
		touch "$out/done"
	fi
	print_debs "$out"
	exit 0
fi

# --- in a clean chroot of SUITE ------------------------------------------------------
releases=$OOPSLIMIT_TOP/scripts/debian-releases
awk -v s="$suite" '!/^#/ && $1 == s { f = 1 } END { exit !f }' "$releases" ||
	die "no suite '$suite' in scripts/debian-releases (it has: $(awk '!/^#/ && NF { printf "%s ", $1 }' "$releases"))"
[ "$(id -u)" -eq 0 ] || die "-r needs root (mmdebstrap's root mode, chroot, mount)"
for tool in mmdebstrap unshare chroot; do
	command -v "$tool" >/dev/null || die "$tool is missing: apt-get install ${tool/unshare/util-linux}"
done
suite_chroot "$suite"
chroots=$OOPSLIMIT_CACHE/chroots
key=$(printf '%s %s %s\n' "$key" "$suite" "$(stat -c '%s %Y' "$tarball")" | sha256sum | cut -c1-16)
out=$OOPSLIMIT_CACHE/debs/$suite-$key
if [ -e "$out/done" ]; then
	sed "s/^/$prog: $suite (cached): /" "$out/summary.txt" >&2
	print_debs "$out"
	exit 0
fi

say "$suite: building in a clean chroot (log: $chroots/$suite.build.log)"
t_all=$(now_ms)
times=()
work=$(mktemp -d "$chroots/.work.XXXXXX")
build=$work/build
roots+=("$build")
mkdir -p "$build"
new_root "$build"
times+=("unpack $(since "$t_all") s")
mkdir -p "$build/build/src"
tar -cf - "${files[@]}" | tar -xf - -C "$build/build/src"
# the logs of the last run, kept when it fails
log=$chroots/$suite.build.log
clog=$chroots/$suite.check.log
: >"$log"

# step NAME SCRIPT: one step of the build, timed; the script's output goes to the log
step() {
	local t0
	t0=$(now_ms)
	printf '%s\n' "$2" >"$build/step.sh"
	printf '=== %s\n' "$1" >>"$log"
	if ! (root_run "$build" -- /bin/sh -e /step.sh) >>"$log" 2>&1; then
		tail -n 25 "$log" >&2
		die "$suite: $1 failed (log: $log)"
	fi
	times+=("$1 $(since "$t0") s")
}
step build-deps 'apt-get -q update
apt-get -q -y --no-install-recommends build-dep /build/src'
# A buildd's unprivileged user: Rules-Requires-Root: no says the build needs no root.
step dpkg-buildpackage 'chown -R 65534:65534 /build
cd /build/src
setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/build DEB_BUILD_OPTIONS=noddebs \
	dpkg-buildpackage -us -uc -b'
# The release's own lintian, installed after the build so it cannot have
# brought a missing build dependency.  Errors fail; the rest is kept.
# shellcheck disable=SC2016  # for the chroot's shell
step lintian 'apt-get -q -y --no-install-recommends install lintian
cd /build
dpkg-query -W -f "lintian \${Version}\n" lintian >lintian.version
rc=0
setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/build \
	lintian --fail-on error --display-info --pedantic ./*.changes >lintian.txt 2>&1 || rc=$?
cat lintian.txt
exit $rc'
mkdir -p "$work/debs"
cp "$build"/build/*.deb "$build/build/lintian.txt" "$work/debs/"
lintian_version=$(cat "$build/build/lintian.version")
rm -rf --one-file-system "$build"

# --- installed in a second clean chroot, and run there ------------------------------
t0=$(now_ms)
inst=$work/install
roots+=("$inst")
mkdir -p "$inst"
new_root "$inst"
mkdir -p "$inst/oopslimit"
cp "$work"/debs/*.deb "$OOPSLIMIT_TOP/scripts/deb-check.sh" "$OOPSLIMIT_TOP/tests/unit/warn-limit-dmesg.txt" "$inst/oopslimit/"
# A dump of the release's stock kernel (make test's kernel-SUITE scenario)
# and that kernel's vmlinux (scripts/debian-kernel.sh -g), when the cache has
# both: crash reads it with the packaged extension.
binds=()
dump=$OOPSLIMIT_CACHE/runs/kernel-$suite/dump.elf
vml=$(find "$OOPSLIMIT_CACHE/debian-kernels" -maxdepth 2 -path "*/$suite-*/vmlinux" 2>/dev/null | head -n 1)
if [ -s "$dump" ] && [ -n "$vml" ] && [ -e "$(dirname "$vml")/.complete" ]; then
	binds=(-f "$dump" /oopslimit/dump.elf -f "$vml" /oopslimit/vmlinux)
else
	say "$suite: no stock-kernel dump and vmlinux in the cache ($dump, debian-kernels/$suite-*/vmlinux): crash-oopslimit is checked without a dump"
fi
if ! (root_run "$inst" "${binds[@]}" -- /bin/sh -e /oopslimit/deb-check.sh) >"$clog" 2>&1; then
	tail -n 25 "$clog" >&2
	die "$suite: the installed packages failed a check (log: $clog)"
fi
times+=("install-and-check $(since "$t0") s")
# The recorder's report of the log alone, against the schema the package installed.
/usr/bin/python3 - "$inst/usr/share/oopslimit/report.schema.json" "$inst/oopslimit/log.json" <<-'EOF' >>"$clog" 2>&1 ||
	import json, sys
	import jsonschema
	schema = json.load(open(sys.argv[1]))
	doc = json.load(open(sys.argv[2]))
	jsonschema.Draft202012Validator(schema).validate(doc)
	assert doc["reason"] == "warn_limit", "reason is %r, not warn_limit" % doc["reason"]
	print("ok: the report of the log alone validates against the installed schema; reason warn_limit")
	EOF
	{
		tail -n 5 "$clog" >&2
		die "$suite: the recorder's report of the log alone is not a valid report (log: $clog)"
	}
if [ -e "$inst/oopslimit/crash.json" ]; then
	/usr/bin/python3 - "$inst/oopslimit/rec.json" "$inst/oopslimit/crash.json" <<-'EOF' >>"$clog" 2>&1 ||
		import json, sys
		rec, ext = (json.load(open(f)) for f in sys.argv[1:3])
		keys = ["reason", "setting", "oops_count", "oops_limit", "warn_count", "warn_limit",
		        "panic_on_oops", "panic_on_warn", "tainted_mask"]
		bad = ["%s: recorder %r, crash %r" % (k, rec.get(k), ext.get(k)) for k in keys if rec.get(k) != ext.get(k)]
		assert not bad, "; ".join(bad)
		print("ok: crash -x oopslimit and oopslimit-reason agree on the dump: " +
		      ", ".join("%s %s" % (k, rec[k]) for k in keys))
		EOF
		{
			tail -n 5 "$clog" >&2
			die "$suite: crash -x oopslimit and oopslimit-reason disagree on the dump (log: $clog)"
		}
fi
rm -rf --one-file-system "$inst"

sizes=''
for deb in "$work"/debs/*.deb; do
	sizes="$sizes $(basename "$deb" | cut -d_ -f1) $(stat -c %s "$deb") B,"
done
{
	printf 'suite: %s\n' "$suite"
	printf 'total: %s s (the chroot: %s)\n' "$(since "$t_all")" "$chroot_note"
	printf 'step: %s\n' "${times[@]}"
	printf 'sizes:%s\n' "${sizes%,}"
	printf '%s: %s\n' "$lintian_version" "$(grep -c . "$work/debs/lintian.txt" || true) lines (E: $(grep -c '^E:' "$work/debs/lintian.txt" || true), W: $(grep -c '^W:' "$work/debs/lintian.txt" || true))"
	grep '^ok:' "$clog"
} >"$work/debs/summary.txt"
cp "$log" "$clog" "$work/debs/"
sed "s/^/$prog: $suite: /" "$work/debs/summary.txt" >&2
rm -rf "$out"
mv "$work/debs" "$out"
touch "$out/done"
print_debs "$out"
