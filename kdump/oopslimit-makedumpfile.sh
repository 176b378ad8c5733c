# shellcheck shell=sh
# shellcheck disable=SC2034  # the ol_ variables are set for the callers
# oopslimit-makedumpfile.sh: what the project knows of makedumpfile, the
# collector: its version, the kernel/makedumpfile pairs that get pages wrong
# (the table makedumpfile-pairs beside this file), and its messages without
# the progress bar.  Sourced by the loader (check, estimate, load) and by the
# capture script in the capture initramfs.  POSIX sh; it defines functions
# and runs nothing.
#
# Functions (all names start with ol_md_; so do the variables they set):
#   ol_md_version [PROGRAM]     makedumpfile's version ("1.7.6"), from its
#                               -v; nothing when it cannot say
#   ol_md_vercmp A B            0 when version A is older than B, else 1
#                               (numbers split at dots and dashes)
#   ol_md_pairs TABLE KERNEL MDVER
#                               the table's rows that KERNEL (uname -r)
#                               and makedumpfile MDVER match, tab-separated
#                               as in the table
#   ol_md_pair_line ROW KERNEL MDVER
#                               the one line that names the pair and its fix
#   ol_md_mask LEVEL MASK       LEVEL AND MASK
#   ol_md_guard TABLE KERNEL MDVER COLLECTOR
#                               the collector's options (-l,-d,31) with the
#                               dump level masked as the rows say: sets
#                               ol_md_collector, and ol_md_lines to the rows'
#                               lines (one a row, empty when none matches)
#   ol_md_apply TABLE           ol_md_guard for the kernel running here and
#                               the makedumpfile installed, applied to
#                               ol_collector (ol_md_kernel, ol_md_installed)
#   ol_md_messages              standard input, makedumpfile's output, with
#                               each progress bar's frames (joined by
#                               carriage returns) down to its last one,
#                               blank lines dropped

ol_md_version() {
	"${1:-makedumpfile}" -v 2>&1 </dev/null |
		sed -n 's/^makedumpfile:* *version \([0-9][0-9.]*[0-9]\).*/\1/p' | head -n 1
}

# The release numbers of a version or of uname -r, blank-separated, at most
# four: "6.12.117+deb13-amd64" is 6 12 117, "1.7.8" 1 7 8.
_ol_md_numbers() {
	printf '%s\n' "$1" | sed 's/[^0-9.].*//' | tr '.' ' '
}

ol_md_vercmp() {
	# shellcheck disable=SC2046  # the numbers, one a word
	set -- $(_ol_md_numbers "$1" | awk '{ printf "%d %d %d %d", $1, $2, $3, $4 }') \
		$(_ol_md_numbers "$2" | awk '{ printf "%d %d %d %d", $1, $2, $3, $4 }')
	[ "$1" -lt "$5" ] && return 0
	[ "$1" -gt "$5" ] && return 1
	[ "$2" -lt "$6" ] && return 0
	[ "$2" -gt "$6" ] && return 1
	[ "$3" -lt "$7" ] && return 0
	[ "$3" -gt "$7" ] && return 1
	[ "$4" -lt "$8" ]
}

ol_md_pairs() {
	[ -n "$2" ] && [ -n "$3" ] && [ -r "$1" ] || return 0
	_ol_md_tab=$(printf '\t')
	while IFS="$_ol_md_tab" read -r _ol_k _ol_m _ol_p _ol_e _ol_c _ol_f _ol_l _ol_t; do
		case $_ol_k in '' | '#'*) continue ;; esac
		ol_md_vercmp "$2" "$_ol_k" && continue
		ol_md_vercmp "$3" "${_ol_m%-*}" && continue
		ol_md_vercmp "${_ol_m#*-}" "$3" && continue
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$_ol_k" "$_ol_m" "$_ol_p" "$_ol_e" "$_ol_c" "$_ol_f" "$_ol_l" "$_ol_t"
	done <"$1"
}

ol_md_pair_line() {
	_ol_md_tab=$(printf '\t')
	IFS="$_ol_md_tab" read -r _ol_k _ol_m _ol_p _ol_e _ol_c _ol_f _ol_l _ol_t <<-EOF
		$1
	EOF
	case $_ol_p in
	free) _ol_what='free pages' ;;
	tail) _ol_what='compound tail pages' ;;
	*) _ol_what="$_ol_p pages" ;;
	esac
	case $_ol_e in
	kept) _ol_how="saves the $_ol_what of kernel $2 (the dump can be the size of memory)" ;;
	*) _ol_how="leaves out $_ol_what of kernel $2 that crash and drgn need" ;;
	esac
	if [ "$_ol_f" != - ]; then
		_ol_fix="install makedumpfile $_ol_f or later (upstream $_ol_c)"
	else
		_ol_fix="no makedumpfile release has the fix yet (upstream $_ol_c, after $(printf '%s' "$_ol_m" | sed 's/.*-//'))"
	fi
	[ "$_ol_l" = - ] || _ol_fix="$_ol_fix; meanwhile dump levels are masked with $_ol_l, which keeps those pages at the cost of size"
	printf '%s\n' "makedumpfile $3 $_ol_how: $_ol_fix"
}

ol_md_mask() {
	echo $(($1 & $2))
}

ol_md_guard() {
	ol_md_collector=$4 ol_md_lines=''
	_ol_rows=$(ol_md_pairs "$1" "$2" "$3")
	[ -n "$_ol_rows" ] || return 0
	_ol_md_tab=$(printf '\t')
	while IFS= read -r _ol_row; do
		ol_md_lines="${ol_md_lines:+$ol_md_lines
}$(ol_md_pair_line "$_ol_row" "$2" "$3")"
		_ol_l=$(printf '%s\n' "$_ol_row" | cut -f7)
		[ "$_ol_l" != - ] || continue
		# the collector's -d LEVEL, masked
		ol_md_collector=$(printf '%s\n' "$ol_md_collector" | tr ',' '\n' | {
			_ol_next=''
			while IFS= read -r _ol_w; do
				if [ "$_ol_next" = yes ]; then
					_ol_w=$(ol_md_mask "$_ol_w" "$_ol_l")
					_ol_next=''
				fi
				[ "$_ol_w" != -d ] || _ol_next=yes
				printf '%s\n' "$_ol_w"
			done
		} | paste -sd, -)
	done <<-EOF
		$_ol_rows
	EOF
}

# (sh, tr: what the capture image has; a frame is "NAME : [ 12.3 %] ...",
# and the frames of one bar follow each other)
ol_md_messages() {
	tr '\r' '\n' | {
		_ol_bar='' _ol_frame=''
		while IFS= read -r _ol_line; do
			case $_ol_line in
			'') continue ;;
			*': ['*'%]'*)
				[ "${_ol_line%%:*}" = "$_ol_bar" ] || [ -z "$_ol_frame" ] || printf '%s\n' "$_ol_frame"
				_ol_bar=${_ol_line%%:*} _ol_frame=$_ol_line ;;
			*)
				[ -z "$_ol_frame" ] || printf '%s\n' "$_ol_frame"
				_ol_bar='' _ol_frame=''
				printf '%s\n' "$_ol_line" ;;
			esac
		done
		[ -z "$_ol_frame" ] || printf '%s\n' "$_ol_frame"
	}
}

# ol_md_apply TABLE: the pairs for the kernel that runs here (the one whose
# panic the capture saves; OL_MD_KERNEL for the tests) and the makedumpfile
# installed (which the capture image carries; OL_MD_PROGRAM for the tests):
# sets ol_md_kernel, ol_md_installed, ol_md_lines, and ol_collector masked.
ol_md_apply() {
	ol_md_kernel=${OL_MD_KERNEL:-$(uname -r)}
	ol_md_installed=$(ol_md_version "${OL_MD_PROGRAM:-makedumpfile}")
	ol_md_guard "$1" "$ol_md_kernel" "$ol_md_installed" "$ol_collector"
	ol_collector=$ol_md_collector
}
