// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for common/verdict.c: panic-message classification and the log
 * scanner.  No dump, no QEMU.
 * TAP output (tap.h); exits non-zero on a failure.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/report.h"
#include "tap.h"

static const struct {
	const char *msg, *reason, *origin, *detail;
} panics[] = {
	{ "Oopsed too often (kernel.oops_limit is 10000)", "oops_limit", "", "" },
	{ "kernel: system warned too often (kernel.warn_limit is 5)", "warn_limit", "kernel", "" },
	{ "UBSAN: system warned too often (kernel.warn_limit is 3)\n", "warn_limit", "UBSAN", "" },
	{ "scheduling while atomic: system warned too often (kernel.warn_limit is 1)",
	  "warn_limit", "scheduling while atomic", "" },
	{ "kernel: panic_on_warn set ...\n", "panic_on_warn", "kernel", "" },
	{ "KASAN: panic_on_warn set ...", "panic_on_warn", "KASAN", "" },
	{ "panic_on_warn set ...", "panic_on_warn", "kernel", "" },
	{ "Fatal exception", "panic_on_oops", "", "" },
	{ "Fatal exception in interrupt", "oops_in_interrupt", "", "" },
	{ "sysrq triggered crash\n", "sysrq", "", "" },
	{ "Attempted to kill init! exitcode=0x00000009", "init_killed", "", "" },
	{ "", "other", "", "" },
	{ "something new", "other", "", "" },
};

static void test_classify(void)
{
	char origin[OL_SHORT], detail[OL_SHORT], what[OL_TEXT + 64];
	enum ol_var_id setting;
	size_t i;

	for (i = 0; i < sizeof(panics) / sizeof(panics[0]); i++) {
		enum ol_var_id setting;
		const char *r = ol_classify_panic(panics[i].msg, &setting, origin, sizeof(origin),
						  detail, sizeof(detail));

		snprintf(what, sizeof(what), "classify '%.*s'",
			 (int)strcspn(panics[i].msg, "\n"), panics[i].msg);
		ok_got(strcmp(r, panics[i].reason) == 0, what, r);
		ok_got(strcmp(origin, panics[i].origin) == 0, "  its origin", origin);
		ok_got(strcmp(detail, panics[i].detail) == 0, "  its detail", detail);
	}
	/* a tiny output buffer truncates, never overflows */
	ol_classify_panic("averyveryverylongorigin: panic_on_warn set ...", &setting, origin, 5, detail, 1);
	ok_got(strcmp(origin, "aver") == 0, "origin truncated to its buffer", origin);
}

static void feed(struct ol_log *log, const char *const *lines)
{
	ol_log_init(log);
	while (*lines)
		ol_log_line(log, *lines++);
	ol_log_done(log);
}

/* Dumps taken at a crash whose log has no panic message: ol_log_crashed(). */
static void test_crashed(const char *const *sysrq)
{
	static const char *const pof[] = {
		"[    3.9] BUG: kernel NULL pointer dereference, address: 0000000000000000",
		"[    3.9] Oops: 0002 [#1] SMP",
		"[    3.9] CPU: 0 PID: 63 Comm: provoke Not tainted 6.1.192 #1",
		"[    3.9] RIP: 0010:lkdtm_EXCEPTION+0x8/0x10",
		NULL,
	};
	static const char *const irq[] = {
		"Oops: 0002 [#1] SMP", "CPU: 0 PID: 0 Comm: swapper/0", " <IRQ>", NULL,
	};
	static const char *const irq_stamped[] = {
		"[    1.0] Oops: 0002 [#1] SMP", "[    1.0] CPU: 0 PID: 7 Comm: k", "[    1.000001]  <IRQ>", NULL,
	};
	static const char *const init[] = {
		"Oops: 0002 [#1] SMP", "CPU: 0 PID: 1 Comm: init", NULL,
	};
	static const char *const warn_last[] = {
		"Oops: 0002 [#1] SMP", "CPU: 0 PID: 9 Comm: x", "WARNING: CPU: 0 PID: 9 at a.c:1 f+0x0/0x1", NULL,
	};
	const struct {
		const char *const *lines;
		int panic_on_oops;
		bool judged;
		const char *reason, *what;
	} cases[] = {
		{ pof, 1, true, "panic_on_oops", "kdump straight from an oops, panic_on_oops 1: panic_on_oops" },
		{ pof, -1, true, "panic_on_oops", "the same, panic_on_oops unknown" },
		{ pof, 0, false, "no panic", "the same, panic_on_oops 0: no reason from the log" },
		{ irq, 1, true, "oops_in_interrupt", "an oops in interrupt" },
		{ irq_stamped, 1, true, "oops_in_interrupt", "an oops in interrupt, time-stamped log" },
		{ init, 0, true, "oops_in_init", "an oops in init" },
		{ warn_last, 1, false, "no panic", "a warning after the oops: no reason from the log" },
		{ sysrq, 1, false, "sysrq", "a panic message wins over ol_log_crashed" },
	};
	struct ol_log log;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool judged;

		feed(&log, cases[i].lines);
		judged = ol_log_crashed(&log, cases[i].panic_on_oops);
		ok_got(judged == cases[i].judged && strcmp(log.reason, cases[i].reason) == 0,
		       cases[i].what, log.reason);
	}
	feed(&log, pof);
	ok_got(log.last_oops_pid == 63, "the oopsing task's PID", NULL);
}

static void test_log(void)
{
	/* several oopses, then the oops_limit panic: "sys" would name the first */
	static const char *const oopses[] = {
		"[    1.100000] lkdtm: Performing direct entry EXCEPTION",
		"[    1.100001] BUG: kernel NULL pointer dereference, address: 0000000000000000",
		"[    1.100002] Oops: 0002 [#1] SMP PTI",
		"[    1.200002] Oops: 0002 [#2] SMP PTI",
		"[    1.300002] invalid opcode: 0000 [#3] SMP PTI",
		"[    1.300009] Kernel panic - not syncing: Oopsed too often (kernel.oops_limit is 3)",
		"[    1.300010] Kernel Offset: 0x1c000000 from 0xffffffff81000000",
		NULL,
	};
	static const char *const warns[] = {
		"<4>[    0.900000] WARNING: CPU: 0 PID: 46 at drivers/misc/lkdtm/bugs.c:89 lkdtm_WARNING+0x11/0x20",
		"[    1.000000] UBSAN: array-index-out-of-bounds in drivers/misc/lkdtm/bugs.c:330:16",
		"[    1.000001] Kernel panic - not syncing: UBSAN: system warned too often (kernel.warn_limit is 2)",
		"[    1.000002] Kernel panic - not syncing: a second panic inside the first",
		NULL,
	};
	static const char *const wrapped[] = {
		"0002 [#9998] SMP PTI",	/* the cut-off end of a line */
		"Oops: 0002 [#9999] SMP PTI",
		"Kernel panic - not syncing: Oopsed too often (kernel.oops_limit is 10000)\r\n",
		NULL,
	};
	static const char *const sysrq[] = {
		"[   2.0] sysrq: Trigger a crash",
		"[   2.1] Kernel panic - not syncing: sysrq triggered crash",
		NULL,
	};
	static const char *const none[] = { "[ 0.0] Linux version 6.1.0", "WARNING: CPU: 0 PID: 1", NULL };
	struct ol_log log;
	char num[32];

	feed(&log, oopses);
	ok_got(strcmp(log.reason, "oops_limit") == 0, "oopses: verdict oops_limit", log.reason);
	ok_got(log.have_limit && log.limit == 3, "oopses: the limit from the message", "");
	ok_got(log.oopses == 3 && log.last_die == 3, "oopses: three oops headers, last [#3]", "");
	ok_got(strcmp(log.first_oops, "Oops: 0002 [#1] SMP PTI") == 0, "oopses: the first oops (sys's pick)",
	      log.first_oops);

	feed(&log, warns);
	ok_got(strcmp(log.reason, "warn_limit") == 0 && strcmp(log.origin, "UBSAN") == 0, "warns: warn_limit from UBSAN",
	      log.origin);
	ok_got(strcmp(log.panic, "UBSAN: system warned too often (kernel.warn_limit is 2)") == 0,
	      "warns: the first panic message wins", log.panic);
	ok_got(log.warnings == 2, "warns: two warning reports", "");
	ok_got(strcmp(log.warn_origin, "UBSAN") == 0 &&
	      strcmp(log.warn_where, "drivers/misc/lkdtm/bugs.c:330:16") == 0,
	      "warns: last warning is the UBSAN report", log.warn_where);

	ol_log_init(&log);
	ol_log_line(&log, warns[0]);
	ol_log_done(&log);
	ok_got(strcmp(log.warn_where, "drivers/misc/lkdtm/bugs.c:89") == 0 &&
	      strcmp(log.warn_func, "lkdtm_WARNING") == 0, "WARNING line: file:line and function",
	      log.warn_func);
	ok_got(strcmp(log.reason, "no panic") == 0, "no panic line: no panic", log.reason);

	feed(&log, wrapped);
	snprintf(num, sizeof(num), "%lu", log.last_die);
	ok_got(strcmp(log.reason, "oops_limit") == 0 && log.last_die == 9999 && log.oopses == 1,
	      "wrapped log: verdict and the last [#N]", num);

	feed(&log, sysrq);
	ok_got(strcmp(log.reason, "sysrq") == 0 && log.setting == OL_V_NONE && log.sysrq_crash,
	      "sysrq-c: sysrq, no setting", log.reason);

	test_crashed(sysrq);

	feed(&log, none);
	ok_got(strcmp(log.reason, "no panic") == 0 && log.warnings == 1 && log.warn_where[0] == '\0',
	      "a WARNING without location", log.warn_where);
}

static void json(const char *in, const char *want, const char *what)
{
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	if (!f) {
		ok_got(false, what, "fmemopen failed");
		return;
	}
	ol_json_string(f, in);
	fclose(f);
	ok_got(strcmp(buf, want) == 0, what, buf);
}

static void test_json(void)
{
	json("plain", "\"plain\"", "json: plain");
	json("a\"b\\c", "\"a\\\"b\\\\c\"", "json: quote and backslash");
	json("l1\nl2\t\r\x01\x7f", "\"l1\\nl2\\t\\r\\u0001\\u007f\"", "json: control characters");
	json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
	     "json: valid UTF-8 passes");
	json("\xff\xc3(\xe0\x80\x80\xed\xa0\x80\xc3", "\"\\ufffd\\ufffd(\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"",
	     "json: invalid UTF-8 becomes U+FFFD, truncated sequence at the end too");
}

int main(void)
{
	test_classify();
	test_log();
	test_json();
	return tap_done();
}
