// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's dump file; see dump.h.  The checks before libkdumpfile
 * are in dump-check.c.
 *
 * Opening is two steps: our own checks of everything libkdumpfile 0.5.1
 * would read without checking (the kdump-compressed header and sub-header,
 * the page bitmap, every page descriptor, the ELF program headers, every
 * note), then libkdumpfile's open with mmap(2) turned off (a read past the
 * end of a cut file then gives zeros, not SIGBUS; our checks say which
 * pages those are).  Reads translate the address with libaddrxlat, refuse
 * the pages the checks found untrustworthy, and read by physical address.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/vmcoreinfo.h"
#include "dump-int.h"

/*
 * kdump_free() in libkdumpfile before 0.5.2 frees the attributes first and
 * then runs the format's attribute cleanup, which for a kdump-compressed
 * dump unlinks its page_size override from the freed attribute: a read and
 * a write of freed memory (valgrind shows both; upstream commit 97c716a).
 * Before 0.5.4 a failed open has already freed that override, so even the
 * attribute walk reads freed memory (upstream commit f191d5a).
 */
#define KDUMP_FREE_AFTER_OPEN (KDUMPFILE_VERSION >= KDUMPFILE_MKVER(0, 5, 2))
#define KDUMP_FREE_AFTER_FAILED_OPEN (KDUMPFILE_VERSION >= KDUMPFILE_MKVER(0, 5, 4))

int dump_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void read_failed(struct ol_dump *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void read_failed(struct ol_dump *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->read_err, sizeof(d->read_err), fmt, ap);
	va_end(ap);
}

/* len bytes at off, all of them: 0, or -1 when the file is shorter or unreadable */
int dump_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static const char *file_type(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* --- reading ------------------------------------------------------------------------ */

/* A bit of a bitmap in the file, through a one-block cache. */
static int bitmap_bit(struct ol_dump *d, uint64_t off, uint64_t pfn)
{
	uint64_t byte = off + pfn / 8, block = byte - byte % sizeof(d->bm);

	if (!d->bm_ok || d->bm_off != block) {
		size_t n = sizeof(d->bm);

		if (block >= d->size)
			return -1;
		if (d->size - block < n)
			n = (size_t)(d->size - block);
		memset(d->bm, 0, sizeof(d->bm));
		if (dump_pread_all(d->fd, d->bm, n, block))
			return -1;
		d->bm_off = block;
		d->bm_ok = true;
	}
	return (d->bm[byte - block] >> (pfn % 8)) & 1;
}

/*
 * Is the page at pfn in the file?  1 yes, 0 left out, -1 cannot tell.  A
 * page makedumpfile left out of the kernel image, with zero pages left out
 * by the dump level, was a page of zeros: the image has no user, cache or
 * free pages, the other kinds makedumpfile leaves out.
 */
static int present(struct ol_dump *d, uint64_t pfn, uint64_t vaddr, bool *zeros)
{
	size_t i;

	*zeros = false;
	if (d->fmt == FMT_ELF) {
		for (i = 0; i < d->nloads; i++)
			if (pfn * d->page_size >= d->loads[i].phys &&
			    pfn * d->page_size - d->loads[i].phys < d->loads[i].memsz)
				return 1;
		return 0;
	}
	if (pfn >= d->max_pfn)
		return 0;
	if (bitmap_bit(d, d->bitmap2_off, pfn) == 1)
		return 1;
	if ((d->dump_level & DL_EXCLUDE_ZERO) && d->has_bitmap1 && vaddr >= d->ktext_start &&
	    vaddr < d->ktext_end && bitmap_bit(d, d->bitmap1_off, pfn) == 1)
		*zeros = true;
	return 0;
}

static int dump_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct ol_dump *d = ctx;
	uint8_t *out = buf;

	while (len) {
		size_t n = (size_t)(d->page_size - addr % d->page_size);
		addrxlat_fulladdr_t fa = { addr, ADDRXLAT_KVADDR };
		addrxlat_status as;
		uint64_t pfn;
		bool zeros;
		size_t got;

		if (n > len)
			n = len;
		as = addrxlat_fulladdr_conv(&fa, ADDRXLAT_KPHYSADDR, d->axctx, d->axsys);
		if (as != ADDRXLAT_OK) {
			read_failed(d, "0x%" PRIx64 " is not mapped: %s", addr,
				    addrxlat_ctx_get_err(d->axctx));
			addrxlat_ctx_clear_err(d->axctx);
			return -1;
		}
		pfn = fa.addr / d->page_size;
		if (dump_is_bad(d, pfn)) {
			read_failed(d, "0x%" PRIx64 " is in pfn 0x%" PRIx64 ", %s", addr, pfn,
				    pfn >= d->cut_pfn ? "past the end of the cut file"
						      : "whose page descriptor is damaged");
			return -1;
		}
		switch (present(d, pfn, addr, &zeros)) {
		case 1:
			got = n;
			if (kdump_read(d->kd, KDUMP_KPHYSADDR, fa.addr, out, &got) != KDUMP_OK ||
			    got != n) {
				read_failed(d, "cannot read 0x%" PRIx64 ": %s", addr,
					    kdump_get_err(d->kd) ? kdump_get_err(d->kd) : "short read");
				kdump_clear_err(d->kd);
				return -1;
			}
			break;
		case 0:
			if (zeros) {
				memset(out, 0, n);
				break;
			}
			read_failed(d, "0x%" PRIx64 " is in pfn 0x%" PRIx64 ", which %s", addr, pfn,
				    d->fmt == FMT_ELF ? "the dump does not have"
						      : "makedumpfile left out");
			return -1;
		default:
			read_failed(d, "cannot read the page bitmap for pfn 0x%" PRIx64, pfn);
			return -1;
		}
		out += n;
		addr += n;
		len -= n;
	}
	return 0;
}

static int dump_vmcoreinfo(void *ctx, const char *key, char *buf, size_t len)
{
	struct ol_dump *d = ctx;

	return d->has_vmci ? ol_vmcoreinfo_find(d->vmci, d->vmci_len, key, buf, len) : -1;
}

/* --- open and close ------------------------------------------------------------------ */

/*
 * A context kdump_free() cannot free safely (see KDUMP_FREE_AFTER_OPEN) is
 * kept, reachable, until the process ends: the recorder opens one dump, so
 * that costs one context.  Its file descriptor is ours and is closed.
 */
static kdump_ctx_t **parked;
static size_t nparked;

static void drop_ctx(kdump_ctx_t *kd, bool opened)
{
	kdump_ctx_t **p;

	if (opened ? KDUMP_FREE_AFTER_OPEN : KDUMP_FREE_AFTER_FAILED_OPEN) {
		kdump_free(kd);
		return;
	}
	p = realloc(parked, (nparked + 1) * sizeof(*parked));
	if (!p)
		return;	/* out of memory: it leaks, which is still safe */
	parked = p;
	parked[nparked++] = kd;
}

static int lib_open(struct ol_dump *d, char *err, size_t errlen)
{
	kdump_status st;

	d->kd = kdump_new();
	if (!d->kd)
		return dump_fail(err, errlen, "out of memory");
	/* read(2), never mmap(2): a cut file gives zeros we know of, not SIGBUS */
	if (kdump_set_number_attr(d->kd, KDUMP_ATTR_FILE_MMAP_POLICY, KDUMP_MMAP_NEVER) !=
	    KDUMP_OK) {
		dump_fail(err, errlen, "libkdumpfile: %s", kdump_get_err(d->kd));
		kdump_free(d->kd);
		d->kd = NULL;
		return -1;
	}
	st = kdump_open_fd(d->kd, d->fd);
	if (st != KDUMP_OK) {
		dump_fail(err, errlen, "libkdumpfile cannot open it: %s", kdump_get_err(d->kd));
		drop_ctx(d->kd, false);
		d->kd = NULL;
		return -1;
	}
	/* libkdumpfile reads VMCOREINFO only once it knows the dump is Linux */
	if (kdump_set_string_attr(d->kd, KDUMP_ATTR_OSTYPE, "linux") != KDUMP_OK)
		return dump_fail(err, errlen, "libkdumpfile cannot set up its address translation: %s",
				 kdump_get_err(d->kd));
	if (kdump_get_addrxlat(d->kd, &d->axctx, &d->axsys) != KDUMP_OK)
		return dump_fail(err, errlen, "libkdumpfile has no address translation for it: %s",
				 kdump_get_err(d->kd));
	return 0;
}

/*
 * Where the kernel image lives (common/arches.def): a fixed range, or one
 * from VMCOREINFO; none (no left-out page read as zeros) when VMCOREINFO
 * does not say.
 */
static void ktext(struct ol_dump *d)
{
	const struct ol_arch *a = d->arch;
	uint64_t start = a->ktext_start;

	if (a->ktext_symbol) {
		if (!d->has_vmci || ol_vmci_symbol(&d->mem, a->ktext_symbol, &start) != 0)
			return;
		start -= start % a->ktext_align;
	}
	if (start > UINT64_MAX - a->ktext_size)
		return;
	d->ktext_start = start;
	d->ktext_end = start + a->ktext_size;
}

struct ol_dump *ol_dump_open(const char *path, char *err, size_t errlen)
{
	struct ol_dump *d = calloc(1, sizeof(*d));
	uint8_t head[4096];
	struct stat st;
	size_t hlen;
	int flags, rc;
	char rel[80];

	if (!d) {
		dump_fail(err, errlen, "out of memory");
		return NULL;
	}
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	d->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (d->fd < 0) {
		dump_fail(err, errlen, "cannot open %s: %s", path, strerror(errno));
		free(d);
		return NULL;
	}
	if (fstat(d->fd, &st) != 0) {
		dump_fail(err, errlen, "cannot stat %s: %s", path, strerror(errno));
		goto bad;
	}
	if (!S_ISREG(st.st_mode)) {
		dump_fail(err, errlen, "%s is %s, not a dump file", path, file_type(st.st_mode));
		goto bad;
	}
	flags = fcntl(d->fd, F_GETFL);
	if (flags < 0 || fcntl(d->fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		dump_fail(err, errlen, "cannot use %s: %s", path, strerror(errno));
		goto bad;
	}
	d->size = (uint64_t)st.st_size;
	if (d->size == 0) {
		dump_fail(err, errlen, "%s is empty", path);
		goto bad;
	}
	hlen = d->size < sizeof(head) ? (size_t)d->size : sizeof(head);
	if (dump_pread_all(d->fd, head, hlen, 0)) {
		dump_fail(err, errlen, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
		goto bad;
	}
	if (hlen >= 4 && memcmp(head, "\177ELF", 4) == 0) {
		d->fmt = FMT_ELF;
		rc = dump_check_elf(d, head, hlen, err, errlen);
	} else if (hlen >= 8 && (!memcmp(head, "KDUMP   ", 8) || !memcmp(head, "DISKDUMP", 8))) {
		d->fmt = FMT_KDUMP;
		rc = dump_check_kdump(d, head, hlen, err, errlen);
	} else if (hlen >= 12 && memcmp(head, "makedumpfile", 12) == 0) {
		rc = dump_fail(err, errlen, "it is in makedumpfile's flattened format (makedumpfile -R "
			       "turns it into a dump file)");
	} else {
		rc = dump_fail(err, errlen, "it is neither an ELF core dump nor kdump-compressed");
	}
	if (rc) {
		/* the checks said what is wrong; say with what */
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		dump_fail(err, errlen, "%s is not a dump the recorder can read: %s", path, why);
		goto bad;
	}
	if (d->nbad && !d->damage[0])
		snprintf(d->damage, sizeof(d->damage), "%" PRIu64 " page descriptors do not "
			 "follow the one before: those pages are not read", d->bad_pages);
	if (d->cut_pfn != UINT64_MAX && !d->damage[0])
		snprintf(d->damage, sizeof(d->damage), "the file ends early: the pages from pfn "
			 "0x%" PRIx64 " on are not in it", d->cut_pfn);
	if (lib_open(d, err, errlen)) {
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		if (d->has_vmci)
			dump_fail(err, errlen, "%s: %s", path, why);
		else
			dump_fail(err, errlen, "%s has no VMCOREINFO note at all, and without it %s",
				  path, why);
		goto bad;
	}
	d->mem = (struct ol_mem){ dump_read, dump_vmcoreinfo, d };
	ktext(d);
	if (d->has_vmci && ol_vmcoreinfo_find(d->vmci, d->vmci_len, "OSRELEASE", rel,
					      sizeof(rel)) == 0)
		snprintf(d->release, sizeof(d->release), "%s", rel);
	return d;
bad:
	ol_dump_close(d);
	return NULL;
}

const struct ol_mem *ol_dump_mem(struct ol_dump *d)
{
	return &d->mem;
}

const char *ol_dump_format(const struct ol_dump *d)
{
	return d->fmt == FMT_ELF ? "ELF" : "kdump-compressed";
}

bool ol_dump_has_vmcoreinfo(const struct ol_dump *d)
{
	return d->has_vmci;
}

const char *ol_dump_vmcoreinfo(const struct ol_dump *d, size_t *len)
{
	*len = d->vmci_len;
	return d->has_vmci ? d->vmci : NULL;
}

int ol_dump_symbol(struct ol_dump *d, const char *name, uint64_t *addr, char *why,
		   size_t whylen)
{
	int rc;

	if (!d->has_vmci)
		return dump_fail(why, whylen, "the dump has no VMCOREINFO note at all");
	rc = ol_vmci_symbol(&d->mem, name, addr);
	if (rc == OL_VMCI_ABSENT)
		return dump_fail(why, whylen, "no SYMBOL(%s) line in VMCOREINFO", name);
	if (rc == OL_VMCI_BAD)
		return dump_fail(why, whylen, "SYMBOL(%s) in VMCOREINFO is not an address", name);
	return 0;
}

const char *ol_dump_release(const struct ol_dump *d)
{
	return d->release[0] ? d->release : NULL;
}

int ol_dump_crashtime(const struct ol_dump *d, int64_t *when)
{
	uint64_t v;

	if (!d->has_vmci || ol_vmci_number(&d->mem, "CRASHTIME", 10, &v) != 0 ||
	    v > INT64_MAX)
		return -1;
	*when = (int64_t)v;
	return 0;
}

bool ol_dump_pages(const struct ol_dump *d, uint64_t *ram, uint64_t *saved)
{
	if (d->fmt != FMT_KDUMP || !d->have_pages)
		return false;
	*ram = d->ram_pages;
	*saved = d->saved_pages;
	return true;
}

const char *ol_dump_damage(const struct ol_dump *d)
{
	return d->damage;
}

const char *ol_dump_read_error(const struct ol_dump *d)
{
	return d->read_err;
}

void ol_dump_close(struct ol_dump *d)
{
	if (!d)
		return;
	if (d->axctx)
		addrxlat_ctx_decref(d->axctx);
	if (d->axsys)
		addrxlat_sys_decref(d->axsys);
	if (d->kd)
		drop_ctx(d->kd, true);
	if (d->fd >= 0)
		close(d->fd);
	free(d->loads);
	free(d->vmci);
	free(d);
}
