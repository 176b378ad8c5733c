/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a decoder reads a dump, whoever opened it: the recorder through
 * libkdumpfile (recorder/dump.c), the crash extension through crash's readmem,
 * the unit tests and the fuzzers through an image in memory.
 *
 * The decoders (common/kallsyms.c, common/printk.c) only ever see this
 * struct, so each of them can be tested and fuzzed without a dump file.
 * They assume a little-endian kernel with 64-bit pointers (x86_64, arm64),
 * and assemble every number from its bytes, so the host's byte order does
 * not matter.
 */
#ifndef OOPSLIMIT_DUMPMEM_H
#define OOPSLIMIT_DUMPMEM_H

#include <stddef.h>
#include <stdint.h>

struct ol_mem {
	/*
	 * len bytes at kernel virtual address addr into buf: 0 when all were
	 * read, -1 otherwise (not in the dump, excluded by makedumpfile,
	 * beyond the file).  On -1 the contents of buf are undefined.
	 */
	int (*read)(void *ctx, uint64_t addr, void *buf, size_t len);
	/*
	 * The value of VMCOREINFO's KEY ("SYMBOL(prb)",
	 * "OFFSET(printk_info.seq)", "KERNELOFFSET", "OSRELEASE") into buf
	 * (terminated): 0 when present and it fit, -1 otherwise.
	 */
	int (*vmcoreinfo)(void *ctx, const char *key, char *buf, size_t len);
	void *ctx;
};

static inline uint16_t ol_le16(const void *p)
{
	const uint8_t *b = p;

	return (uint16_t)(b[0] | b[1] << 8);
}

static inline uint32_t ol_le32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static inline uint64_t ol_le64(const void *p)
{
	const uint8_t *b = p;

	return (uint64_t)ol_le32(b) | (uint64_t)ol_le32(b + 4) << 32;
}

#endif
