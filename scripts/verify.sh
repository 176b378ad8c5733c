#!/bin/bash
# Verifies that kdump works on a kernel and records the right reason: checks
# its config for what a capture (and the test guest) needs, then boots it in
# QEMU through the kdump scenarios, each captured by the dracut-built capture
# initramfs and its verdict checked in reason.json and by crash with the
# oopslimit extension.  Two kinds of kernel:
#
# - one with every driver it needs built in, like the project's (-k -v -c):
#   it boots in the project's busybox guest (9p, LKDTM) through
#   tests/scenarios/kdump-*.scn (the baseline ones left out);
# - a distribution's modular kernel, as its Debian packages (-d): it is
#   installed in the Debian guest of the release it belongs to (Debian 12,
#   13, unstable: scripts/debian-releases; systemd, the oopslimit-kdump package,
#   root and dump target on a virtio-blk disk, tests/module built against
#   its headers with that release's compiler, instead of LKDTM) and boots
#   there through the tests/scenarios/debian*.scn that hold on that release;
#   crash reads the captures with the vmlinux
#   of its -dbg package.
#
# Usage: scripts/verify.sh -k BZIMAGE -v VMLINUX -c CONFIG [-j JUNIT.xml]
#                          [SCENARIO...]
#        scripts/verify.sh -d DIR [-j JUNIT.xml] [SCENARIO...]
#   -k -v -c   the kernel image, its vmlinux with debug info, its .config
#   -d DIR     a directory of the kernel's .debs (linux-image-RELEASE, its
#              -dbg, linux-headers-RELEASE and the headers packages that one
#              depends on), or one scripts/stock-kernel.sh printed
#   SCENARIO   a name in tests/scenarios/ or a path to a .scn file
#              (default: every scenario of that guest the kernel supports)
#   -j         also write the results as JUnit XML to JUNIT.xml
# TAP on stdout, ending with "N passed, N failed"; exit status 0 only when
# every scenario passed, 1 when one failed or the input is unusable.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scenario.sh
. "$OOPSLIMIT_TOP/scripts/scenario.sh"

usage() {
	sed -n '/^# Usage:/,/^# every scenario/s/^# \{0,1\}//p' "$0" >&2
	exit 2
}
bz='' vmlinux='' config='' junit='' debdir=''
while getopts k:v:c:d:j:h opt; do
	case $opt in
	k) bz=$OPTARG ;;
	v) vmlinux=$OPTARG ;;
	c) config=$OPTARG ;;
	d) debdir=$OPTARG ;;
	j) junit=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
debian_release=''
if [ -n "$debdir" ]; then
	guest=debian
	[ -z "$bz$vmlinux$config" ] || die "-d DIR brings the kernel, its vmlinux and its config: not with -k, -v or -c"
	[ -d "$debdir" ] || die "no directory $debdir"
	if [ -e "$debdir/kernelrelease" ]; then
		stock=$(cd "$debdir" && pwd -P)
	else
		# (stock-kernel.sh says what is wrong, in one line)
		stock=$("$OOPSLIMIT_TOP/scripts/stock-kernel.sh" -g -d "$debdir") || exit 1
	fi
	for f in kernelrelease suite vmlinuz vmlinux config headers/Makefile; do
		[ -r "$stock/$f" ] || die "$stock is not a stock-kernel.sh directory: no $f"
	done
	# the Debian release the kernel belongs to, whose guest it boots in
	debian_release=$(cat "$stock/suite")
	bz=$stock/vmlinuz vmlinux=$stock/vmlinux config=$stock/config
else
	guest=busybox
	if [ -z "$bz" ] || [ -z "$vmlinux" ] || [ -z "$config" ]; then
		die "-k BZIMAGE, -v VMLINUX and -c CONFIG are required (or -d DIR for a packaged kernel)"
	fi
	[ -r "$bz" ] || die "cannot read the kernel image $bz"
	[ -r "$vmlinux" ] || die "cannot read the vmlinux $vmlinux (crash and the checks need the one built with $bz)"
	[ -r "$config" ] || die "cannot read the kernel config $config"
fi

# --- the config ----------------------------------------------------------------------
# What the kernel needs, one option a line: OPTION[|OPTION...] GUESTS WHAT
# (the first option, or any of the others instead).  GUESTS is "all",
# "busybox" or "debian": the guests whose runs need it.  Built in (=y),
# except where GUESTS says "debian:m": in the Debian guest a module does as
# well, since its initrd and the capture initramfs carry the modules their
# disk needs (the busybox guest loads no modules).  The first lines are
# what any capture needs: without them no dump is saved, or no reason
# recorded; the rest is what the test guests need to run the scenarios.
options=(
	"CRASH_DUMP all booting as the capture kernel"
	"KEXEC_FILE|KEXEC all loading the capture kernel"
	"PROC_VMCORE all /proc/vmcore, the dump the capture saves"
	"RELOCATABLE all running the capture kernel from the reserved memory"
	"BLK_DEV_INITRD all the capture initramfs"
	"RD_GZIP all unpacking the capture initramfs (gzip)"
	"DEVTMPFS all the capture initramfs's device nodes (it starts no udev)"
	"BINFMT_SCRIPT all the capture initramfs's /init, a shell script"
	"MAGIC_SYSRQ all the capture kernel's reboot once the dump is saved"
	"PROC_SYSCTL all the panic policy (kernel.warn_limit and the others)"
	"KALLSYMS all the recorder and crash finding the counters in the dump"
	"SLUB all crash 8.0.2 reading the dump (it cannot read SLOB kernels)"
	"SERIAL_8250_CONSOLE all the serial console the tests read the panic from"
	"TMPFS busybox makedumpfile's /tmp"
	"FUTEX busybox glibc programs (makedumpfile, kexec)"
	"VIRTIO_PCI busybox the 9p share"
	"NET_9P_VIRTIO busybox the 9p share"
	"9P_FS busybox the 9p share the guest and the dumps use"
	"DEBUG_FS busybox LKDTM's trigger file"
	"LKDTM busybox provoking WARNs and oopses"
	"MODULES debian the test module that provokes WARNs and oopses"
	"VIRTIO_PCI debian:m the virtio-blk disk (root file system and dump target)"
	"VIRTIO_BLK debian:m the virtio-blk disk (root file system and dump target)"
	"EXT4_FS debian:m the root file system, where the dumps go"
	"FW_CFG_SYSFS debian:m the test plan, passed in through QEMU's fw_cfg"
)
# Options single scenarios need; without them the scenario is left out.
optional=(
	"kdump-ubsan-warn-limit UBSAN_BOUNDS"
	"kdump-target-full VIRTIO_BLK"
	"kdump-target-full EXT4_FS"
)
has_option() {
	grep -qx "CONFIG_$1=y" "$config"
}
problems=()
for o in "${options[@]}"; do
	read -r names guests what <<<"$o"
	case $guests in all | "$guest" | "$guest:m") ;; *) continue ;; esac
	ok='' module=''
	for n in ${names//|/ }; do
		has_option "$n" && ok=$n
		[ "$guests" = debian:m ] && grep -qx "CONFIG_$n=m" "$config" && ok=$n
		grep -qx "CONFIG_$n=m" "$config" && module=$n
	done
	[ -z "$ok" ] || continue
	first=${names%%|*} alt=''
	rest=${names#"$first"} rest=${rest#|}
	[ -z "$rest" ] || alt=" (CONFIG_${rest//|/ or CONFIG_} would do too)"
	if [ -n "$module" ]; then
		problems+=("CONFIG_$module=m must be built in (=y) for $what")
	else
		problems+=("CONFIG_$first is not set; needed for $what$alt")
	fi
done
case ${#problems[@]} in
0) ;;
1) die "${problems[0]} ($config)" ;;
*)
	for p in "${problems[@]}"; do say "$p"; done
	die "$config lacks ${#problems[@]} option(s) the capture or the scenarios need (listed above)" ;;
esac
grep -aq 'system warned too often' "$vmlinux" ||
	die "$vmlinux has no warn_limit (the oops/warn limit series); nothing to verify"
readelf -S "$vmlinux" 2>/dev/null | grep -q '\.debug_info' ||
	die "$vmlinux has no debug info; crash needs it (CONFIG_DEBUG_INFO_DWARF4)"
# the vmlinux must be the kernel image's: compare their version strings
want=$(file -bL "$bz" | sed -n 's/.*version \([^ ]*\) .*/\1/p')
release=$(grep -a -o -m1 'Linux version [^ %]* (' "$vmlinux" | head -n 1 | cut -d' ' -f3)
[ -n "$release" ] || die "$vmlinux has no Linux version string"
[ -z "$want" ] || [ "$want" = "$release" ] || die "$bz is $want but $vmlinux is $release"
if [ $guest = debian ] && [ "$(cat "$stock/kernelrelease")" != "$release" ]; then
	die "$stock is for $(cat "$stock/kernelrelease") but its vmlinux is $release"
fi

# --- the scenarios ---------------------------------------------------------------------
scen_dir=$OOPSLIMIT_TOP/tests/scenarios
scenarios=()
guest_of() {
	sed -n 's/^guest[[:space:]]\{1,\}//p' "$1" | tail -n 1 | grep . || echo busybox
}
if [ $# -gt 0 ]; then
	for s in "$@"; do
		case $s in */*) f=$s ;; *) f=$scen_dir/$s.scn ;; esac
		[ -r "$f" ] || die "no scenario $s ($f)"
		scenarios+=("$f")
	done
elif [ $guest = debian ]; then
	# Those that hold on the kernel's release (their expectations name the
	# kernel's release as {release}: any kernel of it will do).
	for f in "$scen_dir"/debian*.scn; do
		[ "$(guest_of "$f")" = debian ] || continue
		[[ " $(releases_of "$f") " == *" $debian_release "* ]] || continue
		scenarios+=("$f")
	done
else
	for f in "$scen_dir"/kdump-*.scn; do
		grep -q '^kernel[[:space:]]*baseline' "$f" && continue
		[ "$(guest_of "$f")" = busybox ] || continue
		skip=''
		for o in "${optional[@]}"; do
			[ "${o%% *}" = "$(basename "$f" .scn)" ] && ! has_option "${o#* }" && skip=${o#* }
		done
		if [ -n "$skip" ]; then
			say "leaving out $(basename "$f" .scn): CONFIG_$skip is not set"
			continue
		fi
		scenarios+=("$f")
	done
fi
[ ${#scenarios[@]} -gt 0 ] || die "no scenario to run"
for s in "${scenarios[@]}"; do
	scenario_validate "$s"
	grep -q '^kernel[[:space:]]*baseline' "$s" && die "$s needs the project's baseline kernel; verify runs the kernel given"
	[ "$(guest_of "$s")" = $guest ] || case $guest in
	debian) die "$s runs in the busybox guest: verify a kernel there with -k, -v and -c" ;;
	*) die "$s runs in the Debian guest: verify a packaged kernel there with -d" ;;
	esac
	[ $guest != debian ] || [[ " $(releases_of "$s") " == *" $debian_release "* ]] ||
		die "$s holds on $(releases_of "$s"), not on $debian_release, the release of $release"
done

# The kernel given plays the "limits" kernel of the scenarios.  Its
# directory is keyed by content, and links to the vmlinux given: made again
# when that link no longer leads to it (the same kernel from another place,
# the old place gone).
kdir=$OOPSLIMIT_CACHE/verify/$(key_of "$bz" "$vmlinux")
if [ ! -e "$kdir/kernelrelease" ] || [ ! "$kdir/vmlinux" -ef "$vmlinux" ]; then
	rm -rf "$kdir"
	mkdir -p "${kdir%/*}"
	knew=$(mktemp -d "$kdir.tmp.XXXXXX") || die "cannot make a directory beside $kdir"
	chmod 755 "$knew"
	cp "$bz" "$knew/bzImage"
	ln -s "$(realpath "$vmlinux")" "$knew/vmlinux"
	nm -n "$vmlinux" >"$knew/System.map"
	printf '%s\n' "$release" >"$knew/kernelrelease"
	mv -T "$knew" "$kdir"
fi
limits_dir=$kdir
# its runs apart from make test's: runs/verify-RELEASE/SCENARIO
# shellcheck disable=SC2034  # read by scenario.sh
scenario_runs=$OOPSLIMIT_CACHE/runs/verify-$release
if [ $guest = debian ]; then
	# The Debian guest's image, with this kernel installed from its package
	# (scripts/debian-image.sh); the scenarios' "kernel stock" is the
	# image's stock/ directory, this one.
	"$OOPSLIMIT_TOP/scripts/deps.sh"
	export OOPSLIMIT_STOCK_KERNEL=$stock
	debian_image=$("$OOPSLIMIT_TOP/scripts/debian-image.sh" "$debian_release") || exit 1
	debian_images[$debian_release]=$debian_image
	[ "$(cat "$debian_image/kernelrelease")" = "$release" ] ||
		die "the Debian guest image $debian_image runs $(cat "$debian_image/kernelrelease"), not $release"
	# This kernel cannot answer the KVM probe scenario_setup boots with the
	# busybox guest: take what the Debian runs take (debian-guest.sh), the
	# answer remembered for this host boot or TCG, and probe nothing.
	OOPSLIMIT_ACCEL=$(known_accel)
	export OOPSLIMIT_ACCEL
fi
baseline_dir=''
scenario_setup >&2
# (a comment of the run, not a note of its first test)
printf '# verifying %s (%s) with %d scenarios in the %s guest\n' "$release" "${debdir:-$bz}" ${#scenarios[@]} $guest
if [ $guest = debian ]; then
	# A kernel/makedumpfile pair known to get pages wrong (kdump/makedumpfile-pairs),
	# for this kernel and the guest's makedumpfile, as installed in its image:
	# one line each, with its fix, as "oopslimit-kdump check" says it there.
	md_version=$(debugfs -R 'cat /var/lib/dpkg/status' "$debian_image/disk.img" 2>/dev/null |
		awk '/^Package: / { p = $2 } p == "makedumpfile" && /^Version: / { print $2; exit }' |
		sed 's/^[0-9]*://; s/-[^-]*$//')
	# shellcheck source=../kdump/oopslimit-makedumpfile.sh
	. "$OOPSLIMIT_TOP/kdump/oopslimit-makedumpfile.sh"
	ol_md_guard "$OOPSLIMIT_TOP/kdump/makedumpfile-pairs" "$release" "$md_version" -d,31
	if [ -z "$md_version" ]; then
		printf '# the guest'"'"'s makedumpfile: its version cannot be read from %s\n' "$debian_image/disk.img"
	elif [ -n "$ol_md_lines" ]; then
		printf '%s\n' "$ol_md_lines" | sed 's/^/# warning: /'
	else
		printf '# the guest'"'"'s makedumpfile %s: no pair of kdump/makedumpfile-pairs holds for %s\n' "$md_version" "$release"
	fi
fi

# (OOPSLIMIT_JOBS at a time, a core each by default)
run_scenarios "${scenarios[@]}"
[ -z "$junit" ] || junit_write "$junit" "oopslimit verify $release"
tap_end
