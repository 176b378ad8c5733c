// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for common/pstore.c: a pstore record of a panic's log judged
 * with the table a dump's log is (tests/unit/pstore/dmesg-ramoops-0, the
 * ramoops record a Debian 12 guest left at a warn_limit panic, kdump
 * unloaded: tests/scenarios/debian-pstore.scn), and the records that must
 * not get that verdict: an oops record, one cut before its panic message,
 * one whose bytes are compressed (.enc.z) or damaged, a bad header, parts
 * fed out of order.  No dump, no QEMU.  TAP output (tap.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/pstore.h"
#include "report-save.h"
#include "tap.h"

static char data_dir[4096];

static void find_data_dir(void)
{
	const char *slash = strrchr(__FILE__, '/');

	snprintf(data_dir, sizeof(data_dir), "%.*s/pstore", slash ? (int)(slash - __FILE__) : 1,
		 slash ? __FILE__ : ".");
}

/* The fixture, whole, NUL-terminated; its length in *len. */
static char *slurp(const char *name, size_t *len)
{
	char path[4200];
	FILE *f;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", data_dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	buf = malloc(1 << 20);
	*len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[*len] = '\0';
	return buf;
}

/* The report of one record (name, len bytes at buf) judged alone. */
static enum ol_pstore_kind judge(struct ol_report *r, const char *name, const char *buf, size_t len, char *why,
				 size_t wlen)
{
	struct ol_pstore_part part;
	enum ol_pstore_kind kind = ol_pstore_part(name, buf, len, &part, why, wlen);

	ol_report_init(r, "oopslimit-reason");
	snprintf(r->log_from, sizeof(r->log_from), "pstore %s", name);
	if (kind == OL_PSTORE_PANIC)
		ol_pstore_feed(r, buf, len, &part);
	else
		snprintf(r->log_trouble, sizeof(r->log_trouble), "%s", why);
	ol_pstore_judge(r);
	return kind;
}

static void test_panic(const char *buf, size_t len)
{
	static struct ol_report r;
	char why[256];

	ok(judge(&r, "dmesg-ramoops-0", buf, len, why, sizeof(why)) == OL_PSTORE_PANIC,
	   "the ramoops record of a panic is a panic record");
	ok_got(r.reason && strcmp(r.reason, "warn_limit") == 0, "its verdict: warn_limit", r.reason);
	ok(r.setting == OL_V_WARN_LIMIT && strcmp(r.log.origin, "kernel") == 0,
	   "the setting kernel.warn_limit, origin kernel");
	ok(strstr(r.log.panic, "kernel.warn_limit is 3") != NULL, "the panic message, the limit it printed");
	ok(!r.var[OL_V_WARN_COUNT].read && !r.var[OL_V_WARN_LIMIT].read && r.no_memory,
	   "no counter read: null, not 0, and not claimed absent");
	ok(!ol_report_no_limits(&r), "no claim that the kernel lacks the limits");
	ok(r.consistent == -1, "consistency unknown: no counter to check");
	ok(r.log.warnings >= 1 && r.log.have_warning, "the warnings before it, the last one's place");
	save_json(&r, "pstore", "warn-limit");
}

/* Part2 holds the log's start, Part1 its end: fed in that order, the same verdict. */
static void test_parts(const char *buf, size_t len)
{
	static struct ol_report r;
	struct ol_pstore_part p1, p2;
	const char *body, *mid;
	char part1[1 << 16], part2[1 << 16], why[256];
	size_t n1, n2, half;

	ok(ol_pstore_part("dmesg-ramoops-0", buf, len, &p1, why, sizeof(why)) == OL_PSTORE_PANIC,
	   "the fixture's header reads");
	body = buf + p1.body;
	half = (len - p1.body) / 2;
	mid = memchr(body + half, '\n', len - p1.body - half);
	if (!mid || len > sizeof(part1) - 64) {
		ok(false, "the fixture splits in two parts");
		return;
	}
	mid++;
	n2 = (size_t)snprintf(part2, sizeof(part2), "Panic#1 Part2\n%.*s", (int)(mid - body), body);
	n1 = (size_t)snprintf(part1, sizeof(part1), "Panic#1 Part1\n%.*s", (int)(buf + len - mid), mid);
	ok(ol_pstore_part("dmesg-ramoops-1", part2, n2, &p2, why, sizeof(why)) == OL_PSTORE_PANIC &&
	   p2.partno == 2 && p2.count == 1, "Panic#1 Part2: the part number and the count");
	ol_pstore_part("dmesg-ramoops-0", part1, n1, &p1, why, sizeof(why));
	ol_report_init(&r, "oopslimit-reason");
	ol_pstore_feed(&r, part2, n2, &p2);
	ol_pstore_feed(&r, part1, n1, &p1);
	ol_pstore_judge(&r);
	ok_got(r.reason && strcmp(r.reason, "warn_limit") == 0, "two parts, oldest first: warn_limit", r.reason);
	/* Part2 alone: the log before the panic, cut before its message */
	ol_report_init(&r, "oopslimit-reason");
	ol_pstore_feed(&r, part2, n2, &p2);
	ol_pstore_judge(&r);
	ok_got(r.reason && strcmp(r.reason, "unknown") == 0 && r.setting == OL_V_NONE,
	       "a panic record cut before its panic message: unknown, never a guess", r.reason);
	ok(strstr(r.detail, "no panic message") != NULL, "the detail says why");
	save_json(&r, "pstore", "cut");
}

static void test_not_judged(const char *buf, size_t len)
{
	static struct ol_report r;
	char copy[1 << 16], why[256];
	size_t n;

	/* the same log written at an oops (ramoops' dump_oops): not a panic */
	n = (size_t)snprintf(copy, sizeof(copy), "Oops#1 Part1\n%s", strchr(buf, '\n') + 1);
	ok(judge(&r, "dmesg-ramoops-3", copy, n, why, sizeof(why)) == OL_PSTORE_NOT_PANIC,
	   "an oops record is not judged as a panic");
	ok_got(strstr(why, "Oops") != NULL, "the reason names its kind", why);
	/* what pstore shows when it could not decompress: the name says */
	ok(judge(&r, "dmesg-ramoops-4.enc.z", buf, len, why, sizeof(why)) == OL_PSTORE_UNREADABLE &&
	   strcmp(r.reason, "unknown") == 0, "a record pstore could not decompress: unknown");
	ok_got(strstr(why, "decompress") != NULL, "the reason says so", why);
	save_json(&r, "pstore", "compressed");
	/* compressed bytes under a plain name */
	memcpy(copy, buf, len < sizeof(copy) ? len : sizeof(copy));
	copy[200] = 0x01;
	copy[201] = '\0';
	copy[300] = (char)0x9c;
	ok(judge(&r, "dmesg-ramoops-5", copy, len < sizeof(copy) ? len : sizeof(copy), why, sizeof(why)) ==
	   OL_PSTORE_UNREADABLE && strcmp(r.reason, "unknown") == 0, "control bytes in the log: unknown");
	ok(judge(&r, "dmesg-ramoops-6", "\x78\x9c\x01\x02", 4, why, sizeof(why)) == OL_PSTORE_UNREADABLE,
	   "no header (zlib bytes): unreadable");
	n = (size_t)snprintf(copy, sizeof(copy), "Panic#x Part1\n%s", strchr(buf, '\n') + 1);
	ok(judge(&r, "dmesg-ramoops-7", copy, n, why, sizeof(why)) == OL_PSTORE_UNREADABLE,
	   "a header that is not \"Panic#N PartM\": unreadable");
	n = (size_t)snprintf(copy, sizeof(copy), "Panic#1 Part0\n%s", strchr(buf, '\n') + 1);
	ok(judge(&r, "dmesg-ramoops-8", copy, n, why, sizeof(why)) == OL_PSTORE_UNREADABLE,
	   "Part0: unreadable");
	ok(judge(&r, "dmesg-ramoops-9", "", 0, why, sizeof(why)) == OL_PSTORE_UNREADABLE, "empty: unreadable");
	ok(judge(&r, "console-ramoops-0", buf, len, why, sizeof(why)) == OL_PSTORE_NOT_PANIC,
	   "a console record is not a dmesg record");
}

int main(int argc, char **argv)
{
	char *buf;
	size_t len = 0;

	if (argc == 3 && strcmp(argv[1], "--json") == 0)
		json_dir = argv[2];
	find_data_dir();
	buf = slurp("dmesg-ramoops-0", &len);
	ok(buf && len > 0 && len < (1 << 16) - 64, "the fixture tests/unit/pstore/dmesg-ramoops-0 reads");
	if (!buf)
		return tap_done();
	test_panic(buf, len);
	test_parts(buf, len);
	test_not_judged(buf, len);
	free(buf);
	return tap_done();
}
