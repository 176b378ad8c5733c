# shellcheck shell=sh
# shellcheck disable=SC2034  # the ol_ variables are set for the callers
# oopslimit-store.sh: where dumps are kept and how: their names, retention,
# a file written whole or not at all, a file copied without following a
# link, and a request to a dump server.  The other half of oopslimit-lib.sh
# (which defines kdump.conf): it sits beside it, and whoever sources one
# sources both ("${lib%/*}/oopslimit-store.sh").  Sourced by the loader, by
# oopslimit-receive on a dump server, by the capture script in the capture
# initramfs and by the test harness.  POSIX sh; it defines functions and
# runs nothing.
#
# Functions (all names start with ol_; so do the variables they set):
#   ol_ssh KEY KNOWN ALIAS DEST REQUEST...
#                               a request to oopslimit-receive on a dump
#                               server, with the dump key alone
#   ol_nfs_options OPTS ADDR    the mount options the kernel's NFS client
#                               needs without mount.nfs (addr=, nolock)
#   ol_is_stamp NAME            true when NAME is a dump's name, a UTC time
#                               stamp YYYY-MM-DD-HHMMSS: the one pattern
#                               every name that crosses the wire is held to
#   ol_last_parse LINE          a dump server's "dump STAMP STATE" answer to
#                               "last" into ol_last_stamp and ol_last_state;
#                               false with $ol_error for anything else
#   ol_dumps_in ROOT [STAMP]    the dump directories in ROOT but STAMP's,
#                               oldest first
#   ol_free_bytes DIR           the bytes free to an unprivileged writer in DIR
#   ol_prune ROOT before|after STAMP KEEP MIN_FREE
#                               retention in ROOT: removes old dumps as
#                               kdump.conf says, one "removed NAME
#                               complete|incomplete" line each ("kept
#                               ..." for one that could not be removed,
#                               "unreachable BYTES" when old complete
#                               dumps cannot make min_free: none goes)
#   ol_copy_plain SRC DST       a regular file copied, never a link followed
#   ol_write_atomic FILE [MODE] standard input into FILE, whole or not at all,
#                               mode MODE (600); false with $ol_error when
#                               it cannot be

# ol_ssh KEY KNOWN-HOSTS ALIAS USER@ADDRESS REQUEST...: a request to
# oopslimit-receive on a dump server, as the loader and the capture kernel
# make it: the dump key alone, no prompt, the host key that "propagate"
# recorded under the server's name as kdump.conf writes it (ALIAS), no
# configuration file; standard input goes along.
ol_ssh() {
	_ol_key=$1 _ol_known=$2 _ol_alias=$3 _ol_dest=$4
	shift 4
	ssh -F /dev/null -i "$_ol_key" -o IdentitiesOnly=yes -o BatchMode=yes \
		-o StrictHostKeyChecking=yes -o UserKnownHostsFile="$_ol_known" \
		-o HostKeyAlias="$_ol_alias" -o ConnectTimeout=5 -o ServerAliveInterval=10 -o ServerAliveCountMax=3 \
		-o LogLevel=ERROR -- "$_ol_dest" "$@"
}

# ol_nfs_options OPTIONS SERVER-IP CLIENT-ADDRESS: the options for the
# kernel's NFS client mounting without mount.nfs: the server's address
# (addr=), the client's (clientaddr=, for NFSv4's callbacks), no lock
# manager (nolock: none runs in the capture kernel), and soft,timeo=100,
# retrans=3 (10 s a try, 3 retries) unless OPTIONS, first, say otherwise.
ol_nfs_options() {
	_ol_o=${1:+$1,}addr=$2,clientaddr=${3%/*}
	case ,$1, in *,lock,* | *,nolock,*) ;; *) _ol_o=$_ol_o,nolock ;; esac
	# a server that stops answering fails the write (soft) after about
	# timeo x retrans, instead of holding the capture for ever (hard)
	case ,$1, in *,hard,* | *,soft,*) ;; *) _ol_o=$_ol_o,soft ;; esac
	case ,$1, in *,timeo=*) ;; *) _ol_o=$_ol_o,timeo=100 ;; esac
	case ,$1, in *,retrans=*) ;; *) _ol_o=$_ol_o,retrans=3 ;; esac
	echo "$_ol_o"
}

# --- retention ----------------------------------------------------------------------
# The same rule wherever dumps are kept (the capture kernel's target, the
# fallback directory, oopslimit-receive on an ssh server).  Before a dump,
# incomplete ones (no vmcore) go first, oldest first, while there are KEEP or
# more or less than MIN_FREE bytes are free.  Then, when less than MIN_FREE
# is still free, complete ones go, oldest first, only as many as it takes
# to reach MIN_FREE by their size on disk, and only when that many reach
# it: when removing every old complete dump would not make the room, none
# goes (an "unreachable BYTES" line says how far short it is) and the
# capture, refused for room, costs no complete dump.  After the dump is
# complete, complete ones go, oldest first, until KEEP are left, the new one
# included; a failed capture never runs that part.

ol_is_stamp() {
	case $1 in
	[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9]) return 0 ;;
	esac
	return 1
}

# ol_last_parse LINE: what a server answered to "last", checked before any
# path is made of it: "dump STAMP complete|incomplete|none", or "dump none
# none" (no dump there).
ol_last_parse() {
	ol_last_stamp='' ol_last_state='' ol_error=''
	case $1 in
	'dump none none')
		ol_last_stamp=none ol_last_state=none
		return 0 ;;
	'dump '*' complete' | 'dump '*' incomplete' | 'dump '*' none')
		_ol_s=${1#dump }
		_ol_s=${_ol_s% *}
		if ol_is_stamp "$_ol_s"; then
			ol_last_stamp=$_ol_s ol_last_state=${1##* }
			return 0
		fi ;;
	esac
	ol_error="the dump server's answer to 'last' is no dump's name and state: '$(printf '%s' "$1" | tr -c '[:alnum:] ._-' '?' | cut -c 1-80)'"
	return 1
}

# ol_dumps_in ROOT [STAMP]: the dump directories in ROOT (named by UTC time
# stamps; symbolic links are not dumps) but STAMP's, oldest first.
ol_dumps_in() {
	for _ol_d in "$1"/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9]; do
		[ -d "$_ol_d" ] && [ ! -L "$_ol_d" ] && [ "${_ol_d##*/}" != "${2:-}" ] && printf '%s\n' "$_ol_d"
	done
	return 0
}

# ol_free_bytes DIR: the bytes free to an unprivileged writer there.
ol_free_bytes() {
	# shellcheck disable=SC2046  # two numbers
	set -- $(stat -f -c '%a %S' "$1" 2>/dev/null)
	echo $((${1:-0} * ${2:-0}))
}

_ol_remove() {
	if rm -rf -- "$1"; then
		echo "removed ${1##*/} $2"
	else
		echo "kept ${1##*/} $2"
	fi
}

# _ol_bytes_of DIR: what DIR takes on disk, in bytes.
_ol_bytes_of() {
	_ol_k=$(du -sk -- "$1" 2>/dev/null | cut -f 1)
	case $_ol_k in '' | *[!0-9]*) _ol_k=0 ;; esac
	echo $((_ol_k * 1024))
}

ol_prune() {
	_ol_root=$1 _ol_when=$2 _ol_stamp=$3 _ol_keep=$4 _ol_min=$5
	[ "$_ol_keep" != 0 ] || [ "$_ol_min" != 0 ] || return 0
	_ol_n=$(ol_dumps_in "$_ol_root" "$_ol_stamp" | wc -l)
	if [ "$_ol_when" = before ]; then
		for _ol_p in $(ol_dumps_in "$_ol_root" "$_ol_stamp"); do
			[ ! -e "$_ol_p/vmcore" ] || continue
			if { [ "$_ol_keep" != 0 ] && [ "$_ol_n" -ge "$_ol_keep" ]; } ||
				{ [ "$_ol_min" != 0 ] && [ "$(ol_free_bytes "$_ol_root")" -lt "$_ol_min" ]; }; then
				_ol_remove "$_ol_p" incomplete
				_ol_n=$((_ol_n - 1))
			fi
		done
		[ "$_ol_min" != 0 ] || return 0
		_ol_free=$(ol_free_bytes "$_ol_root")
		[ "$_ol_free" -lt "$_ol_min" ] || return 0
		# how many of the oldest complete dumps reach the floor, if any do
		_ol_go=0 _ol_i=0 _ol_gain=0
		for _ol_p in $(ol_dumps_in "$_ol_root" "$_ol_stamp"); do
			[ -e "$_ol_p/vmcore" ] || continue
			_ol_i=$((_ol_i + 1))
			_ol_gain=$((_ol_gain + $(_ol_bytes_of "$_ol_p")))
			if [ $((_ol_free + _ol_gain)) -ge "$_ol_min" ]; then
				_ol_go=$_ol_i
				break
			fi
		done
		if [ "$_ol_go" = 0 ]; then
			echo "unreachable $((_ol_min - _ol_free - _ol_gain))"
			return 0
		fi
		_ol_i=0
		for _ol_p in $(ol_dumps_in "$_ol_root" "$_ol_stamp"); do
			[ -e "$_ol_p/vmcore" ] || continue
			_ol_i=$((_ol_i + 1))
			[ "$_ol_i" -le "$_ol_go" ] || break
			_ol_remove "$_ol_p" complete
		done
	else
		[ "$_ol_keep" != 0 ] || return 0
		for _ol_p in $(ol_dumps_in "$_ol_root" "$_ol_stamp"); do
			if [ -e "$_ol_p/vmcore" ] && [ $((_ol_n + 1)) -gt "$_ol_keep" ]; then
				_ol_remove "$_ol_p" complete
				_ol_n=$((_ol_n - 1))
			fi
		done
	fi
	return 0
}

# ol_copy_plain SRC DST: SRC, a regular file and no symbolic link, copied
# to DST (a new name); a link, or one that appears meanwhile, is not
# followed: false, and DST is not left.
ol_copy_plain() {
	{ [ -f "$1" ] && [ ! -L "$1" ]; } || return 1
	# -P: a link swapped in after the test is copied as a link, then removed
	cp -P -- "$1" "$2" 2>/dev/null && [ -f "$2" ] && [ ! -L "$2" ] && return 0
	rm -f -- "$2"
	return 1
}

# --- writing a file -----------------------------------------------------------------
# A regular FILE (or a name not there yet) is written through a temporary
# beside it, created here with O_EXCL (the shell's noclobber: never an
# existing name, a symbolic link included) and with MODE (default 600) from
# the start, written through that descriptor alone, then renamed over
# FILE.  Nothing is opened or changed again by name, so whoever owns the
# directory cannot swap the temporary for a link and have this write or
# chmod what it points to.  A device or FIFO at the name is written as it
# is, never replaced; a symbolic link or a directory is refused.
ol_write_atomic() {
	_ol_mode=${2:-600}
	if [ -L "$1" ] || [ -d "$1" ]; then
		ol_error="$1 is a symbolic link or a directory: not replaced"
		return 1
	fi
	if [ -e "$1" ] && [ ! -f "$1" ]; then
		cat >"$1" || { ol_error="cannot write $1"; return 1; }
		return 0
	fi
	_ol_i=0 _ol_tmp=''
	while [ $_ol_i -lt 8 ]; do
		_ol_i=$((_ol_i + 1))
		_ol_t="$1.tmp.$(od -An -N6 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n')$$"
		# (a subshell: the umask and noclobber stay there; the file's
		# mode is 666 less the umask, so MODE's complement is used)
		if (umask "$(printf '%03o' $((0666 & ~0$_ol_mode)))" && set -C && exec 3>"$_ol_t" && cat >&3) 2>/dev/null; then
			_ol_tmp=$_ol_t
			break
		fi
		# a name that was taken is left alone; one of ours that failed goes
		[ ! -f "$_ol_t" ] || [ -L "$_ol_t" ] || [ ! -O "$_ol_t" ] || { rm -f "$_ol_t"; ol_error="cannot write $1"; return 1; }
	done
	[ -n "$_ol_tmp" ] || { ol_error="cannot make a temporary file beside $1"; return 1; }
	mv -fT "$_ol_tmp" "$1" && return 0
	rm -f "$_ol_tmp"
	ol_error="cannot write $1"
	return 1
}
