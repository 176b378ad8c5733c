/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two files of the kallsyms decoder share and no reader needs
 * (not part of kallsyms.h): kallsyms-names.c finds the tables and walks
 * their names, kallsyms.c gives the matches their addresses and picks
 * among them.  The bounds, the tables as read, the names looked for.
 */
#ifndef OOPSLIMIT_KALLSYMS_INT_H
#define OOPSLIMIT_KALLSYMS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kallsyms.h"

/* Bounds no kernel comes near: Debian's 6.1 has about 140000 symbols. */
#define MAX_SYMS (1u << 22)
#define MAX_NAMES_BYTES (64u << 20)
#define MAX_TOKEN_TABLE (64u << 10)
#define KSYM_NAME_LEN 512	/* the kernel's limit since 6.1 (128 before) */
#define MAX_WANTED 64
#define CHUNK (64u << 10)
#define PAGE 4096u

/* One name being looked for: a caller's, an anchor, or both. */
struct want {
	const char *name;
	size_t len;
	struct ol_ksym *sym;	/* the caller's entry, or NULL */
	int anchor;		/* index into anchors[], or -1 */
};

/* An anchor: its VMCOREINFO address and its first matches in the table. */
struct anchor {
	uint64_t vmci;
	unsigned int n;
	uint32_t idx[4];
};

struct tables {
	const struct ol_mem *mem;
	uint64_t names, names_end, token_table, token_index, offsets, addresses;
	uint64_t relative_base;
	bool has_offsets;	/* SYMBOL(kallsyms_offsets), else kallsyms_addresses */
	bool has_base;		/* SYMBOL(kallsyms_relative_base): relative_base read */
	uint32_t num_syms;
	bool big_lengths;
	const char *tok[256];
	uint16_t toklen[256];
	char *tokbuf;
};

/* kallsyms-names.c: formats into err (when errlen is not 0), the error strings of both files. */
void ksym_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* kallsyms-names.c: one of nm's data letters, 'd' 'D' 'b' 'B'. */
bool ksym_is_data(char type);

/*
 * kallsyms-names.c: the tables from VMCOREINFO's SYMBOL() lines, the
 * symbol count and kallsyms_relative_base's value: 0, or -1 with err set.
 */
int ksym_locate(struct tables *t, char *err, size_t errlen);

/* kallsyms-names.c: the 256 tokens, each checked to end in its table: 0, or -1 with err set. */
int ksym_read_tokens(struct tables *t, char *err, size_t errlen);

/*
 * kallsyms-names.c: the one pass over kallsyms_names.  Each match of w[k]
 * is kept in its ol_ksym with its symbol index in kept_idx[k], an anchor's
 * first four indexes in an[]: 0, or -1 with err set.
 */
int ksym_walk_names(struct tables *t, struct want *w, size_t nw, uint32_t (*kept_idx)[OL_KSYM_KEEP],
	       struct anchor *an, char *err, size_t errlen);

#endif
