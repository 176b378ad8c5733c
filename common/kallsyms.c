// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols from the dump's kallsyms tables; see kallsyms.h.
 *
 * The format is the one scripts/kallsyms.c writes and kernel/kallsyms.c
 * reads: kallsyms_names is one entry per symbol, a length in tokens (one
 * byte, or two when the first has its top bit set: "big" symbols, since
 * 6.1) followed by that many token numbers; kallsyms_token_index gives each
 * of the 256 tokens' offset in kallsyms_token_table, where it is a
 * NUL-terminated string.  The first character of an expanded name is its
 * type letter.  How kallsyms_offsets[i] (or kallsyms_addresses[i]) gives
 * symbol i's address has changed between kernel versions: the encodings
 * table below has a row for each.
 *
 * Nothing read from the dump is trusted: every count, index and length is
 * checked against a fixed bound before it is used.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "vmcoreinfo.h"

/* Bounds no kernel comes near: Debian's 6.1 has about 140000 symbols. */
#define MAX_SYMS (1u << 22)
#define MAX_NAMES_BYTES (64u << 20)
#define MAX_TOKEN_TABLE (64u << 10)
#define KSYM_NAME_LEN 512	/* the kernel's limit since 6.1 (128 before) */
#define MAX_WANTED 64
#define CHUNK (64u << 10)
#define PAGE 4096u

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

static void fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

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

/* "6.1.0-57-cloud-amd64" -> is it at least 6.1? Unknown counts as yes. */
static bool release_has_big_symbols(const struct ol_mem *mem)
{
	char rel[80];
	unsigned long major, minor;
	char *end;

	if (!mem->vmcoreinfo || mem->vmcoreinfo(mem->ctx, "OSRELEASE", rel, sizeof(rel)) != 0)
		return true;
	rel[sizeof(rel) - 1] = '\0';
	major = strtoul(rel, &end, 10);
	if (end == rel || *end != '.')
		return true;
	minor = strtoul(end + 1, &end, 10);
	return major > 6 || (major == 6 && minor >= 1);
}

static int need_symbol(const struct ol_mem *mem, const char *name, uint64_t *addr, char *err,
		       size_t errlen)
{
	int rc = ol_vmci_symbol(mem, name, addr);

	if (rc == OL_VMCI_ABSENT)
		fail(err, errlen,
		     "no SYMBOL(%s) in VMCOREINFO (a kernel before 6.0, or without CONFIG_KALLSYMS)",
		     name);
	else if (rc == OL_VMCI_BAD)
		fail(err, errlen, "SYMBOL(%s) in VMCOREINFO is not an address", name);
	return rc;
}

/*
 * Reads up to len bytes at addr, stopping at the first byte that cannot be
 * read: a table may end right before a page that is not in the dump.
 * Whole pages first; within the page that fails, byte by byte (at most a
 * page of single reads), for readers that are not page-granular.
 */
static uint32_t read_upto(const struct ol_mem *mem, uint64_t addr, uint8_t *buf, uint32_t len)
{
	uint32_t got = 0;

	if (mem->read(mem->ctx, addr, buf, len) == 0)
		return len;
	while (got < len) {
		uint64_t a = addr + got;
		uint32_t n = PAGE - (uint32_t)(a % PAGE);

		if (n > len - got)
			n = len - got;
		if (mem->read(mem->ctx, a, buf + got, n) != 0)
			break;
		got += n;
	}
	while (got < len && mem->read(mem->ctx, addr + got, buf + got, 1) == 0)
		got++;
	return got;
}

/*
 * Reads the 256 tokens.  Their table must end (every token NUL-terminated)
 * within MAX_TOKEN_TABLE bytes and before kallsyms_token_index when that
 * follows it, as the kernel lays them out.
 */
static int read_tokens(struct tables *t, char *err, size_t errlen)
{
	uint8_t idx[512];
	uint32_t max = 0, span, got = 0, i;

	if (t->mem->read(t->mem->ctx, t->token_index, idx, sizeof(idx)) != 0) {
		fail(err, errlen, "cannot read kallsyms_token_index at 0x%" PRIx64, t->token_index);
		return -1;
	}
	for (i = 0; i < 256; i++)
		if (ol_le16(idx + 2 * i) > max)
			max = ol_le16(idx + 2 * i);
	span = max + KSYM_NAME_LEN + 1;
	if (t->token_index > t->token_table && t->token_index - t->token_table < span)
		span = (uint32_t)(t->token_index - t->token_table);
	if (max >= span || span > MAX_TOKEN_TABLE) {
		fail(err, errlen, "kallsyms_token_index has an offset %" PRIu32
		     " past the token table", max);
		return -1;
	}
	t->tokbuf = malloc(span);
	if (!t->tokbuf) {
		fail(err, errlen, "out of memory");
		return -1;
	}
	got = read_upto(t->mem, t->token_table, (uint8_t *)t->tokbuf, span);
	for (i = 0; i < 256; i++) {
		uint32_t off = ol_le16(idx + 2 * i);
		const char *nul;

		if (off >= got) {
			fail(err, errlen, "cannot read kallsyms token %" PRIu32 " at 0x%" PRIx64, i,
			     t->token_table + off);
			return -1;
		}
		nul = memchr(t->tokbuf + off, '\0', got - off);
		if (!nul) {
			fail(err, errlen, "kallsyms token %" PRIu32 " never ends", i);
			return -1;
		}
		t->tok[i] = t->tokbuf + off;
		t->toklen[i] = (uint16_t)(nul - t->tok[i]);
	}
	return 0;
}

/* A sliding window over kallsyms_names. */
struct names_reader {
	struct tables *t;
	uint8_t *buf;
	uint64_t base;	/* address of buf[0] */
	uint32_t len;	/* bytes valid in buf */
	bool past_end;	/* the last request ran past the table */
};

/* Makes [pos, pos + need) available in the window; pointer or NULL. */
static const uint8_t *names_at(struct names_reader *r, uint64_t pos, uint32_t need)
{
	uint32_t want, got = 0;

	if (pos >= r->base && pos - r->base + need <= r->len)
		return r->buf + (pos - r->base);
	r->past_end = pos >= r->t->names_end || r->t->names_end - pos < need;
	if (r->past_end)
		return NULL;
	want = CHUNK;
	if (r->t->names_end - pos < want)
		want = (uint32_t)(r->t->names_end - pos);
	got = read_upto(r->t->mem, pos, r->buf, want);
	r->base = pos;
	r->len = got;
	return got >= need ? r->buf : NULL;
}

/* The ".llvm.<hash>" a clang LTO build appends to promoted statics. */
static size_t base_len(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i + 6 <= len; i++)
		if (memcmp(name + i, ".llvm.", 6) == 0)
			return i;
	return len;
}

static bool is_data(char type)
{
	return type == 'd' || type == 'D' || type == 'b' || type == 'B';
}

static void keep_match(struct ol_ksym *s, uint32_t idx, char type, uint32_t *kept_idx)
{
	unsigned int slot = s->kept;

	s->found++;
	if (is_data(type))
		s->data++;
	if (slot == OL_KSYM_KEEP) {
		/* full: a data symbol still displaces the last non-data one */
		if (!is_data(type))
			return;
		while (slot > 0 && is_data(s->match[slot - 1].type))
			slot--;
		if (slot == 0)
			return;
		slot--;
	} else {
		s->kept++;
	}
	s->match[slot].type = type;
	kept_idx[slot] = idx;
}

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

static int walk_names(struct tables *t, struct want *w, size_t nw, uint32_t (*kept_idx)[OL_KSYM_KEEP],
		      struct anchor *an, char *err, size_t errlen)
{
	struct names_reader r = { .t = t };
	char name[1 + KSYM_NAME_LEN + 1];
	uint64_t pos = t->names;
	uint32_t i;
	size_t k;
	int rc = -1;

	r.buf = malloc(CHUNK);
	if (!r.buf) {
		fail(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < t->num_syms; i++) {
		const uint8_t *p = names_at(&r, pos, 1);
		uint32_t len, hdr = 1, j, out = 0;

		if (!p)
			goto short_table;
		len = p[0];
		if ((len & 0x80) && t->big_lengths) {
			p = names_at(&r, pos, 2);
			if (!p)
				goto short_table;
			len = (len & 0x7f) | (uint32_t)p[1] << 7;
			hdr = 2;
		}
		if (len == 0) {
			fail(err, errlen, "kallsyms_names is damaged: symbol %" PRIu32
			     " has an empty name", i);
			goto out;
		}
		p = names_at(&r, pos, hdr + len);
		if (!p)
			goto short_table;
		for (j = 0; j < len; j++) {
			uint8_t tk = p[hdr + j];

			if (out + t->toklen[tk] > sizeof(name) - 1) {
				fail(err, errlen, "kallsyms_names is damaged: symbol %" PRIu32
				     " is longer than %u characters", i, KSYM_NAME_LEN);
				goto out;
			}
			memcpy(name + out, t->tok[tk], t->toklen[tk]);
			out += t->toklen[tk];
		}
		pos += hdr + len;
		if (out < 2)
			continue;	/* a type letter without a name */
		name[out] = '\0';
		for (k = 0; k < nw; k++) {
			size_t blen;

			if (name[1] != w[k].name[0])
				continue;
			blen = base_len(name + 1, out - 1);
			if (blen != w[k].len || memcmp(name + 1, w[k].name, blen) != 0)
				continue;
			if (w[k].sym)
				keep_match(w[k].sym, i, name[0], kept_idx[k]);
			if (w[k].anchor >= 0 && an[w[k].anchor].n < 4)
				an[w[k].anchor].idx[an[w[k].anchor].n++] = i;
		}
	}
	rc = 0;
	goto out;
short_table:
	fail(err, errlen, "cannot read kallsyms_names at 0x%" PRIx64 " (symbol %" PRIu32 " of %"
	     PRIu32 "): %s", pos, i, t->num_syms,
	     r.past_end ? "it runs past its table" : "page not in the dump");
out:
	free(r.buf);
	return rc;
}

static int locate(struct tables *t, char *err, size_t errlen)
{
	const struct ol_mem *mem = t->mem;
	uint64_t num_addr;
	uint8_t b[8];
	int rc;

	if (need_symbol(mem, "kallsyms_names", &t->names, err, errlen) ||
	    need_symbol(mem, "kallsyms_num_syms", &num_addr, err, errlen) ||
	    need_symbol(mem, "kallsyms_token_table", &t->token_table, err, errlen) ||
	    need_symbol(mem, "kallsyms_token_index", &t->token_index, err, errlen))
		return -1;
	rc = ol_vmci_symbol(mem, "kallsyms_offsets", &t->offsets);
	if (rc == 0) {
		t->has_offsets = true;
		/* gone since 7.0, whose offsets are place-relative */
		rc = ol_vmci_symbol(mem, "kallsyms_relative_base", &t->relative_base);
		if (rc == OL_VMCI_BAD) {
			fail(err, errlen, "SYMBOL(kallsyms_relative_base) in VMCOREINFO is not an address");
			return -1;
		}
		t->has_base = rc == 0;
	} else if (rc == OL_VMCI_BAD) {
		fail(err, errlen, "SYMBOL(kallsyms_offsets) in VMCOREINFO is not an address");
		return -1;
	} else if (ol_vmci_symbol(mem, "kallsyms_addresses", &t->addresses) != 0) {
		fail(err, errlen, "VMCOREINFO has neither SYMBOL(kallsyms_offsets) nor "
		     "SYMBOL(kallsyms_addresses)");
		return -1;
	}
	if (mem->read(mem->ctx, num_addr, b, 4) != 0) {
		fail(err, errlen, "cannot read kallsyms_num_syms at 0x%" PRIx64, num_addr);
		return -1;
	}
	t->num_syms = ol_le32(b);
	if (t->num_syms == 0 || t->num_syms > MAX_SYMS) {
		fail(err, errlen, "kallsyms_num_syms is %" PRIu32 ": %s", t->num_syms,
		     t->num_syms ? "past any kernel's table" : "an empty table");
		return -1;
	}
	if (t->has_base) {
		/* until now the variable's address, from here on its value */
		uint64_t base_addr = t->relative_base;

		if (mem->read(mem->ctx, base_addr, b, 8) != 0) {
			fail(err, errlen, "cannot read kallsyms_relative_base at 0x%" PRIx64,
			     base_addr);
			return -1;
		}
		t->relative_base = ol_le64(b);
	}
	/*
	 * The kernel puts kallsyms_markers (and, in trees with the faster
	 * kallsyms_lookup_name(), kallsyms_seqs_of_names) between the names
	 * and the token table: the names end before the tokens begin.
	 */
	t->names_end = t->names + MAX_NAMES_BYTES;
	if (t->names_end < t->names)
		t->names_end = UINT64_MAX;
	if (t->token_table > t->names && t->token_table < t->names_end)
		t->names_end = t->token_table;
	t->big_lengths = release_has_big_symbols(mem);
	return 0;
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
		fail(err, errlen, "bad arguments to ol_kallsyms_find");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!syms[i].name || !syms[i].name[0] || strlen(syms[i].name) > KSYM_NAME_LEN) {
			fail(err, errlen, "bad symbol name to look up");
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

	if (locate(&t, err, errlen) || read_tokens(&t, err, errlen) ||
	    walk_names(&t, w, nw, kept_idx, an, err, errlen))
		goto out;

	for (a = 0; a < NANCHORS; a++)
		for (k = 0; k < an[a].n; k++)
			if (read_raw(&t, an[a].idx[k], &raw[a][k]) != 0) {
				fail(err, errlen, "cannot read the kallsyms address of %s",
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
			fail(err, errlen, "no symbol in kallsyms to check its addresses against "
			     "(none of _stext, init_uts_ns, ... was found)");
		else
			fail(err, errlen, "kallsyms addresses do not agree with VMCOREINFO: %s is "
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
				fail(err, errlen, "cannot read the kallsyms address of %s",
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
		fail(why, whylen, "no symbol %s in kallsyms", s->name);
		return -1;
	}
	for (k = 0; k < s->kept; k++)
		if (is_data(s->match[k].type)) {
			first = k;
			break;
		}
	if (s->data == 0 || first == OL_KSYM_KEEP) {
		fail(why, whylen, "%s in kallsyms is not a data symbol (type '%c')", s->name,
		     s->kept ? s->match[0].type : '?');
		return -1;
	}
	if (s->data > 1) {
		unsigned int second = first + 1;

		while (second < s->kept && !is_data(s->match[second].type))
			second++;
		if (second < s->kept)
			fail(why, whylen, "%u data symbols named %s in kallsyms (0x%" PRIx64
			     " '%c', 0x%" PRIx64 " '%c'): cannot tell which one is the kernel's",
			     s->data, s->name, s->match[first].addr, s->match[first].type,
			     s->match[second].addr, s->match[second].type);
		else
			fail(why, whylen, "%u data symbols named %s in kallsyms: cannot tell "
			     "which one is the kernel's", s->data, s->name);
		return -1;
	}
	*addr = s->match[first].addr;
	if (type)
		*type = s->match[first].type;
	return 0;
}
