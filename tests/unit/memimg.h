/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A dump image in memory for the decoders' tests and fuzzers: VMCOREINFO
 * text and segments of kernel memory, read through struct ol_mem.  The
 * segments point at the caller's buffers; a gap between them is memory
 * that is not in the dump.
 *
 * memimg_parse() reads the fuzzers' file form of it, all numbers little
 * endian:
 *   u32 n, then n bytes of VMCOREINFO text;
 *   then, to the end: u64 address, u32 length, length bytes.
 * A segment cut short by the end of the input keeps what is there.
 */
#ifndef OOPSLIMIT_MEMIMG_H
#define OOPSLIMIT_MEMIMG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../common/dumpmem.h"
#include "../../common/vmcoreinfo.h"

#define MEMIMG_SEGS 256

struct memimg {
	const char *vmci;
	size_t vmci_len;
	size_t nseg;
	struct {
		uint64_t addr;
		const uint8_t *data;
		size_t len;
	} seg[MEMIMG_SEGS];
	unsigned long reads;	/* calls of read, for the tests of bounded work */
};

static inline int memimg_add(struct memimg *m, uint64_t addr, const void *data, size_t len)
{
	if (m->nseg == MEMIMG_SEGS)
		return -1;
	m->seg[m->nseg].addr = addr;
	m->seg[m->nseg].data = data;
	m->seg[m->nseg].len = len;
	m->nseg++;
	return 0;
}

static inline int memimg_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct memimg *m = ctx;
	uint8_t *out = buf;

	m->reads++;
	while (len) {
		size_t i, n = 0;

		for (i = 0; i < m->nseg; i++)
			if (addr >= m->seg[i].addr && addr - m->seg[i].addr < m->seg[i].len)
				break;
		if (i == m->nseg)
			return -1;
		n = m->seg[i].len - (size_t)(addr - m->seg[i].addr);
		if (n > len)
			n = len;
		memcpy(out, m->seg[i].data + (addr - m->seg[i].addr), n);
		out += n;
		addr += n;
		len -= n;
		if (len && addr == 0)
			return -1;	/* past the top of the address space */
	}
	return 0;
}

static inline int memimg_vmcoreinfo(void *ctx, const char *key, char *buf, size_t len)
{
	struct memimg *m = ctx;

	return ol_vmcoreinfo_find(m->vmci, m->vmci_len, key, buf, len);
}

static inline struct ol_mem memimg_mem(struct memimg *m)
{
	struct ol_mem mem = { memimg_read, memimg_vmcoreinfo, m };

	return mem;
}

static inline int memimg_parse(struct memimg *m, const uint8_t *p, size_t n)
{
	size_t pos = 4;

	memset(m, 0, sizeof(*m));
	if (n < 4 || ol_le32(p) > n - 4)
		return -1;
	m->vmci = (const char *)p + 4;
	m->vmci_len = ol_le32(p);
	pos += m->vmci_len;
	while (n - pos >= 12 && m->nseg < MEMIMG_SEGS) {
		uint64_t addr = ol_le64(p + pos);
		size_t len = ol_le32(p + pos + 8);

		pos += 12;
		if (len > n - pos)
			len = n - pos;
		memimg_add(m, addr, p + pos, len);
		pos += len;
	}
	return 0;
}

static inline void memimg_put(FILE *f, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fputc((int)(v >> (8 * i)) & 0xff, f);
}

/* Writes m in the file form memimg_parse() reads: 0, or -1. */
static inline int memimg_write(const struct memimg *m, const char *path)
{
	FILE *f = fopen(path, "wb");
	size_t i;

	if (!f)
		return -1;
	memimg_put(f, m->vmci_len, 4);
	fwrite(m->vmci, 1, m->vmci_len, f);
	for (i = 0; i < m->nseg; i++) {
		memimg_put(f, m->seg[i].addr, 8);
		memimg_put(f, m->seg[i].len, 4);
		fwrite(m->seg[i].data, 1, m->seg[i].len, f);
	}
	return fclose(f) == 0 ? 0 : -1;
}

#endif
