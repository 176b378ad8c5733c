// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of recorder/dump.c's checks, on small files made here: what is no
 * dump at all (empty, a directory, a FIFO, a device, text), ELF and
 * kdump-compressed headers with one field wrong, notes libkdumpfile 0.5.1
 * cannot take, page bitmaps and descriptors that do not agree.  Each must
 * be refused with a line saying what is wrong; a file that passes the
 * checks opens, remembers its damage, and fails cleanly to read memory it
 * has no page tables for.  Built with ASan and UBSan (make -C tests/damage check).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../recorder/dump.h"
#include "../unit/tap.h"

static char dir[] = "/tmp/oopslimit-open-test.XXXXXX";
static char path[256];

#define BLOCK 4096
#define PFNS 8		/* dumped pages */

/* A kdump-compressed file: header, sub-header and notes, two bitmaps, descriptors, data. */
struct kd {
	uint8_t buf[BLOCK * 8 + PFNS * BLOCK + 4096];
	size_t len;
};

static void le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static size_t note(uint8_t *p, const char *name, uint32_t type, const void *desc, uint32_t dlen)
{
	uint32_t nlen = (uint32_t)strlen(name) + 1;
	size_t at = 12;

	le(p, nlen, 4);
	le(p + 4, dlen, 4);
	le(p + 8, type, 4);
	memcpy(p + at, name, nlen);
	at += (nlen + 3) & ~3u;
	memcpy(p + at, desc, dlen);
	return at + ((dlen + 3) & ~3u);
}

static const char vmci_ok[] = "OSRELEASE=6.1.0-test\nPAGESIZE=4096\nSYMBOL(_stext)=ffffffff81000000\n"
			      "OFFSET(printk_info.seq)=0\nKERNELOFFSET=0\n";

/* The machine kd_make() writes and its PRSTATUS note's size (common/arches.def). */
static const char *kd_machine = "x86_64";
static uint32_t kd_prstatus = 336;

/* A well-formed file, with vmci (vlen bytes) as its VMCOREINFO and dump level dl. */
static void kd_make_n(struct kd *k, const char *vmci, size_t vlen, int32_t dl)
{
	uint8_t *h = k->buf, *sub = k->buf + BLOCK, prstatus[392] = { 0 };
	size_t notes, i;
	uint64_t desc = 4 * BLOCK, data = desc + PFNS * 24;

	memset(k, 0, sizeof(*k));
	memcpy(h, "KDUMP   ", 8);
	le(h + 8, 6, 4);
	memcpy(h + 272, kd_machine, strlen(kd_machine));
	le(h + 416, 123457, 8);	/* timestamp's microseconds: not a page size */
	le(h + 428, BLOCK, 4);	/* block_size */
	le(h + 432, 1, 4);	/* sub_hdr_size */
	le(h + 436, 2, 4);	/* bitmap_blocks: two bitmaps of one block */
	le(h + 440, 8 * BLOCK, 4);	/* max_mapnr */
	le(sub + 8, (uint32_t)dl, 4);
	notes = note(sub + 104, "CORE", 1, prstatus, kd_prstatus);
	notes += note(sub + 104 + notes, "VMCOREINFO", 0, vmci, (uint32_t)vlen);
	le(sub + 48, BLOCK + 104, 8);
	le(sub + 56, notes, 8);
	le(sub + 96, 8 * BLOCK, 8);	/* max_mapnr_64 */
	for (i = 0; i < PFNS; i++) {
		k->buf[2 * BLOCK + i / 8] |= (uint8_t)(1u << (i % 8));	/* RAM */
		k->buf[3 * BLOCK + i / 8] |= (uint8_t)(1u << (i % 8));	/* dumped */
	}
	/* with zero pages left out, the one page of zeros comes first */
	for (i = 0; i < PFNS; i++) {
		le(k->buf + desc + 24 * i, data + (dl & 1 ? BLOCK : 0) + i * BLOCK, 8);
		le(k->buf + desc + 24 * i + 8, BLOCK, 4);
	}
	k->len = data + (dl & 1 ? BLOCK : 0) + PFNS * BLOCK;
}

static void kd_make(struct kd *k, const char *vmci, int32_t dl)
{
	kd_make_n(k, vmci, strlen(vmci), dl);
}

static void put(const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || close(fd) != 0) {
		perror(path);
		exit(EXIT_FAILURE);
	}
}

/* ol_dump_open(path) must fail with a line containing want. */
static void refused(const char *want, const char *what)
{
	char err[512] = "";
	struct ol_dump *d = ol_dump_open(path, err, sizeof(err));

	ok_got(!d && strstr(err, want) && !strchr(err, '\n'), what, err);
	ol_dump_close(d);
}

/*
 * ol_dump_open(path) must succeed with damage containing want ("" none);
 * a read must then fail cleanly: these dumps have no page tables.
 */
static void opened(const char *want, const char *what)
{
	char err[512] = "";
	struct ol_dump *d = ol_dump_open(path, err, sizeof(err));
	uint8_t b[8];
	int rc;

	if (!d) {
		ok_got(false, what, err);
		return;
	}
	rc = ol_dump_mem(d)->read(ol_dump_mem(d)->ctx, 0xffffffff81000000ull, b, sizeof(b));
	ok_got((*want ? strstr(ol_dump_damage(d), want) != NULL : !ol_dump_damage(d)[0]) &&
	       rc == -1 && ol_dump_read_error(d)[0], what, ol_dump_damage(d));
	ol_dump_close(d);
}

static void kd_opened(struct kd *k, const char *want, const char *what)
{
	put(k->buf, k->len);
	opened(want, what);
}

static void kd_refused(struct kd *k, const char *want, const char *what)
{
	put(k->buf, k->len);
	refused(want, what);
}

static void test_not_dumps(void)
{
	snprintf(path, sizeof(path), "%s/none", dir);
	refused("No such file", "a missing file");
	snprintf(path, sizeof(path), "%s/empty", dir);
	put("", 0);
	refused("is empty", "an empty file");
	snprintf(path, sizeof(path), "%s/d", dir);
	mkdir(path, 0700);
	refused("is a directory, not a dump file", "a directory");
	snprintf(path, sizeof(path), "%s/fifo", dir);
	mkfifo(path, 0600);
	refused("is a FIFO, not a dump file", "a FIFO, without waiting for a writer");
	snprintf(path, sizeof(path), "/dev/null");
	refused("is a character device", "a device");
	snprintf(path, sizeof(path), "%s/text", dir);
	put("This is not a dump.\n", 20);
	refused("neither an ELF core dump nor kdump-compressed", "a text file");
	put("makedumpfile\0\0\0\0", 16);
	refused("flattened format", "makedumpfile's flattened format");
}

/* One field of a sound ELF header at a time, set to what breaks it. */
static const struct elf_damage {
	unsigned off, width;
	uint64_t bad, good;
	const char *want, *what;
} elf_damage[] = {
	{ 4, 1, 1, 2, "not a 64-bit little-endian ELF", "ELF: 32-bit" },
	{ 16, 2, 2, 4, "not a core dump", "ELF: an executable" },
	{ 18, 2, 40, 62, "machine 40: the recorder reads x86_64 or arm64", "ELF: a 32-bit arm dump" },
	{ 56, 2, 0, 1, "0 program headers", "ELF: no program headers" },
	{ 56, 2, 3, 1, "cut short", "ELF: program headers past the end" },
	{ 60, 2, 4, 0, "ELF sections", "ELF: sections (libkdumpfile would look for Xen's)" },
	{ 64 + 40, 8, 0x10, 0x1000, "PT_LOAD 0 is damaged", "ELF: p_filesz above p_memsz" },
};

static void test_elf(void)
{
	uint8_t e[64 + 56] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };

	le(e + 16, 4, 2);	/* ET_CORE */
	le(e + 18, 62, 2);	/* EM_X86_64 */
	le(e + 32, 64, 8);	/* e_phoff */
	le(e + 54, 56, 2);
	le(e + 56, 1, 2);
	le(e + 64, 1, 4);	/* one PT_LOAD, 4096 bytes at offset 0x1000 */
	le(e + 64 + 8, 0x1000, 8);
	le(e + 64 + 32, 0x1000, 8);
	le(e + 64 + 40, 0x1000, 8);
	put(e, 40);
	refused("less than an ELF header", "ELF: cut inside its header");
	/* each damage alone: one field set wrong, the dump refused, the field put back */
	for (size_t i = 0; i < sizeof(elf_damage) / sizeof(elf_damage[0]); i++) {
		const struct elf_damage *d = &elf_damage[i];

		le(e + d->off, d->bad, d->width);
		put(e, sizeof(e));
		refused(d->want, d->what);
		le(e + d->off, d->good, d->width);
	}
	put(e, sizeof(e));
	refused("libkdumpfile", "ELF: a cut segment passes the checks, libkdumpfile says the rest");

	/* PN_XNUM: e_phnum 0xffff, the count in section header 0's sh_info */
	{
		uint8_t x[64 + 56 + 64];

		memcpy(x, e, sizeof(e));
		memset(x + sizeof(e), 0, 64);
		le(x + 56, 0xffff, 2);
		put(x, sizeof(x));
		refused("65535 program headers", "ELF: PN_XNUM without a section header");
		le(x + 40, 64 + 56, 8);	/* e_shoff */
		le(x + 58, 64, 2);	/* e_shentsize */
		le(x + 60, 1, 2);	/* e_shnum */
		le(x + 64 + 56 + 44, 3, 4);	/* sh_info: 3 program headers */
		put(x, sizeof(x));
		refused("cut short: its program headers end", "ELF: PN_XNUM, sh_info counts past the end");
		le(x + 64 + 56 + 44, 1, 4);
		put(x, sizeof(x));
		refused("libkdumpfile", "ELF: PN_XNUM with sh_info 1 reads its one PT_LOAD (QEMU's paging dumps)");
	}
}

static void test_kdump(void)
{
	static struct kd k;
	char padded[sizeof(vmci_ok) + 3];
	static const char conflict[] = "OFFSET(printk_info.seq)=0\nOFFSET(printk_info=1\n";

	snprintf(path, sizeof(path), "%s/kdump", dir);
	kd_make(&k, vmci_ok, 31);
	kd_opened(&k, "", "a well-formed file opens, a read without page tables fails");
	k.len = 100;
	kd_refused(&k, "less than its header", "cut inside its header (head -c 100)");
	kd_make(&k, vmci_ok, 31);
	k.len = 3 * BLOCK;
	kd_refused(&k, "its page bitmap ends at byte 16384 of 12288", "cut inside its bitmap");

	kd_make(&k, vmci_ok, 31);
	memcpy(k.buf + 272, "i686\0\0", 6);
	kd_refused(&k, "machine \"i686\"", "machine i686");
	/* common/arches.def: arm64's struct elf_prstatus is 392 bytes, x86_64's 336 */
	kd_make(&k, vmci_ok, 31);
	memcpy(k.buf + 272, "aarch64", 7);
	kd_refused(&k, "PRSTATUS note of 336 bytes, 392 expected on arm64",
		   "an arm64 header with x86_64's PRSTATUS note");
	kd_make(&k, "PAGESIZE=16384\n", 31);
	kd_refused(&k, "PAGESIZE=16384: not a page size of x86_64",
		   "an x86_64 dump whose VMCOREINFO says 16k pages");
	kd_machine = "aarch64";
	kd_prstatus = 392;
	kd_make(&k, vmci_ok, 31);
	kd_opened(&k, "", "an arm64 header with arm64's PRSTATUS note opens");
	kd_make(&k, "PAGESIZE=16384\n", 31);
	kd_refused(&k, "PAGESIZE=16384, its header block_size 4096",
		   "an arm64 dump whose VMCOREINFO and header disagree on the page size");
	/* QEMU's -z header says "Unknown": the machine is VMCOREINFO's */
	kd_machine = "Unknown";
	kd_make(&k, "OSRELEASE=6.12.117+deb13-arm64\nPAGESIZE=4096\nNUMBER(kimage_voffset)=0xffffdaf4a5000000\n", 31);
	kd_opened(&k, "", "an \"Unknown\" header whose VMCOREINFO is arm64's opens");
	kd_make(&k, vmci_ok, 31);
	kd_refused(&k, "does not name its machine, nor does its VMCOREINFO",
		   "an \"Unknown\" header whose VMCOREINFO names no machine");
	kd_machine = "x86_64";
	kd_prstatus = 336;
	kd_make(&k, vmci_ok, 31);
	le(k.buf + 428, 0, 4);
	kd_refused(&k, "block_size 0", "block_size 0");
	le(k.buf + 428, 8192, 4);
	kd_refused(&k, "block_size 8192", "block_size 8192");
	le(k.buf + 428, BLOCK, 4);
	le(k.buf + 436, 0xffffffff, 4);
	kd_refused(&k, "cut short: its page bitmap ends", "bitmap_blocks 0xffffffff");
	le(k.buf + 436, 2, 4);
	le(k.buf + 440, 0xffffffff, 4);
	kd_refused(&k, "cannot cover max_mapnr 4294967295", "max_mapnr 0xffffffff");
	le(k.buf + 440, 8 * BLOCK, 4);
	le(k.buf + 432, 0, 4);
	kd_refused(&k, "sub_hdr_size 0", "sub_hdr_size 0");
	le(k.buf + 432, 1, 4);
	le(k.buf + 8, 0, 4);
	kd_refused(&k, "header_version is 0", "header_version 0");
	le(k.buf + 8, 6, 4);
	le(k.buf + BLOCK + 12, 1, 4);
	kd_refused(&k, "split dump", "one part of a split dump");
	le(k.buf + BLOCK + 12, 0, 4);
	le(k.buf + BLOCK + 48, 1ull << 40, 8);
	kd_refused(&k, "its notes end at byte", "notes past the end");
	le(k.buf + BLOCK + 48, BLOCK + 104, 8);
	le(k.buf + BLOCK + 56, 1ull << 40, 8);
	kd_refused(&k, "its notes are 1099511627776 bytes long", "notes of a terabyte");

	/* the timestamp reads as a 32-bit header libkdumpfile would take */
	kd_make(&k, vmci_ok, 31);
	le(k.buf + 416, 8192, 4);
	le(k.buf + 424, 64, 4);
	kd_refused(&k, "as a 32-bit one", "a header libkdumpfile would read as 32-bit");

	/* notes libkdumpfile cannot take */
	kd_make(&k, "PAGESIZE=0\n", 31);
	kd_refused(&k, "PAGESIZE=0", "VMCOREINFO with PAGESIZE=0");
	kd_make(&k, "PAGESIZE=\n", 31);
	kd_refused(&k, "PAGESIZE=", "VMCOREINFO with an empty PAGESIZE");
	kd_make(&k, "PAGESIZE= 4096\n", 31);
	kd_opened(&k, "", "PAGESIZE with a space: strtoul takes it, so does the check");
	kd_make(&k, "PAGESIZE=4096x\n", 31);
	kd_opened(&k, "", "PAGESIZE=4096x: libkdumpfile ignores it, so does the check");
	kd_make(&k, conflict, 31);
	kd_refused(&k, "has both OFFSET(printk_info and OFFSET(printk_info.seq)",
		   "a VMCOREINFO key that is also a directory");
	kd_make(&k, "A..B=1\n", 31);
	kd_refused(&k, "damaged key", "a VMCOREINFO key with an empty part");
	kd_make(&k, "=1\n", 31);
	kd_refused(&k, "not KEY=VALUE", "a VMCOREINFO line without a key");
	/* libkdumpfile reads past a NUL: a key there that 0.5.1 dies on (issue 21) */
	kd_make_n(&k, "OSRELEASE=6.1.0-test\n\0\n.compound_dtor)=16\n", 42, 31);
	kd_refused(&k, "line 2 has a damaged key", "a NUL line, then a key beginning with '.'");
	kd_make_n(&k, "OSRELEASE=6.1.0-test\nSY\0\0MBOL(x)=1\n", 35, 31);
	kd_refused(&k, "line 2", "a VMCOREINFO key with NULs in it");
	memset(padded, 0, sizeof(padded));
	memcpy(padded, vmci_ok, sizeof(vmci_ok));
	kd_make_n(&k, padded, sizeof(padded), 31);
	kd_opened(&k, "", "VMCOREINFO ending in NULs (padding): opened");
	kd_make(&k, vmci_ok, 31);
	memcpy(k.buf + BLOCK + 104 + 12, "Xen\0", 4);
	le(k.buf + BLOCK + 104, 4, 4);
	kd_refused(&k, "Xen dump", "a Xen note");
	kd_make(&k, vmci_ok, 31);
	le(k.buf + BLOCK + 104 + 4, 100, 4);
	kd_refused(&k, "PRSTATUS note of 100 bytes", "a short PRSTATUS note");

	/* the bitmap and the descriptors */
	kd_make(&k, vmci_ok, 31);
	k.buf[3 * BLOCK] &= (uint8_t)~4u;
	kd_refused(&k, "page bitmap and page descriptors disagree", "a cleared bitmap bit");
	kd_make(&k, vmci_ok, 31);
	k.buf[3 * BLOCK + 1] |= 1;
	kd_refused(&k, "page bitmap and page descriptors disagree", "a set bitmap bit");
	kd_make(&k, vmci_ok, 0);
	kd_opened(&k, "", "dump level 0: no page of zeros first");
	le(k.buf + BLOCK + 8, 1, 4);
	le(k.buf + 4 * BLOCK + 12, 2, 4);
	kd_refused(&k, "disagree", "a dump level that says a page of zeros comes first, wrongly");
	kd_make(&k, vmci_ok, 31);
	le(k.buf + 4 * BLOCK + 24 * 3 + 8, 70000, 4);
	le(k.buf + 4 * BLOCK + 24 * 3 + 12, 2, 4);
	kd_refused(&k, "claims 70000 compressed bytes", "a compressed size past the page");
	kd_make(&k, vmci_ok, 31);
	le(k.buf + 4 * BLOCK + 24 * 3, 12345, 8);
	kd_opened(&k, "2 page descriptors do not follow", "one damaged offset: it and the next are not read");
	kd_make(&k, vmci_ok, 31);
	k.len -= 3 * BLOCK;
	kd_opened(&k, "the file ends early: the pages from pfn 0x5 on", "page data cut short is remembered");
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return EXIT_FAILURE;
	}
	test_not_dumps();
	test_elf();
	test_kdump();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "open-test: cannot remove %s\n", dir);
	return tap_done();
}
