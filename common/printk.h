/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log, read from the printk ring buffer in the dump (the
 * lockless printk_ringbuffer of 5.10 and later) through the SYMBOL(prb),
 * SIZE() and OFFSET() lines VMCOREINFO carries, as vmcore-dmesg and
 * makedumpfile --dump-dmesg read it.
 *
 * Each record is formatted exactly as vmcore-dmesg (kexec-tools 2.0.25)
 * prints it: "[%5llu.%06llu] " and the text, a byte that is neither
 * printable nor white space as "\xNN", then a newline; the callback gets
 * it one line at a time (a record's text may hold newlines), newline
 * included, so the lines laid end to end are vmcore-dmesg's output byte for
 * byte.
 *
 * The result says whether the decode can be trusted: every record written
 * had a descriptor in a committed or finalized state with its own id, a
 * sequence number that follows the one before, and a data block inside the
 * ring's current range that starts with the record's id.  A dump whose
 * pages are wrong (a damaged page bitmap, a truncated file) fails those
 * checks; the caller should then not judge from the log.
 */
#ifndef OOPSLIMIT_PRINTK_H
#define OOPSLIMIT_PRINTK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dumpmem.h"

/*
 * Records that may be skipped besides the oldest ones whose text was
 * overwritten: writers caught mid-record.
 */
#define OL_PRINTK_SKIP_OK 16

struct ol_printk {
	bool reliable;		/* see above; false also when nothing could be read */
	uint64_t records;	/* records written */
	uint64_t skipped;	/* records in the ring not written (reusable ones too) */
	uint64_t first_seq;	/* sequence number of the first record written */
	uint64_t last_seq;	/* and of the last */
	bool wrapped;		/* first_seq > 0: older records were overwritten */
	uint64_t dropped;	/* printk_ringbuffer.fail: messages never stored */
	char why[256];		/* the first problem found, "" when none */
	bool garbled;		/* the ring was read and is no ring (its counts, ids or
				   positions impossible): the pages are not what they
				   should be, which a page that cannot be read is not */
};

/* One line of output: len bytes ending in '\n', also NUL-terminated. */
typedef void (*ol_printk_line_fn)(void *arg, const char *line, size_t len);

/*
 * Walks the ring from its oldest record to its newest, calling fn for
 * every line.  0 when the ring could be walked (res->reliable says how
 * well), -1 when it could not be read at all (res->why says why; fn was
 * not called).
 */
int ol_printk_read(const struct ol_mem *mem, ol_printk_line_fn fn, void *arg,
		   struct ol_printk *res);

#endif
