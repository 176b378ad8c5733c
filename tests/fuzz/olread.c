// SPDX-License-Identifier: GPL-2.0
/*
 * olread: reads a dump the way the recorder does (recorder/dump.c, then
 * common/kallsyms.c and common/printk.c) and shows what it got, for the
 * tests that compare those readers with their oracles and for the fuzzing
 * corpus.
 *
 *   olread -d VMCORE          the kernel log, as vmcore-dmesg prints it
 *   olread -v VMCORE          the variables of common/vars.def through the
 *                             dump's kallsyms: "name 0xADDR TYPE VALUE" a line
 *   olread -s NAME... VMCORE  every kallsyms match of each NAME
 *   olread -i IMAGE VMCORE    with -d/-v: also write every byte read, and
 *                             VMCOREINFO, as a fuzzing image (tests/unit/memimg.h)
 *
 * A summary goes to standard error.  Exit status: 0 when everything asked
 * for was read (and the log decoded reliably; a variable the kernel does
 * not have is no failure), 1 when something was not (the line says what),
 * 2 on bad usage or a dump that cannot be opened.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../common/kallsyms.h"
#include "../../common/printk.h"
#include "../../recorder/dump.h"

static const struct {
	const char *symbol;
	unsigned int size;
} vars[] = {
#define OL_VAR(id, key, symbol, file, size, sysctl, range) { symbol, size },
#include "../../common/vars.def"
#undef OL_VAR
};
#define NVARS (sizeof(vars) / sizeof(vars[0]))

/* Every successful read, to replay as an image. */
struct rec {
	const struct ol_mem *inner;
	struct seg {
		uint64_t addr;
		size_t len;
		uint8_t *data;
	} *seg;
	size_t n, cap;
};

static int rec_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct rec *r = ctx;
	int rc = r->inner->read(r->inner->ctx, addr, buf, len);

	if (rc == 0 && len) {
		if (r->n == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 256;
			struct seg *s = realloc(r->seg, cap * sizeof(*s));

			if (!s)
				return rc;
			r->seg = s;
			r->cap = cap;
		}
		r->seg[r->n].data = malloc(len);
		if (!r->seg[r->n].data)
			return rc;
		memcpy(r->seg[r->n].data, buf, len);
		r->seg[r->n].addr = addr;
		r->seg[r->n].len = len;
		r->n++;
	}
	return rc;
}

static int rec_vmcoreinfo(void *ctx, const char *key, char *buf, size_t len)
{
	struct rec *r = ctx;

	return r->inner->vmcoreinfo(r->inner->ctx, key, buf, len);
}

static int cmp_seg(const void *a, const void *b)
{
	const struct seg *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void put_le(FILE *f, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fputc((int)(v >> (8 * i)) & 0xff, f);
}

/* Merges overlapping and touching reads and writes the image. */
static int write_image(const char *path, struct rec *r, const char *vmci, size_t vmci_len)
{
	FILE *f = fopen(path, "wb");
	size_t i = 0, segs = 0;

	if (!f)
		return -1;
	put_le(f, vmci_len, 4);
	fwrite(vmci, 1, vmci_len, f);
	qsort(r->seg, r->n, sizeof(*r->seg), cmp_seg);
	while (i < r->n) {
		uint64_t start = r->seg[i].addr, end = start + r->seg[i].len;
		size_t j = i + 1, k;
		uint8_t *buf;

		while (j < r->n && r->seg[j].addr <= end) {
			if (r->seg[j].addr + r->seg[j].len > end)
				end = r->seg[j].addr + r->seg[j].len;
			j++;
		}
		buf = malloc(end - start);
		if (!buf)
			break;
		for (k = i; k < j; k++)
			memcpy(buf + (r->seg[k].addr - start), r->seg[k].data, r->seg[k].len);
		put_le(f, start, 8);
		put_le(f, end - start, 4);
		fwrite(buf, 1, end - start, f);
		free(buf);
		segs++;
		i = j;
	}
	fprintf(stderr, "olread: image %s: %zu bytes of VMCOREINFO, %zu segments\n", path,
		vmci_len, segs);
	return fclose(f) == 0 && segs <= 256 ? 0 : -1;
}

static void print_line(void *arg, const char *line, size_t len)
{
	(void)arg;
	fwrite(line, 1, len, stdout);
}

static int show_log(const struct ol_mem *mem)
{
	struct ol_printk res;
	int rc = ol_printk_read(mem, print_line, NULL, &res);

	fflush(stdout);
	fprintf(stderr, "olread: log: %s; %" PRIu64 " records, %" PRIu64 " skipped, seq %" PRIu64
		"..%" PRIu64 "%s%s%s\n", rc ? "unreadable" : res.reliable ? "reliable" : "unreliable",
		res.records, res.skipped, res.first_seq, res.last_seq,
		res.wrapped ? ", wrapped" : "", res.why[0] ? ": " : "", res.why);
	return rc || !res.reliable;
}

static int show_vars(struct ol_dump *d, const struct ol_mem *mem)
{
	struct ol_ksym s[NVARS];
	struct ol_kallsyms_info info;
	char err[256];
	size_t i;
	int bad = 0;

	for (i = 0; i < NVARS; i++)
		s[i].name = vars[i].symbol;
	if (ol_kallsyms_find(mem, s, NVARS, &info, err, sizeof(err))) {
		fprintf(stderr, "olread: kallsyms: %s\n", err);
		return 1;
	}
	fprintf(stderr, "olread: kallsyms: %" PRIu32 " symbols, %s%s, %u anchors, %u text-typed data\n",
		info.num_syms, info.encoding,
		info.unrelocated ? ", moved by KERNELOFFSET" : "", info.anchors, info.retyped);
	for (i = 0; i < NVARS; i++) {
		uint64_t addr, v;
		uint8_t b[8];
		char type;

		if (ol_ksym_pick(&s[i], &addr, &type, err, sizeof(err))) {
			/* a kernel without the variable is no failure; a collision is */
			printf("%s - - (%s)\n", vars[i].symbol, err);
			bad |= s[i].found > 0;
			continue;
		}
		if (mem->read(mem->ctx, addr, b, vars[i].size)) {
			printf("%s 0x%" PRIx64 " %c (%s)\n", vars[i].symbol, addr, type,
			       ol_dump_read_error(d));
			bad = 1;
			continue;
		}
		v = vars[i].size == 8 ? ol_le64(b) : ol_le32(b);
		printf("%s 0x%" PRIx64 " %c %" PRIu64 "\n", vars[i].symbol, addr, type, v);
	}
	return bad;
}

static int show_syms(const struct ol_mem *mem, char **names, size_t n)
{
	struct ol_ksym *s = calloc(n, sizeof(*s));
	char err[256];
	size_t i;
	unsigned int k;

	if (!s)
		return 1;
	for (i = 0; i < n; i++)
		s[i].name = names[i];
	if (ol_kallsyms_find(mem, s, n, NULL, err, sizeof(err))) {
		fprintf(stderr, "olread: kallsyms: %s\n", err);
		free(s);
		return 1;
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < s[i].kept; k++)
			printf("%016" PRIx64 " %c %s\n", s[i].match[k].addr, s[i].match[k].type,
			       s[i].name);
	free(s);
	return 0;
}

int main(int argc, char **argv)
{
	const char *image = NULL, *path;
	bool log = false, vals = false;
	char **names = NULL, err[512];
	size_t nnames = 0;
	struct ol_dump *d;
	struct rec rec = { 0 };
	struct ol_mem recmem;
	const struct ol_mem *mem;
	struct timespec t0, t1;
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "dvsi:")) != -1) {
		switch (opt) {
		case 'd':
			log = true;
			break;
		case 'v':
			vals = true;
			break;
		case 's':
			names = &argv[optind];
			break;
		case 'i':
			image = optarg;
			break;
		default:
			fprintf(stderr, "usage: olread [-d] [-v] [-i IMAGE] [-s NAME...] VMCORE\n");
			return 2;
		}
	}
	if (names) {
		nnames = (size_t)(argc - 1 - optind);
		optind = argc - 1;
	}
	if (optind != argc - 1 || (!log && !vals && !names)) {
		fprintf(stderr, "usage: olread [-d] [-v] [-i IMAGE] [-s NAME...] VMCORE\n");
		return 2;
	}
	path = argv[optind];
	clock_gettime(CLOCK_MONOTONIC, &t0);
	d = ol_dump_open(path, err, sizeof(err));
	if (!d) {
		fprintf(stderr, "olread: %s\n", err);
		return 2;
	}
	if (ol_dump_damage(d)[0])
		fprintf(stderr, "olread: damage: %s\n", ol_dump_damage(d));
	mem = ol_dump_mem(d);
	if (image) {
		rec.inner = mem;
		recmem = (struct ol_mem){ rec_read, rec_vmcoreinfo, &rec };
		mem = &recmem;
	}
	if (vals)
		rc |= show_vars(d, mem);
	if (names)
		rc |= show_syms(mem, names, nnames);
	if (log)
		rc |= show_log(mem);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "olread: %s, %s, %.3f s\n", ol_dump_format(d),
		ol_dump_release(d) ? ol_dump_release(d) : "no release",
		(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (image) {
		size_t len = 0;
		const char *vmci = ol_dump_vmcoreinfo(d, &len);

		if (write_image(image, &rec, vmci ? vmci : "", vmci ? len : 0)) {
			fprintf(stderr, "olread: cannot write %s\n", image);
			rc = 2;
		}
		while (rec.n)
			free(rec.seg[--rec.n].data);
		free(rec.seg);
	}
	ol_dump_close(d);
	return rc;
}
