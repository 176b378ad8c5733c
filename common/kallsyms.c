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
 * type letter.  kallsyms_offsets[i] is symbol i's address relative to
 * kallsyms_relative_base, in one of two encodings (see sym_addr()).
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
	bool has_relative;
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
 * Symbol i's address.  kallsyms_offsets holds, for each symbol, either
 * relative_base + (u32)offset, or with CONFIG_KALLSYMS_ABSOLUTE_PERCPU
 * (x86_64 SMP) an absolute value when the offset is not negative (the
 * per-CPU symbols) and relative_base - 1 - offset when it is.  Nothing in
 * the dump says which: the anchors decide.
 */
static uint64_t sym_addr(const struct tables *t, uint64_t raw, bool abs_percpu)
{
	int32_t off = (int32_t)(uint32_t)raw;

	if (!t->has_relative)
		return raw;
	if (!abs_percpu)
		return t->relative_base + (uint32_t)raw;
	if (off >= 0)
		return (uint64_t)off;
	return t->relative_base - 1 - (uint64_t)(int64_t)off;
}

/* The raw table entry of symbol idx: a u32 offset or a u64 address. */
static int read_raw(const struct tables *t, uint32_t idx, uint64_t *raw)
{
	uint8_t b[8];

	if (t->has_relative) {
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
			 uint64_t (*raw)[4], bool abs_percpu, uint64_t delta)
{
	int agree = 0;
	size_t a;
	unsigned int k;

	for (a = 0; a < NANCHORS; a++) {
		bool any = false;

		if (!an[a].n || !an[a].vmci)
			continue;
		for (k = 0; k < an[a].n && k < 4; k++)
			if (sym_addr(t, raw[a][k], abs_percpu) + delta == an[a].vmci)
				any = true;
		if (!any)
			return -1;
		agree++;
	}
	return agree;
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
		if (need_symbol(mem, "kallsyms_relative_base", &t->relative_base, err, errlen))
			return -1;
		t->has_relative = true;
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
	if (t->has_relative) {
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
	struct want w[MAX_WANTED + NANCHORS];
	uint32_t kept_idx[MAX_WANTED + NANCHORS][OL_KSYM_KEEP];
	struct anchor an[NANCHORS];
	uint64_t raw[NANCHORS][4];
	size_t nw = 0, i, a;
	uint64_t delta = 0, kernel_offset = 0;
	bool abs_percpu = false;
	int agree_rel, agree_abs, best = 0, rc = -1;
	unsigned int k;

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
	agree_rel = anchors_agree(&t, an, raw, false, 0);
	agree_abs = t.has_relative ? anchors_agree(&t, an, raw, true, 0) : -1;
	if (agree_rel > 0 || agree_abs > 0) {
		abs_percpu = agree_abs > agree_rel;
		best = abs_percpu ? agree_abs : agree_rel;
	} else if (ol_vmci_number(mem, "KERNELOFFSET", 16, &kernel_offset) == 0 &&
		   kernel_offset) {
		/* a table of link-time addresses: KASLR moved the kernel by KERNELOFFSET */
		agree_rel = anchors_agree(&t, an, raw, false, kernel_offset);
		agree_abs = t.has_relative ? anchors_agree(&t, an, raw, true, kernel_offset) : -1;
		if (agree_rel > 0 || agree_abs > 0) {
			abs_percpu = agree_abs > agree_rel;
			best = abs_percpu ? agree_abs : agree_rel;
			delta = kernel_offset;
		}
	}
	if (best <= 0) {
		/* name the first anchor the table contradicts */
		for (a = 0; a < NANCHORS; a++) {
			if (!an[a].n || !an[a].vmci)
				continue;
			for (k = 0; k < an[a].n; k++)
				if (sym_addr(&t, raw[a][k], false) == an[a].vmci ||
				    sym_addr(&t, raw[a][k], true) == an[a].vmci)
					break;
			if (k == an[a].n)
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
			     "0x%" PRIx64 " there, 0x%" PRIx64 " by the table", anchor_names[a],
			     an[a].vmci, sym_addr(&t, raw[a][0], false));
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
			syms[i].match[k].addr = sym_addr(&t, r, abs_percpu) + delta;
		}
	if (info) {
		info->num_syms = t.num_syms;
		info->absolute_percpu = abs_percpu;
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
