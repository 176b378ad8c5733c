/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols from the dump's own kallsyms tables, for a dump without
 * debuginfo at hand and without our SYMBOL() lines.
 *
 * Since 6.0 the kernel puts the addresses of its kallsyms tables into
 * VMCOREINFO (kernel/crash_core.c): kallsyms_names, kallsyms_num_syms,
 * kallsyms_token_table, kallsyms_token_index, and kallsyms_offsets with
 * kallsyms_relative_base (or kallsyms_addresses; since 7.0 the offsets are
 * place-relative and kallsyms_relative_base is gone).  Kernels before 6.0
 * (Debian 11's 5.10) put none of them there.  With
 * CONFIG_KALLSYMS_ALL (Debian's kernels have it) the tables hold the data
 * symbols too, so oops_count and its siblings can be found in the dump.
 *
 * One pass over the compressed names finds every name asked for; each gets
 * all its matches with their addresses and type letters (a text letter on
 * a symbol inside .data, as 7.x's tables have it, made a data one), and
 * ol_ksym_pick() chooses among name collisions.  Work and memory are
 * bounded whatever the dump holds: a count past the table, a token index
 * out of range, a name that never ends or an unreadable page is an error
 * string, never a crash or a made-up address.  Every address is checked
 * against the SYMBOL() lines VMCOREINFO carries for other symbols (_stext,
 * init_uts_ns, ...), which also settles how kallsyms_offsets is encoded.
 */
#ifndef OOPSLIMIT_KALLSYMS_H
#define OOPSLIMIT_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dumpmem.h"

/* Matches kept for each name; more are counted, not kept. */
#define OL_KSYM_KEEP 8

struct ol_ksym_match {
	uint64_t addr;
	char type;	/* nm's letter: 'd' 'D' 'b' 'B' data, 't' 'T' text, ... */
};

struct ol_ksym {
	const char *name;	/* in: the symbol to find */
	unsigned int found;	/* out: symbols with that name in the table */
	unsigned int data;	/* out: how many of them are data ('d' 'D' 'b' 'B') */
	unsigned int kept;	/* out: entries of match[] filled (data first kept) */
	struct ol_ksym_match match[OL_KSYM_KEEP];
};

/* What the pass saw, for a note in the report. */
struct ol_kallsyms_info {
	uint32_t num_syms;
	const char *encoding;	/* how the table held the addresses (kallsyms.c's encodings) */
	bool unrelocated;	/* the table held link-time addresses: KERNELOFFSET added */
	unsigned int retyped;	/* matches typed as text that lie in .data (7.x's tables) */
	unsigned int anchors;	/* VMCOREINFO symbols the addresses were checked against */
};

/*
 * Looks up syms[0..n) (n at most 64) in one pass.  0 when the tables
 * decoded (a name may still have no match: found is 0), -1 with err set
 * when they could not be read or do not make sense; then no result is
 * filled.  info may be NULL.
 */
int ol_kallsyms_find(const struct ol_mem *mem, struct ol_ksym *syms, size_t n,
		     struct ol_kallsyms_info *info, char *err, size_t errlen);

/*
 * The address of s's variable: its one data symbol.  0 with *addr (and
 * *type when not NULL), or -1 with why: no such symbol, only symbols of
 * other types, or two data symbols of the same name that kallsyms cannot
 * tell apart (it has no file names).
 */
int ol_ksym_pick(const struct ol_ksym *s, uint64_t *addr, char *type, char *why,
		 size_t whylen);

#endif
