# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the harness's shared variables: set by scenario.sh and its callers
# scenario-guest.sh: the scenario harness's guests (scripts/scenario.sh
# sources it): what the runs need built (scenario_setup), then one run's
# boot: its dump directories, the dump server guest beside it, the Debian
# or busybox guest in QEMU, and the checks of what the boot and the capture
# left.  It defines functions and runs nothing.

# --- setup --------------------------------------------------------------------------
# scenario_setup: the kernels, the guest and capture initramfs images, the host
# build of the recorder and of the crash extension.  A caller that brings its
# own kernel sets limits_dir (and baseline_dir, or leaves it empty) first;
# OOPSLIMIT_VARIANTS=limits builds only the limits kernel.
scenario_setup() {
	"$OOPSLIMIT_TOP/scripts/deps.sh"
	if [ -z "${limits_dir:-}" ]; then
		local kernels variants
		read -r -a variants <<<"${OOPSLIMIT_VARIANTS:-limits baseline}"
		kernels=$("$OOPSLIMIT_TOP/scripts/build-kernel.sh" "${variants[@]}") || die "building the kernels failed"
		limits_dir=$(sed -n 1p <<<"$kernels")
		baseline_dir=$(sed -n 2p <<<"$kernels")
	fi
	initrd=$("$OOPSLIMIT_TOP/scripts/guest-initramfs.sh")
	# Whether KVM works takes a boot to find out: ask while dracut builds.
	local probe_dir probe
	probe_dir=$(mktemp -d)
	"$OOPSLIMIT_TOP/scripts/qemu-run.sh" -P -k "$limits_dir/bzImage" -i "$initrd" -d "$probe_dir" >/dev/null &
	probe=$!
	capture_initrd=$("$OOPSLIMIT_TOP/scripts/capture-initramfs.sh" "$(cat "$limits_dir/kernelrelease")")
	wait "$probe" || die "the KVM probe failed"
	rm -rf "$probe_dir"
	scratch=$(mktemp -d)
	# shellcheck disable=SC2064  # expand now: $scratch is set
	trap "rm -rf '$scratch'" EXIT
	make -s -C "$OOPSLIMIT_TOP/kdump" O="$scratch" >/dev/null || die "building the recorder (recorder/) failed"
	reason_bin=$scratch/oopslimit-reason
	mkdir -p "$scratch/ext"
	make -s -C "$OOPSLIMIT_TOP/crash-ext" >/dev/null || die "building the crash extension failed"
	cp "$OOPSLIMIT_TOP/crash-ext/oopslimit.so" "$scratch/ext/"
	crash_ext=$scratch/ext
}

# --- the boot ---------------------------------------------------------------------
# A run directory's stamp: what made it.  A dump whose stamp differs is stale.
run_stamp() { # run_stamp SCENARIO-FILE KERNEL-DIR
	{
		cat "$1" "$OOPSLIMIT_TOP/scripts/qemu-run.sh"
		printf '%s\n' "$2" "$(initrd_of "$1")" "$capture_initrd"
		module_of "$1"
	} | sha256sum | cut -c1-16
}

# The dump target's directory of a kdump run, on this machine.  A 9p target
# is the run directory itself; an ext4 disk is copied out with debugfs first.
dump_root() {
	local dir=$1 root path
	path=$(cat "$dir/kdump-path" 2>/dev/null || echo /dumps)
	if [ -e "$dir/debian" ]; then
		# debian_guest_run copied /var/crash out of the guest's disk
		root=$dir/dumps
	elif [ -e "$dir/disk.img" ]; then
		rm -rf "$dir/disk"
		mkdir -p "$dir/disk"
		debugfs -R "rdump $path $dir/disk" "$dir/disk.img" >/dev/null 2>&1 || true
		root=$dir/disk/${path##*/}
	else
		root=$dir$path
	fi
	printf '%s\n' "$root"
}

# The dump directories a kdump run left, one a line: not lost+found (a dump
# disk made by mkfs.ext4 holds one at its top), not those the guest's
# "stamps" step made before the capture (marked .premade).  dump_dirs_in
# takes the target's directory dump_root gave.
dump_dirs() {
	dump_dirs_in "$(dump_root "$1")"
}
dump_dirs_in() {
	local d
	find "$1" -mindepth 1 -maxdepth 1 -type d ! -name lost+found 2>/dev/null | sort |
		while IFS= read -r d; do [ -e "$d/.premade" ] || printf '%s\n' "$d"; done
}

# premade_touched ROOT: the directories under ROOT (dump_root's) that the
# "stamps" step made and that hold anything more than their mark: a capture
# that wrote into a stamp already there.
premade_touched() {
	local m
	for m in "$1"/*/.premade; do
		[ -e "$m" ] || continue
		[ "$(find "${m%/.premade}" -mindepth 1 | wc -l)" -eq 1 ] || printf '%s\n' "${m%/.premade}"
	done
}

# The dump server's plan for a "server" line: serve, then wait for a dump.
server_plan() {
	case $1 in
	ssh) printf '%s\n' "serve ssh" "await served /var/crash $2" ;;
	ssh-stall) printf '%s\n' "serve ssh" "stall stalled /var/crash $2" ;;
	nfs) printf '%s\n' "serve nfs /var/crash" "await served /var/crash $2" ;;
	esac
	# up for "last" after this guest's reboot, until it says it is done
	echo "idle $2"
}

# server_start DIR KIND: the dump server guest in the background (sets
# server_pid) and this guest's side of the wire (debian_net, debian_fw).
server_start() {
	local dir=$1 kind=$2
	rm -rf "$dir/server" "$dir/admin" "$dir/admin.pub"
	mkdir -p "$dir/server"
	ssh-keygen -q -t ed25519 -N '' -C oopslimit-test-admin -f "$dir/admin" </dev/null ||
		die "ssh-keygen could not make the test's key"
	debian_net="$dir/wire.sock $dir/server/wire.sock 52:54:00:0c:00:02 192.0.2.2/24"
	debian_fw=("adminkey=$dir/admin")
	server_pid=''
	[ "$kind" != none ] || return 0
	echo 192.0.2.1 >"$dir/server.addr"
	debian_fw+=("server=$dir/server.addr")
	server_plan "$kind" "$debian_timeout" >"$dir/server.plan"
	(
		# shellcheck disable=SC2034  # debian_guest_run's settings
		debian_disks=() debian_append='' debian_crashkernel='' debian_timeout=$((debian_timeout + 120))
		debian_net="$dir/server/wire.sock $dir/wire.sock 52:54:00:0c:00:01 192.0.2.1/24"
		debian_fw=("authorized_keys=$dir/admin.pub")
		debian_guest_run "$dir/server" "$dir/server.plan"
	) >"$dir/server.log" 2>&1 &
	server_pid=$!
}

# server_end DIR: waits for the dump server to power off (this guest told it
# it was done; stopped if it is still up 2 minutes later) and takes its dump
# directories, its records and its errors as this guest's.
server_end() {
	local dir=$1 i=0
	[ -n "${server_pid:-}" ] || return 0
	while kill -0 "$server_pid" 2>/dev/null && [ $i -lt 120 ]; do
		sleep 1
		i=$((i + 1))
	done
	if kill -0 "$server_pid" 2>/dev/null; then
		note "$name: the dump server did not power off within 2 minutes: stopped"
		pkill -TERM -P "$server_pid" 2>/dev/null
	fi
	wait "$server_pid" 2>/dev/null || true
	note "$name: the dump server: $(grep -E '^(record (serve|served)|error)' "$dir/server/results" 2>/dev/null | tr '\n' ';')"
	# its errors are the run's, its records "server.NAME"
	sed -n 's/^error /error the dump server: /p; s/^record /record server./p' "$dir/server/results" >>"$dir/results" 2>/dev/null
	if [ -d "$dir/server/dumps" ]; then
		mkdir -p "$dir/dumps"
		cp -a "$dir/server/dumps/." "$dir/dumps/"
	fi
}

# boot_debian FILE DIR: the Debian guest, as the scenario says; sets rc.
boot_debian() {
	local f=$1 dir=$2 key rest t0 arg server='' server_pid=''
	local debian_crashkernel='' debian_append='' debian_mem=1G debian_timeout=900 debian_disks=()
	local debian_net='' debian_fw=()
	: >"$dir/steps"
	: >"$dir/kdump.add"
	while read -r key rest; do
		case $key in
		append)
			for arg in $rest; do
				case $arg in
				crashkernel=*) debian_crashkernel=${arg#crashkernel=} ;;
				*) debian_append="$debian_append $arg" ;;
				esac
			done ;;
		timeout) debian_timeout=$rest ;;
		memory) debian_mem=$rest ;;
		disk) debian_disks+=("$rest") ;;
		server) server=$rest ;;
		step) printf '%s\n' "$rest" >>"$dir/steps" ;;
		kdump) printf '%s\n' "$rest" >>"$dir/kdump.add" ;;
		esac
	done <"$f"
	debian_append=${debian_append# }
	local debian_image=${debian_images[$(release_of "$f")]}
	: >"$dir/debian"
	t0=$(now_ms)
	[ -z "$server" ] || server_start "$dir" "$server"
	rc=0
	debian_guest_run "$dir" "$dir/steps" "$dir/kdump.add" || rc=$?
	note "$name: QEMU ran $(since "$t0") s (the Debian guest, every boot), status $rc; console: $dir/console.log"
	server_end "$dir"
}

# boot_scenario FILE DIR: boots the guest as the scenario says; sets rc.
boot_scenario() {
	local f=$1 dir=$2 key rest append='' limit=120 mem=512M disk='' dump='' kdump=() t0
	if grep -q '^guest[[:space:]]\{1,\}debian' "$f"; then
		boot_debian "$f" "$dir"
		return
	fi
	while read -r key rest; do
		case $key in
		append) append="$append $rest" ;;
		timeout) limit=$rest ;;
		dump) dump=$dir/dump.elf ;;
		step) printf '%s\n' "$rest" >>"$dir/plan" ;;
		memory) mem=$rest ;;
		disk) disk=$rest ;;
		kdump) kdump+=("$rest") ;;
		esac
	done <"$f"
	if [ -n "$disk" ]; then
		truncate -s "$disk" "$dir/disk.img"
		mkfs.ext4 -q -F -L crash "$dir/disk.img" || die "mkfs.ext4 failed for $dir/disk.img"
	fi
	if [ ${#kdump[@]} -gt 0 ] || grep -q "^kdump " "$dir/plan"; then
		mkdir -p "$dir/boot"
		cp "$kernel_dir/bzImage" "$dir/boot/bzImage"
		cp "$capture_initrd" "$dir/boot/capture.img"
		{
			cat "$OOPSLIMIT_TOP/kdump/kdump.conf"
			printf '%s\n' "# the test harness" "kernel /host/boot/bzImage" "initrd /host/boot/capture.img" \
				"path /dumps" "mount_wait 5"
			# the run directory over 9p, unless the scenario names a target
			printf '%s\n' "${kdump[@]}" | grep -q '^target ' ||
				printf '%s\n' "target 9p:host" "mount_options trans=virtio,version=9p2000.L"
			printf '%s\n' "# the scenario" "${kdump[@]}"
		} >"$dir/kdump.conf"
		ol_conf_get "$dir/kdump.conf" path >"$dir/kdump-path"
	fi
	# a modular kernel's modules, as a second initramfs part, and another
	# machine's test module (for its trigger steps) as a third
	local guest_initrd arch module machine_args
	arch=$(arch_of "$f")
	guest_initrd=$(initrd_of "$f")
	module=$(module_of "$f")
	if [ -e "$kernel_dir/guest-modules.cpio.gz" ] || [ -n "$module" ]; then
		cat "$guest_initrd" >"$dir/initrd.img"
		[ ! -e "$kernel_dir/guest-modules.cpio.gz" ] || cat "$kernel_dir/guest-modules.cpio.gz" >>"$dir/initrd.img"
		if [ -n "$module" ]; then
			mkdir -p "$dir/extra/lib/oopslimit/extra"
			cp "$module" "$dir/extra/lib/oopslimit/extra/"
			(cd "$dir/extra" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -n) >>"$dir/initrd.img"
			rm -rf "$dir/extra"
		fi
		guest_initrd=$dir/initrd.img
	fi
	t0=$(now_ms)
	# the machine's command line (scripts/arches: x86_64's fw_cfg port, for
	# the VMCOREINFO note in QEMU's dumps, and no_timer_check); the
	# capture kernel inherits it
	machine_args=$(arch_field "$arch" append | tr , ' ')
	[ "$machine_args" != - ] || machine_args=''
	"$OOPSLIMIT_TOP/scripts/qemu-run.sh" -A "$arch" -k "$kernel_dir/bzImage" -i "$guest_initrd" -d "$dir" \
		-a "$machine_args$append" -t "$limit" -m "$mem" ${dump:+-D "$dump"} \
		${disk:+-b "$dir/disk.img"} &
	# a caller may follow the run as it goes (scripts/main.sh does)
	if declare -F scenario_watch >/dev/null; then
		scenario_watch "$dir" $!
	fi
	rc=0
	wait $! || rc=$?
	note "$name: QEMU ran $(since "$t0") s, status $rc; console: $dir/console.log"
}

# check_boot FILE DIR: the expectations on the guest's results and console.
check_boot() {
	local f=$1 dir=$2 bad=0 key what arg1 argrest line panic_line n release
	release=$(cat "$kernel_dir/kernelrelease" 2>/dev/null || true)
	if ! grep -q '^booted ' "$dir/results" 2>/dev/null; then
		flag "$name: the guest never reported (no 'booted' line in $dir/results)"
		bad=1
	fi
	sed -n 's/^trigger /trigger: /p; s/^error /guest error: /p' "$dir/results" 2>/dev/null | sed "s/^/# $name: /"
	grep -q '^error ' "$dir/results" 2>/dev/null && bad=1
	[ "$rc" -eq 0 ] || bad=1
	panic_line=$(grep -a -m1 -o 'Kernel panic - not syncing: .*' "$dir/console.log" | tr -d '\r' || true)
	want_dumps=$(sed -n 's/^expect[[:space:]]\{1,\}dumps[[:space:]]\{1,\}\([0-9]*\)$/\1/p' "$f")
	while read -r key what arg1 argrest; do
		[ "$key" = expect ] || continue
		arg1=${arg1//\{release\}/$release} argrest=${argrest//\{release\}/$release}
		case $what in
		record)
			line="record $arg1 $argrest"
			grep -qxF "$line" "$dir/results" 2>/dev/null ||
				{ flag "$name: expected '$line', guest said: $(grep "^record $arg1 " "$dir/results" 2>/dev/null | tr '\n' ';')"; bad=1; } ;;
		line)
			line="$arg1${argrest:+ $argrest}"
			grep -qF -- "$line" "$dir/results" 2>/dev/null ||
				{ flag "$name: no line of the results contains '$line'"; bad=1; } ;;
		panic)
			line="Kernel panic - not syncing: $arg1${argrest:+ $argrest}"
			[ "$panic_line" = "$line" ] ||
				{ flag "$name: expected '$line', got '${panic_line:-no panic}'"; bad=1; } ;;
		survived)
			{ grep -qx finished "$dir/results" 2>/dev/null && [ -z "$panic_line" ]; } ||
				{ flag "$name: expected to survive; panic: '${panic_line:-none}'"; bad=1; } ;;
		count)
			n=$(grep -acF -- "$argrest" "$dir/console.log" || true)
			[ "$n" -eq "$arg1" ] ||
				{ flag "$name: expected $arg1 console lines with '$argrest', saw $n"; bad=1; } ;;
		capture)
			check_capture "$dir" "$arg1" || bad=1 ;;
		esac
	done <"$f"
	check_kdump_steps "$f" "$dir" || bad=1
	[ -z "$panic_line" ] || note "$name: $panic_line"
	return $bad
}

# kdump steps: each as its "expect kdump" line says, or successful.
check_kdump_steps() {
	local f=$1 dir=$2 got want rc_text st bad=0
	while IFS= read -r got; do
		want=$(sed -n "s/^expect[[:space:]]\{1,\}kdump \(.*\)/\1/p" "$f" | while IFS= read -r w; do
			[ "${got%% => *}" = "${w%% => *}" ] && printf '%s\n' "$w"
		done | head -n 1)
		if [ -z "$want" ]; then
			[[ ${got#* => } == 0\ * ]] || { flag "$name: kdump ${got}"; bad=1; }
			continue
		fi
		rc_text=${want#* => } st=${want#* => }
		st=${st%% *}
		[ "$rc_text" = "$st" ] && rc_text='' || rc_text=${rc_text#* }
		if [[ ${got#* => } == "$st "* ]] && [[ ${got#* => } == *"$rc_text"* ]]; then
			note "$name: kdump ${got}"
		else
			flag "$name: expected 'kdump $want', got 'kdump $got'"
			bad=1
		fi
	done < <(sed -n 's/^kdump //p' "$dir/results" 2>/dev/null)
	return $bad
}

# check_capture DIR STATUS: the files a capture that ended in STATUS leaves;
# sets the_dump and reports[capture].
check_capture() {
	local dir=$1 want=$2 dumps d ok=0 f root touched
	# (one copy of a dump disk's files for both)
	root=$(dump_root "$dir")
	dumps=$(dump_dirs_in "$root")
	touched=$(premade_touched "$root")
	[ -z "$touched" ] || { flag "a dump directory there before the capture was written to: $touched"; ok=1; }
	if [ "$want" = unmounted ]; then
		[ -z "$dumps" ] || { flag "a dump directory exists: $dumps"; ok=1; }
		sed -n 's/^oopslimit-reason: //p' "$dir/console.log" | tr -d '\r' >"$dir/console-reason.json"
		jq -e . "$dir/console-reason.json" >/dev/null 2>&1 || { flag "no reason.json on the console"; return 1; }
		reports[capture]=$dir/console-reason.json
		return $ok
	fi
	if [ "$(grep -c . <<<"$dumps")" -ne "${want_dumps:-1}" ]; then
		flag "expected ${want_dumps:-one} dump director$([ "${want_dumps:-1}" = 1 ] && echo y || echo ies), found: ${dumps:-none}"
		return 1
	fi
	d=$(tail -n 1 <<<"$dumps")
	reports[capture]=$d/reason.json
	note "dump directory: $d ($(cd "$d" && echo *))"
	for f in vmcore-dmesg.txt reason.json reason.txt; do
		[ -s "$d/$f" ] || { flag "no $f"; ok=1; }
	done
	if [ "$want" = complete ]; then
		[ ! -e "$d/vmcore-incomplete" ] || { flag "vmcore-incomplete left behind"; ok=1; }
		[ -s "$d/makedumpfile.log" ] || { flag "no makedumpfile.log"; ok=1; }
		if [ "$(head -c 8 "$d/vmcore" 2>/dev/null)" != "KDUMP   " ]; then
			flag "vmcore is not a kdump-compressed dump"
			ok=1
		elif [ "$(jq -r .capture.dump_bytes "$d/reason.json" 2>/dev/null)" != "$(stat -c %s "$d/vmcore")" ]; then
			flag "reason.json's dump_bytes differs from the vmcore's size"
			ok=1
		else
			note "vmcore: $(stat -c %s "$d/vmcore") bytes, saved in $(jq -r .capture.seconds "$d/reason.json") s"
			the_dump=$d/vmcore
		fi
	elif [ "$want" = refused ]; then
		# refused before makedumpfile ran (no room, no quota): the log and
		# the report, no dump of either kind, nothing for the other readers
		[ ! -e "$d/vmcore" ] || { flag "a vmcore exists after a refused capture"; ok=1; }
		[ ! -e "$d/vmcore-incomplete" ] || { flag "a vmcore-incomplete exists after a refused capture"; ok=1; }
	else
		[ ! -e "$d/vmcore" ] || { flag "a vmcore exists after a failed capture"; ok=1; }
		[ -e "$d/vmcore-incomplete" ] || { flag "no vmcore-incomplete"; ok=1; }
		the_dump=$d/vmcore-incomplete
	fi
	return $ok
}
