// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the report (common/report.c, checks.c, judge.c,
 * report-text.c, report-json.c): the log feeding, the headroom, the taint
 * letters, the judging of made-up reports, and their text and JSON output.
 * No dump, no crash.  TAP output; exit status 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/report.h"
#include "report-save.h"
#include "tap.h"

static void set(struct ol_report *r, enum ol_var_id id, uint64_t value)
{
	r->var[id].found = r->var[id].read = true;
	r->var[id].rejected = false;
	r->var[id].addr = 0xffffffff81000000ULL + 8 * (uint64_t)id;
	r->var[id].value = value;
	r->var[id].source = OL_SRC_VMCOREINFO;
	snprintf(r->var[id].how, sizeof(r->var[id].how), "test");
}

/* A dump of a kernel that panicked, with these log lines. */
static void make(struct ol_report *r, const char *const *lines)
{
	ol_report_init(r, "oopslimit-reason");
	set(r, OL_V_OOPS_COUNT, 5);
	set(r, OL_V_OOPS_LIMIT, 5);
	set(r, OL_V_WARN_COUNT, 0);
	set(r, OL_V_WARN_LIMIT, 0);
	set(r, OL_V_PANIC_ON_OOPS, 0);
	set(r, OL_V_PANIC_ON_WARN, 0);
	set(r, OL_V_TAINTED_MASK, 0x80);
	ol_taint_letters(0x80, r->taint, sizeof(r->taint));
	r->have_taint = true;
	for (; *lines; lines++)
		ol_report_log_line(r, *lines);
	ol_log_done(&r->log);
	ol_report_judge(r);
}


/* Printable ASCII and newlines only: what every reader's text must be. */
static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s != '\n' && (*s < 0x20 || *s > 0x7e))
			return false;
	return true;
}

static char *text_of(const struct ol_report *r, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	if (json)
		ol_report_json(f, r);
	else
		ol_report_text(f, r, true);
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

static const char *const cut_limit_log[] = {
	"[    1.300000] Kernel panic - not syncing: Oopsed too often (kernel.oops_limit is x)",
	NULL,
};

static void test_log_lines(void)
{
	static const char *const lines[] = {
		"[    1.234567] Oops: 0002 [#1] SMP\n",
		"[    1.234567] CPU: 0 PID: 0 Comm: swapper/0",
		"[    1.234568]  <IRQ>\n",
		"               continued\n",
		"[drm] not a stamp\n",
		NULL,
	};
	struct ol_report r;
	size_t i;

	ol_report_init(&r, "oopslimit-reason");
	for (i = 0; lines[i]; i++)
		ol_report_log_line(&r, lines[i]);
	ok(r.log_read && r.log_wrapped && strcmp(r.log_start, "1.234567") == 0,
	   "log: the first line is no boot banner: wrapped, its stamp kept");
	ok(r.log.last_oops_irq, "log: a stamped trace line keeps its own blank: <IRQ> seen");
	ok(r.log.lines == 5, "log: every line counted");
	ol_report_init(&r, "oopslimit-reason");
	ol_report_log_line(&r, "[    0.000000] Linux version 6.1.192 (oopslimit@oopslimit)");
	ok(!r.log_wrapped, "log: the boot banner first: not wrapped");
	ol_report_log_line(&r, "[");
	ok(r.log.lines == 2, "log: a lone bracket is a line, no stamp");
	/* arm64 prints smp_setup_processor_id()'s line before the banner (common/arches.def) */
	ol_report_init(&r, "oopslimit-reason");
	ol_report_log_line(&r, "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x414fd0c1]");
	ok(!r.log_wrapped, "log: arm64's first line, before the banner: not wrapped");
}

static void test_numbers(void)
{
	uint64_t h = 99;
	char t[8];

	ok(!ol_headroom(3, 0, &h), "headroom: limit 0 is no limit");
	ok(ol_headroom(4, 5, &h) && h == 1, "headroom: 4 of 5 leaves 1 (the next one panics)");
	ok(ol_headroom(5, 5, &h) && h == 0, "headroom: 5 of 5 is reached");
	ok(ol_headroom(7, 5, &h) && h == 0, "headroom: past the limit counts as reached");
	ok(ol_headroom(0, 4294967295UL, &h) && h == 4294967295UL, "headroom: the largest limit");

	ol_taint_letters(0x280, t, sizeof(t));
	ok(strcmp(t, "DW") == 0, "taint: 0x280 is DW");
	ol_taint_letters(0, t, sizeof(t));
	ok(strcmp(t, "") == 0, "taint: 0 is empty");
	ol_taint_letters(1ULL << 40, t, sizeof(t));
	ok(strcmp(t, "?") == 0, "taint: a bit beyond the table is '?'");
	ol_taint_letters(~0ULL, t, sizeof(t));
	ok(strlen(t) == sizeof(t) - 1 && strncmp(t, "PFSRMBU", 7) == 0, "taint: a small buffer is cut, terminated");
}

static void test_oops_limit(void)
{
	struct ol_report r;
	char *out;

	make(&r, oops_log);
	save_json(&r, "report", "oops-limit");
	ok(strcmp(r.reason, "oops_limit") == 0 && r.consistent == 1, "oops_limit, 5 of 5: consistent");
	out = text_of(&r, false);
	ok(has(out, "   OOPS_COUNT: 5\n") && has(out, "   OOPS_LIMIT: 5 (reached)\n"),
	   "text: count and a reached limit, aligned like sys");
	ok(has(out, "   WARN_LIMIT: 0 (0: no limit, warnings never panic by count)\n"), "text: limit 0 explained");
	ok(has(out, "      VERDICT: oops_limit\n") &&
	   has(out, "   CONSISTENT: yes (oops_count 5 reached oops_limit 5)\n"), "text: verdict and check");
	ok(has(out, "      SETTING: kernel.oops_limit = 5\n"), "text: the setting and its value");
	ok(has(out, "   FIRST_OOPS: Oops: 0002 [#1] SMP\n"), "text -v: the first oops, what sys shows");
	ok(has(out, "          LOG: 4 lines, 2 oopses (last [#5]), 0 warnings\n"), "text: the log line");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"reason\": \"oops_limit\"") && has(out, "\"oops_headroom\": 0") &&
	   has(out, "\"warn_headroom\": null") && has(out, "\"last_oops_number\": 5") &&
	   has(out, "\"consistent\": true") && has(out, "\"taint\": \"D\"") &&
	   has(out, "\"setting\": \"kernel.oops_limit\"") && has(out, "\"setting_value\": 5"),
	   "json: the same facts");
	free(out);

	/* a message whose number is cut, a log without oopses: only the dump to go by */
	make(&r, cut_limit_log);
	set(&r, OL_V_OOPS_COUNT, 3);
	ol_report_judge(&r);
	out = text_of(&r, false);
	ok(r.consistent == 0 && has(out, "   CONSISTENT: no (oops_count 3 is below oops_limit 5)\n"),
	   "oops_limit panic with 3 of 5: inconsistent, says why");
	ok(has(out, "(headroom 2: the 2nd oops from now panics)"), "text: headroom with its ordinal");
	free(out);
	set(&r, OL_V_OOPS_LIMIT, 0);
	ol_report_judge(&r);
	ok(r.consistent == 0 && has(r.evidence, "oops_limit is 0"), "a limit of 0 cannot have panicked");

	/* the message printed the limit: a count below it, another limit, are damage */
	make(&r, oops_log);
	set(&r, OL_V_OOPS_COUNT, 3);
	ol_report_judge(&r);
	out = text_of(&r, false);
	ok(r.consistent == -1 && r.var[OL_V_OOPS_COUNT].rejected &&
	   has(out, "   OOPS_COUNT: unknown (not trusted: see NOTE)\n") &&
	   has(out, "   CONSISTENT: unknown (oops_count is not trusted (see the notes))\n") &&
	   has(out, "         NOTE: oops_count: 3 read, not used: the panic message says it reached oops_limit 5\n"),
	   "oops_limit panic at [#5] with oops_count 3: not used, unknown, a note says why");
	free(out);
	set(&r, OL_V_OOPS_COUNT, 6);
	set(&r, OL_V_OOPS_LIMIT, 6);
	ol_report_judge(&r);
	ok(r.consistent == -1 && r.var[OL_V_OOPS_LIMIT].rejected && r.var[OL_V_OOPS_COUNT].rejected,
	   "the message says limit 5 at [#5], the dump 6 of 6: neither used, unknown");
	make(&r, oops_log);
	set(&r, OL_V_OOPS_LIMIT, 0);
	ol_report_judge(&r);
	ok(r.consistent == -1 && r.var[OL_V_OOPS_LIMIT].rejected, "a limit of 0 against the message's 5: not used");

	make(&r, oops_log);
	r.var[OL_V_OOPS_COUNT].read = false;
	ol_report_judge(&r);
	out = text_of(&r, true);
	ok(r.consistent == -1 && has(out, "\"consistent\": null") && has(out, "\"oops_count\": null"),
	   "oops_count unreadable: not checkable, null in JSON");
	free(out);
	out = text_of(&r, false);
	ok(has(out, "   OOPS_COUNT: unreadable (at ffffffff81000000)\n") &&
	   has(out, "   CONSISTENT: unknown (oops_count could not be read)\n"),
	   "text: unreadable count and an unknown check");
	free(out);

	r.var[OL_V_OOPS_COUNT].read = true;
	r.var[OL_V_OOPS_COUNT].source = OL_SRC_LOG;
	ol_report_judge(&r);
	ok(r.consistent == -1 && has(r.evidence, "from the panic message itself"),
	   "counters the log implied cannot confirm the log");
}

static void test_panic_on_warn(void)
{
	static const char *const lines[] = {
		"WARNING: CPU: 0 PID: 35 at drivers/misc/lkdtm/bugs.c:85 lkdtm_WARNING+0x8/0xb",
		"Kernel panic - not syncing: kernel: panic_on_warn set ...",
		NULL,
	};
	struct ol_report r;
	char *out;

	make(&r, lines);
	set(&r, OL_V_OOPS_COUNT, 0);
	set(&r, OL_V_OOPS_LIMIT, 10000);
	ol_report_judge(&r);
	save_json(&r, "report", "panic-on-warn");
	ok(strcmp(r.reason, "panic_on_warn") == 0 && r.setting == OL_V_PANIC_ON_WARN, "panic_on_warn verdict");
	ok(r.consistent == -1 && has(r.evidence, "panic() clears panic_on_warn"),
	   "panic_on_warn: panic() cleared it, nothing to check");
	out = text_of(&r, false);
	ok(has(out, "PANIC_ON_WARN: 0 (panic() clears it; the panic message tells)\n"),
	   "text: the cleared panic_on_warn explained");
	ok(has(out, " LAST_WARNING: drivers/misc/lkdtm/bugs.c:85 in lkdtm_WARNING (kernel)\n"),
	   "text: the last warning's place and function");
	ok(has(out, "      VERDICT: panic_on_warn (origin: kernel)\n"), "text: verdict with origin");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"origin\": \"kernel\"") && has(out, "\"function\": \"lkdtm_WARNING\""),
	   "json: origin and the last warning");
	ok(has(out, "\"oops_headroom\": 10000") && has(out, "\"warn_headroom\": null"),
	   "json: the headroom of an untouched limit, none for a disabled one");
	free(out);
}

static void test_crashed(void)
{
	static const char *const pof[] = {
		"Oops: 0002 [#1] SMP",
		"CPU: 0 PID: 63 Comm: provoke Not tainted 6.1.192 #1",
		NULL,
	};
	static const char *const quiet[] = { "[ 1.0] Linux version 6.1.192", NULL };
	struct ol_report r;

	make(&r, pof);
	ok(strcmp(r.reason, "no panic") == 0, "an oops and no panic, not at a crash: no panic");
	r.crashed = true;
	set(&r, OL_V_PANIC_ON_OOPS, 1);
	ol_report_judge(&r);
	ok(strcmp(r.reason, "panic_on_oops") == 0 && r.consistent == 1,
	   "a capture ending in an oops, panic_on_oops 1: panic_on_oops, confirmed");
	make(&r, pof);
	r.crashed = true;
	ol_report_judge(&r);
	ok(strcmp(r.reason, "unknown") == 0 && r.consistent == -1 && has(r.detail, "panic_on_oops is 0"),
	   "the same with panic_on_oops 0: unknown, never a guess");
	make(&r, pof);
	r.crashed = true;
	r.var[OL_V_PANIC_ON_OOPS].read = false;
	ol_report_judge(&r);
	ok(strcmp(r.reason, "panic_on_oops") == 0 && r.consistent == -1,
	   "panic_on_oops unreadable: panic_on_oops, unconfirmed");
	make(&r, quiet);
	r.crashed = true;
	ol_report_judge(&r);
	ok(strcmp(r.reason, "unknown") == 0 && has(r.detail, "no panic message"),
	   "a capture whose log has no panic and no oops: unknown");
}

/* The settings of common/panics.def's other paths, and their quirks. */
static void test_settings(void)
{
	static const char *const taint[] = {
		"WARNING: CPU: 0 PID: 93 at drivers/misc/lkdtm/bugs.c:84 lkdtm_WARNING+0x0/0x10",
		"Kernel panic - not syncing: panic_on_taint set ...", NULL,
	};
	static const char *const oom1[] = {
		"Kernel panic - not syncing: Out of memory: system-wide panic_on_oom is enabled", NULL,
	};
	static const char *const oom2[] = {
		"Kernel panic - not syncing: Out of memory: compulsory panic_on_oom is enabled", NULL,
	};
	static const char *const nmi[] = {
		"Uhhuh. NMI received for unknown reason 3d on CPU 0.",
		"Kernel panic - not syncing: NMI: Not continuing", NULL,
	};
	static const char *const soft[] = {
		"watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [provoke:63]",
		"Kernel panic - not syncing: softlockup: hung tasks", NULL,
	};
	struct ol_report r;

	make(&r, taint);
	set(&r, OL_V_PANIC_ON_TAINT, 0);
	ol_report_judge(&r);
	ok(strcmp(r.reason, "panic_on_taint") == 0 && r.consistent == -1 && has(r.evidence, "add_taint() clears"),
	   "panic_on_taint: cleared before the panic, so nothing to check");
	make(&r, oom1);
	set(&r, OL_V_PANIC_ON_OOM, 1);
	ol_report_judge(&r);
	ok(strcmp(r.reason, "panic_on_oom") == 0 && r.consistent == 1, "panic_on_oom 1, system-wide: consistent");
	set(&r, OL_V_PANIC_ON_OOM, 2);
	ol_report_judge(&r);
	ok(r.consistent == 0 && has(r.evidence, "system-wide (1)"), "panic_on_oom 2 with a system-wide message: not");
	make(&r, oom2);
	set(&r, OL_V_PANIC_ON_OOM, 2);
	ol_report_judge(&r);
	save_json(&r, "report", "panic-on-oom");
	ok(r.consistent == 1, "panic_on_oom 2, compulsory: consistent");
	make(&r, nmi);
	set(&r, OL_V_UNKNOWN_NMI_PANIC, 0);
	set(&r, OL_V_PANIC_ON_UNRECOVERED_NMI, 1);
	ol_report_judge(&r);
	ok(strcmp(r.reason, "unknown_nmi_panic") == 0 && r.consistent == 1,
	   "an unknown NMI with panic_on_unrecovered_nmi set: that enables the path too");
	set(&r, OL_V_PANIC_ON_UNRECOVERED_NMI, 0);
	ol_report_judge(&r);
	ok(r.consistent == 0, "an unknown NMI with both settings 0: inconsistent");
	make(&r, soft);
	set(&r, OL_V_SOFTLOCKUP_PANIC, 0);
	ol_report_judge(&r);
	ok(strcmp(r.reason, "softlockup_panic") == 0 && r.consistent == 0 &&
	   has(r.evidence, "softlockup_panic is 0"), "a softlockup_panic verdict with softlockup_panic 0: inconsistent");
	set(&r, OL_V_SOFTLOCKUP_PANIC, 1);
	ol_report_judge(&r);
	ok(r.consistent == 1, "... and with 1: consistent");
	r.var[OL_V_SOFTLOCKUP_PANIC].read = false;
	ol_report_judge(&r);
	ok(r.consistent == -1 && has(r.evidence, "could not be read"), "... and unreadable: the log alone, unchecked");
}

/* The policy oopslimit-kdump applied (its log line) against the dump's settings. */
/* The capture's judgement of free pages (ol_pages_judge), at its bounds. */
static void test_pages(void)
{
	struct ol_capture c = { .have_pages = true, .ram_pages = 196608, .have_free = true, .free_pages = 140000 };
	uint64_t margin, used = 196608 - 140000;

	c.saved_pages = used + 196608 / 64 + 1024;
	ok(ol_pages_judge(&c, &margin) == 1 && margin == 196608 / 64 + 1024,
	   "pages: saved = used + margin: free pages left out");
	c.saved_pages++;
	ok(ol_pages_judge(&c, &margin) == 0, "pages: one more: free pages kept");
	c.saved_pages = 7000;
	ok(ol_pages_judge(&c, &margin) == 1, "pages: far fewer saved than used (zero, cache, user pages out): left out");
	c.have_free = false;
	ok(ol_pages_judge(&c, &margin) == -1, "pages: the kernel's count unread: unknown");
	c.have_free = true;
	c.free_pages = c.ram_pages + 1;
	ok(ol_pages_judge(&c, &margin) == -1, "pages: more free than memory: unknown");
	c.have_pages = false;
	c.free_pages = 1;
	ok(ol_pages_judge(&c, &margin) == -1, "pages: no bitmaps (an ELF dump, a dump sent away): unknown");
}

static void test_policy(void)
{
	static const char *const lines[] = {
		"[    3.000000] oopslimit: policy applied: oops_limit=10000 warn_limit=3 panic_on_oops=0 panic_on_warn=1",
		"[    3.100000] oopslimit: policy applied: bogus=1 warn_limit=x oops_limit=10000 warn_limit=3 panic_on_warn=1",
		"WARNING: CPU: 0 PID: 35 at drivers/misc/lkdtm/bugs.c:85 lkdtm_WARNING+0x8/0xb",
		"Kernel panic - not syncing: kernel: system warned too often (kernel.warn_limit is 1)",
		NULL,
	};
	struct ol_report r;
	char *out;

	make(&r, lines);
	set(&r, OL_V_WARN_COUNT, 1);
	set(&r, OL_V_WARN_LIMIT, 1);
	set(&r, OL_V_OOPS_LIMIT, 10000);
	ol_report_judge(&r);
	save_json(&r, "report", "drift");
	ok(r.log.have_policy && r.log.policy_set[OL_V_WARN_LIMIT] && r.log.policy[OL_V_WARN_LIMIT] == 3 &&
	   !r.log.policy_set[OL_V_PANIC_ON_OOPS], "policy: the last line wins, bad words are skipped");
	ok(ol_report_drift(&r, OL_V_WARN_LIMIT), "policy: warn_limit 3 applied, 1 in the dump: drift");
	ok(!ol_report_drift(&r, OL_V_OOPS_LIMIT), "policy: oops_limit as applied: no drift");
	ok(!ol_report_drift(&r, OL_V_PANIC_ON_WARN), "policy: panic_on_warn 1 applied, 0 after panic() cleared it: no drift");
	out = text_of(&r, false);
	ok(has(out, "       POLICY: oops_limit 10000, warn_limit 3, panic_on_warn 1 (as oopslimit-kdump applied it)\n") &&
	   has(out, "        DRIFT: kernel.warn_limit is 1 in the dump, 3 as configured: changed after it was applied\n"),
	   "text: the policy and the drift");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"drift\": [{ \"setting\": \"warn_limit\", \"configured\": 3, \"found\": 1 }]"),
	   "json: the drift");
	free(out);
	ok(r.consistent == 1, "the verdict itself stands: warn_count 1 reached warn_limit 1");
}

static void test_odd(void)
{
	static const char *const hostile[] = {
		"Kernel panic - not syncing: a \"quoted\"\\ \x1b[31mred\x7f message\xff",
		NULL,
	};
	static const char *const nothing[] = { NULL };
	struct ol_report r;
	char *out;
	int i;

	make(&r, hostile);
	save_json(&r, "report", "hostile");
	ok(strcmp(r.reason, "other") == 0 && r.consistent == -1, "an unknown message: other, unchecked");
	out = text_of(&r, false);
	ok(has(out, "        PANIC: \"a \"quoted\"\\ ?[31mred? message?\"\n"),
	   "text: control and high bytes print as '?'");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"panic_message\": \"a \\\"quoted\\\"\\\\ \\u001b[31mred\\u007f message\\ufffd\""),
	   "json: the message escaped");
	free(out);

	make(&r, nothing);
	save_json(&r, "report", "no-log");
	ok(!r.log_read && strcmp(r.reason, "unknown") == 0 && r.consistent == -1, "no log: unknown, unchecked");
	out = text_of(&r, true);
	ok(has(out, "\"reason\": \"unknown\"") && has(out, "\"panic_message\": null") &&
	   has(out, "\"log\": null"), "json: no log, nulls");
	free(out);

	make(&r, oops_log);
	r.log_unreliable = true;
	ol_report_judge(&r);
	ok(strcmp(r.reason, "unknown") == 0 && r.consistent == -1,
	   "a log that did not decode cleanly: unknown, never consistent");

	make(&r, oops_log);
	r.live = true;
	ol_report_judge(&r);
	save_json(&r, "report", "live");
	out = text_of(&r, false);
	ok(r.reason == NULL && has(out, "      VERDICT: none (live system)\n") && !has(out, "PANIC: "),
	   "live: counts, no panic line, no verdict");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"live\": true") && has(out, "\"reason\": null"), "json: live, reason null");
	free(out);

	ol_report_init(&r, "oopslimit-reason");
	set(&r, OL_V_PANIC_ON_OOPS, 0);
	save_json(&r, "report", "no-limits");
	out = text_of(&r, false);
	ok(ol_report_no_limits(&r) && has(out, "       LIMITS: none: this kernel has no oops_limit or warn_limit\n") &&
	   !has(out, "OOPS_COUNT"), "no limits: one plain line instead of four");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"has_limits\": false") && has(out, "\"oops_limit\": null") &&
	   has(out, "\"warn_limit\": null,\n  \"warn_headroom\": null"), "json: no limits, nulls");
	free(out);

	ol_report_init(&r, "oopslimit-reason");
	for (i = 0; i < 20; i++)
		ol_note(&r, "note %d", i);
	ok(r.n_notes == OL_NOTES && strcmp(r.notes[OL_NOTES - 1], "(more problems not shown)") == 0,
	   "notes: bounded, the last says more were dropped");
}

/* The checks a value passes before it is a fact (issue 21). */
static void test_checks(void)
{
	static const char *const sysrq[] = {
		"[    2.000000] oopslimit: policy applied: oops_limit=10000 warn_limit=0 panic_on_oops=0",
		"[    2.100000] sysrq: Trigger a crash",
		"[    2.200000] Kernel panic - not syncing: sysrq triggered crash",
		NULL,
	};
	static const char *const warned[] = {
		"[    0.000000] Linux version 6.1.192",
		"[    2.000000] oopslimit: policy applied: oops_limit=10000 warn_limit=3",
		"[    2.100000] WARNING: CPU: 0 PID: 35 at drivers/misc/lkdtm/bugs.c:85 lkdtm_WARNING+0x8/0xb",
		"[    2.200000] WARNING: CPU: 0 PID: 35 at drivers/misc/lkdtm/bugs.c:85 lkdtm_WARNING+0x8/0xb",
		"[    2.300000] WARNING: CPU: 0 PID: 35 at drivers/misc/lkdtm/bugs.c:85 lkdtm_WARNING+0x8/0xb",
		"[    2.400000] Kernel panic - not syncing: kernel: system warned too often (kernel.warn_limit is 3)",
		NULL,
	};
	static const enum ol_var_id page[] = {
		OL_V_OOPS_COUNT, OL_V_WARN_COUNT, OL_V_PANIC_ON_OOPS, OL_V_PANIC_ON_TAINT, OL_V_TAINTED_MASK,
	};
	struct ol_report r;
	char *out;
	size_t i;

	/* a damaged page (crash on a Debian dump): impossible values, and plausible ones beside them */
	make(&r, sysrq);
	set(&r, OL_V_OOPS_LIMIT, 10000);
	set(&r, OL_V_OOPS_COUNT, 627);
	set(&r, OL_V_WARN_COUNT, 353);
	set(&r, OL_V_PANIC_ON_OOPS, 79);
	set(&r, OL_V_PANIC_ON_TAINT, 330712481868ULL);
	set(&r, OL_V_TAINTED_MASK, 0x3fffff00f6ULL);
	for (i = 0; i < sizeof(page) / sizeof(page[0]); i++)
		r.var[page[i]].addr = 0xffffffff82a01000ULL + 8 * i;
	ol_taint_letters(r.var[OL_V_TAINTED_MASK].value, r.taint, sizeof(r.taint));
	ol_report_judge(&r);
	save_json(&r, "report", "damaged-page");
	out = text_of(&r, false);
	ok(has(out, "PANIC_ON_OOPS: unknown (not trusted: see NOTE)\n") &&
	   has(out, "   OOPS_COUNT: unknown (not trusted: see NOTE)\n") &&
	   has(out, "   WARN_COUNT: unknown (not trusted: see NOTE)\n") &&
	   has(out, "      TAINTED: unknown (not trusted: see NOTE)\n"),
	   "a damaged page: the impossible values and the plausible ones on their page, not used");
	ok(!has(out, "ALSO_SET") && !has(out, "DRIFT") && !has(out, "??"),
	   "a damaged page: no ALSO_SET, no DRIFT, no taint letters from it");
	ok(has(out, "NOTE: panic_on_oops: 79 read, not used: it is 0 or 1\n") &&
	   has(out, "NOTE: panic_on_taint: 330712481868 read, not used: bits 0x4d00000000 are no taint flag\n") &&
	   has(out, "NOTE: oops_count: 627 read, not used: it shares its page with panic_on_oops"),
	   "a damaged page: each value's note says why");
	ok(has(out, "   OOPS_LIMIT: 10000 (headroom unknown: oops_count not trusted)\n"),
	   "a damaged page: a value elsewhere still stands");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"panic_on_oops\": null") && has(out, "\"oops_count\": null") &&
	   has(out, "\"panic_on_taint\": null") && has(out, "\"taint\": null") &&
	   has(out, "\"drift\": []") && has(out, "\"oops_limit\": 10000"),
	   "json: the same values null, no drift");
	free(out);

	/* SYMBOL() addresses exchanged: oops_limit reads warn_limit's 3, warn_limit oops_limit's 10000 */
	make(&r, warned);
	set(&r, OL_V_OOPS_COUNT, 0);
	set(&r, OL_V_WARN_COUNT, 3);
	set(&r, OL_V_OOPS_LIMIT, 3);
	set(&r, OL_V_WARN_LIMIT, 10000);
	ol_report_judge(&r);
	out = text_of(&r, false);
	ok(r.consistent == -1 && r.var[OL_V_WARN_LIMIT].rejected && r.var[OL_V_OOPS_LIMIT].rejected &&
	   !has(out, "DRIFT") && has(out, "NOTE: warn_limit: 10000 read, not used: the panic message says "
				     "kernel.warn_limit is 3\n"),
	   "limits exchanged: neither used, no drift claimed, unknown");
	free(out);
	/* ... and the counts exchanged */
	make(&r, warned);
	set(&r, OL_V_OOPS_COUNT, 3);
	set(&r, OL_V_WARN_COUNT, 0);
	set(&r, OL_V_WARN_LIMIT, 3);
	set(&r, OL_V_OOPS_LIMIT, 10000);
	ol_report_judge(&r);
	ok(r.consistent == -1 && r.var[OL_V_OOPS_COUNT].rejected && r.var[OL_V_WARN_COUNT].rejected,
	   "counts exchanged: an oops count with no oops since boot, a warning count below the log's");
	set(&r, OL_V_OOPS_COUNT, 0);
	set(&r, OL_V_WARN_COUNT, 2147483647);
	ol_report_judge(&r);
	ok(r.consistent == -1 && r.var[OL_V_WARN_COUNT].rejected, "warn_count 2^31 - 1 after 3 warnings since boot: not used");
	set(&r, OL_V_WARN_COUNT, 3);
	r.n_notes = 0;
	ol_report_judge(&r);
	ok(r.consistent == 1 && r.n_notes == 0, "the undamaged dump passes every check, without a note");

	/* the dump's own log did not decode: its pages are wrong, no value is a fact */
	make(&r, warned);
	set(&r, OL_V_WARN_COUNT, 3);
	set(&r, OL_V_WARN_LIMIT, 3);
	set(&r, OL_V_OOPS_LIMIT, 10000);
	r.memory_damaged = true;
	r.n_notes = 0;
	ol_report_judge(&r);
	ok(r.consistent == -1 && r.var[OL_V_WARN_COUNT].rejected && r.var[OL_V_TAINTED_MASK].rejected &&
	   r.n_notes == 1 && has(r.notes[0], "its own log does not decode): oops_limit, warn_count, warn_limit"),
	   "memory that does not decode as a log: no value used, one note names them");

	/* two lookups that disagree: neither; two against one: the two */
	ol_report_init(&r, "crash oopslimit");
	{
		struct ol_lookup l[3] = {
			{ OL_SRC_DEBUGINFO, 0xffffffff81000040ULL, "exit.c" },
			{ OL_SRC_VMCOREINFO, 0xffffffff81000000ULL, "VMCOREINFO" },
			{ OL_SRC_KALLSYMS, 0xffffffff81000000ULL, "kallsyms in the dump, type b" },
		};

		ol_var_locate(&r, OL_V_OOPS_COUNT, l + 1, 1);
		ok(r.var[OL_V_OOPS_COUNT].found && strcmp(r.var[OL_V_OOPS_COUNT].how, "VMCOREINFO") == 0,
		   "one lookup: found there");
		ol_var_locate(&r, OL_V_OOPS_LIMIT, l, 2);
		ok(!r.var[OL_V_OOPS_LIMIT].found && r.var[OL_V_OOPS_LIMIT].rejected &&
		   has(r.notes[r.n_notes - 1], "oops_limit: not used: its lookups disagree (the vmlinux at "
					       "ffffffff81000040, VMCOREINFO at ffffffff81000000)"),
		   "two lookups that disagree: neither trusted, a note names both");
		ol_var_locate(&r, OL_V_WARN_COUNT, l, 3);
		ok(r.var[OL_V_WARN_COUNT].found && r.var[OL_V_WARN_COUNT].addr == 0xffffffff81000000ULL &&
		   r.var[OL_V_WARN_COUNT].source == OL_SRC_VMCOREINFO &&
		   strcmp(r.var[OL_V_WARN_COUNT].how, "VMCOREINFO, kallsyms agrees") == 0,
		   "two against one: the two, with a note");
		l[0].addr = l[1].addr;
		ol_var_locate(&r, OL_V_WARN_LIMIT, l, 2);
		ok(strcmp(r.var[OL_V_WARN_LIMIT].how, "exit.c, VMCOREINFO agrees") == 0 &&
		   r.var[OL_V_WARN_LIMIT].source == OL_SRC_DEBUGINFO, "two that agree: the first, the other agrees");
	}
}

/*
 * crash with a vmlinux that does not fit the dump (crash --minimal without
 * --kaslr auto): nothing read through its symbols is printed (issue 19).
 */
static void test_mismatched_vmlinux(void)
{
	static const char *const lines[] = {
		"[    2.300000] Kernel panic - not syncing: kernel: system warned too often (kernel.warn_limit is 3)",
		NULL,
	};
	struct ol_report r;
	struct ol_lookup l = { OL_SRC_DEBUGINFO, 0, "panic.c" };
	char *out;
	int i;

	ol_report_init(&r, "crash oopslimit");
	r.crashed = true;
	r.symbols_mismatch = true;
	ol_note(&r, "vmlinux does not match the dump: VMCOREINFO says _stext is at ffffffff9a000000, the vmlinux ffffffff81000000");
	for (i = 0; i < OL_NVARS; i++) {
		l.addr = 0xffffffff82000000ULL + 8 * (uint64_t)i;
		ol_var_locate(&r, (enum ol_var_id)i, &l, 1);
	}
	/* VMCOREINFO places one of them: that one is read */
	l.source = OL_SRC_VMCOREINFO;
	ol_var_locate(&r, OL_V_OOPS_LIMIT, &l, 1);
	r.var[OL_V_OOPS_LIMIT].read = true;
	r.var[OL_V_OOPS_LIMIT].value = 10000;
	r.var[OL_V_OOPS_LIMIT].rejected = false;
	for (i = 0; lines[i]; i++)
		ol_report_log_line(&r, lines[i]);
	ol_log_done(&r.log);
	ol_report_judge(&r);
	save_json(&r, "report", "mismatched-vmlinux");
	out = text_of(&r, false);
	ok(has(out, "   WARN_LIMIT: unknown (not trusted: see NOTE)\n") &&
	   has(out, "PANIC_ON_WARN: unknown (not trusted: see NOTE)\n") &&
	   has(out, "      TAINTED: unknown (not trusted: see NOTE)\n") &&
	   has(out, "   OOPS_LIMIT: 10000 (headroom unknown: oops_count not trusted)\n"),
	   "mismatched vmlinux: no value read through its symbols, the dump's own still read");
	ok(!has(out, "ALSO_SET") && !has(out, "LIMITS: none") && !has(out, "SETTING: kernel.warn_limit = 3"),
	   "mismatched vmlinux: no ALSO_SET, no claim the kernel lacks the limits");
	ok(has(out, "   CONSISTENT: unknown (warn_count is not trusted (see the notes))\n") &&
	   has(out, "NOTE: warn_limit: not used: only the vmlinux, which does not fit the dump, gives its address\n"),
	   "mismatched vmlinux: unknown, and the notes say why");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"warn_limit\": null") && has(out, "\"panic_on_warn\": null") &&
	   has(out, "\"tainted_mask\": null") && has(out, "\"setting_value\": null") &&
	   has(out, "\"consistent\": null"), "json: the same nulls");
	free(out);
}

static void test_capture(void)
{
	struct ol_report r;
	char *out;

	make(&r, oops_log);
	r.capture.present = true;
	snprintf(r.capture.status, sizeof(r.capture.status), "complete");
	snprintf(r.capture.dump_file, sizeof(r.capture.dump_file), "vmcore");
	r.capture.dump_bytes = 1234;
	r.capture.have_seconds = true;
	r.capture.seconds = 0.5;
	save_json(&r, "report", "capture");
	out = text_of(&r, false);
	ok(has(out, "      CAPTURE: complete, vmcore 1234 bytes in 0.50 s\n"), "text: the capture line");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"status\": \"complete\"") && has(out, "\"dump_bytes\": 1234") &&
	   has(out, "\"seconds\": 0.50") && has(out, "\"collector_exit\": null") &&
	   has(out, "\"warning\": null"), "json: the capture object");
	free(out);

	/* makedumpfile saved the dump but warned: never a plain "complete" */
	snprintf(r.capture.warning, sizeof(r.capture.warning),
		 "makedumpfile: The kernel version is not supported.");
	save_json(&r, "report", "capture-warning");
	out = text_of(&r, false);
	ok(has(out, "      CAPTURE: complete, vmcore 1234 bytes in 0.50 s; warning: makedumpfile: The kernel version is not supported.\n"),
	   "text: a collector's warning on the capture line");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"warning\": \"makedumpfile: The kernel version is not supported.\""),
	   "json: capture.warning");
	free(out);
}

/* warn_limit 3 spent at two sites (tests/scenarios/kdump-warn-limit-two-sites.scn's shape) */
static const char *const two_sites_log[] = {
	"[    0.000000] Linux version 6.1.192",
	"[    5.000001] WARNING: CPU: 0 PID: 90 at drivers/x.c:10 foo+0x8/0xb [mod]",
	"[    5.000002] ---[ end trace 0000000000000000 ]---",
	"[    5.100001] UBSAN: shift-out-of-bounds in drivers/x.c:20:7",
	"[    5.100002] Call Trace:",
	"[    5.100003]  __ubsan_handle_shift_out_of_bounds+0x12/0x40",
	"[    5.100004]  bar+0x10/0x20 [mod]",
	"[    5.100005] ---[ end trace ]---",
	"[    5.200001] WARNING: CPU: 1 PID: 91 at drivers/x.c:10 foo+0x8/0xb [mod]",
	"[    5.200002] Kernel panic - not syncing: kernel: system warned too often (kernel.warn_limit is 3)",
	NULL,
};

/* oops_limit 5 with the first three oopses and the banner overwritten */
static const char *const wrapped_log[] = {
	"[   90.000001] BUG: kernel NULL pointer dereference, address: 0000000000000000",
	"[   90.000002] Oops: 0002 [#4] SMP",
	"[   90.000003] RIP: 0010:lkdtm_EXCEPTION+0x2/0x10 [lkdtm]",
	"[   90.000004] ---[ end trace 0000000000000000 ]---",
	"[   91.000001] BUG: kernel NULL pointer dereference, address: 0000000000000000",
	"[   91.000002] Oops: 0002 [#5] SMP",
	"[   91.000003] RIP: 0010:lkdtm_EXCEPTION+0x2/0x10 [lkdtm]",
	"[   91.000004] ---[ end trace 0000000000000000 ]---",
	"[   91.000005] Kernel panic - not syncing: Oopsed too often (kernel.oops_limit is 5)",
	NULL,
};

static void test_sites(void)
{
	struct ol_report r;
	char *out;

	make(&r, two_sites_log);
	set(&r, OL_V_WARN_COUNT, 3);
	set(&r, OL_V_WARN_LIMIT, 3);
	set(&r, OL_V_OOPS_COUNT, 0);
	ol_report_judge(&r);
	save_json(&r, "report", "two-sites");
	ok_got(strcmp(r.signature, "warn_limit: WARNING in foo") == 0, "two sites: the signature", r.signature);
	out = text_of(&r, false);
	ok(has(out, "       BUDGET: 3 of 3: 2x WARNING in foo (drivers/x.c:10), "
		    "1x UBSAN: shift-out-of-bounds in bar (drivers/x.c:20)\n"), "two sites: text, the budget");
	ok(has(out, "    SIGNATURE: warn_limit: WARNING in foo\n"), "two sites: text, the signature");
	ok(has(out, "        SITES: 2x WARNING in foo (drivers/x.c:10) [WARN, counts in warn_count, module mod, "
		    "5.000001-5.200001 s]\n") &&
	   has(out, "               1x UBSAN: shift-out-of-bounds in bar (drivers/x.c:20) [UBSAN"),
	   "two sites: text, the SITES lines");
	ok(printable(out), "two sites: the text is printable ASCII (crash's console and C-locale pipes)");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"signature\": \"warn_limit: WARNING in foo\"") && has(out, "\"title\": \"WARNING in foo\"") &&
	   has(out, "\"count\": 2") && has(out, "\"first_time\": 5.000001") && has(out, "\"counted_not_in_log\": 0") &&
	   has(out, "\"counts\": \"warn_count\"") && has(out, "\"sites_dropped\": 0"),
	   "two sites: json, log.sites and the signature");
	free(out);

	make(&r, wrapped_log);
	save_json(&r, "report", "wrapped");
	ok(r.log_wrapped, "wrapped: the log starts past the banner");
	out = text_of(&r, false);
	ok(has(out, "       BUDGET: 2 of 5 in the log: 2x BUG: unable to handle kernel NULL pointer dereference in lkdtm_EXCEPTION; "
		    "3 counted earlier are no longer in the log\n"), "wrapped: text, what the log lost");
	free(out);
	out = text_of(&r, true);
	ok(has(out, "\"counted_not_in_log\": 3") &&
	   has(out, "\"signature\": \"oops_limit: BUG: unable to handle kernel NULL pointer dereference in lkdtm_EXCEPTION\""),
	   "wrapped: json, counted_not_in_log and the signature");
	free(out);

	/* a live system: no verdict, no signature */
	ol_report_init(&r, "crash oopslimit");
	r.live = true;
	ol_report_judge(&r);
	out = text_of(&r, true);
	ok(has(out, "\"signature\": null") && has(out, "\"reason\": null"), "live: signature null");
	free(out);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--json") == 0)
		json_dir = argv[2];
	test_log_lines();
	test_numbers();
	test_oops_limit();
	test_panic_on_warn();
	test_crashed();
	test_settings();
	test_policy();
	test_pages();
	test_odd();
	test_capture();
	test_checks();
	test_mismatched_vmlinux();
	test_sites();
	return tap_done();
}
