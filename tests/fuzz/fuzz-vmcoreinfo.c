// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the recorder's reading of a real kdump-compressed
 * capture whose VMCOREINFO note is the input and nothing else changed.
 * Such a note made libkdumpfile 0.5.1 die inside the recorder (seeds/: the
 * input; recorder/dump.c now refuses it).  The recorder reads a dump in a
 * child process, where such a death costs the dump and not the report;
 * here the reading runs in-process, so that the fuzzer sees its coverage
 * and any input dump.c lets through to a crash is a finding.  What else
 * traps: a dump refused without a word saying why.
 *
 * The capture is OOPSLIMIT_FUZZ_TEMPLATE: the head of a real capture up to
 * its page descriptors and some page data (template.py makes it from the
 * dumps in the cache); the new note is appended and the sub-header pointed
 * at it.
 */
#define main recorder_main
#include "../../recorder/oopslimit-reason.c"
#undef main

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t *tmpl;
static size_t tmpl_len, notes_off, notes_len, sub_off;
static char dump_path[64];

static void remove_dump(void)
{
	unlink(dump_path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("OOPSLIMIT_FUZZ_TEMPLATE");
	struct stat st;
	FILE *f;
	int fd;

	(void)argc;
	(void)argv;
	f = path ? fopen(path, "rb") : NULL;
	if (!f || fstat(fileno(f), &st) != 0 || st.st_size < 8192) {
		fprintf(stderr, "fuzz-vmcoreinfo: OOPSLIMIT_FUZZ_TEMPLATE must name a kdump-compressed "
			"capture's head (tests/fuzz/template.py)\n");
		exit(1);
	}
	tmpl_len = (size_t)st.st_size;
	tmpl = malloc(tmpl_len);
	if (!tmpl || fread(tmpl, 1, tmpl_len, f) != tmpl_len)
		exit(1);
	fclose(f);
	sub_off = ol_le32(tmpl + 428);	/* the sub-header is block 1 */
	if (memcmp(tmpl, "KDUMP   ", 8) != 0 || sub_off + 64 > tmpl_len)
		exit(1);
	notes_off = (size_t)ol_le64(tmpl + sub_off + 48);
	notes_len = (size_t)ol_le64(tmpl + sub_off + 56);
	if (notes_off > tmpl_len || notes_len > tmpl_len - notes_off)
		exit(1);
	snprintf(dump_path, sizeof(dump_path), "%s/fuzz-vmcoreinfo.XXXXXX",
		 getenv("TMPDIR") && strlen(getenv("TMPDIR")) < 32 ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(dump_path);
	if (fd < 0) {
		perror("fuzz-vmcoreinfo: mkstemp");
		exit(1);
	}
	close(fd);
	atexit(remove_dump);
	return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* The template's notes with VMCOREINFO's text replaced by data. */
static size_t new_notes(const uint8_t *data, size_t size, uint8_t *out)
{
	const uint8_t *p = tmpl + notes_off, *end = p + notes_len;
	size_t n = 0;

	while (end - p >= 12) {
		uint32_t namesz = ol_le32(p), descsz = ol_le32(p + 4);
		size_t whole = 12 + ((namesz + 3u) & ~3u) + ((descsz + 3u) & ~3u);

		if ((size_t)(end - p) < whole)
			break;
		if (namesz == 11 && memcmp(p + 12, "VMCOREINFO", 11) == 0) {
			memcpy(out + n, p, 12 + 12);
			put32(out + n + 4, (uint32_t)size);
			n += 24;
			memcpy(out + n, data, size);
			memset(out + n + size, 0, (4 - size % 4) % 4);
			n += (size + 3) & ~(size_t)3;
		} else {
			memcpy(out + n, p, whole);
			n += whole;
		}
		p += whole;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ol_report r;
	struct ol_dump *d;
	uint8_t *notes, off[8];
	size_t n;
	FILE *f;

	if (size > 65536)
		return 0;
	notes = malloc(notes_len + size + 64);
	if (!notes)
		return 0;
	n = new_notes(data, size, notes);
	f = fopen(dump_path, "wb");
	if (!f)
		__builtin_trap();
	fwrite(tmpl, 1, tmpl_len, f);
	fwrite(notes, 1, n, f);
	fseek(f, (long)(sub_off + 48), SEEK_SET);
	memcpy(off, &tmpl_len, 8);
	fwrite(off, 1, 8, f);
	fwrite(&(uint64_t){ n }, 1, 8, f);
	fclose(f);
	free(notes);

	/* what the recorder's child does, then the judging and the writer */
	ol_report_init(&r, PROG);
	d = reason_read_dump(dump_path, &r);
	if (d)
		reason_read_ring(d, &r);
	else if (!r.dump_error[0])
		__builtin_trap();	/* refused without saying why */
	ol_log_done(&r.log);
	ol_report_judge(&r);
	f = fopen("/dev/null", "w");
	if (f) {
		ol_report_json(f, &r);
		fclose(f);
	}
	ol_dump_close(d);
	return 0;
}
