// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's checks of a dump file before libkdumpfile reads it (see
 * dump.c): everything libkdumpfile 0.5.1 would take without checking, the
 * kdump-compressed header and sub-header, the page bitmap, every page
 * descriptor, the ELF program headers and every note, each against the
 * file's size and the limits of dump-int.h.  What fails refuses the dump;
 * pages whose data cannot be trusted are kept as bad page ranges, which
 * reads refuse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/vmcoreinfo.h"
#include "dump-int.h"

/* --- bad pages --------------------------------------------------------------- */

static int add_bad(struct ol_dump *d, uint64_t pfn)
{
	d->bad_pages++;
	if (d->nbad && d->bad[d->nbad - 1].end == pfn) {
		d->bad[d->nbad - 1].end++;
		return 0;
	}
	if (d->nbad == MAX_BAD)
		return -1;
	d->bad[d->nbad].start = pfn;
	d->bad[d->nbad].end = pfn + 1;
	d->nbad++;
	return 0;
}

bool dump_is_bad(const struct ol_dump *d, uint64_t pfn)
{
	size_t lo = 0, hi = d->nbad;

	if (pfn >= d->cut_pfn)
		return true;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pfn < d->bad[mid].start)
			hi = mid;
		else if (pfn >= d->bad[mid].end)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

/* --- notes and VMCOREINFO ------------------------------------------------------ */

/* libkdumpfile's note_equal(): the name with or without its NUL. */
static bool note_is(const char *want, const uint8_t *name, size_t namesz)
{
	size_t len = strlen(want);

	return (namesz == len || namesz == len + 1) && memcmp(name, want, namesz) == 0;
}

static bool key_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '(' || c == ')' || c == '-' || c == '.';
}

static int cmp_keys(const void *a, const void *b)
{
	const char *const *ka = a, *const *kb = b;

	return strcmp(*ka, *kb);
}

/*
 * libkdumpfile turns each VMCOREINFO line into an attribute, its key split
 * at '.' into directories, and sets the page size from PAGESIZE.  A key
 * that is a directory of another, an empty part or a PAGESIZE the machine
 * does not run with (or, in a kdump-compressed dump, other than its
 * header's block size) makes its open fail (and 0.5.1 then leaves a
 * dangling context); refuse those here.  An ELF dump's page size is its
 * PAGESIZE.  libkdumpfile reads the note's every byte, past a NUL
 * (where our own lookups stop, as the kernel's do): so are these checks,
 * a NUL in a key is a damaged key, and only NULs that end the text are
 * let be (0.5.1 read unmapped memory on a key after a NUL that begins with
 * a '.').
 */
static int check_vmcoreinfo(struct ol_dump *d, const char *text, size_t len, char *err,
			    size_t errlen)
{
	char **keys = NULL;
	size_t nkeys = 0, cap = 0, pos = 0, line = 0, i;
	int rc = -1;

	while (len && text[len - 1] == '\0')
		len--;
	/* a compressed header that does not name its machine: VMCOREINFO does */
	if (!d->arch) {
		d->arch = ol_arch_by_vmcoreinfo(text, len);
		if (!d->arch)
			return dump_fail(err, errlen, "its header does not name its machine, nor does its "
					 "VMCOREINFO name one of %s", ol_arch_names());
	}
	while (pos < len) {
		const char *s = text + pos, *end = memchr(s, '\n', len - pos), *eq;
		size_t llen = end ? (size_t)(end - s) : len - pos, klen;

		line++;
		pos += llen + 1;
		eq = memchr(s, '=', llen);
		klen = eq ? (size_t)(eq - s) : llen;
		if (klen == 0 || klen > 128 || s[0] == '.' || s[klen - 1] == '.') {
			dump_fail(err, errlen, "VMCOREINFO line %zu is not KEY=VALUE", line);
			goto out;
		}
		for (i = 0; i < klen; i++)
			if (!key_char(s[i]) || (s[i] == '.' && s[i + 1] == '.')) {
				dump_fail(err, errlen, "VMCOREINFO line %zu has a damaged key", line);
				goto out;
			}
		if (klen == 8 && memcmp(s, "PAGESIZE", 8) == 0 && eq) {
			/* what libkdumpfile makes of it: strtoul() of the whole value */
			char val[64];
			size_t vlen = llen - klen - 1;
			char *p;
			unsigned long v;

			if (vlen < sizeof(val)) {
				memcpy(val, eq + 1, vlen);
				val[vlen] = '\0';
				v = strtoul(val, &p, 10);
				if (!*p && !ol_arch_page_size_ok(d->arch, v)) {
					dump_fail(err, errlen, "VMCOREINFO says PAGESIZE=%s: not a "
						  "page size of %s kernels", val, d->arch->name);
					goto out;
				}
				if (!*p && d->fmt == FMT_KDUMP && v != d->page_size) {
					dump_fail(err, errlen, "VMCOREINFO says PAGESIZE=%s, its header "
						  "block_size %" PRIu64 " (QEMU's dump-guest-memory -z of an "
						  "arm64 guest: read its ELF dump)", val, d->page_size);
					goto out;
				}
				if (!*p && d->fmt == FMT_ELF)
					d->page_size = v;
			}
		}
		if (nkeys == cap) {
			char **k = realloc(keys, (cap ? 2 * cap : 256) * sizeof(*keys));

			if (!k) {
				dump_fail(err, errlen, "out of memory");
				goto out;
			}
			keys = k;
			cap = cap ? 2 * cap : 256;
		}
		keys[nkeys] = strndup(s, klen);
		if (!keys[nkeys]) {
			dump_fail(err, errlen, "out of memory");
			goto out;
		}
		nkeys++;
	}
	/* no key may also be a directory: "A" and "A.B" */
	if (nkeys)
		qsort(keys, nkeys, sizeof(*keys), cmp_keys);
	for (i = 0; i < nkeys; i++) {
		char *dot;

		for (dot = strchr(keys[i], '.'); dot; dot = strchr(dot + 1, '.')) {
			char prefix[129], *k = prefix;

			snprintf(prefix, sizeof(prefix), "%.*s", (int)(dot - keys[i]), keys[i]);
			if (bsearch(&k, keys, nkeys, sizeof(*keys), cmp_keys)) {
				dump_fail(err, errlen, "VMCOREINFO has both %s and %s", prefix, keys[i]);
				goto out;
			}
		}
	}
	rc = 0;
out:
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	return rc;
}

/*
 * Walks notes the way libkdumpfile's do_notes() does, and refuses what
 * would make its open fail or read past a note: Xen notes, a PRSTATUS
 * shorter than struct elf_prstatus, a VMCOREINFO it cannot take.
 */
static int check_notes(struct ol_dump *d, const uint8_t *p, size_t size, char *err,
		       size_t errlen)
{
	uint32_t prstatus = UINT32_MAX;	/* the shortest PRSTATUS note */

	while (size >= 12) {
		uint32_t namesz = ol_le32(p), descsz = ol_le32(p + 4), type = ol_le32(p + 8);
		size_t descoff = 12 + (((size_t)namesz + 3) & ~(size_t)3);
		size_t rdesc = ((size_t)descsz + 3) & ~(size_t)3;
		const uint8_t *name = p + 12, *desc = p + descoff;

		if (size < descoff + descsz)
			break;
		size -= descoff;
		p = desc + (size >= rdesc ? rdesc : size);
		size = size >= rdesc ? size - rdesc : 0;

		if (note_is("VMCOREINFO", name, namesz)) {
			char *copy;

			if (descsz > MAX_VMCOREINFO)
				return dump_fail(err, errlen, "its VMCOREINFO note is %" PRIu32
						 " bytes long", descsz);
			if (check_vmcoreinfo(d, (const char *)desc, descsz, err, errlen))
				return -1;
			copy = malloc(descsz + 1u);
			if (!copy)
				return dump_fail(err, errlen, "out of memory");
			memcpy(copy, desc, descsz);
			copy[descsz] = '\0';
			free(d->vmci);
			d->vmci = copy;
			d->vmci_len = descsz;
			d->has_vmci = true;
		} else if (note_is("VMCOREINFO_XEN", name, namesz) || note_is("Xen", name, namesz) ||
			   note_is(".note.Xen", name, namesz)) {
			return dump_fail(err, errlen, "it is a Xen dump, which the recorder does not read");
		} else if (note_is("CORE", name, namesz) && type == 1 && descsz < prstatus) {
			prstatus = descsz;
		}
	}
	/* after the loop: the machine may come from the VMCOREINFO note after them */
	if (prstatus != UINT32_MAX && d->arch && prstatus < d->arch->prstatus_size)
		return dump_fail(err, errlen, "it has a PRSTATUS note of %" PRIu32 " bytes, %" PRIu32
				 " expected on %s", prstatus, d->arch->prstatus_size, d->arch->name);
	return 0;
}

static int read_notes(struct ol_dump *d, uint64_t off, uint64_t len, char *err, size_t errlen)
{
	uint8_t *buf;
	int rc;

	if (len > MAX_NOTES)
		return dump_fail(err, errlen, "its notes are %" PRIu64 " bytes long", len);
	if (off > d->size || len > d->size - off)
		return dump_fail(err, errlen, "it is cut short: its notes end at byte %" PRIu64 " of %"
				 PRIu64, off + len, d->size);
	buf = malloc(len ? len : 1);
	if (!buf)
		return dump_fail(err, errlen, "out of memory");
	rc = dump_pread_all(d->fd, buf, len, off) ? dump_fail(err, errlen, "cannot read its notes: %s",
						     strerror(errno ? errno : EIO))
					     : check_notes(d, buf, len, err, errlen);
	free(buf);
	return rc;
}

/* --- kdump-compressed ------------------------------------------------------------ */

static bool power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* libkdumpfile's try_header(): the page size it would accept. */
static bool header_passes(uint32_t block_size, uint32_t bitmap_blocks, uint32_t max_mapnr)
{
	int32_t bs = (int32_t)block_size;

	return bs >= (int32_t)MIN_BLOCK && bs <= (int32_t)MAX_BLOCK && power_of_two(block_size) &&
	       (uint64_t)8 * bitmap_blocks * block_size >= max_mapnr;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A streamed view of a region of the file. */
struct stream {
	int fd;
	uint64_t off, end;	/* the region: [off, end) of the file */
	uint8_t buf[1 << 16];
	uint64_t base;		/* file offset of buf[0] */
	size_t len;
};

/* The bytes at off (n of them, at most a page); NULL past the region. */
static const uint8_t *stream_at(struct stream *s, uint64_t off, size_t n)
{
	size_t want;

	if (off < s->off || off > s->end || s->end - off < n)
		return NULL;
	if (off >= s->base && off - s->base + n <= s->len)
		return s->buf + (off - s->base);
	want = sizeof(s->buf);
	if (s->end - off < want)
		want = (size_t)(s->end - off);
	if (dump_pread_all(s->fd, s->buf, want, off))
		return NULL;
	s->base = off;
	s->len = want;
	return s->buf;
}

/*
 * Every page descriptor, in the order makedumpfile wrote them: the page
 * data starts right after the descriptor table (so the number of bits set
 * in the bitmap must match it: a bit cleared or set by damage would give
 * every later page its neighbour's data), with a page of zeros first when
 * zero pages are left out, and each page's data follows the one before.
 * A descriptor that breaks that chain is a damaged page; the chain picks
 * up again at the next one.  A compressed size larger than a page would
 * overrun libkdumpfile's buffer, so that refuses the dump.  Data past the
 * end of the file: the file was cut there, and every later page with it.
 */
static int scan_descriptors(struct ol_dump *d, struct stream *bits, struct stream *descs,
			    uint64_t bitmap_bytes, uint64_t bitmap_pfns, uint64_t desc_off,
			    char *err, size_t errlen)
{
	uint64_t pfn, k = 0, set = 0, data_start, next;
	bool zero_first = d->dump_level & DL_EXCLUDE_ZERO, first = true;

	*bits = (struct stream){ .fd = d->fd, .off = d->bitmap2_off,
				 .end = d->bitmap2_off + bitmap_bytes };
	for (pfn = 0; pfn < bitmap_pfns; pfn += 8) {
		const uint8_t *b = stream_at(bits, d->bitmap2_off + pfn / 8, 1);

		if (!b)
			return dump_fail(err, errlen, "cannot read its page bitmap");
		set += (uint64_t)__builtin_popcount(*b);
	}
	d->saved_pages = set;
	data_start = desc_off + set * DESC_SIZE;
	next = data_start + (zero_first ? d->page_size : 0);
	*descs = (struct stream){ .fd = d->fd, .off = desc_off, .end = d->size };

	for (pfn = 0; pfn < bitmap_pfns && pfn < d->max_pfn; pfn++) {
		const uint8_t *b = stream_at(bits, d->bitmap2_off + pfn / 8, 1), *pd;
		uint64_t off;
		uint32_t size, flags;

		if (!b)
			return dump_fail(err, errlen, "cannot read its page bitmap");
		if (!*b) {
			pfn |= 7;	/* eight pages left out */
			continue;
		}
		if (!(*b & (1u << (pfn % 8))))
			continue;
		pd = stream_at(descs, desc_off + k * DESC_SIZE, DESC_SIZE);
		k++;
		if (!pd) {
			/* the descriptor itself lies past the end of the file */
			d->cut_pfn = pfn;
			break;
		}
		off = ol_le64(pd);
		size = ol_le32(pd + 8);
		flags = ol_le32(pd + 12);
		if ((flags & DUMP_DH_COMPRESSED) && size > d->page_size)
			return dump_fail(err, errlen, "the page descriptor of pfn 0x%" PRIx64 " claims %"
					 PRIu32 " compressed bytes for a %" PRIu64 "-byte page", pfn,
					 size, d->page_size);
		if (zero_first && off == data_start && size == d->page_size && !flags) {
			first = false;	/* makedumpfile's one page of zeros */
			d->saved_pages--;	/* marked, but not saved */
			continue;
		}
		if (off != next) {
			if (first)
				return dump_fail(err, errlen, "its page bitmap and page descriptors "
						 "disagree: %" PRIu64 " pages are marked, so their data "
						 "should start at byte %" PRIu64 ", not %" PRIu64, set,
						 next, off);
			if (add_bad(d, pfn))
				return dump_fail(err, errlen, "more than %u stretches of its page "
						 "descriptors are damaged", MAX_BAD);
		} else if (off > d->size || size > d->size - off) {
			d->cut_pfn = pfn;
			break;
		}
		first = false;
		next = off + size;
	}
	return 0;
}

/*
 * The pages the 1st bitmap marks (the memory the dumped kernel had) beside
 * those the 2nd marks (saved), for the capture record's judgement of what
 * was left out; have_pages stays false when the bitmap cannot be read.
 */
static void count_bitmap1(struct ol_dump *d, struct stream *bits, uint64_t bitmap_bytes)
{
	uint64_t i, ram = 0;

	*bits = (struct stream){ .fd = d->fd, .off = d->bitmap1_off, .end = d->bitmap1_off + bitmap_bytes };
	for (i = 0; i < bitmap_bytes; i++) {
		const uint8_t *b = stream_at(bits, d->bitmap1_off + i, 1);

		if (!b)
			return;
		ram += (uint64_t)__builtin_popcount(*b);
	}
	d->ram_pages = ram;
	d->have_pages = true;
}

int dump_check_kdump(struct ol_dump *d, const uint8_t *h, size_t hlen, char *err, size_t errlen)
{
	uint8_t sub[104];
	uint32_t block_size, bitmap_blocks, max_mapnr, bitmap_used;
	int32_t version, sub_hdr_size, split;
	uint64_t bitmap_off, bitmap_bytes, bitmap_pfns, desc_off, max_pfn;
	struct stream *bits, *descs;
	int rc;

	if (hlen < 464)
		return dump_fail(err, errlen, "it is cut short: %zu bytes, less than its header",
				 hlen);
	/* QEMU's dump-guest-memory -z does not know the machine: its VMCOREINFO tells */
	d->arch = ol_arch_by_uts((const char *)h + 272, 65);
	if (!d->arch && strncmp((const char *)h + 272, "Unknown", 65) != 0)
		return dump_fail(err, errlen, "its header says machine \"%.20s\": the recorder reads "
				 "%s dumps", (const char *)h + 272, ol_arch_names());
	/* libkdumpfile tries the 32-bit header first: it must not pass */
	if (header_passes(ol_le32(h + 416), ol_le32(h + 424), ol_le32(h + 428)) ||
	    header_passes(be32(h + 416), be32(h + 424), be32(h + 428)))
		return dump_fail(err, errlen, "libkdumpfile would read its header as a 32-bit one");
	block_size = ol_le32(h + 428);
	sub_hdr_size = (int32_t)ol_le32(h + 432);
	bitmap_blocks = ol_le32(h + 436);
	max_mapnr = ol_le32(h + 440);
	version = (int32_t)ol_le32(h + 8);
	if (!power_of_two(block_size) || block_size < MIN_BLOCK || block_size > MAX_BLOCK)
		return dump_fail(err, errlen, "its header says block_size %" PRIu32 ", not a page size",
				 block_size);
	if (d->arch && !ol_arch_page_size_ok(d->arch, block_size))
		return dump_fail(err, errlen, "its header says block_size %" PRIu32 ": not a page size "
				 "of %s kernels", block_size, d->arch->name);
	if (!header_passes(block_size, bitmap_blocks, max_mapnr))
		return dump_fail(err, errlen, "its header's bitmap of %" PRIu32 " blocks cannot cover "
				 "max_mapnr %" PRIu32, bitmap_blocks, max_mapnr);
	if (version < 1)
		return dump_fail(err, errlen, "its header_version is %" PRId32 ": no sub-header",
				 version);
	if (sub_hdr_size < 1 || sub_hdr_size > 1024)
		return dump_fail(err, errlen, "its header says sub_hdr_size %" PRId32, sub_hdr_size);
	d->page_size = block_size;
	bitmap_off = (uint64_t)(1 + sub_hdr_size) * block_size;
	bitmap_bytes = (uint64_t)bitmap_blocks * block_size;
	desc_off = bitmap_off + bitmap_bytes;
	if (desc_off > d->size)
		return dump_fail(err, errlen, "it is cut short: its page bitmap ends at byte %" PRIu64
				 " of %" PRIu64, desc_off, d->size);
	if (dump_pread_all(d->fd, sub, sizeof(sub), block_size))
		return dump_fail(err, errlen, "cannot read its sub-header");
	d->dump_level = (int32_t)ol_le32(sub + 8);
	split = (int32_t)ol_le32(sub + 12);
	if (version >= 2 && split)
		return dump_fail(err, errlen, "it is one part of a split dump");
	if (version >= 4) {
		if (read_notes(d, ol_le64(sub + 48), ol_le64(sub + 56), err, errlen))
			return -1;
	} else if (version >= 3) {
		uint64_t off = ol_le64(sub + 32), len = ol_le64(sub + 40);
		char *text;

		if (len > MAX_VMCOREINFO || off > d->size || len > d->size - off)
			return dump_fail(err, errlen, "its VMCOREINFO (%" PRIu64 " bytes at %" PRIu64
					 ") does not fit in the file", len, off);
		text = malloc(len + 1);
		if (!text)
			return dump_fail(err, errlen, "out of memory");
		if (dump_pread_all(d->fd, text, len, off)) {
			free(text);
			return dump_fail(err, errlen, "cannot read its VMCOREINFO");
		}
		if (check_vmcoreinfo(d, text, len, err, errlen)) {
			free(text);
			return -1;
		}
		text[len] = '\0';
		d->vmci = text;
		d->vmci_len = len;
		d->has_vmci = true;
	}
	if (!d->arch)
		return dump_fail(err, errlen, "its header does not name its machine and it has no "
				 "VMCOREINFO to tell");
	if (!ol_arch_page_size_ok(d->arch, block_size))
		return dump_fail(err, errlen, "its header says block_size %" PRIu32 ": not a page size "
				 "of %s kernels", block_size, d->arch->name);
	max_pfn = max_mapnr;
	if (version >= 6)
		max_pfn = ol_le64(sub + 96);

	/* libkdumpfile's read_bitmap(): two bitmaps when max_pfn fits in half */
	bitmap_used = bitmap_blocks;
	bitmap_pfns = bitmap_bytes * 8;
	d->bitmap1_off = d->bitmap2_off = bitmap_off;
	if (max_pfn <= bitmap_pfns / 2) {
		bitmap_used = bitmap_blocks / 2;
		d->bitmap2_off = bitmap_off + (uint64_t)bitmap_used * block_size;
		d->has_bitmap1 = true;
	}
	bitmap_bytes = (uint64_t)bitmap_used * block_size;
	bitmap_pfns = bitmap_bytes * 8;
	d->max_pfn = max_pfn < bitmap_pfns ? max_pfn : bitmap_pfns;
	d->cut_pfn = UINT64_MAX;
	bits = malloc(sizeof(*bits));
	descs = malloc(sizeof(*descs));
	rc = bits && descs ? scan_descriptors(d, bits, descs, bitmap_bytes, bitmap_pfns,
					      desc_off, err, errlen)
			   : dump_fail(err, errlen, "out of memory");
	if (rc == 0 && d->has_bitmap1)
		count_bitmap1(d, bits, bitmap_bytes);
	free(bits);
	free(descs);
	if (rc)
		return -1;
	if (!d->release[0] && h[142])
		snprintf(d->release, sizeof(d->release), "%.64s", (const char *)h + 142);
	return 0;
}

/* --- ELF --------------------------------------------------------------------------- */

int dump_check_elf(struct ol_dump *d, const uint8_t *h, size_t hlen, char *err, size_t errlen)
{
	uint64_t phoff, shoff, i, cut_loads = 0, phnum;
	uint16_t shnum, phentsize, shentsize;
	uint8_t *ph;
	int rc = -1;

	if (hlen < 64)
		return dump_fail(err, errlen, "it is cut short: %zu bytes, less than an ELF header", hlen);
	if (h[4] != 2 || h[5] != 1 || h[6] != 1)
		return dump_fail(err, errlen, "it is not a 64-bit little-endian ELF file");
	if (ol_le16(h + 16) != 4)
		return dump_fail(err, errlen, "it is an ELF file but not a core dump (e_type %u)",
				 ol_le16(h + 16));
	d->arch = ol_arch_by_elf(ol_le16(h + 18));
	if (!d->arch)
		return dump_fail(err, errlen, "it is an ELF core dump of machine %u: the recorder reads "
				 "%s dumps", ol_le16(h + 18), ol_arch_names());
	phoff = ol_le64(h + 32);
	shoff = ol_le64(h + 40);
	phentsize = ol_le16(h + 54);
	phnum = ol_le16(h + 56);
	shentsize = ol_le16(h + 58);
	shnum = ol_le16(h + 60);
	if (phnum == 0xffff && shnum >= 1 && shentsize == 64 && shoff <= d->size &&
	    d->size - shoff >= 64) {
		/*
		 * PN_XNUM: more program headers than e_phnum holds (QEMU's
		 * paging dump of a distribution kernel: a segment for every
		 * mapping); the count is section header 0's sh_info.
		 */
		uint8_t sh0[64];

		if (dump_pread_all(d->fd, sh0, sizeof(sh0), shoff))
			return dump_fail(err, errlen, "cannot read its section header 0");
		phnum = ol_le32(sh0 + 44);
	}
	if (phentsize != 56 || phnum == 0 || phnum == 0xffff)
		return dump_fail(err, errlen, "its ELF header says %" PRIu64 " program headers of %u bytes",
				 phnum, phentsize);
	if (phoff > d->size || (uint64_t)phnum * 56 > d->size - phoff)
		return dump_fail(err, errlen, "it is cut short: its program headers end past byte %"
				 PRIu64, d->size);
	if (shoff || shnum) {
		/*
		 * /proc/vmcore has none, QEMU's dump-guest-memory a null one and
		 * .shstrtab; more would be Xen's, which libkdumpfile reads otherwise
		 */
		if (shnum > 2 || (shnum && shentsize != 64) ||
		    shoff > d->size || (uint64_t)shnum * 64 > d->size - shoff)
			return dump_fail(err, errlen, "it has ELF sections, which a Linux dump has not");
	}
	ph = malloc((size_t)phnum * 56);
	d->loads = calloc(phnum, sizeof(*d->loads));
	if (!ph || !d->loads) {
		free(ph);
		return dump_fail(err, errlen, "out of memory");
	}
	if (dump_pread_all(d->fd, ph, (size_t)phnum * 56, phoff)) {
		dump_fail(err, errlen, "cannot read its program headers");
		goto out;
	}
	/* the notes first: VMCOREINFO's PAGESIZE is the page size the loads are cut in */
	for (i = 0; i < phnum; i++) {
		const uint8_t *p = ph + i * 56;

		if (ol_le32(p) == 4 && read_notes(d, ol_le64(p + 8), ol_le64(p + 32), err, errlen))
			goto out;	/* PT_NOTE */
	}
	if (!d->page_size)
		d->page_size = ol_arch_page_size(d->arch);
	d->cut_pfn = UINT64_MAX;
	for (i = 0; i < phnum; i++) {
		const uint8_t *p = ph + i * 56;
		uint32_t type = ol_le32(p);
		uint64_t off = ol_le64(p + 8), paddr = ol_le64(p + 24), filesz = ol_le64(p + 32),
			 memsz = ol_le64(p + 40);

		if (type == 1) {	/* PT_LOAD */
			uint64_t have, pfn;

			if (filesz > memsz || paddr + memsz < paddr) {
				dump_fail(err, errlen, "its PT_LOAD %" PRIu64 " is damaged", i);
				goto out;
			}
			d->loads[d->nloads++] = (struct load){ paddr, memsz };
			have = off >= d->size ? 0 : d->size - off;
			if (have >= filesz)
				continue;
			/* the file ends inside this segment: the rest is not in it */
			cut_loads++;
			for (pfn = (paddr + have) / d->page_size;
			     pfn < (paddr + filesz + d->page_size - 1) / d->page_size;) {
				uint64_t end = (paddr + filesz + d->page_size - 1) / d->page_size;

				if (d->nbad == MAX_BAD) {
					dump_fail(err, errlen, "it is cut short in too many places");
					goto out;
				}
				d->bad[d->nbad++] = (struct range){ pfn, end };
				d->bad_pages += end - pfn;
				pfn = end;
			}
		}
	}
	if (cut_loads)
		snprintf(d->damage, sizeof(d->damage), "the file ends early: %" PRIu64 " pages "
			 "of %" PRIu64 " memory segments are not in it", d->bad_pages, cut_loads);
	/* keep the ranges sorted for dump_is_bad() */
	for (i = 1; i < d->nbad; i++) {
		struct range r = d->bad[i];
		size_t j = i;

		while (j > 0 && d->bad[j - 1].start > r.start) {
			d->bad[j] = d->bad[j - 1];
			j--;
		}
		d->bad[j] = r;
	}
	rc = 0;
out:
	free(ph);
	return rc;
}
