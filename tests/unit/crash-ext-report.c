// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for crash-ext/report.c: the headroom, the taint letters, the
 * consistency judgement of made-up reports, and their text and JSON output.
 * No dump, no crash.  TAP output; exit status 1 on any failure.
 *
 * Build: gcc -Wall -Wextra -Werror crash-ext-report.c ../../crash-ext/report.c
 *        ../../crash-ext/symfile.c ../../common/verdict.c (tests/crash/run.sh does)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../crash-ext/report.h"
#include "tap.h"


static void set(struct olx_report *r, enum olx_var_id id, unsigned long value)
{
	r->var[id].found = r->var[id].read = true;
	r->var[id].addr = 0xffffffff81000000UL + 8 * (unsigned long)id;
	r->var[id].value = value;
	snprintf(r->var[id].source, sizeof(r->var[id].source), "test");
}

/* A dump of a kernel that panicked, with these log lines. */
static void make(struct olx_report *r, const char *const *lines)
{
	olx_report_init(r);
	set(r, OLX_OOPS_COUNT, 5);
	set(r, OLX_OOPS_LIMIT, 5);
	set(r, OLX_WARN_COUNT, 0);
	set(r, OLX_WARN_LIMIT, 0);
	set(r, OLX_PANIC_ON_OOPS, 0);
	set(r, OLX_PANIC_ON_WARN, 0);
	set(r, OLX_TAINTED_MASK, 0x80);
	olx_taint_letters(0x80, r->taint, sizeof(r->taint));
	r->have_taint = true;
	for (; *lines; lines++)
		ol_log_line(&r->log, *lines);
	ol_log_done(&r->log);
	r->log_read = r->log.lines > 0;
	olx_judge(r);
}

static char *text_of(const struct olx_report *r, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	if (json)
		olx_print_json(f, r);
	else
		olx_print_text(f, r, true);
	fclose(f);
	return buf;
}

static bool has(const char *out, const char *want)
{
	return strstr(out, want) != NULL;
}

static const char *const oops_log[] = {
	"[    1.000000] Linux version 6.1.192",
	"[    1.100000] Oops: 0002 [#1] SMP",
	"[    1.200000] Oops: 0002 [#5] SMP",
	"[    1.300000] Kernel panic - not syncing: Oopsed too often (kernel.oops_limit is 5)",
	NULL,
};

static void test_numbers(void)
{
	unsigned long h = 99;
	char t[8];

	ok(!olx_headroom(3, 0, &h), "headroom: limit 0 is no limit");
	ok(olx_headroom(4, 5, &h) && h == 1, "headroom: 4 of 5 leaves 1 (the next one panics)");
	ok(olx_headroom(5, 5, &h) && h == 0, "headroom: 5 of 5 is reached");
	ok(olx_headroom(7, 5, &h) && h == 0, "headroom: past the limit counts as reached");
	ok(olx_headroom(0, 4294967295UL, &h) && h == 4294967295UL, "headroom: the largest limit");

	olx_taint_letters(0x280, t, sizeof(t));
	ok(strcmp(t, "DW") == 0, "taint: 0x280 is DW");
	olx_taint_letters(0, t, sizeof(t));
	ok(strcmp(t, "") == 0, "taint: 0 is empty");
	olx_taint_letters(1UL << 40, t, sizeof(t));
	ok(strcmp(t, "?") == 0, "taint: a bit beyond the table is '?'");
	olx_taint_letters(~0UL, t, sizeof(t));
	ok(strlen(t) == sizeof(t) - 1 && strncmp(t, "PFSRMBU", 7) == 0, "taint: a small buffer is cut, terminated");
}

static void test_oops_limit(void)
{
	struct olx_report r;
	char *out;

	make(&r, oops_log);
	ok(strcmp(olx_verdict(&r), "oops_limit") == 0 && r.consistent, "oops_limit, 5 of 5: consistent");
	out = text_of(&r, false);
	ok(has(out, "   OOPS_COUNT: 5\n") && has(out, "   OOPS_LIMIT: 5 (reached)\n"),
	   "text: count and a reached limit, aligned like sys");
	ok(has(out, "   WARN_LIMIT: 0 (0: no limit, warnings never panic by count)\n"), "text: limit 0 explained");
	ok(has(out, "      VERDICT: oops_limit\n") && has(out, "   CONSISTENT: yes\n"), "text: verdict and check");
	ok(has(out, "   FIRST_OOPS: Oops: 0002 [#1] SMP\n"), "text -v: the first oops, what sys shows");
	ok(has(out, "          LOG: 4 lines, 2 oopses (last [#5]), 0 warnings\n"), "text: the log line");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"verdict\": \"oops_limit\"") && has(out, "\"oops_headroom\": 0") &&
	   has(out, "\"warn_headroom\": null") && has(out, "\"last_die\": 5") &&
	   has(out, "\"consistent\": true") && has(out, "\"taint\": \"D\""), "json: the same facts");
	free(out);

	set(&r, OLX_OOPS_COUNT, 3);
	olx_judge(&r);
	out = text_of(&r, false);
	ok(!r.consistent && has(out, "   CONSISTENT: no: oops_count 3 is below oops_limit 5\n"),
	   "oops_limit panic with 3 of 5: inconsistent, says why");
	ok(has(out, "(headroom 2: the 2nd oops from now panics)"), "text: headroom with its ordinal");
	free(out);

	r.var[OLX_OOPS_COUNT].read = false;
	olx_judge(&r);
	out = text_of(&r, true);
	ok(!olx_checkable(&r) && has(out, "\"consistent\": null") && has(out, "\"oops_count\": null"),
	   "oops_count unreadable: not checkable, null in JSON");
	free(out);
	out = text_of(&r, false);
	ok(has(out, "   OOPS_COUNT: unreadable (at ffffffff81000000)\n") &&
	   has(out, "   CONSISTENT: unknown (the counters it needs could not be read)\n"),
	   "text: unreadable count and an unknown check");
	free(out);
}

static void test_panic_on_warn(void)
{
	static const char *const lines[] = {
		"WARNING: CPU: 0 PID: 35 at drivers/misc/lkdtm/bugs.c:85 lkdtm_WARNING+0x8/0xb",
		"Kernel panic - not syncing: kernel: panic_on_warn set ...",
		NULL,
	};
	struct olx_report r;
	char *out;

	make(&r, lines);
	set(&r, OLX_OOPS_COUNT, 0);
	set(&r, OLX_OOPS_LIMIT, 10000);
	olx_judge(&r);
	ok(strcmp(olx_verdict(&r), "panic_on_warn") == 0, "panic_on_warn verdict");
	ok(r.consistent, "panic_on_warn with warn_count 0: consistent (the panic comes before the count)");
	out = text_of(&r, false);
	ok(has(out, "PANIC_ON_WARN: 0 (cleared by panic(); the panic message names panic_on_warn)\n"),
	   "text: the cleared panic_on_warn explained");
	ok(has(out, " LAST_WARNING: drivers/misc/lkdtm/bugs.c:85 in lkdtm_WARNING (kernel)\n"),
	   "text: the last warning's place and function");
	ok(has(out, "      VERDICT: panic_on_warn (origin: kernel)\n"), "text: verdict with origin");
	free(out);
}

static void test_odd(void)
{
	static const char *const hostile[] = {
		"Kernel panic - not syncing: a \"quoted\"\\ \x1b[31mred\x7f message\xff",
		NULL,
	};
	static const char *const nothing[] = { NULL };
	struct olx_report r;
	char *out;
	int i;

	make(&r, hostile);
	out = text_of(&r, false);
	ok(has(out, "        PANIC: \"a \"quoted\"\\ ?[31mred? message?\"\n"),
	   "text: control and high bytes print as '?'");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"panic\": \"a \\\"quoted\\\"\\\\ \\u001b[31mred\\u007f message\\ufffd\""),
	   "json: the message escaped");
	free(out);

	make(&r, nothing);
	ok(!r.log_read && strcmp(olx_verdict(&r), "unknown") == 0, "no log: verdict unknown");
	out = text_of(&r, true);
	ok(has(out, "\"verdict\": \"unknown\"") && has(out, "\"panic\": null") && has(out, "\"log_lines\": null"),
	   "json: no log, nulls");
	free(out);

	make(&r, oops_log);
	r.live = true;
	olx_judge(&r);
	out = text_of(&r, false);
	ok(olx_verdict(&r) == NULL && has(out, "      VERDICT: none (live system)\n") && !has(out, "PANIC: "),
	   "live: counts, no panic line, no verdict");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"live\": true") && has(out, "\"verdict\": null"), "json: live, verdict null");
	free(out);

	olx_report_init(&r);
	set(&r, OLX_PANIC_ON_OOPS, 0);
	out = text_of(&r, false);
	ok(olx_no_limits(&r) && has(out, "       LIMITS: none: this kernel has no oops_limit or warn_limit\n") &&
	   !has(out, "OOPS_COUNT"), "no limits: one plain line instead of four");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"has_limits\": false") && has(out, "\"oops_limit\": null") &&
	   has(out, "\"warn_limit\": null,\n  \"warn_headroom\": null"), "json: no limits, nulls");
	free(out);

	olx_report_init(&r);
	for (i = 0; i < 20; i++)
		olx_note(&r, "note %d", i);
	ok(r.n_notes == OLX_NOTES && strcmp(r.notes[OLX_NOTES - 1], "(more problems not shown)") == 0,
	   "notes: bounded, the last says more were dropped");
}

static void test_split(void)
{
	char stamp[24];
	size_t indent = 0;
	const char *t;

	t = olx_log_split("[    1.234567] Oops: 0002 [#1] SMP\n", stamp, sizeof(stamp), &indent);
	ok(strcmp(t, "Oops: 0002 [#1] SMP\n") == 0 && strcmp(stamp, "1.234567") == 0 && indent == 15,
	   "log split: stamp and text");
	t = olx_log_split("[    1.234567]  <IRQ>\n", stamp, sizeof(stamp), &indent);
	ok(strcmp(t, " <IRQ>\n") == 0, "log split: the text keeps its own leading blank");
	t = olx_log_split("               continued\n", stamp, sizeof(stamp), &indent);
	ok(strcmp(t, "continued\n") == 0 && stamp[0] == '\0', "log split: a continuation loses the stamp's indent only");
	t = olx_log_split("[drm] not a stamp\n", stamp, sizeof(stamp), &indent);
	ok(strcmp(t, "[drm] not a stamp\n") == 0, "log split: a bracket that is no stamp stays");
	t = olx_log_split("[123456.000001]x", stamp, sizeof(stamp), &indent);
	ok(strcmp(t, "[123456.000001]x") == 0, "log split: no blank after the bracket, no stamp");
	t = olx_log_split("[", stamp, 0, &indent);
	ok(strcmp(t, "[") == 0, "log split: a lone bracket, no stamp buffer");
}

int main(void)
{
	test_split();
	test_numbers();
	test_oops_limit();
	test_panic_on_warn();
	test_odd();
	return tap_done();
}
