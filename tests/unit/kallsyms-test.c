// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of common/kallsyms.c and common/vmcoreinfo.c without a dump:
 * kallsyms tables built in memory the way scripts/kallsyms.c lays them out,
 * then damaged one way at a time.  With --seed FILE, writes the first
 * test's tables to FILE as a fuzzing seed instead.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/kallsyms.h"
#include "../../common/vmcoreinfo.h"
#include "memimg.h"
#include "tap.h"

#define BASE UINT64_C(0xffffffff81000000)	/* _stext and the relative base */
#define TABLES UINT64_C(0xffffffff82000000)	/* where the tables live */

struct sym {
	const char *name;	/* type letter first, as in kallsyms_names */
	uint64_t addr;
};

/* The symbols, in address order like the kernel's table. */
static const struct sym base_syms[] = {
	{ "Afixed_percpu_data", 0x0 },
	{ "Acpu_number", 0x1f000 },
	{ "T_stext", BASE },
	{ "twarn_count_show", BASE + 0x95130 },
	{ "toops_count_show", BASE + 0x98990 },
	{ "Twarn_limit", BASE + 0x99000 },	/* a function: never the variable */
	{ "doops_limit", BASE + 0x1a4f220 },
	{ "dprb", BASE + 0x1a622c0 },
	{ "dwarn_limit.1", BASE + 0x1b4ef60 },	/* mm/percpu.c's function-local */
	{ "Dinit_uts_ns", BASE + 0x1bf9b60 },
	{ "dwarn_limit", BASE + 0x1c388e4 },
	{ "Dpanic_on_warn", BASE + 0x1c388e8 },
	{ "Bpanic_on_oops", BASE + 0x22ee85c },
	{ "bwarn_count", BASE + 0x22eeca4 },
	{ "btainted_mask", BASE + 0x22eecb8 },
	{ "boops_count", BASE + 0x22ef0ec },
	{ "bstatic_thing.llvm.123456", BASE + 0x22ef200 },
};
#define NBASE (sizeof(base_syms) / sizeof(base_syms[0]))

/*
 * The same kernel as 7.x's kallsyms types it: initialized data 't'/'T'
 * like text (bss keeps 'b'/'B'), the data section between _sdata and
 * _edata.
 */
static const struct sym v7_syms[] = {
	{ "T_stext", BASE },
	{ "twarn_count_show", BASE + 0x95130 },
	{ "Twarn_limit", BASE + 0x99000 },	/* the function */
	{ "T_sdata", BASE + 0x1a00000 },
	{ "toops_limit", BASE + 0x1a4f220 },
	{ "Tprb", BASE + 0x1a622c0 },
	{ "Tinit_uts_ns", BASE + 0x1bf9b60 },
	{ "twarn_limit", BASE + 0x1c388e4 },	/* the variable */
	{ "Tpanic_on_warn", BASE + 0x1c388e8 },
	{ "T_edata", BASE + 0x1d00000 },
	{ "Bpanic_on_oops", BASE + 0x22ee85c },
	{ "boops_count", BASE + 0x22ef0ec },
};
#define NV7 (sizeof(v7_syms) / sizeof(v7_syms[0]))

enum encoding { RELATIVE, ABS_PERCPU, ADDRESSES, PLACE };

/* A table image: its bytes, where each part starts, and VMCOREINFO. */
struct table {
	uint8_t buf[1 << 16];
	size_t len;
	size_t gap;	/* where the names end */
	uint64_t names, token_table, token_index, offsets, relative_base, num_syms, addresses;
	char vmci[4096];
	struct memimg img;
	struct ol_mem mem;
};

static char tokens[256][16];

/*
 * Tokens: each printable character stands for itself; a few codes below
 * 0x20 stand for the common words, to exercise multi-character tokens.
 */
static void make_tokens(void)
{
	static const char *const words[] = { "warn_", "oops_", "limit", "count", "panic_on_" };
	int c;

	for (c = 0; c < 256; c++) {
		if (c >= 0x21 && c < 0x7f) {
			tokens[c][0] = (char)c;
			tokens[c][1] = '\0';
		} else if (c >= 1 && c <= 5) {
			strcpy(tokens[c], words[c - 1]);
		} else {
			strcpy(tokens[c], "?");
		}
	}
}

/* Greedy encoding of name into token numbers; returns the count. */
static size_t encode(const char *name, uint8_t *out)
{
	size_t n = 0;

	while (*name) {
		int best = (unsigned char)*name;
		size_t blen = 1;
		int c;

		for (c = 1; c <= 5; c++) {
			size_t l = strlen(tokens[c]);

			if (l > blen && strncmp(name, tokens[c], l) == 0) {
				best = c;
				blen = l;
			}
		}
		out[n++] = (uint8_t)best;
		name += blen;
	}
	return n;
}

static void put(struct table *t, const void *p, size_t n)
{
	memcpy(t->buf + t->len, p, n);
	t->len += n;
}

static void put_le(struct table *t, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		t->buf[t->len++] = (uint8_t)(v >> (8 * i));
}

static void align8(struct table *t)
{
	while (t->len % 8)
		t->buf[t->len++] = 0;
}

static void vmci_add(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void vmci_add(struct table *t, const char *fmt, ...)
{
	size_t l = strlen(t->vmci);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->vmci + l, sizeof(t->vmci) - l, fmt, ap);
	va_end(ap);
}

/*
 * Builds the tables for syms in encoding enc.  With unrelocate, the table
 * holds link-time addresses, that much below the running kernel's, and
 * VMCOREINFO says KERNELOFFSET (a running kernel relocates its table, so
 * only the KASLR test uses it).
 */
static void build(struct table *t, const struct sym *syms, size_t n, enum encoding enc,
		  int64_t unrelocate)
{
	uint8_t enc_name[600];
	size_t i;
	uint64_t rel_base = BASE - (uint64_t)unrelocate;

	memset(t, 0, sizeof(*t));
	/* kallsyms_offsets or kallsyms_addresses */
	t->offsets = t->addresses = TABLES + t->len;
	for (i = 0; i < n; i++) {
		uint64_t a = syms[i].addr - (syms[i].name[0] == 'A' ? 0 : (uint64_t)unrelocate);

		if (enc == ADDRESSES)
			put_le(t, a, 8);
		else if (enc == PLACE)	/* 7.0: relative to the entry's own place */
			put_le(t, (uint32_t)(int32_t)(int64_t)(a - (t->offsets + 4 * i)), 4);
		else if (enc == RELATIVE || syms[i].name[0] != 'A')
			put_le(t, enc == RELATIVE ? (uint32_t)(a - rel_base)
				  : (uint32_t)(int32_t)(rel_base - a - 1), 4);
		else
			put_le(t, a, 4);
	}
	align8(t);
	t->relative_base = TABLES + t->len;
	put_le(t, rel_base, 8);
	t->num_syms = TABLES + t->len;
	put_le(t, n, 4);
	align8(t);
	t->names = TABLES + t->len;
	for (i = 0; i < n; i++) {
		size_t k = encode(syms[i].name, enc_name);

		if (k > 0x7f) {
			put_le(t, (k & 0x7f) | 0x80, 1);
			put_le(t, k >> 7, 1);
		} else {
			put_le(t, k, 1);
		}
		put(t, enc_name, k);
	}
	t->gap = t->len;
	align8(t);
	put_le(t, 0, 8);	/* kallsyms_markers */
	t->token_table = TABLES + t->len;
	{
		uint16_t idx[256];
		int c;

		for (c = 0; c < 256; c++) {
			idx[c] = (uint16_t)(TABLES + t->len - t->token_table);
			put(t, tokens[c], strlen(tokens[c]) + 1);
		}
		align8(t);
		t->token_index = TABLES + t->len;
		for (c = 0; c < 256; c++)
			put_le(t, idx[c], 2);
	}
	align8(t);

	vmci_add(t, "OSRELEASE=6.1.0-test\nPAGESIZE=4096\n");
	/* the anchors: symbols VMCOREINFO also names */
	for (i = 0; i < n; i++)
		if (!strcmp(syms[i].name + 1, "_stext") || !strcmp(syms[i].name + 1, "init_uts_ns") ||
		    !strcmp(syms[i].name + 1, "prb"))
			vmci_add(t, "SYMBOL(%s)=%" PRIx64 "\n", syms[i].name + 1, syms[i].addr);
	vmci_add(t, "SYMBOL(kallsyms_names)=%" PRIx64 "\n", t->names);
	vmci_add(t, "SYMBOL(kallsyms_num_syms)=%" PRIx64 "\n", t->num_syms);
	vmci_add(t, "SYMBOL(kallsyms_token_table)=%" PRIx64 "\n", t->token_table);
	vmci_add(t, "SYMBOL(kallsyms_token_index)=%" PRIx64 "\n", t->token_index);
	if (enc == ADDRESSES) {
		vmci_add(t, "SYMBOL(kallsyms_addresses)=%" PRIx64 "\n", t->addresses);
	} else {
		vmci_add(t, "SYMBOL(kallsyms_offsets)=%" PRIx64 "\n", t->offsets);
		if (enc != PLACE)
			vmci_add(t, "SYMBOL(kallsyms_relative_base)=%" PRIx64 "\n", t->relative_base);
	}
	if (unrelocate)
		vmci_add(t, "KERNELOFFSET=%" PRIx64 "\n", (uint64_t)unrelocate);
}

/* Deletes the line that starts with key from VMCOREINFO. */
static void vmci_del(struct table *t, const char *key)
{
	char *p = strstr(t->vmci, key), *e;

	if (!p)
		return;
	e = strchr(p, '\n');
	memmove(p, e ? e + 1 : p + strlen(p), strlen(e ? e + 1 : p + strlen(p)) + 1);
}

/* Makes the image readable: the whole table, or with a hole. */
static struct ol_mem *image(struct table *t, uint64_t hole, size_t hole_len)
{
	memset(&t->img, 0, sizeof(t->img));
	t->img.vmci = t->vmci;
	t->img.vmci_len = strlen(t->vmci);
	if (hole_len) {
		size_t at = (size_t)(hole - TABLES);

		memimg_add(&t->img, TABLES, t->buf, at);
		memimg_add(&t->img, hole + hole_len, t->buf + at + hole_len,
			   t->len - at - hole_len);
	} else {
		memimg_add(&t->img, TABLES, t->buf, t->len);
	}
	t->mem = memimg_mem(&t->img);
	return &t->mem;
}

static uint64_t addr_of(const char *name)
{
	size_t i;

	for (i = 0; i < NBASE; i++)
		if (strchr("dDbB", base_syms[i].name[0]) && strcmp(base_syms[i].name + 1, name) == 0)
			return base_syms[i].addr;
	return 0;
}

static const char *const vars[] = {
	"oops_count", "oops_limit", "warn_count", "warn_limit", "panic_on_oops",
	"panic_on_warn", "tainted_mask",
};
#define NVARS (sizeof(vars) / sizeof(vars[0]))

static void check_vars(struct table *t, const char *what)
{
	struct ol_ksym s[NVARS];
	struct ol_kallsyms_info info;
	char err[256] = "", why[256], msg[300];
	size_t i;
	bool all = true;

	for (i = 0; i < NVARS; i++)
		s[i].name = vars[i];
	if (ol_kallsyms_find(image(t, 0, 0), s, NVARS, &info, err, sizeof(err)) != 0) {
		snprintf(msg, sizeof(msg), "%s: the tables decode", what);
		ok_got(false, msg, err);
		return;
	}
	for (i = 0; i < NVARS; i++) {
		uint64_t a = 0;

		if (ol_ksym_pick(&s[i], &a, NULL, why, sizeof(why)) != 0 || a != addr_of(vars[i])) {
			printf("# %s: %s at 0x%" PRIx64 " (%s)\n", what, vars[i], a, why);
			all = false;
		}
	}
	snprintf(msg, sizeof(msg), "%s: all seven variables at their addresses", what);
	ok(all, msg);
	snprintf(msg, sizeof(msg), "%s: %zu symbols, checked against 3 anchors", what, NBASE);
	ok(info.num_syms == NBASE && info.anchors == 3, msg);
}

static void test_encodings(void)
{
	static struct table t;
	struct ol_ksym s = { .name = "warn_limit" };
	struct ol_kallsyms_info info;
	char err[256];

	build(&t, base_syms, NBASE, RELATIVE, 0);
	check_vars(&t, "relative offsets");
	build(&t, base_syms, NBASE, ABS_PERCPU, 0);
	check_vars(&t, "absolute per-CPU offsets");
	ol_kallsyms_find(image(&t, 0, 0), &s, 1, &info, err, sizeof(err));
	ok(!strcmp(info.encoding, "absolute per-CPU offsets") && !info.unrelocated,
	   "the absolute per-CPU form is recognised");
	ok(s.found == 2 && s.data == 1, "warn_limit: a function and a variable, not warn_limit.1");
	build(&t, base_syms, NBASE, ADDRESSES, 0);
	check_vars(&t, "kallsyms_addresses");

	/* 7.0: place-relative offsets, no kallsyms_relative_base */
	build(&t, base_syms, NBASE, PLACE, 0);
	check_vars(&t, "place-relative offsets (7.0)");
	ol_kallsyms_find(image(&t, 0, 0), &s, 1, &info, err, sizeof(err));
	ok(!strcmp(info.encoding, "place-relative offsets"), "the place-relative form is recognised");

	/* base-relative offsets, VMCOREINFO without kallsyms_relative_base:
	 * read as place-relative they contradict the anchors: refused */
	build(&t, base_syms, NBASE, RELATIVE, 0);
	vmci_del(&t, "SYMBOL(kallsyms_relative_base)");
	s.found = 0;
	ok_got(ol_kallsyms_find(image(&t, 0, 0), &s, 1, &info, err, sizeof(err)) == -1 &&
	       strstr(err, "do not agree with VMCOREINFO") && strstr(err, "place-relative") && s.found == 0,
	       "base-relative offsets without kallsyms_relative_base: refused, no address made up", err);
}

static void test_text_typed_data(void)
{
	static struct table t;
	struct ol_ksym s[3] = { { .name = "warn_limit" }, { .name = "oops_limit" }, { .name = "panic_on_warn" } };
	struct ol_kallsyms_info info;
	char err[256] = "", why[256] = "";
	uint64_t a[3] = { 0, 0, 0 };
	int rc;

	build(&t, v7_syms, NV7, PLACE, 0);
	rc = ol_kallsyms_find(image(&t, 0, 0), s, 3, &info, err, sizeof(err));
	ok_got(rc == 0 && ol_ksym_pick(&s[0], &a[0], NULL, why, sizeof(why)) == 0 &&
	       ol_ksym_pick(&s[1], &a[1], NULL, why, sizeof(why)) == 0 &&
	       ol_ksym_pick(&s[2], &a[2], NULL, why, sizeof(why)) == 0 &&
	       a[0] == BASE + 0x1c388e4 && a[1] == BASE + 0x1a4f220 && a[2] == BASE + 0x1c388e8,
	       "7.x's text-typed data between _sdata and _edata: the variables, not the function", rc ? err : why);
	ok(rc == 0 && info.retyped == 3, "7.x's text-typed data: three matches made data by their address");

	/* without the section's bounds a text letter stays text: no address */
	{
		struct ol_ksym w = { .name = "warn_limit" };
		static const struct sym no_bounds[] = {
			{ "T_stext", BASE }, { "Tprb", BASE + 0x1a622c0 }, { "Tinit_uts_ns", BASE + 0x1bf9b60 },
			{ "Twarn_limit", BASE + 0x99000 }, { "twarn_limit", BASE + 0x1c388e4 },
		};

		build(&t, no_bounds, 5, PLACE, 0);
		rc = ol_kallsyms_find(image(&t, 0, 0), &w, 1, &info, err, sizeof(err));
		ok_got(rc == 0 && ol_ksym_pick(&w, &a[0], NULL, why, sizeof(why)) == -1 &&
		       strstr(why, "not a data symbol"), "text-typed symbols without _sdata/_edata: no variable guessed", why);
	}
}

static void test_kaslr(void)
{
	static struct table t;
	struct ol_ksym s = { .name = "oops_count" };
	struct ol_kallsyms_info info;
	char err[256] = "";
	int rc;

	build(&t, base_syms, NBASE, ABS_PERCPU, 0x3e000000);
	rc = ol_kallsyms_find(image(&t, 0, 0), &s, 1, &info, err, sizeof(err));
	ok_got(rc == 0 && s.kept == 1 && s.match[0].addr == addr_of("oops_count") &&
	       info.unrelocated, "a link-time table is moved by KERNELOFFSET", err);

	/* the same without the KERNELOFFSET line: say so, make nothing up */
	vmci_del(&t, "KERNELOFFSET");
	rc = ol_kallsyms_find(image(&t, 0, 0), &s, 1, &info, err, sizeof(err));
	ok_got(rc == -1 && strstr(err, "do not agree with VMCOREINFO") && s.found == 0,
	       "without KERNELOFFSET a link-time table is an error", err);
}

static void test_pick(void)
{
	static struct table t;
	static const struct sym dup[] = {
		{ "T_stext", BASE },
		{ "Dinit_uts_ns", BASE + 0x100 },
		{ "dwarn_limit", BASE + 0x200 },
		{ "twarn_count", BASE + 0x300 },
		{ "dwarn_limit", BASE + 0x400 },
		{ "bwarn_count", BASE + 0x500 },
		{ "toops_count", BASE + 0x600 },
	};
	struct ol_ksym s[4] = { { .name = "warn_limit" }, { .name = "warn_count" },
				{ .name = "oops_count" }, { .name = "oops_limit" } };
	char err[256] = "", why[256] = "";
	uint64_t a = 0;
	char type = 0;
	int rc;

	build(&t, dup, sizeof(dup) / sizeof(dup[0]), RELATIVE, 0);
	rc = ol_kallsyms_find(image(&t, 0, 0), s, 4, NULL, err, sizeof(err));
	ok_got(rc == 0, "a table with collisions decodes", err);
	ok(s[0].found == 2 && s[0].data == 2, "two data symbols named warn_limit are both found");
	rc = ol_ksym_pick(&s[0], &a, NULL, why, sizeof(why));
	ok_got(rc == -1 && strstr(why, "cannot tell") && strstr(why, "0xffffffff81000200") &&
	       strstr(why, "0xffffffff81000400"), "two data symbols: cannot decide, says both", why);
	rc = ol_ksym_pick(&s[1], &a, &type, why, sizeof(why));
	ok(rc == 0 && a == BASE + 0x500 && type == 'b', "warn_count: the 'b' over the 't'");
	rc = ol_ksym_pick(&s[2], &a, NULL, why, sizeof(why));
	ok_got(rc == -1 && strstr(why, "not a data symbol"), "only a function: refused", why);
	rc = ol_ksym_pick(&s[3], &a, NULL, why, sizeof(why));
	ok_got(rc == -1 && s[3].found == 0 && strstr(why, "no symbol oops_limit"),
	       "absent: no symbol", why);
}

/* Many collisions: the data symbol is kept even after OL_KSYM_KEEP others. */
static void test_keep(void)
{
	static struct table t;
	static struct sym many[3 + 2 * OL_KSYM_KEEP];
	struct ol_ksym s = { .name = "x" };
	char err[256] = "";
	uint64_t a = 0;
	size_t n = 0, i;

	many[n++] = (struct sym){ "T_stext", BASE };
	many[n++] = (struct sym){ "Dinit_uts_ns", BASE + 0x10 };
	for (i = 0; i < 2 * OL_KSYM_KEEP - 1; i++)
		many[n++] = (struct sym){ "tx", BASE + 0x100 + 16 * i };
	many[n++] = (struct sym){ "bx", BASE + 0x1000 };
	build(&t, many, n, RELATIVE, 0);
	ol_kallsyms_find(image(&t, 0, 0), &s, 1, NULL, err, sizeof(err));
	ok(s.found == 2 * OL_KSYM_KEEP && s.kept == OL_KSYM_KEEP && s.data == 1 &&
	   ol_ksym_pick(&s, &a, NULL, err, sizeof(err)) == 0 && a == BASE + 0x1000,
	   "a data symbol after many functions of its name is still kept");
}

static void test_names(void)
{
	static struct table t;
	static char longname[300];
	struct sym syms[4] = { { "T_stext", BASE }, { "Dinit_uts_ns", BASE + 0x10 },
			       { longname, BASE + 0x20 }, { "bstatic_thing.llvm.99", BASE + 0x30 } };
	struct ol_ksym s[2] = { { .name = longname + 1 }, { .name = "static_thing" } };
	char err[256] = "";
	uint64_t a = 0;

	longname[0] = 'd';
	memset(longname + 1, 'q', 200);	/* 200 tokens: a "big" two-byte length */
	build(&t, syms, 4, RELATIVE, 0);
	ok_got(ol_kallsyms_find(image(&t, 0, 0), s, 2, NULL, err, sizeof(err)) == 0 &&
	       ol_ksym_pick(&s[0], &a, NULL, err, sizeof(err)) == 0 && a == BASE + 0x20,
	       "a 200-token name (two-byte length) decodes", err);
	ok(ol_ksym_pick(&s[1], &a, NULL, err, sizeof(err)) == 0 && a == BASE + 0x30,
	   "a clang LTO .llvm. suffix still matches");
}

/* One damaged table: find must fail with a message containing expect. */
static void damaged(struct ol_mem *mem, const char *expect, const char *what)
{
	struct ol_ksym s[2] = { { .name = "oops_count" }, { .name = "warn_count" } };
	char err[256] = "";
	int rc;

	rc = ol_kallsyms_find(mem, s, 2, NULL, err, sizeof(err));
	ok_got(rc == -1 && strstr(err, expect) && s[0].found == 0 && s[0].kept == 0, what, err);
}

static void set_le(struct table *t, uint64_t addr, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		t->buf[addr - TABLES + i] = (uint8_t)(v >> (8 * i));
}

static void test_damage(void)
{
	static struct table t;
	char *p;

	build(&t, base_syms, NBASE, ABS_PERCPU, 0);
	set_le(&t, t.num_syms, 0xffffffff, 4);
	damaged(image(&t, 0, 0), "past any kernel's table", "num_syms 0xffffffff");
	set_le(&t, t.num_syms, 0, 4);
	damaged(image(&t, 0, 0), "an empty table", "num_syms 0");
	set_le(&t, t.num_syms, NBASE + 40, 4);
	damaged(image(&t, 0, 0), "symbol 17 has an empty name", "a count past the table: the markers");
	/* markers that read as names: the walk stops at the token table */
	memset(t.buf + t.gap, 1, (size_t)(t.token_table - TABLES) - t.gap);
	set_le(&t, t.num_syms, 4000, 4);
	damaged(image(&t, 0, 0), "runs past its table", "a count past the table: the tokens");

	build(&t, base_syms, NBASE, ABS_PERCPU, 0);
	set_le(&t, t.token_index + 2 * 'o', 0xfff0, 2);
	damaged(image(&t, 0, 0), "past the token table", "a token index out of range");

	build(&t, base_syms, NBASE, ABS_PERCPU, 0);
	/* no NUL anywhere from token 255 on: the table never ends */
	memset(t.buf + (t.token_index - TABLES) - 8, 'z', 8);
	damaged(image(&t, 0, 0), "never ends", "a token that never ends");

	build(&t, base_syms, NBASE, ABS_PERCPU, 0);
	{
		/* tokens '!' to '~' become one string of 187 'w's; 'o' points at it */
		uint8_t *tt = t.buf + (t.token_table - TABLES);
		const uint8_t *ti = t.buf + (t.token_index - TABLES);
		uint16_t from = ol_le16(ti + 2 * 0x21), end = (uint16_t)(ol_le16(ti + 2 * 0x7e) + 2);
		size_t at = (size_t)(t.names - TABLES);

		memset(tt + from, 'w', end - from - 1u);
		tt[end - 1] = 0;
		set_le(&t, t.token_index + 2 * 'o', from, 2);
		t.buf[at] = 127;
		memset(t.buf + at + 1, 'o', 127);
	}
	damaged(image(&t, 0, 0), "longer than 512", "a name that expands without bound");

	build(&t, base_syms, NBASE, ABS_PERCPU, 0);
	t.buf[t.names - TABLES] = 0;
	damaged(image(&t, 0, 0), "empty name", "a name of length 0");

	build(&t, base_syms, NBASE, ABS_PERCPU, 0);
	damaged(image(&t, t.names + 16, 8), "page not in the dump",
		"an unreadable stretch of kallsyms_names");
	damaged(image(&t, t.token_index, 8), "cannot read kallsyms_token_index",
		"an unreadable token index");
	damaged(image(&t, t.num_syms, 4), "cannot read kallsyms_num_syms",
		"an unreadable count");
	damaged(image(&t, t.relative_base, 8), "cannot read kallsyms_relative_base",
		"an unreadable relative base");
	damaged(image(&t, t.offsets + 4 * (NBASE - 2), 4), "cannot read the kallsyms address",
		"an unreadable offset");

	build(&t, base_syms, NBASE, ABS_PERCPU, 0);
	p = strstr(t.vmci, "SYMBOL(kallsyms_names)");
	memcpy(p, "SYMBOL(kallsyms_nameZ)", 22);
	damaged(image(&t, 0, 0), "no SYMBOL(kallsyms_names) in VMCOREINFO",
		"VMCOREINFO without kallsyms (before 6.0)");
	memcpy(p, "SYMBOL(kallsyms_names)=xyz\n#", 28);
	damaged(image(&t, 0, 0), "is not an address", "a SYMBOL() that is not hexadecimal");

	build(&t, base_syms, NBASE, ABS_PERCPU, 0);
	p = strstr(t.vmci, "SYMBOL(_stext)=") + 15;
	p[8] = p[8] == '0' ? '1' : '0';
	damaged(image(&t, 0, 0), "_stext is", "an anchor that disagrees: no made-up address");

	build(&t, base_syms, NBASE, ABS_PERCPU, 0);
	vmci_del(&t, "SYMBOL(_stext)");
	vmci_del(&t, "SYMBOL(init_uts_ns)");
	vmci_del(&t, "SYMBOL(prb)");
	damaged(image(&t, 0, 0), "no symbol in kallsyms to check",
		"no anchor at all: refuse rather than guess");
}

static void test_bounds(void)
{
	static struct table t;
	struct ol_ksym s[65];
	char err[256] = "";
	size_t i;

	for (i = 0; i < 65; i++)
		s[i].name = "oops_count";
	build(&t, base_syms, NBASE, RELATIVE, 0);
	ok(ol_kallsyms_find(image(&t, 0, 0), s, 64, NULL, err, sizeof(err)) == 0 &&
	   s[63].found == 1, "64 names in one pass");
	ok(ol_kallsyms_find(image(&t, 0, 0), s, 65, NULL, err, sizeof(err)) == -1,
	   "65 names: refused");
	s[0].name = "";
	ok(ol_kallsyms_find(image(&t, 0, 0), s, 1, NULL, err, sizeof(err)) == -1,
	   "an empty name: refused");
	t.img.reads = 0;
	s[0].name = "oops_count";
	ol_kallsyms_find(image(&t, 0, 0), s, 1, NULL, err, sizeof(err));
	printf("# one lookup in a %zu-symbol table: %lu reads\n", NBASE, t.img.reads);
	ok(t.img.reads < 40, "a small table is read in a few reads");
}

static void test_vmcoreinfo(void)
{
	static const char text[] = "OSRELEASE=6.1.0\nSYMBOL(prb)=ffffffff82a622c0\n"
				   "SIZE(prb_desc)=24\nPAGESIZE=4096\nSYMBOL(prb)=1\nEMPTY=\n"
				   "LONG=0123456789012345678901234567890123456789\nBAD=12x\n"
				   "HUGE=99999999999999999999\nKERNELOFFSET=3e000000";
	struct memimg m = { .vmci = text, .vmci_len = sizeof(text) - 1 };
	struct ol_mem mem = memimg_mem(&m);
	char buf[16];
	uint64_t v = 0;

	ok(ol_vmcoreinfo_find(text, sizeof(text) - 1, "OSRELEASE", buf, sizeof(buf)) == 0 &&
	   strcmp(buf, "6.1.0") == 0, "find a line");
	ok(ol_vmcoreinfo_find(text, sizeof(text) - 1, "OSRELEAS", buf, sizeof(buf)) == -1,
	   "a prefix of a key is not the key");
	ok(ol_vmcoreinfo_find(text, sizeof(text) - 1, "LONG", buf, sizeof(buf)) == -1,
	   "a value that does not fit is not found");
	ok(ol_vmcoreinfo_find(text, sizeof(text) - 1, "EMPTY", buf, sizeof(buf)) == 0 &&
	   buf[0] == '\0', "an empty value");
	ok(ol_vmcoreinfo_find(text, 10, "SYMBOL(prb)", buf, sizeof(buf)) == -1,
	   "the length given bounds the search");
	ok(ol_vmci_symbol(&mem, "prb", &v) == 0 && v == UINT64_C(0xffffffff82a622c0),
	   "SYMBOL(): the first line wins, in hexadecimal");
	ok(ol_vmci_number(&mem, "SIZE(prb_desc)", 10, &v) == 0 && v == 24, "SIZE(): decimal");
	ok(ol_vmci_number(&mem, "KERNELOFFSET", 16, &v) == 0 && v == 0x3e000000,
	   "the last line without a newline");
	ok(ol_vmci_number(&mem, "BAD", 10, &v) == OL_VMCI_BAD, "a number with a letter: bad");
	ok(ol_vmci_number(&mem, "HUGE", 10, &v) == OL_VMCI_BAD, "a number past 64 bits: bad");
	ok(ol_vmci_number(&mem, "EMPTY", 10, &v) == OL_VMCI_BAD, "an empty number: bad");
	ok(ol_vmci_number(&mem, "NOPE", 10, &v) == OL_VMCI_ABSENT, "an absent key");
	ok(ol_parse_u64("ffffffffffffffff", 16, &v) == 0 && v == UINT64_MAX &&
	   ol_parse_u64("10000000000000000", 16, &v) == -1, "the 64-bit edge");
}

int main(int argc, char **argv)
{
	make_tokens();
	if (argc == 3 && strcmp(argv[1], "--seed") == 0) {
		/* a seed for tests/fuzz: the tables of the first test */
		static struct table t;

		build(&t, base_syms, NBASE, ABS_PERCPU, 0);
		image(&t, 0, 0);
		return memimg_write(&t.img, argv[2]) ? EXIT_FAILURE : EXIT_SUCCESS;
	}
	test_vmcoreinfo();
	test_encodings();
	test_text_typed_data();
	test_kaslr();
	test_pick();
	test_keep();
	test_names();
	test_damage();
	test_bounds();
	return tap_done();
}
