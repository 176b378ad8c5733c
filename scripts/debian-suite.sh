# shellcheck shell=bash
# What the scripts know of a Debian release: its row of scripts/debian-releases,
# an apt configuration that reaches it without touching this machine's own
# sources, and the layout of its kernel packages.  Source it after lib.sh; it
# defines functions and runs nothing.
#
# suite_field SUITE COLUMN
#     The column (suite, release, kernel, guest, sources, releases,
#     makedumpfile) of the
#     suite's row; stops, naming the suites there are, when it has none.
# suite_of_release UNAME-R
#     The suite whose "releases" pattern the kernel release matches (the
#     first such row), or nothing.
# suite_apt SUITE [DEBARCH]
#     Sets apt_opts: apt-get/apt-cache options for the suite, for the host's
#     architecture or Debian's architecture DEBARCH.  A suite the host's
#     sources serve ("host"), for the host's architecture, gets none; any
#     other gets a sources.list, package lists and a cache of its own under
#     OOPSLIMIT_CACHE/apt/SUITE (or SUITE-DEBARCH), from the host's own
#     Debian mirror, the lists read again once a day.
# kernel_parts PACKAGE
#     The packages of one kernel release PACKAGE depends on (image, binary,
#     modules, base), per apt_opts: Debian 14's linux-image-RELEASE is
#     only a dependency on linux-binary-RELEASE and linux-modules-RELEASE.
# kernel_packages METAPACKAGE
#     The packages of the kernel release METAPACKAGE depends on, one a
#     line, the linux-image-RELEASE one first, then its parts.
# kernel_layout ROOT [ARCH]
#     In a tree the kernel packages were unpacked in, sets kimage (the
#     image, of the machine's type: x86_64's bzImage unless ARCH names
#     another row of scripts/arches; /boot/vmlinuz-RELEASE, or Debian 14's
#     /usr/lib/modules/RELEASE/vmlinuz), krelease, kmoddir (/lib or
#     /usr/lib/modules/RELEASE) and kconfig (/boot/config-RELEASE or
#     MODDIR/config); stops naming what is missing.
# module_unpack FILE OUT
#     A module file, plain, .xz, .zst or .gz, written uncompressed to OUT.
#
# suite_chroot SUITE
#     The clean chroot of SUITE (mmdebstrap's "buildd" variant: essential,
#     apt, build-essential, from the host's own mirror), kept as a tarball
#     in OOPSLIMIT_CACHE/chroots/ and made again once a week: sets tarball
#     and chroot_note (its size, when it was made), and holds its lock
#     (file descriptor 8) until the script ends.
# new_root DIR
#     DIR made a fresh copy of that chroot (suite_chroot first), able to
#     resolve names.
# The release roots (scripts/deb.sh's chroots, scripts/reader-root.sh's
# reader roots, scripts/debian-image.sh's guest trees) are made and entered
# by these two:
# suite_mmdebstrap LOG SUITE TARGET SOURCES [OPTION...]
#     mmdebstrap of SUITE into TARGET (a directory, or a tarball) from
#     SOURCES, with the OPTIONs and those every root here takes: apt as root
#     (a tree being made has no _apt user to drop to) and no Valid-Until
#     check (a mirror may serve a suite whose Release file is past that date,
#     as a frozen unstable is: the signatures are checked all the same).  Its
#     output goes to LOG; on failure, the log's last lines on stderr and
#     status 1.
# root_run ROOT [-w DIR | -f FILE PATH]... -- COMMAND [ARG...]
#     COMMAND in the root ROOT, as root, in a mount namespace of its own, so
#     that its mounts end with it: ROOT bound on itself (inside, / is a mount
#     point, as on a machine: oopslimit-kdump finds the file system of its
#     dump path in mountinfo), /proc, /dev; each -w DIR bound read-write at
#     its own path, so that paths to dumps, vmlinux files and scripts mean
#     the same inside; each -f FILE bound read-only at PATH.  A clean
#     environment.  It replaces the shell it runs in (COMMAND gets its
#     process, and its signals): run it in a subshell to go on afterwards.

suite_releases=$OOPSLIMIT_TOP/scripts/debian-releases

suite_field() {
	local col
	case $2 in
	suite) col=1 ;; release) col=2 ;; kernel) col=3 ;; guest) col=4 ;; sources) col=5 ;; releases) col=6 ;;
	makedumpfile) col=7 ;;
	*) die "suite_field: no column '$2'" ;;
	esac
	awk -v s="$1" -v c="$col" '!/^#/ && $1 == s { print $c; f = 1 } END { exit !f }' "$suite_releases" ||
		die "no suite '$1' in scripts/debian-releases (it has: $(awk '!/^#/ && NF { printf "%s ", $1 }' "$suite_releases"))"
}

suite_of_release() {
	local s pat
	while read -r s _ _ _ _ pat _; do
		case $s in '' | '#'*) continue ;; esac
		# shellcheck disable=SC2254  # the pattern is the table's
		case $1 in $pat)
			printf '%s\n' "$s"
			return 0 ;;
		esac
	done <"$suite_releases"
}

suite_apt() {
	local suite=$1 debarch=${2:-} mirror dir opt=''
	apt_opts=()
	[ "$debarch" != "$(dpkg --print-architecture)" ] || debarch=''
	[ "$(suite_field "$suite" sources)" = host ] && [ -z "$debarch" ] && return 0
	mirror=$(host_mirror)
	[ -n "$mirror" ] || die "the host's apt sources name no Debian mirror with a main component"
	dir=$OOPSLIMIT_CACHE/apt/$suite${debarch:+-$debarch}
	[ -z "$debarch" ] || opt="[arch=$debarch] "
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	printf 'deb %s%s %s main\n' "$opt" "$mirror" "$suite" | ol_write_atomic "$dir/sources.list" ||
		die "cannot write $dir/sources.list"
	apt_opts=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$dir/lists"
		-o "Dir::Cache=$dir/cache" -o APT::Sandbox::User=root -o Debug::NoLocking=1)
	[ -z "$debarch" ] || apt_opts+=(-o "APT::Architecture=$debarch" -o "APT::Architectures=$debarch")
	(
		flock 9
		[ -z "$(find "$dir/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null)" ] || exit 0
		say "reading the $suite package lists"
		apt-get "${apt_opts[@]}" -q update >"$dir/update.log" 2>&1 ||
			die "apt-get update for $suite failed: $(grep -m1 -E '^(E|Err):' "$dir/update.log" || tail -n 1 "$dir/update.log")"
	) 9>"$dir/lock" || exit 1
}

# kernel_cache_begin DIR MADE: the cache entry DIR, made once: when the
# function MADE finds it made, before or after waiting for its lock, prints
# DIR and exits; else sets work to a new directory beside it (with debs/ and
# root/), removed on exit unless moved into place.
kernel_cache_begin() {
	local dir=$1 made=$2
	"$made" || cache_lock "${dir#"$OOPSLIMIT_CACHE"/}"
	if "$made"; then
		printf '%s\n' "$dir"
		exit 0
	fi
	mkdir -p "${dir%/*}"
	work=$(mktemp -d "${dir%/*}/.work.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	chmod 755 "$work"
	mkdir -p "$work/debs" "$work/root"
}

# suite_download DIR PACKAGE...: the packages' .deb files into DIR, with the
# suite's apt configuration (suite_apt first), or one line saying why not.
suite_download() {
	local dir=$1
	shift
	# apt-get download writes into the current directory; _apt cannot write there
	(cd "$dir" && apt-get "${apt_opts[@]}" download -q -o APT::Sandbox::User=root "$@" >"$dir/.apt.log" 2>&1) ||
		die "apt-get download of $* failed: $(grep -m1 -E '^(E|Err):' "$dir/.apt.log" || tail -n 2 "$dir/.apt.log" | tr '\n' ' ')"
	rm -f "$dir/.apt.log"
}

# dbg_vmlinux DEB ROOT RELEASE: the vmlinux (with debug info) of RELEASE's
# -dbg package DEB, unpacked alone under ROOT (the modules' debug info is
# most of the package); prints its path, or stops.
dbg_vmlinux() {
	local v
	dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" --wildcards '*/vmlinux-*' '*/vmlinux' 2>/dev/null || true
	v=$(find "$2/usr/lib/debug" -type f \( -name "vmlinux-$3" -o -path "*/$3/vmlinux" \) 2>/dev/null | head -n 1)
	[ -n "$v" ] || die "${1##*/} has no vmlinux for $3"
	printf '%s\n' "$v"
}

kernel_parts() {
	apt-cache "${apt_opts[@]}" show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Depends: //p' | tr ',' '\n' | sed 's/([^)]*)//; s/|.*//; s/[[:space:]]//g' |
		grep -E '^linux-(image|binary|modules|base)-[0-9]' || true
}

kernel_packages() {
	local p
	for p in $(kernel_parts "$1"); do
		printf '%s\n' "$p"
		kernel_parts "$p"
	done
}

kernel_layout() {
	local root=$1 arch=${2:-x86_64} images d want
	mapfile -t images < <(find "$root/boot" "$root/usr/lib/modules" -maxdepth 2 \
		\( -path '*/boot/vmlinuz-*' -o -path '*/modules/*/vmlinuz' \) 2>/dev/null)
	[ ${#images[@]} -gt 0 ] || die "the packages hold no kernel image (/boot/vmlinuz-RELEASE or /usr/lib/modules/RELEASE/vmlinuz)"
	[ ${#images[@]} -eq 1 ] || die "the packages hold ${#images[@]} kernel images, not one: ${images[*]#"$root"}"
	kimage=${images[0]}
	case $kimage in
	*/vmlinuz) krelease=$(basename "$(dirname "$kimage")") ;;
	*) krelease=${kimage##*/vmlinuz-} ;;
	esac
	want=$(arch_field "$arch" image | tr _ ' ')
	case $(file -b "$kimage") in
	"$want"*) ;;
	*) die "${kimage#"$root"} is not a $want (scripts/arches, $arch): $(file -b "$kimage" | cut -d, -f1)" ;;
	esac
	kmoddir=''
	for d in "$root/lib/modules/$krelease" "$root/usr/lib/modules/$krelease"; do
		[ -d "$d/kernel" ] && kmoddir=$d
	done
	[ -n "$kmoddir" ] || die "the packages have no modules for $krelease (neither /lib/modules nor /usr/lib/modules)"
	kconfig=''
	for d in "$root/boot/config-$krelease" "$kmoddir/config"; do
		[ -r "$d" ] && kconfig=$d
	done
	[ -n "$kconfig" ] || die "the packages have no config for $krelease"
}

module_unpack() {
	case $1 in
	*.ko) cp "$1" "$2" ;;
	*.ko.xz) xz -dc "$1" >"$2" ;;
	*.ko.zst) zstd -qdc "$1" >"$2" ;;
	*.ko.gz) gzip -dc "$1" >"$2" ;;
	*) die "$1: a module compressed in a way these scripts do not know" ;;
	esac || die "cannot decompress $1"
}

suite_mmdebstrap() {
	local log=$1 suite=$2 target=$3 sources=$4
	shift 4
	mmdebstrap --aptopt='APT::Sandbox::User "root"' --aptopt='Acquire::Check-Valid-Until "false"' "$@" \
		"$suite" "$target" "$sources" >"$log" 2>&1 && return 0
	tail -n 15 "$log" >&2
	return 1
}

suite_chroot() {
	local suite=$1 mirror chroots t0 tmp log made=''
	chroots=$OOPSLIMIT_CACHE/chroots
	mkdir -p "$chroots"
	cache_lock "chroots/$suite"
	tarball=$chroots/$suite.tar
	if [ -z "$(find "$tarball" -mmin -10080 2>/dev/null)" ]; then
		mirror=$(host_mirror)
		[ -n "$mirror" ] || die "the host's apt sources name no Debian mirror with a main component"
		say "creating the clean $suite chroot with mmdebstrap ($mirror)"
		t0=$(now_ms)
		tmp=$(mktemp --suffix=.tar "$chroots/.$suite.XXXXXX")
		log=$(mktemp "$chroots/.$suite.XXXXXX.log")
		suite_mmdebstrap "$log" "$suite" "$tmp" "deb $mirror $suite main" --mode=root --variant=buildd --format=tar || {
			rm -f "$tmp"
			die "mmdebstrap $suite failed (log: $log)"
		}
		mv "$tmp" "$tarball"
		rm -f "$log"
		made="made in $(since "$t0") s"
		say "$suite chroot: $(($(stat -c %s "$tarball") / 1048576)) MiB tarball, $made"
	fi
	# shellcheck disable=SC2034  # the caller's
	chroot_note="$(($(stat -c %s "$tarball") / 1048576)) MiB tarball, ${made:-made $(date -u -r "$tarball" '+%F %H:%M UTC')}"
}

new_root() {
	tar -C "$1" -xf "$tarball" || die "cannot unpack $tarball"
	rm -f "$1/etc/resolv.conf"
	cp /etc/resolv.conf "$1/etc/resolv.conf"
}

root_run() {
	# shellcheck disable=SC2016  # the inner shell's own parameters
	exec unshare --mount --propagation private -- /bin/sh -ec '
		r=$1
		shift
		mount --bind "$r" "$r"
		mount -t proc proc "$r/proc"
		mount --bind /dev "$r/dev"
		while [ "$1" != -- ]; do
			case $1 in
			-w) mkdir -p "$r$2"; mount --bind "$2" "$r$2"; shift 2 ;;
			-f) touch "$r$3"; mount --bind -o ro "$2" "$r$3"; shift 3 ;;
			*) echo "root_run: $1: not -w or -f" >&2; exit 2 ;;
			esac
		done
		shift
		exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
			DEBIAN_FRONTEND=noninteractive "$@"' sh "$@"
}
