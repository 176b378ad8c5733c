// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log from the printk ring buffer; see printk.h.
 *
 * The ring (kernel/printk/printk_ringbuffer.h): a descriptor ring of
 * 2^count_bits struct prb_desc (state_var: two state bits over the record's
 * id; text_blk_lpos: begin and next logical positions of its data block)
 * with a parallel array of struct printk_info (seq, ts_nsec, text_len, ...),
 * and a data ring of 2^size_bits bytes where each block starts with the id
 * of its record.  Records run from desc_ring.tail_id to desc_ring.head_id.
 *
 * Everything read from the dump is bounded before use: the ring sizes, the
 * id range, each block's position and length.  Memory is one page per
 * array and one record's output.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "printk.h"
#include "vmcoreinfo.h"

#define PAGE 4096u
#define MAX_STRUCT 4096u	/* no struct of the ring comes near */
#define MAX_COUNT_BITS 24	/* 16M records: log_buf_len=512M */
#define MAX_SIZE_BITS 31	/* the kernel's own limit on log_buf_len */

#define SV_SHIFT 62
#define ID_MASK ((UINT64_C(1) << SV_SHIFT) - 1)
enum { DESC_RESERVED, DESC_COMMITTED, DESC_FINALIZED, DESC_REUSABLE };
#define LPOS_DATALESS(lpos) ((lpos) & 1u)

/* The layout VMCOREINFO gives. */
struct layout {
	uint64_t rb_size, desc_ring, text_ring, fail;
	uint64_t count_bits, descs, infos, head_id, tail_id;
	uint64_t desc_size, state_var, text_blk_lpos, lpos_begin, lpos_next;
	uint64_t info_size, seq, ts_nsec, text_len;
	uint64_t size_bits, data, head_lpos, tail_lpos;
	uint64_t along_size, along_counter;
};

static const struct {
	const char *key;
	size_t off;
} layout_keys[] = {
#define K(key, member) { key, offsetof(struct layout, member) }
	K("SIZE(printk_ringbuffer)", rb_size),
	K("OFFSET(printk_ringbuffer.desc_ring)", desc_ring),
	K("OFFSET(printk_ringbuffer.text_data_ring)", text_ring),
	K("OFFSET(printk_ringbuffer.fail)", fail),
	K("OFFSET(prb_desc_ring.count_bits)", count_bits),
	K("OFFSET(prb_desc_ring.descs)", descs),
	K("OFFSET(prb_desc_ring.infos)", infos),
	K("OFFSET(prb_desc_ring.head_id)", head_id),
	K("OFFSET(prb_desc_ring.tail_id)", tail_id),
	K("SIZE(prb_desc)", desc_size),
	K("OFFSET(prb_desc.state_var)", state_var),
	K("OFFSET(prb_desc.text_blk_lpos)", text_blk_lpos),
	K("OFFSET(prb_data_blk_lpos.begin)", lpos_begin),
	K("OFFSET(prb_data_blk_lpos.next)", lpos_next),
	K("SIZE(printk_info)", info_size),
	K("OFFSET(printk_info.seq)", seq),
	K("OFFSET(printk_info.ts_nsec)", ts_nsec),
	K("OFFSET(printk_info.text_len)", text_len),
	K("OFFSET(prb_data_ring.size_bits)", size_bits),
	K("OFFSET(prb_data_ring.data)", data),
	K("OFFSET(prb_data_ring.head_lpos)", head_lpos),
	K("OFFSET(prb_data_ring.tail_lpos)", tail_lpos),
	K("SIZE(atomic_long_t)", along_size),
	K("OFFSET(atomic_long_t.counter)", along_counter),
#undef K
};

static void note(struct ol_printk *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Records the first problem; the log is then not reliable. */
static void note(struct ol_printk *res, const char *fmt, ...)
{
	va_list ap;

	res->reliable = false;
	if (res->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(res->why, sizeof(res->why), fmt, ap);
	va_end(ap);
}

/*
 * A one-page window over an array read in order.  A page that cannot be
 * read whole may still have the bytes asked for (a reader that is not
 * page-granular): those are then read alone.
 */
struct win {
	const struct ol_mem *mem;
	uint64_t page;
	int state;	/* 0 empty, 1 loaded, -1 that page could not be read */
	uint8_t buf[PAGE];
};

static int win_read(struct win *w, uint64_t addr, void *out, size_t len)
{
	uint8_t *o = out;

	while (len) {
		uint64_t page = addr - addr % PAGE;
		size_t off = (size_t)(addr - page), n = PAGE - off;

		if (n > len)
			n = len;
		if (w->state == 0 || w->page != page) {
			w->page = page;
			w->state = w->mem->read(w->mem->ctx, page, w->buf, PAGE) == 0 ? 1 : -1;
		}
		if (w->state > 0)
			memcpy(o, w->buf + off, n);
		else if (w->mem->read(w->mem->ctx, addr, o, n) != 0)
			return -1;	/* not even the bytes asked for */
		o += n;
		addr += n;
		len -= n;
	}
	return 0;
}

/* vmcore-dmesg's test: isprint() || isspace() in the C locale. */
static bool plain(uint8_t c)
{
	return (c >= 0x20 && c < 0x7f) || (c >= '\t' && c <= '\r');
}

/* Hands the formatted record to fn one line at a time. */
static void emit(char *out, size_t len, ol_printk_line_fn fn, void *arg)
{
	size_t start = 0, i;

	for (i = 0; i < len; i++)
		if (out[i] == '\n') {
			char keep = out[i + 1];

			out[i + 1] = '\0';
			fn(arg, out + start, i + 1 - start);
			out[i + 1] = keep;
			start = i + 1;
		}
}

struct ring {
	const struct ol_mem *mem;
	const struct layout *l;
	uint64_t count, size, descs, infos, data, head_lpos, tail_lpos;
	struct win dwin, iwin, twin;
	uint8_t text[65536 + 8];
	char *out;	/* room for one record: stamp, 4 bytes per text byte, newline */
	uint64_t inconsistent;	/* records read whole that do not fit the ring */
};

/*
 * The data block of a record: where its text starts in the data array and
 * how many bytes of text the block holds.  Mirrors the kernel's get_data():
 * -1 for a position no writer makes.
 */
static int block_of(const struct ring *r, uint64_t begin, uint64_t next, uint64_t *at,
		    uint64_t *space)
{
	uint64_t size;

	if (begin / r->size == next / r->size && begin < next) {
		*at = begin % r->size;
		size = next - begin;
	} else if ((begin + r->size) / r->size == next / r->size) {
		*at = 0;
		size = next % r->size;
	} else {
		return -1;
	}
	if (begin % 8 || next % 8 || size < 8)
		return -1;
	/* the block lies between the data ring's tail and head */
	if (begin - r->tail_lpos > r->head_lpos - r->tail_lpos ||
	    next - r->tail_lpos > r->head_lpos - r->tail_lpos)
		return -1;
	*space = size - 8;
	return 0;
}

/*
 * One record: 1 written, 0 skipped as reusable (its data was overwritten),
 * 2 skipped as unfinished (reserved, or its descriptor not yet its own),
 * -1 skipped because it does not make sense (res notes why).
 */
static int record(struct ring *r, uint64_t id, bool *have_seq, uint64_t *prev_id,
		  uint64_t *prev_seq, struct ol_printk *res, ol_printk_line_fn fn, void *arg)
{
	const struct layout *l = r->l;
	uint64_t idx = id & (r->count - 1);
	uint8_t desc[MAX_STRUCT], info[MAX_STRUCT];
	uint64_t sv, begin, next, seq, ts, at = 0, space = 0, sec, usec;
	unsigned int state;
	size_t len, o, i;

	if (win_read(&r->dwin, r->descs + idx * l->desc_size, desc, l->desc_size) != 0) {
		note(res, "the descriptor of record id %" PRIu64 " is not in the dump", id);
		return -1;
	}
	sv = ol_le64(desc + l->state_var + l->along_counter);
	state = (unsigned int)(sv >> SV_SHIFT);
	if ((sv & ID_MASK) == id && state == DESC_REUSABLE)
		return 0;
	if ((sv & ID_MASK) != id || (state != DESC_COMMITTED && state != DESC_FINALIZED))
		return 2;
	if (win_read(&r->iwin, r->infos + idx * l->info_size, info, l->info_size) != 0) {
		note(res, "the printk_info of record id %" PRIu64 " is not in the dump", id);
		return -1;
	}
	seq = ol_le64(info + l->seq);
	ts = ol_le64(info + l->ts_nsec);
	len = ol_le16(info + l->text_len);
	begin = ol_le64(desc + l->text_blk_lpos + l->lpos_begin);
	next = ol_le64(desc + l->text_blk_lpos + l->lpos_next);

	if ((seq & (r->count - 1)) != idx ||
	    (*have_seq && seq - *prev_seq != ((id - *prev_id) & ID_MASK))) {
		note(res, "record id %" PRIu64 " has sequence number %" PRIu64
		     ", which does not follow from its place in the ring", id, seq);
		r->inconsistent++;
		return -1;
	}
	*have_seq = true;
	*prev_id = id;
	*prev_seq = seq;

	if (LPOS_DATALESS(begin) || LPOS_DATALESS(next)) {
		/* vmcore-dmesg prints a data-less record as a bare time stamp */
		if (begin != next) {
			note(res, "record %" PRIu64 " has a damaged data-less block", seq);
			r->inconsistent++;
			return -1;
		}
		len = 0;
	} else {
		uint8_t bid[8];

		if (block_of(r, begin, next, &at, &space) != 0) {
			note(res, "record %" PRIu64 " has an impossible data block %" PRIu64
			     "..%" PRIu64, seq, begin, next);
			r->inconsistent++;
			return -1;
		}
		if (len > space) {
			note(res, "record %" PRIu64 " claims %zu bytes of text in a block of %"
			     PRIu64, seq, len, space);
			r->inconsistent++;
			return -1;
		}
		if (win_read(&r->twin, r->data + at, bid, 8) != 0 ||
		    win_read(&r->twin, r->data + at + 8, r->text, len) != 0) {
			note(res, "the text of record %" PRIu64 " is not in the dump", seq);
			return -1;
		}
		if ((ol_le64(bid) & ID_MASK) != id) {
			note(res, "the data block of record %" PRIu64 " belongs to another record",
			     seq);
			r->inconsistent++;
			return -1;
		}
	}

	sec = ts / 1000000000u;
	usec = ts % 1000000000u / 1000u;
	o = (size_t)snprintf(r->out, 48, "[%5" PRIu64 ".%06" PRIu64 "] ", sec, usec);
	for (i = 0; i < len; i++) {
		uint8_t c = r->text[i];

		if (plain(c)) {
			r->out[o++] = (char)c;
		} else {
			static const char hex[] = "0123456789abcdef";

			r->out[o++] = '\\';
			r->out[o++] = 'x';
			r->out[o++] = hex[c >> 4];
			r->out[o++] = hex[c & 15];
		}
	}
	r->out[o++] = '\n';
	r->out[o] = '\0';
	emit(r->out, o, fn, arg);

	if (!res->records)
		res->first_seq = seq;
	res->last_seq = seq;
	res->records++;
	return 1;
}

/* base + off + width bytes within a struct of within bytes, without overflow */
static bool fits(uint64_t base, uint64_t off, uint64_t width, uint64_t within)
{
	return within <= MAX_STRUCT && base <= within && off <= within - base &&
	       width <= within - base - off;
}

static int read_layout(const struct ol_mem *mem, struct layout *l, struct ol_printk *res)
{
	size_t i;

	for (i = 0; i < sizeof(layout_keys) / sizeof(layout_keys[0]); i++) {
		uint64_t *v = (uint64_t *)((char *)l + layout_keys[i].off);
		int rc = ol_vmci_number(mem, layout_keys[i].key, 10, v);

		if (rc) {
			note(res, "%s %s in VMCOREINFO", layout_keys[i].key,
			     rc == OL_VMCI_ABSENT ? "is not" : "is not a number");
			return -1;
		}
	}
	if (l->along_size != 8 || l->along_counter > 0) {
		note(res, "SIZE(atomic_long_t) is %" PRIu64 ": only 64-bit kernels are read",
		     l->along_size);
		return -1;
	}
	if (!fits(0, l->desc_ring, 0, l->rb_size) || !fits(0, l->text_ring, 0, l->rb_size) ||
	    !fits(0, l->fail, 8, l->rb_size) ||
	    !fits(l->desc_ring, l->count_bits, 4, l->rb_size) ||
	    !fits(l->desc_ring, l->descs, 8, l->rb_size) ||
	    !fits(l->desc_ring, l->infos, 8, l->rb_size) ||
	    !fits(l->desc_ring, l->head_id, 8, l->rb_size) ||
	    !fits(l->desc_ring, l->tail_id, 8, l->rb_size) ||
	    !fits(l->text_ring, l->size_bits, 4, l->rb_size) ||
	    !fits(l->text_ring, l->data, 8, l->rb_size) ||
	    !fits(l->text_ring, l->head_lpos, 8, l->rb_size) ||
	    !fits(l->text_ring, l->tail_lpos, 8, l->rb_size) ||
	    !fits(0, l->state_var, 8, l->desc_size) ||
	    !fits(l->text_blk_lpos, l->lpos_begin, 8, l->desc_size) ||
	    !fits(l->text_blk_lpos, l->lpos_next, 8, l->desc_size) ||
	    !fits(0, l->seq, 8, l->info_size) || !fits(0, l->ts_nsec, 8, l->info_size) ||
	    !fits(0, l->text_len, 2, l->info_size)) {
		note(res, "the printk ring buffer's SIZE() and OFFSET() lines in VMCOREINFO "
		     "do not fit together");
		return -1;
	}
	return 0;
}

int ol_printk_read(const struct ol_mem *mem, ol_printk_line_fn fn, void *arg,
		   struct ol_printk *res)
{
	struct layout l;
	struct ring *r = NULL;
	uint8_t ptr[8], rb[MAX_STRUCT];
	uint64_t prb, rb_addr, count_bits, size_bits, head, tail, n, i, id, prev_id = 0,
		 prev_seq = 0, unexpected = 0;
	bool have_seq = false;
	int rc = -1, vrc;

	memset(res, 0, sizeof(*res));
	res->reliable = true;
	if (!mem || !mem->read || !fn) {
		note(res, "bad arguments to ol_printk_read");
		return -1;
	}
	vrc = ol_vmci_symbol(mem, "prb", &prb);
	if (vrc) {
		note(res, vrc == OL_VMCI_ABSENT ? "no SYMBOL(prb) in VMCOREINFO (a kernel before "
		      "5.10 keeps its log in another form)" : "SYMBOL(prb) in VMCOREINFO is not "
		      "an address");
		return -1;
	}
	if (read_layout(mem, &l, res))
		return -1;
	if (mem->read(mem->ctx, prb, ptr, 8) != 0) {
		note(res, "cannot read prb at 0x%" PRIx64, prb);
		return -1;
	}
	rb_addr = ol_le64(ptr);
	if (mem->read(mem->ctx, rb_addr, rb, l.rb_size) != 0) {
		note(res, "cannot read the printk ring buffer at 0x%" PRIx64 ", where prb points", rb_addr);
		/* not even a kernel address (x86_64's top half): prb's page holds something else */
		res->garbled = rb_addr >> 56 != 0xff;
		return -1;
	}
	r = calloc(1, sizeof(*r));
	if (r)
		r->out = malloc(48 + 4 * sizeof(r->text));
	if (!r || !r->out) {
		note(res, "out of memory");
		goto out;
	}
	r->mem = mem;
	r->l = &l;
	r->dwin.mem = r->iwin.mem = r->twin.mem = mem;
	count_bits = ol_le32(rb + l.desc_ring + l.count_bits);
	size_bits = ol_le32(rb + l.text_ring + l.size_bits);
	if (count_bits > MAX_COUNT_BITS || size_bits > MAX_SIZE_BITS || size_bits < 3) {
		note(res, "the printk ring buffer has 2^%" PRIu64 " descriptors and 2^%" PRIu64
		     " bytes of text: not a ring any kernel makes", count_bits, size_bits);
		res->garbled = true;
		goto out;
	}
	r->count = UINT64_C(1) << count_bits;
	r->size = UINT64_C(1) << size_bits;
	r->descs = ol_le64(rb + l.desc_ring + l.descs);
	r->infos = ol_le64(rb + l.desc_ring + l.infos);
	r->data = ol_le64(rb + l.text_ring + l.data);
	r->head_lpos = ol_le64(rb + l.text_ring + l.head_lpos);
	r->tail_lpos = ol_le64(rb + l.text_ring + l.tail_lpos);
	head = ol_le64(rb + l.desc_ring + l.head_id);
	tail = ol_le64(rb + l.desc_ring + l.tail_id);
	res->dropped = ol_le64(rb + l.fail);
	n = (head - tail) & ID_MASK;
	if (head > ID_MASK || tail > ID_MASK || n >= r->count) {
		note(res, "the printk ring buffer's head id %" PRIu64 " and tail id %" PRIu64
		     " do not fit its %" PRIu64 " descriptors", head, tail, r->count);
		res->garbled = true;
		goto out;
	}
	if (r->head_lpos - r->tail_lpos > r->size) {
		note(res, "the printk data ring's head and tail are more than its %" PRIu64
		     " bytes apart", r->size);
		res->garbled = true;
		goto out;
	}
	for (i = 0, id = tail; i <= n; i++, id = (id + 1) & ID_MASK) {
		int got = record(r, id, &have_seq, &prev_id, &prev_seq, res, fn, arg);

		if (got == 1)
			continue;
		res->skipped++;
		/*
		 * Once the text wrapped, the oldest records have given their
		 * data to newer ones: reusable, as many as the data ring took.
		 * Anywhere else a skipped record is a writer caught mid-record,
		 * or damage.
		 */
		if (got != 0 || res->records)
			unexpected++;
	}
	if (unexpected > OL_PRINTK_SKIP_OK)
		note(res, "%" PRIu64 " of the %" PRIu64 " records in the ring could not be read",
		     unexpected, n + 1);
	if (!res->records)
		note(res, "no record of the printk ring buffer could be read");
	res->wrapped = res->records && res->first_seq > 0;
	/* records that do not fit, more than a writer caught mid-record explains */
	if (r->inconsistent && (!res->records || r->inconsistent > OL_PRINTK_SKIP_OK))
		res->garbled = true;
	rc = 0;
out:
	if (r)
		free(r->out);
	free(r);
	return rc;
}
