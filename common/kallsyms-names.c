// SPDX-License-Identifier: GPL-2.0
/*
 * The names in the dump's kallsyms tables, for kallsyms.c: where the
 * tables are (VMCOREINFO's SYMBOL() lines), their 256 tokens, and the one
 * walk over kallsyms_names that keeps the matches of every name looked for.
 *
 * The format is the one scripts/kallsyms.c writes and kernel/kallsyms.c
 * reads: kallsyms_names is one entry per symbol, a length in tokens (one
 * byte, or two when the first has its top bit set: "big" symbols, since
 * 6.1) followed by that many token numbers; kallsyms_token_index gives each
 * of the 256 tokens' offset in kallsyms_token_table, where it is a
 * NUL-terminated string.  The first character of an expanded name is its
 * type letter.
 *
 * Nothing read from the dump is trusted: every count, index and length is
 * checked against a fixed bound (kallsyms-int.h) before it is used.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "kallsyms-int.h"
#include "vmcoreinfo.h"

void ksym_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

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
		ksym_fail(err, errlen,
		     "no SYMBOL(%s) in VMCOREINFO (a kernel before 6.0, or without CONFIG_KALLSYMS)",
		     name);
	else if (rc == OL_VMCI_BAD)
		ksym_fail(err, errlen, "SYMBOL(%s) in VMCOREINFO is not an address", name);
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
int ksym_read_tokens(struct tables *t, char *err, size_t errlen)
{
	uint8_t idx[512];
	uint32_t max = 0, span, got = 0, i;

	if (t->mem->read(t->mem->ctx, t->token_index, idx, sizeof(idx)) != 0) {
		ksym_fail(err, errlen, "cannot read kallsyms_token_index at 0x%" PRIx64, t->token_index);
		return -1;
	}
	for (i = 0; i < 256; i++)
		if (ol_le16(idx + 2 * i) > max)
			max = ol_le16(idx + 2 * i);
	span = max + KSYM_NAME_LEN + 1;
	if (t->token_index > t->token_table && t->token_index - t->token_table < span)
		span = (uint32_t)(t->token_index - t->token_table);
	if (max >= span || span > MAX_TOKEN_TABLE) {
		ksym_fail(err, errlen, "kallsyms_token_index has an offset %" PRIu32
		     " past the token table", max);
		return -1;
	}
	t->tokbuf = malloc(span);
	if (!t->tokbuf) {
		ksym_fail(err, errlen, "out of memory");
		return -1;
	}
	got = read_upto(t->mem, t->token_table, (uint8_t *)t->tokbuf, span);
	for (i = 0; i < 256; i++) {
		uint32_t off = ol_le16(idx + 2 * i);
		const char *nul;

		if (off >= got) {
			ksym_fail(err, errlen, "cannot read kallsyms token %" PRIu32 " at 0x%" PRIx64, i,
			     t->token_table + off);
			return -1;
		}
		nul = memchr(t->tokbuf + off, '\0', got - off);
		if (!nul) {
			ksym_fail(err, errlen, "kallsyms token %" PRIu32 " never ends", i);
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

bool ksym_is_data(char type)
{
	return type == 'd' || type == 'D' || type == 'b' || type == 'B';
}

static void keep_match(struct ol_ksym *s, uint32_t idx, char type, uint32_t *kept_idx)
{
	unsigned int slot = s->kept;

	s->found++;
	if (ksym_is_data(type))
		s->data++;
	if (slot == OL_KSYM_KEEP) {
		/* full: a data symbol still displaces the last non-data one */
		if (!ksym_is_data(type))
			return;
		while (slot > 0 && ksym_is_data(s->match[slot - 1].type))
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

int ksym_walk_names(struct tables *t, struct want *w, size_t nw, uint32_t (*kept_idx)[OL_KSYM_KEEP],
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
		ksym_fail(err, errlen, "out of memory");
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
			ksym_fail(err, errlen, "kallsyms_names is damaged: symbol %" PRIu32
			     " has an empty name", i);
			goto out;
		}
		p = names_at(&r, pos, hdr + len);
		if (!p)
			goto short_table;
		for (j = 0; j < len; j++) {
			uint8_t tk = p[hdr + j];

			if (out + t->toklen[tk] > sizeof(name) - 1) {
				ksym_fail(err, errlen, "kallsyms_names is damaged: symbol %" PRIu32
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
	ksym_fail(err, errlen, "cannot read kallsyms_names at 0x%" PRIx64 " (symbol %" PRIu32 " of %"
	     PRIu32 "): %s", pos, i, t->num_syms,
	     r.past_end ? "it runs past its table" : "page not in the dump");
out:
	free(r.buf);
	return rc;
}

int ksym_locate(struct tables *t, char *err, size_t errlen)
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
			ksym_fail(err, errlen, "SYMBOL(kallsyms_relative_base) in VMCOREINFO is not an address");
			return -1;
		}
		t->has_base = rc == 0;
	} else if (rc == OL_VMCI_BAD) {
		ksym_fail(err, errlen, "SYMBOL(kallsyms_offsets) in VMCOREINFO is not an address");
		return -1;
	} else if (ol_vmci_symbol(mem, "kallsyms_addresses", &t->addresses) != 0) {
		ksym_fail(err, errlen, "VMCOREINFO has neither SYMBOL(kallsyms_offsets) nor "
		     "SYMBOL(kallsyms_addresses)");
		return -1;
	}
	if (mem->read(mem->ctx, num_addr, b, 4) != 0) {
		ksym_fail(err, errlen, "cannot read kallsyms_num_syms at 0x%" PRIx64, num_addr);
		return -1;
	}
	t->num_syms = ol_le32(b);
	if (t->num_syms == 0 || t->num_syms > MAX_SYMS) {
		ksym_fail(err, errlen, "kallsyms_num_syms is %" PRIu32 ": %s", t->num_syms,
		     t->num_syms ? "past any kernel's table" : "an empty table");
		return -1;
	}
	if (t->has_base) {
		/* until now the variable's address, from here on its value */
		uint64_t base_addr = t->relative_base;

		if (mem->read(mem->ctx, base_addr, b, 8) != 0) {
			ksym_fail(err, errlen, "cannot read kallsyms_relative_base at 0x%" PRIx64,
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
