// SPDX-License-Identifier: GPL-2.0
/*
 * What the two halves of the recorder's dump file share (dump.c opens and
 * reads a dump; dump-check.c checks its headers, bitmap, descriptors and
 * notes before libkdumpfile sees them): the dump's state, the limits of
 * what is trusted, and the helpers both use.  Private to recorder/.
 */
#ifndef OOPSLIMIT_DUMP_INT_H
#define OOPSLIMIT_DUMP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libkdumpfile/addrxlat.h>
#include <libkdumpfile/kdumpfile.h>

#include "../common/arches.h"
#include "dump.h"

#define MIN_BLOCK 4096u		/* libkdumpfile's MIN_PAGE_SIZE and MAX_PAGE_SIZE */
#define MAX_BLOCK (256u << 10)
#define MAX_NOTES (16u << 20)
#define MAX_VMCOREINFO (64u << 10)
#define MAX_BAD 1024		/* damaged page ranges before the dump is refused */
#define DESC_SIZE 24		/* struct page_desc */
#define DL_EXCLUDE_ZERO 1	/* makedumpfile -d bit: pages of zeros left out */
/* page descriptor flags that say the page is compressed */
#define DUMP_DH_COMPRESSED (0x1 | 0x2 | 0x4 | 0x20)

struct range {
	uint64_t start, end;	/* pfns [start, end) */
};

struct load {
	uint64_t phys, memsz;
};

struct ol_dump {
	int fd;
	uint64_t size;
	enum { FMT_KDUMP, FMT_ELF } fmt;
	kdump_ctx_t *kd;
	addrxlat_ctx_t *axctx;
	addrxlat_sys_t *axsys;
	struct ol_mem mem;
	const struct ol_arch *arch;	/* the machine, from the headers */
	uint64_t page_size;		/* the header's block size, or VMCOREINFO's PAGESIZE */
	uint64_t ktext_start, ktext_end;	/* the kernel image (common/arches.def) */

	/* kdump-compressed: where the bitmaps are, what was left out */
	uint64_t bitmap1_off, bitmap2_off, max_pfn;
	bool has_bitmap1;
	int32_t dump_level;
	uint64_t cut_pfn;	/* pfns from here on lie past the end of the file */
	bool have_pages;	/* both bitmaps read: the counts below hold */
	uint64_t ram_pages;	/* bits set in the 1st bitmap: the memory there was */
	uint64_t saved_pages;	/* bits set in the 2nd bitmap but for the pages of
				   zeros (all sharing one page of data): saved */
	struct range bad[MAX_BAD];
	size_t nbad;
	uint64_t bad_pages;
	uint8_t bm[4096];	/* one block of a bitmap, cached */
	uint64_t bm_off;
	bool bm_ok;

	/* ELF: the PT_LOAD ranges (physical) */
	struct load *loads;
	size_t nloads;

	char *vmci;		/* the last VMCOREINFO note, as libkdumpfile keeps it */
	size_t vmci_len;
	bool has_vmci;
	char release[80];
	char damage[256];
	char read_err[256];
};

/* Formats into err (when errlen is not 0); returns -1. */
int dump_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* len bytes at off, all of them: 0, or -1 when the file is shorter or unreadable */
int dump_pread_all(int fd, void *buf, size_t len, uint64_t off);

/* dump-check.c: a pfn the checks found untrustworthy, or past the file's end */
bool dump_is_bad(const struct ol_dump *d, uint64_t pfn);
/*
 * The checks of a kdump-compressed and of an ELF dump, from its first hlen
 * bytes h: 0 with the dump's layout, bad pages and notes filled in, or -1
 * with err saying what does not hold.
 */
int dump_check_kdump(struct ol_dump *d, const uint8_t *h, size_t hlen, char *err, size_t errlen);
int dump_check_elf(struct ol_dump *d, const uint8_t *h, size_t hlen, char *err, size_t errlen);

#endif
