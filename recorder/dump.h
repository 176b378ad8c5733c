/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder's dump file: opened safely, read through libkdumpfile, seen
 * by the decoders as a struct ol_mem.
 *
 * libkdumpfile 0.5.1 trusts the file: a header whose sizes point past the
 * end, a bad PAGESIZE line or a short PRSTATUS note makes its open fail and
 * leaves the context pointing at memory the failed open already freed (so
 * kdump_free() reads freed memory), a bitmap past the end of the file is
 * mapped and read (SIGBUS), a page descriptor with a compressed size above
 * the page size overruns its buffer, a FIFO blocks forever.  ol_dump_open()
 * checks all of that first, and only kdump-compressed and ELF dumps of the
 * machines of common/arches.def are handed over.  What can be read safely but not trusted (a truncated
 * file, page descriptors that do not follow each other) is remembered, and
 * reads of those pages fail instead of returning zeros or another page.
 */
#ifndef OOPSLIMIT_DUMP_H
#define OOPSLIMIT_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/dumpmem.h"

struct ol_dump;

/*
 * Opens path: NULL with one line in err (no newline) saying what is wrong
 * with the file ("... is a FIFO, not a dump file", "... is cut short: its
 * page bitmap ends at byte N of M", ...).
 */
struct ol_dump *ol_dump_open(const char *path, char *err, size_t errlen);

/* The dump's memory for the decoders (common/kallsyms.h, common/printk.h). */
const struct ol_mem *ol_dump_mem(struct ol_dump *d);

/* "kdump-compressed" or "ELF". */
const char *ol_dump_format(const struct ol_dump *d);

/* Whether the dump has a VMCOREINFO note at all. */
bool ol_dump_has_vmcoreinfo(const struct ol_dump *d);

/* The VMCOREINFO text itself (not terminated at len), or NULL without one. */
const char *ol_dump_vmcoreinfo(const struct ol_dump *d, size_t *len);

/*
 * SYMBOL(name) from VMCOREINFO: 0 with *addr, or -1 with why saying which
 * it is: no VMCOREINFO note at all, no such SYMBOL() line, or a line that
 * is not an address.
 */
int ol_dump_symbol(struct ol_dump *d, const char *name, uint64_t *addr, char *why,
		   size_t whylen);

/* The kernel release: VMCOREINFO's OSRELEASE, else the dump header's; NULL if none. */
const char *ol_dump_release(const struct ol_dump *d);

/* CRASHTIME (seconds since the epoch) from VMCOREINFO: 0, or -1 without one. */
int ol_dump_crashtime(const struct ol_dump *d, int64_t *when);

/*
 * Damage found that did not stop the open, "" when none: "the file ends
 * 1204 pages early", "3 page descriptors do not follow their neighbours".
 */
const char *ol_dump_damage(const struct ol_dump *d);

/* Why the last read through ol_dump_mem() failed, "" when none did. */
const char *ol_dump_read_error(const struct ol_dump *d);

/*
 * A kdump-compressed dump's page counts: the pages of memory its 1st bitmap
 * marks and the pages its 2nd marks as saved.  False for an ELF dump, or
 * one whose bitmaps could not be read.
 */
bool ol_dump_pages(const struct ol_dump *d, uint64_t *ram, uint64_t *saved);

/* Closes the dump; d may be NULL. */
void ol_dump_close(struct ol_dump *d);

#endif
