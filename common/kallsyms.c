// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols from the dump's kallsyms tables; see kallsyms.h.
 *
 * kallsyms-names.c finds the names asked for; this file gives what it found
 * addresses, checked against the anchors, and picks among them.  How
 * kallsyms_offsets[i] (or kallsyms_addresses[i]) gives symbol i's address
 * has changed between kernel versions: the encodings table below has a row
 * for each.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "kallsyms-int.h"
#include "vmcoreinfo.h"

/*
 * Symbols whose addresses VMCOREINFO also gives: they decide how the
 * offsets are encoded and prove the decoded addresses right.  Not
 * mem_section or swapper_pg_dir: VMCOREINFO_SYMBOL_ARRAY() gives the
 * value of a pointer, not where the pointer is.
 */
static const char *const anchor_names[] = {
	"_stext", "init_uts_ns", "node_online_map", "init_top_pgt", "vmap_area_list",
	"node_data", "prb", "printk_rb_static", "clear_seq",
};
#define NANCHORS (sizeof(anchor_names) / sizeof(anchor_names[0]))

/*
 * The ways the kernel has stored its symbols' addresses, one row each.  A
 * dump says which table it has (SYMBOL(kallsyms_offsets) or
 * SYMBOL(kallsyms_addresses)) and whether kallsyms_relative_base exists,
 * not which encoding fills the table: every row its VMCOREINFO allows is
 * tried, and the anchors (symbols VMCOREINFO also names) decide.
 */
enum encoding_form { ADDRESSES, BASE_RELATIVE, ABSOLUTE_PERCPU, PLACE_RELATIVE };

static const struct encoding {
	enum encoding_form form;
	const char *name;	/* for the report's notes */
	bool offsets;		/* a table of 32-bit offsets, not of addresses */
	bool base;		/* needs kallsyms_relative_base */
} encodings[] = {
	/* kallsyms_addresses[i]: without CONFIG_KALLSYMS_BASE_RELATIVE */
	{ ADDRESSES, "absolute addresses", false, false },
	/* relative_base + (u32)offset: CONFIG_KALLSYMS_BASE_RELATIVE, 4.6 to 6.x */
	{ BASE_RELATIVE, "base-relative offsets", true, true },
	/*
	 * CONFIG_KALLSYMS_ABSOLUTE_PERCPU (x86_64 SMP until it went in 6.15):
	 * a non-negative offset is the address itself (the per-CPU
	 * symbols), a negative one relative_base - 1 - offset
	 */
	{ ABSOLUTE_PERCPU, "absolute per-CPU offsets", true, true },
	/*
	 * 7.0 on: each entry relative to its own place in the table,
	 * &kallsyms_offsets[i] + (s32)offset; there is no
	 * kallsyms_relative_base any more
	 */
	{ PLACE_RELATIVE, "place-relative offsets", true, false },
};
#define NENCODINGS (sizeof(encodings) / sizeof(encodings[0]))

static bool encoding_usable(const struct tables *t, const struct encoding *e)
{
	if (!e->offsets)
		return !t->has_offsets;
	return t->has_offsets && (!e->base || t->has_base);
}

/* Symbol idx's address from its raw table entry, in encoding e. */
static uint64_t sym_addr(const struct tables *t, const struct encoding *e, uint32_t idx, uint64_t raw)
{
	int32_t off = (int32_t)(uint32_t)raw;

	switch (e->form) {
	case BASE_RELATIVE:
		return t->relative_base + (uint32_t)raw;
	case ABSOLUTE_PERCPU:
		if (off >= 0)
			return (uint64_t)off;
		return t->relative_base - 1 - (uint64_t)(int64_t)off;
	case PLACE_RELATIVE:
		return t->offsets + 4ull * idx + (uint64_t)(int64_t)off;
	case ADDRESSES:
	default:
		return raw;
	}
}

/* The raw table entry of symbol idx: a u32 offset or a u64 address. */
static int read_raw(const struct tables *t, uint32_t idx, uint64_t *raw)
{
	uint8_t b[8];

	if (t->has_offsets) {
		if (t->mem->read(t->mem->ctx, t->offsets + 4ull * idx, b, 4) != 0)
			return -1;
		*raw = ol_le32(b);
	} else {
		if (t->mem->read(t->mem->ctx, t->addresses + 8ull * idx, b, 8) != 0)
			return -1;
		*raw = ol_le64(b);
	}
	return 0;
}

/*
 * How far do the anchors agree under one encoding and extra offset: the
 * number that agree, or -1 when one of them contradicts it.
 */
static int anchors_agree(const struct tables *t, const struct anchor *an,
			 uint64_t (*raw)[4], const struct encoding *e, uint64_t delta)
{
	int agree = 0;
	size_t a;
	unsigned int k;

	for (a = 0; a < NANCHORS; a++) {
		bool any = false;

		if (!an[a].n || !an[a].vmci)
			continue;
		for (k = 0; k < an[a].n && k < 4; k++)
			if (sym_addr(t, e, an[a].idx[k], raw[a][k]) + delta == an[a].vmci)
				any = true;
		if (!any)
			return -1;
		agree++;
	}
	return agree;
}

/* Does any encoding the dump allows put one of anchor a's matches right? */
static bool anchor_fits(const struct tables *t, const struct anchor *a, const uint64_t *raw)
{
	unsigned int k, e;

	for (k = 0; k < a->n && k < 4; k++)
		for (e = 0; e < NENCODINGS; e++)
			if (encoding_usable(t, &encodings[e]) &&
			    sym_addr(t, &encodings[e], a->idx[k], raw[k]) == a->vmci)
				return true;
	return false;
}

int ol_kallsyms_find(const struct ol_mem *mem, struct ol_ksym *syms, size_t n,
		     struct ol_kallsyms_info *info, char *err, size_t errlen)
{
	struct tables t = { .mem = mem };
	struct want w[MAX_WANTED + NANCHORS + 2];
	uint32_t kept_idx[MAX_WANTED + NANCHORS + 2][OL_KSYM_KEEP];
	/*
	 * The initialized data section's bounds.  Up to 6.x kallsyms has nm's
	 * type letters, 'd'/'D' for initialized data; the 7.x tables type it
	 * 't'/'T' like text (bss keeps 'b'/'B').  A text-typed symbol between
	 * _sdata and _edata is data, whatever the letter says.
	 */
	struct ol_ksym bounds[2] = { { .name = "_sdata" }, { .name = "_edata" } };
	size_t nbounds_at;
	uint64_t sdata = 0, edata = 0;
	unsigned int retyped = 0;
	struct anchor an[NANCHORS];
	uint64_t raw[NANCHORS][4];
	size_t nw = 0, i, a;
	uint64_t delta = 0, kernel_offset = 0, deltas[2] = { 0, 0 };
	const struct encoding *enc = NULL, *first = NULL;
	int agree, best = 0, rc = -1;
	unsigned int k, e, d;

	if (err && errlen)
		err[0] = '\0';
	if (!mem || !mem->read || n > MAX_WANTED || (n && !syms)) {
		ksym_fail(err, errlen, "bad arguments to ol_kallsyms_find");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!syms[i].name || !syms[i].name[0] || strlen(syms[i].name) > KSYM_NAME_LEN) {
			ksym_fail(err, errlen, "bad symbol name to look up");
			return -1;
		}
		syms[i].found = syms[i].data = syms[i].kept = 0;
		memset(syms[i].match, 0, sizeof(syms[i].match));
	}
	memset(an, 0, sizeof(an));
	memset(raw, 0, sizeof(raw));
	for (i = 0; i < n; i++)
		w[nw++] = (struct want){ syms[i].name, strlen(syms[i].name), &syms[i], -1 };
	nbounds_at = nw;
	for (i = 0; i < 2; i++)
		w[nw++] = (struct want){ bounds[i].name, strlen(bounds[i].name), &bounds[i], -1 };
	for (a = 0; a < NANCHORS; a++) {
		if (ol_vmci_symbol(mem, anchor_names[a], &an[a].vmci) != 0 || !an[a].vmci)
			continue;
		for (i = 0; i < nw; i++)
			if (strcmp(w[i].name, anchor_names[a]) == 0 && w[i].anchor < 0)
				break;
		if (i < nw)
			w[i].anchor = (int)a;
		else
			w[nw++] = (struct want){ anchor_names[a], strlen(anchor_names[a]), NULL,
						 (int)a };
	}

	if (ksym_locate(&t, err, errlen) || ksym_read_tokens(&t, err, errlen) ||
	    ksym_walk_names(&t, w, nw, kept_idx, an, err, errlen))
		goto out;

	for (a = 0; a < NANCHORS; a++)
		for (k = 0; k < an[a].n; k++)
			if (read_raw(&t, an[a].idx[k], &raw[a][k]) != 0) {
				ksym_fail(err, errlen, "cannot read the kallsyms address of %s",
				     anchor_names[a]);
				goto out;
			}
	/*
	 * Each encoding the dump allows, as the table is and then (a table
	 * of link-time addresses, KASLR having moved the kernel) moved by
	 * KERNELOFFSET: the one the most anchors agree with, none against.
	 */
	if (ol_vmci_number(mem, "KERNELOFFSET", 16, &kernel_offset) == 0 && kernel_offset)
		deltas[1] = kernel_offset;
	for (d = 0; d < 2 && best <= 0; d++) {
		if (d && !deltas[d])
			break;
		for (e = 0; e < NENCODINGS; e++) {
			if (!encoding_usable(&t, &encodings[e]))
				continue;
			if (!first)
				first = &encodings[e];
			agree = anchors_agree(&t, an, raw, &encodings[e], deltas[d]);
			if (agree > best) {
				best = agree;
				enc = &encodings[e];
				delta = deltas[d];
			}
		}
	}
	if (best <= 0) {
		/* name the first anchor the table contradicts */
		for (a = 0; a < NANCHORS; a++) {
			if (!an[a].n || !an[a].vmci)
				continue;
			if (!anchor_fits(&t, &an[a], raw[a]))
				break;
		}
		if (a == NANCHORS)
			for (a = 0; a < NANCHORS; a++)
				if (an[a].n && an[a].vmci)
					break;
		if (a == NANCHORS)
			ksym_fail(err, errlen, "no symbol in kallsyms to check its addresses against "
			     "(none of _stext, init_uts_ns, ... was found)");
		else
			ksym_fail(err, errlen, "kallsyms addresses do not agree with VMCOREINFO: %s is "
			     "0x%" PRIx64 " there, 0x%" PRIx64 " by the table (read as %s)",
			     anchor_names[a], an[a].vmci,
			     first ? sym_addr(&t, first, an[a].idx[0], raw[a][0]) : 0,
			     first ? first->name : "no encoding this VMCOREINFO allows");
		goto out;
	}

	for (i = 0; i < n; i++)
		for (k = 0; k < syms[i].kept; k++) {
			uint64_t r;

			if (read_raw(&t, kept_idx[i][k], &r) != 0) {
				ksym_fail(err, errlen, "cannot read the kallsyms address of %s",
				     syms[i].name);
				goto out;
			}
			syms[i].match[k].addr = sym_addr(&t, enc, kept_idx[i][k], r) + delta;
		}
	for (i = 0; i < 2; i++) {
		uint64_t r;

		if (bounds[i].kept != 1 || read_raw(&t, kept_idx[nbounds_at + i][0], &r) != 0)
			break;
		*(i ? &edata : &sdata) = sym_addr(&t, enc, kept_idx[nbounds_at + i][0], r) + delta;
	}
	if (sdata && edata > sdata)
		for (i = 0; i < n; i++)
			for (k = 0; k < syms[i].kept; k++) {
				struct ol_ksym_match *m = &syms[i].match[k];

				if ((m->type == 't' || m->type == 'T') && m->addr >= sdata && m->addr < edata) {
					m->type = m->type == 't' ? 'd' : 'D';
					syms[i].data++;
					retyped++;
				}
			}
	if (info) {
		info->num_syms = t.num_syms;
		info->encoding = enc->name;
		info->retyped = retyped;
		info->unrelocated = delta != 0;
		info->anchors = (unsigned int)best;
	}
	rc = 0;
out:
	if (rc)
		for (i = 0; i < n; i++)
			syms[i].found = syms[i].data = syms[i].kept = 0;
	free(t.tokbuf);
	return rc;
}

int ol_ksym_pick(const struct ol_ksym *s, uint64_t *addr, char *type, char *why,
		 size_t whylen)
{
	unsigned int k, first = OL_KSYM_KEEP;

	if (s->found == 0) {
		ksym_fail(why, whylen, "no symbol %s in kallsyms", s->name);
		return -1;
	}
	for (k = 0; k < s->kept; k++)
		if (ksym_is_data(s->match[k].type)) {
			first = k;
			break;
		}
	if (s->data == 0 || first == OL_KSYM_KEEP) {
		ksym_fail(why, whylen, "%s in kallsyms is not a data symbol (type '%c')", s->name,
		     s->kept ? s->match[0].type : '?');
		return -1;
	}
	if (s->data > 1) {
		unsigned int second = first + 1;

		while (second < s->kept && !ksym_is_data(s->match[second].type))
			second++;
		if (second < s->kept)
			ksym_fail(why, whylen, "%u data symbols named %s in kallsyms (0x%" PRIx64
			     " '%c', 0x%" PRIx64 " '%c'): cannot tell which one is the kernel's",
			     s->data, s->name, s->match[first].addr, s->match[first].type,
			     s->match[second].addr, s->match[second].type);
		else
			ksym_fail(why, whylen, "%u data symbols named %s in kallsyms: cannot tell "
			     "which one is the kernel's", s->data, s->name);
		return -1;
	}
	*addr = s->match[first].addr;
	if (type)
		*type = s->match[first].type;
	return 0;
}
