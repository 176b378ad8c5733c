// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of common/printk.c without a dump: a printk ring buffer built
 * in memory by a writer that follows kernel/printk/printk_ringbuffer.c
 * (the same initial descriptor, ids and logical positions that start just
 * below their wrap, tails pushed when the rings are full), then damaged one
 * way at a time.  The expected output is formatted here independently, the
 * way vmcore-dmesg's dump_record() does it.  With --seed FILE, writes a
 * ring to FILE as a fuzzing seed instead.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/printk.h"
#include "memimg.h"
#include "tap.h"

/* Addresses of the parts; the layout is 6.1's on x86_64. */
#define PRB_PTR UINT64_C(0xffffffff82a622c0)
#define RB UINT64_C(0xffffffff82a62300)
#define DESCS UINT64_C(0xffffffff82b00000)
#define INFOS UINT64_C(0xffffffff82c00000)
#define DATA UINT64_C(0xffffffff82d00000)

#define SV_SHIFT 62
#define ID_MASK ((UINT64_C(1) << SV_SHIFT) - 1)
#define DESC_SIZE 24
#define INFO_SIZE 88
#define RB_SIZE 88
#define MAX_RECORDS 4096

struct ring {
	unsigned int count_bits, size_bits;
	uint64_t count, size;
	uint8_t rb[RB_SIZE];
	uint8_t ptr[8];
	uint8_t descs[DESC_SIZE * 256];
	uint8_t infos[INFO_SIZE * 256];
	uint8_t data[1 << 14];
	uint64_t head_id, tail_id, head_lpos, tail_lpos;
	/* every record written, to know what the reader should see */
	uint64_t n;
	uint64_t ids[MAX_RECORDS];
	char vmci[4096];
	struct memimg img;
	struct ol_mem mem;
};

static void set64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
	return ol_le64(p);
}

static uint8_t *desc(struct ring *r, uint64_t id)
{
	return r->descs + (id & (r->count - 1)) * DESC_SIZE;
}

static uint8_t *info(struct ring *r, uint64_t id)
{
	return r->infos + (id & (r->count - 1)) * INFO_SIZE;
}

static void set_state(struct ring *r, uint64_t id, unsigned int state)
{
	set64(desc(r, id), (uint64_t)state << SV_SHIFT | (id & ID_MASK));
}

static void ring_init(struct ring *r, unsigned int count_bits, unsigned int size_bits)
{
	uint64_t desc0;

	memset(r, 0, sizeof(*r));
	r->count_bits = count_bits;
	r->size_bits = size_bits;
	r->count = UINT64_C(1) << count_bits;
	r->size = UINT64_C(1) << size_bits;
	/* _DEFINE_PRINTKRB(): DESC0_ID, reusable, with failed data; BLK0_LPOS */
	desc0 = (uint64_t)(-(int64_t)(r->count + 1)) & ID_MASK;
	r->head_id = r->tail_id = desc0;
	set_state(r, desc0, 3);
	set64(desc(r, desc0) + 8, 1);
	set64(desc(r, desc0) + 16, 1);
	set64(r->infos, (uint64_t)-(int64_t)r->count);
	r->head_lpos = r->tail_lpos = (uint64_t)-(int64_t)r->size;
}

/* The kernel's data_push_tail(): drop the oldest blocks until lpos. */
static void data_tail_to(struct ring *r, uint64_t lpos)
{
	while ((int64_t)(lpos - r->tail_lpos) > 0) {
		uint64_t id = get64(r->data + r->tail_lpos % r->size) & ID_MASK;

		/* the block at the tail belongs to record id: make it reusable */
		set_state(r, id, 3);
		r->tail_lpos = get64(desc(r, id) + 16);
	}
}

/*
 * Appends a finalized record (state 2; state may say otherwise) with text
 * of len bytes at time ts; dataless writes the NO_LPOS block.
 */
static uint64_t write_rec(struct ring *r, const char *text, size_t len, uint64_t ts,
			  unsigned int state, bool dataless)
{
	uint64_t id = (r->head_id + 1) & ID_MASK, begin, next, size, seq;
	uint8_t *in = info(r, id);

	/* desc_reserve(): the oldest record gives up its descriptor */
	if (((id - r->tail_id) & ID_MASK) >= r->count) {
		uint64_t next = get64(desc(r, r->tail_id) + 16);

		if (!(next & 1))
			data_tail_to(r, next);
		set_state(r, r->tail_id, 3);
		r->tail_id = (r->tail_id + 1) & ID_MASK;
	}
	r->head_id = id;
	seq = get64(in);
	if (seq == 0 && (id & (r->count - 1)) != 0)
		seq = id & (r->count - 1);
	else
		seq += r->count;
	memset(in, 0, INFO_SIZE);
	set64(in, seq);
	set64(in + 8, ts);
	in[16] = (uint8_t)len;
	in[17] = (uint8_t)(len >> 8);
	if (dataless) {
		begin = next = 3;
	} else {
		/* data_alloc(): a block that would cross the wrap starts it */
		size = (8 + len + 7) & ~(uint64_t)7;
		begin = r->head_lpos;
		next = begin + size;
		if (begin / r->size != next / r->size)
			next = next / r->size * r->size + size;
		data_tail_to(r, next - r->size);
		/* the id goes at begin, and for a wrapping block at the start too */
		set64(r->data + begin % r->size, id);
		set64(r->data + (next - size) % r->size, id);
		memcpy(r->data + (next - size) % r->size + 8, text, len);
		r->head_lpos = next;
	}
	set64(desc(r, id) + 8, begin);
	set64(desc(r, id) + 16, next);
	set_state(r, id, state);
	if (r->n < MAX_RECORDS)
		r->ids[r->n++] = id;
	return id;
}

static void vmci_add(struct ring *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void vmci_add(struct ring *r, const char *fmt, ...)
{
	size_t l = strlen(r->vmci);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->vmci + l, sizeof(r->vmci) - l, fmt, ap);
	va_end(ap);
}

/* Writes the ring's header and VMCOREINFO; call after the last write. */
static struct ol_mem *finish(struct ring *r)
{
	static const char *const lines[] = {
		"SIZE(printk_ringbuffer)=88", "OFFSET(printk_ringbuffer.desc_ring)=0",
		"OFFSET(printk_ringbuffer.text_data_ring)=48", "OFFSET(printk_ringbuffer.fail)=80",
		"SIZE(prb_desc_ring)=48", "OFFSET(prb_desc_ring.count_bits)=0",
		"OFFSET(prb_desc_ring.descs)=8", "OFFSET(prb_desc_ring.infos)=16",
		"OFFSET(prb_desc_ring.head_id)=24", "OFFSET(prb_desc_ring.tail_id)=32",
		"SIZE(prb_desc)=24", "OFFSET(prb_desc.state_var)=0",
		"OFFSET(prb_desc.text_blk_lpos)=8", "SIZE(prb_data_blk_lpos)=16",
		"OFFSET(prb_data_blk_lpos.begin)=0", "OFFSET(prb_data_blk_lpos.next)=8",
		"SIZE(printk_info)=88", "OFFSET(printk_info.seq)=0",
		"OFFSET(printk_info.ts_nsec)=8", "OFFSET(printk_info.text_len)=16",
		"OFFSET(printk_info.caller_id)=20", "OFFSET(printk_info.dev_info)=24",
		"SIZE(prb_data_ring)=32", "OFFSET(prb_data_ring.size_bits)=0",
		"OFFSET(prb_data_ring.data)=8", "OFFSET(prb_data_ring.head_lpos)=16",
		"OFFSET(prb_data_ring.tail_lpos)=24", "SIZE(atomic_long_t)=8",
		"OFFSET(atomic_long_t.counter)=0",
	};
	size_t i;

	set64(r->ptr, RB);
	memset(r->rb, 0, sizeof(r->rb));
	r->rb[0] = (uint8_t)r->count_bits;
	set64(r->rb + 8, DESCS);
	set64(r->rb + 16, INFOS);
	set64(r->rb + 24, r->head_id);
	set64(r->rb + 32, r->tail_id);
	r->rb[48] = (uint8_t)r->size_bits;
	set64(r->rb + 56, DATA);
	set64(r->rb + 64, r->head_lpos);
	set64(r->rb + 72, r->tail_lpos);
	if (!r->vmci[0]) {
		vmci_add(r, "OSRELEASE=6.1.0-test\nSYMBOL(prb)=%" PRIx64 "\n", PRB_PTR);
		for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
			vmci_add(r, "%s\n", lines[i]);
	}
	memset(&r->img, 0, sizeof(r->img));
	r->img.vmci = r->vmci;
	r->img.vmci_len = strlen(r->vmci);
	memimg_add(&r->img, PRB_PTR, r->ptr, 8);
	memimg_add(&r->img, RB, r->rb, RB_SIZE);
	memimg_add(&r->img, DESCS, r->descs, r->count * DESC_SIZE);
	memimg_add(&r->img, INFOS, r->infos, r->count * INFO_SIZE);
	memimg_add(&r->img, DATA, r->data, r->size);
	r->mem = memimg_mem(&r->img);
	return &r->mem;
}

/* What the reader gave, and what vmcore-dmesg would print. */
struct out {
	char buf[1 << 16];
	size_t len;
	unsigned long lines;
	bool bad_line;	/* a line not ending in its one newline, or not terminated */
};

static void collect(void *arg, const char *line, size_t len)
{
	struct out *o = arg;

	o->lines++;
	if (len == 0 || line[len - 1] != '\n' || line[len] != '\0' || memchr(line, '\n', len - 1))
		o->bad_line = true;
	if (o->len + len < sizeof(o->buf)) {
		memcpy(o->buf + o->len, line, len);
		o->len += len;
		o->buf[o->len] = '\0';
	}
}

/* vmcore-dmesg's formatting of one record, written out the long way. */
static void expect_rec(struct out *o, uint64_t ts, const char *text, size_t len)
{
	size_t i;

	o->len += (size_t)sprintf(o->buf + o->len, "[%5llu.%06llu] ",
				  (unsigned long long)(ts / 1000000000),
				  (unsigned long long)(ts % 1000000000 / 1000));
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (!isprint(c) && !isspace(c))
			o->len += (size_t)sprintf(o->buf + o->len, "\\x%02x", c);
		else
			o->buf[o->len++] = (char)c;
	}
	o->buf[o->len++] = '\n';
	o->buf[o->len] = '\0';
}

static int run(struct ol_mem *mem, struct out *o, struct ol_printk *res)
{
	memset(o, 0, sizeof(*o));
	return ol_printk_read(mem, collect, o, res);
}

static void test_simple(void)
{
	static struct ring r;
	static struct out got, want;
	static const char multi[] = "first line\nsecond\tline";
	static const char odd[] = "bytes \x01 \x7f \xff and \r";
	struct ol_printk res;
	int rc;

	ring_init(&r, 4, 10);
	write_rec(&r, "Linux version 6.1.0-test", 24, 0, 2, false);
	write_rec(&r, multi, sizeof(multi) - 1, 1234567, 2, false);
	write_rec(&r, odd, sizeof(odd) - 1, UINT64_C(123456789012345), 2, false);
	write_rec(&r, "", 0, 2000000000, 2, true);
	write_rec(&r, "committed, not finalized", 24, 3000000000u, 1, false);
	rc = run(finish(&r), &got, &res);

	memset(&want, 0, sizeof(want));
	expect_rec(&want, 0, "Linux version 6.1.0-test", 24);
	expect_rec(&want, 1234567, multi, sizeof(multi) - 1);
	expect_rec(&want, UINT64_C(123456789012345), odd, sizeof(odd) - 1);
	expect_rec(&want, 2000000000, "", 0);
	expect_rec(&want, 3000000000u, "committed, not finalized", 24);
	ok_got(rc == 0 && res.reliable, "a fresh ring decodes reliably", res.why);
	ok(got.len == want.len && memcmp(got.buf, want.buf, got.len) == 0,
	   "byte for byte what vmcore-dmesg prints");
	if (got.len != want.len || memcmp(got.buf, want.buf, got.len))
		printf("# got:\n%s# want:\n%s", got.buf, want.buf);
	ok(got.lines == 6 && !got.bad_line, "one call a line, each ending in its newline");
	ok(res.records == 5 && res.skipped == 1 && res.first_seq == 0 && res.last_seq == 4 &&
	   !res.wrapped, "5 records, the initial descriptor skipped, seq 0 to 4");
}

static void test_wrapped(void)
{
	static struct ring r;
	static struct out got, want;
	struct ol_printk res;
	char text[200];
	uint64_t i, first;
	int rc;

	ring_init(&r, 4, 10);
	for (i = 0; i < 300; i++) {
		int n = snprintf(text, sizeof(text), "message %" PRIu64 " %.*s", i, (int)(i % 90),
				 "..........................................................."
				 "...............................");

		write_rec(&r, text, (size_t)n, i * 1000, 2, false);
	}
	rc = run(finish(&r), &got, &res);
	ok_got(rc == 0 && res.reliable, "a ring that wrapped many times decodes reliably", res.why);
	/* the records still in the ring: from the one after the last made reusable */
	memset(&want, 0, sizeof(want));
	first = 300 - res.records;
	for (i = first; i < 300; i++) {
		int n = snprintf(text, sizeof(text), "message %" PRIu64 " %.*s", i, (int)(i % 90),
				 "..........................................................."
				 "...............................");

		expect_rec(&want, i * 1000, text, (size_t)n);
	}
	ok(res.records > 2 && res.wrapped && res.first_seq == first && res.last_seq == 299,
	   "the newest records, the first seq says how many were lost");
	ok(got.len == want.len && memcmp(got.buf, want.buf, got.len) == 0,
	   "wrapping data blocks read from the start of the ring");
}

/* The text wraps long before the descriptors: the oldest are reusable. */
static void test_text_wraps_first(void)
{
	static struct ring r;
	static struct out got;
	struct ol_printk res;
	char text[128];
	int i;

	ring_init(&r, 6, 10);
	for (i = 0; i < 200; i++) {
		memset(text, 'a' + i % 26, sizeof(text));
		write_rec(&r, text, 100, (uint64_t)i, 2, false);
	}
	run(finish(&r), &got, &res);
	ok_got(res.reliable && res.records < 16 && res.skipped > 40 && res.last_seq == 199,
	       "records whose text was overwritten are skipped, the log still reliable", res.why);

	/* one of them in the middle is something else */
	set_state(&r, r.ids[195], 3);
	run(finish(&r), &got, &res);
	ok(res.reliable && res.records < 16, "one reusable record among the newest is tolerated");
}

static void test_head_reserved(void)
{
	static struct ring r;
	static struct out got;
	struct ol_printk res;

	ring_init(&r, 4, 10);
	write_rec(&r, "one", 3, 1, 2, false);
	write_rec(&r, "two", 3, 2, 2, false);
	write_rec(&r, "being written", 13, 3, 0, false);
	run(finish(&r), &got, &res);
	ok_got(res.reliable && res.records == 2 && res.skipped == 2,
	       "a record caught mid-write is skipped, the log still reliable", res.why);
}

/* One damaged ring: the read must give rc and an unreliable result naming expect. */
static void damaged(struct ol_mem *mem, int rc_want, const char *expect, const char *what)
{
	static struct out got;
	struct ol_printk res;
	int rc = run(mem, &got, &res);

	ok_got(rc == rc_want && !res.reliable && strstr(res.why, expect) && !got.bad_line,
	       what, res.why);
}

static void fill(struct ring *r)
{
	char text[64];
	int i;

	ring_init(r, 4, 10);
	for (i = 0; i < 8; i++) {
		int n = snprintf(text, sizeof(text), "line %d", i);

		write_rec(r, text, (size_t)n, 10u * i, 2, false);
	}
}

static void replace_line(struct ring *r, const char *key, const char *with)
{
	char *p = strstr(r->vmci, key), *e = strchr(p, '\n');
	char rest[4096];

	snprintf(rest, sizeof(rest), "%s", e + 1);
	snprintf(p, sizeof(r->vmci) - (size_t)(p - r->vmci), "%s%s", with, rest);
}

static void test_damage(void)
{
	static struct ring r;
	static struct out got;
	struct ol_printk res;
	uint8_t *d;

	fill(&r);
	finish(&r);
	set64(r.data + (get64(desc(&r, r.ids[3]) + 8) % r.size), 12345);
	damaged(&r.mem, 0, "belongs to another record", "a data block with another id");

	fill(&r);
	finish(&r);
	set64(info(&r, r.ids[4]), get64(info(&r, r.ids[4])) + 16 * 3);
	damaged(&r.mem, 0, "does not follow", "a sequence number out of step");

	fill(&r);
	finish(&r);
	d = desc(&r, r.ids[2]);
	set64(d + 16, get64(d + 16) + 4096);
	damaged(&r.mem, 0, "impossible data block", "a block longer than the ring");

	fill(&r);
	finish(&r);
	d = desc(&r, r.ids[2]);
	set64(d + 8, 5);
	damaged(&r.mem, 0, "data-less", "a half data-less block");

	fill(&r);
	finish(&r);
	info(&r, r.ids[5])[16] = 200;
	damaged(&r.mem, 0, "claims 200 bytes", "text_len past its block");

	fill(&r);
	set64(desc(&r, r.ids[1]) + 8, r.tail_lpos - 64);
	set64(desc(&r, r.ids[1]) + 16, r.tail_lpos - 48);
	damaged(finish(&r), 0, "impossible data block", "a block behind the data tail");

	fill(&r);
	finish(&r);
	r.img.seg[4].len = 16;	/* the text pages are gone */
	damaged(&r.mem, 0, "is not in the dump", "text not in the dump");

	fill(&r);
	finish(&r);
	r.img.seg[2].len = 0;
	damaged(&r.mem, 0, "descriptor of record", "descriptors not in the dump");

	fill(&r);
	finish(&r);
	r.img.seg[3].len = 0;
	damaged(&r.mem, 0, "printk_info", "infos not in the dump");

	fill(&r);
	r.head_id = (r.tail_id + 100) & ID_MASK;
	damaged(finish(&r), -1, "do not fit its 16 descriptors", "head and tail too far apart");

	fill(&r);
	r.count_bits = 40;
	finish(&r);
	r.count_bits = 4;
	damaged(&r.mem, -1, "2^40 descriptors", "count_bits 40");

	fill(&r);
	finish(&r);
	r.rb[48] = 2;
	damaged(&r.mem, -1, "2^2 bytes", "size_bits 2");

	fill(&r);
	r.head_lpos = r.tail_lpos + 5000;
	damaged(finish(&r), -1, "more than its 1024 bytes", "data head and tail too far apart");

	fill(&r);
	finish(&r);
	r.img.seg[0].len = 0;
	damaged(&r.mem, -1, "cannot read prb", "prb not in the dump");
	r.img.seg[0].len = 8;
	r.img.seg[1].len = 40;
	damaged(&r.mem, -1, "cannot read the printk ring buffer", "the ring header cut short");

	fill(&r);
	finish(&r);
	replace_line(&r, "SYMBOL(prb)", "");
	damaged(finish(&r), -1, "no SYMBOL(prb)", "no SYMBOL(prb) (before 5.10)");
	fill(&r);
	finish(&r);
	replace_line(&r, "OFFSET(printk_info.ts_nsec)", "");
	damaged(finish(&r), -1, "OFFSET(printk_info.ts_nsec) is not", "an OFFSET line missing");
	fill(&r);
	finish(&r);
	replace_line(&r, "OFFSET(printk_info.seq)", "OFFSET(printk_info.seq)=zero\n");
	damaged(finish(&r), -1, "not a number", "an OFFSET line not a number");
	fill(&r);
	finish(&r);
	replace_line(&r, "OFFSET(printk_info.text_len)", "OFFSET(printk_info.text_len)=87\n");
	damaged(finish(&r), -1, "do not fit together", "an offset past its struct");
	fill(&r);
	finish(&r);
	replace_line(&r, "SIZE(printk_ringbuffer)", "SIZE(printk_ringbuffer)=18446744073709551615\n");
	damaged(finish(&r), -1, "do not fit together", "a struct size of 2^64-1");
	fill(&r);
	finish(&r);
	replace_line(&r, "OFFSET(prb_desc_ring.tail_id)",
		     "OFFSET(prb_desc_ring.tail_id)=18446744073709551615\n");
	damaged(finish(&r), -1, "do not fit together", "an offset that overflows when added");
	fill(&r);
	finish(&r);
	replace_line(&r, "SIZE(atomic_long_t)", "SIZE(atomic_long_t)=4\n");
	damaged(finish(&r), -1, "only 64-bit", "a 32-bit kernel");

	/* many records caught mid-write: too many to trust the rest */
	ring_init(&r, 6, 12);
	{
		int i;

		for (i = 0; i < 40; i++)
			write_rec(&r, "x", 1, 1, i % 2 ? 0 : 2, false);
	}
	damaged(finish(&r), 0, "could not be read", "20 records skipped");

	ring_init(&r, 4, 10);
	damaged(finish(&r), 0, "no record", "an empty ring");

	/* an unreliable walk still writes what it could, one line at a time */
	fill(&r);
	finish(&r);
	set64(r.data + (get64(desc(&r, r.ids[3]) + 8) % r.size), 12345);
	run(&r.mem, &got, &res);
	ok(res.records == 7 && res.skipped == 2 && got.lines == 7 && !got.bad_line,
	   "the other records are still written");
}

/* Records that do not fit the ring, against pages that are missing: only the first is garbled. */
static void test_garbled(void)
{
	static struct ring r;
	static struct out got;
	struct ol_printk res;
	int i;

	fill(&r);
	finish(&r);
	for (i = 0; i < 8; i++)
		set64(r.data + (get64(desc(&r, r.ids[i]) + 8) % r.size), 12345 + (uint64_t)i);
	run(&r.mem, &got, &res);
	ok_got(!res.reliable && res.garbled && res.records == 0,
	       "no record fits its data block: garbled (the pages are not the ring's)", res.why);

	fill(&r);
	finish(&r);
	set64(r.data + (get64(desc(&r, r.ids[3]) + 8) % r.size), 12345);
	run(&r.mem, &got, &res);
	ok_got(!res.reliable && !res.garbled, "one record that does not fit: unreliable, not garbled", res.why);

	fill(&r);
	finish(&r);
	r.img.seg[4].len = 16;	/* the text pages are gone */
	run(&r.mem, &got, &res);
	ok_got(!res.reliable && !res.garbled, "the text not in the dump: unreliable, not garbled", res.why);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--seed") == 0) {
		/* a seed for tests/fuzz: a ring that wrapped */
		static struct ring r;
		char text[64];
		int i;

		ring_init(&r, 4, 10);
		for (i = 0; i < 40; i++) {
			int n = snprintf(text, sizeof(text), "line %d\tof 40", i);

			write_rec(&r, text, (size_t)n, 1000u * i, 2, i == 7);
		}
		finish(&r);
		return memimg_write(&r.img, argv[2]) ? EXIT_FAILURE : EXIT_SUCCESS;
	}
	test_simple();
	test_wrapped();
	test_text_wraps_first();
	test_head_reserved();
	test_damage();
	test_garbled();
	return tap_done();
}
