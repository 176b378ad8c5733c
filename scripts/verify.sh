#!/bin/bash
# Verifies that kdump works on a kernel and records the right reason: checks
# its config for what the scenarios need, then boots it in QEMU through the
# kdump scenarios (tests/scenarios/kdump-*.scn, baseline ones left out),
# each captured by the dracut-built capture initramfs and its verdict
# checked in reason.json and by crash with the oopslimit extension.
#
# Usage: scripts/verify.sh -k BZIMAGE -v VMLINUX -c CONFIG [-j JUNIT.xml]
#                          [SCENARIO...]
#   SCENARIO   a name in tests/scenarios/ or a path to a .scn file
#              (default: every kdump scenario the config supports)
#   -j         also write the results as JUnit XML to JUNIT.xml
# TAP on stdout, ending with "N passed, N failed"; exit status 0 only when
# every scenario passed, 1 when one failed or the input is unusable.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scenario.sh
. "$OOPSLIMIT_TOP/scripts/scenario.sh"

bz='' vmlinux='' config='' junit=''
while getopts k:v:c:j:h opt; do
	case $opt in
	k) bz=$OPTARG ;;
	v) vmlinux=$OPTARG ;;
	c) config=$OPTARG ;;
	j) junit=$OPTARG ;;
	*) sed -n '/^# Usage:/,/^# every scenario/s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ -z "$bz" ] || [ -z "$vmlinux" ] || [ -z "$config" ]; then
	die "-k BZIMAGE, -v VMLINUX and -c CONFIG are required"
fi
[ -r "$bz" ] || die "cannot read the kernel image $bz"
[ -r "$vmlinux" ] || die "cannot read the vmlinux $vmlinux (crash and the checks need the one built with $bz)"
[ -r "$config" ] || die "cannot read the kernel config $config"

# --- the config ----------------------------------------------------------------------
# Options every kdump scenario needs, built in (the test guest loads no
# modules), with what each is for.
required=(
	"KEXEC_FILE loading the capture kernel (kexec -s)"
	"CRASH_DUMP booting as a capture kernel"
	"PROC_VMCORE /proc/vmcore in the capture kernel"
	"RELOCATABLE running from the reserved memory"
	"BLK_DEV_INITRD the initramfs images"
	"RD_GZIP the gzip'd initramfs images"
	"DEVTMPFS /dev in the initramfs images"
	"TMPFS makedumpfile's /tmp"
	"BINFMT_SCRIPT the init scripts"
	"PROC_SYSCTL the panic policy sysctls"
	"FUTEX glibc programs (makedumpfile, kexec)"
	"SERIAL_8250_CONSOLE the serial console"
	"VIRTIO_PCI the 9p share"
	"NET_9P_VIRTIO the 9p share"
	"9P_FS the 9p share the guest and the dumps use"
	"DEBUG_FS LKDTM's trigger file"
	"LKDTM provoking WARNs and oopses"
	"MAGIC_SYSRQ sysrq-c and the capture kernel's reboot"
	"KALLSYMS crash and the kallsyms step"
	"SLUB crash 8.0.2 (it cannot read SLOB kernels)"
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
missing=0
for r in "${required[@]}"; do
	opt=${r%% *}
	if ! has_option "$opt"; then
		if grep -qx "CONFIG_$opt=m" "$config"; then
			say "CONFIG_$opt=m must be built in (=y) for ${r#* }"
		else
			say "CONFIG_$opt is not set; needed for ${r#* }"
		fi
		missing=$((missing + 1))
	fi
done
[ $missing -eq 0 ] || die "$config lacks $missing option(s) the scenarios need (listed above)"
grep -aq 'system warned too often' "$vmlinux" ||
	die "$vmlinux has no warn_limit (the oops/warn limit series); nothing to verify"
readelf -S "$vmlinux" 2>/dev/null | grep -q '\.debug_info' ||
	die "$vmlinux has no debug info; crash needs it (CONFIG_DEBUG_INFO_DWARF4)"
# the vmlinux must be the bzImage's: compare their version strings
want=$(file -b "$bz" | sed -n 's/.*version \([^ ]*\) .*/\1/p')
release=$(strings -a "$vmlinux" | sed -n 's/^Linux version \([^ ]*\) .*/\1/p' | head -n 1)
[ -n "$release" ] || die "$vmlinux has no Linux version string"
[ -z "$want" ] || [ "$want" = "$release" ] || die "$bz is $want but $vmlinux is $release"

# --- the scenarios ---------------------------------------------------------------------
scen_dir=$OOPSLIMIT_TOP/tests/scenarios
scenarios=()
if [ $# -gt 0 ]; then
	for s in "$@"; do
		case $s in */*) f=$s ;; *) f=$scen_dir/$s.scn ;; esac
		[ -r "$f" ] || die "no scenario $s ($f)"
		scenarios+=("$f")
	done
else
	for f in "$scen_dir"/kdump-*.scn; do
		grep -q '^kernel[[:space:]]*baseline' "$f" && continue
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
for s in "${scenarios[@]}"; do
	scenario_validate "$s"
	grep -q '^kernel[[:space:]]*baseline' "$s" && die "$s needs the project's baseline kernel; verify runs the kernel given"
done

# The kernel given plays the "limits" kernel of the scenarios.
kdir=$OOPSLIMIT_CACHE/verify/$(key_of "$bz" "$vmlinux")
if [ ! -e "$kdir/kernelrelease" ]; then
	rm -rf "$kdir"
	mkdir -p "$kdir.tmp"
	cp "$bz" "$kdir.tmp/bzImage"
	ln -s "$(realpath "$vmlinux")" "$kdir.tmp/vmlinux"
	nm -n "$vmlinux" >"$kdir.tmp/System.map"
	printf '%s\n' "$release" >"$kdir.tmp/kernelrelease"
	mv "$kdir.tmp" "$kdir"
fi
limits_dir=$kdir
baseline_dir=''
scenario_setup >&2
note "verifying $release ($bz) with ${#scenarios[@]} scenarios"

for s in "${scenarios[@]}"; do
	run_scenario "$s"
done
[ -z "$junit" ] || junit_write "$junit" "oopslimit verify $release"
tap_end
