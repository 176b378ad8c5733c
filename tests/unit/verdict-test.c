// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for common/verdict.c: panic-message classification (every row
 * of common/panics.def, from tests/unit/panic-messages.txt), the warning
 * formats of 6.1 and later kernels (tests/unit/warning-lines.txt) and the log
 * scanner.  No dump, no QEMU.
 * TAP output (tap.h); exits non-zero on a failure.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/report.h"
#include "tap.h"

static void feed(struct ol_log *log, const char *const *lines);

/* The directory of this file, where its data files are. */
static char data_dir[4096];

static void find_data_dir(void)
{
	const char *slash = strrchr(__FILE__, '/');

	snprintf(data_dir, sizeof(data_dir), "%.*s", slash ? (int)(slash - __FILE__) : 1,
		 slash ? __FILE__ : ".");
}

/* Splits a data line at tabs into at most max fields; the count. */
static int fields(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	line[strcspn(line, "\n")] = '\0';
	while (n < max) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

static FILE *open_data(const char *name)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", data_dir, name);
	f = fopen(path, "r");
	ok_got(f != NULL, "open the unit data", path);
	return f;
}

/*
 * tests/unit/panic-messages.txt: every row of common/panics.def by the
 * message the tree prints, with the line before it where that decides.
 */
static void test_panic_messages(void)
{
	char line[1024], what[1200], *f[4];
	FILE *in = open_data("panic-messages.txt");
	struct ol_log log;
	int n = 0;

	if (!in)
		return;
	while (fgets(line, sizeof(line), in)) {
		char panic[600];
		const char *lines[3] = { NULL, NULL, NULL };

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (fields(line, f, 4) != 4) {
			ok_got(false, "a panic-messages.txt line has four fields", line);
			continue;
		}
		snprintf(panic, sizeof(panic), "[   12.000000] Kernel panic - not syncing: %s", f[2]);
		if (strcmp(f[1], "-") != 0) {
			lines[0] = f[1];
			lines[1] = panic;
		} else {
			lines[0] = panic;
		}
		feed(&log, lines);
		snprintf(what, sizeof(what), "panic table: '%.80s'%s%.60s -> %s", f[2],
			 lines[1] ? " after " : "", lines[1] ? f[1] : "", f[0]);
		ok_got(strcmp(log.reason, f[0]) == 0, what, log.reason);
		n++;
	}
	fclose(in);
	ok(n >= 60, "panic table: every row has a case");
}

/* tests/unit/warning-lines.txt: the warning formats of 6.1 and later kernels. */
static void test_warning_lines(void)
{
	char line[1024], got[1024], what[1200], *f[5];
	FILE *in = open_data("warning-lines.txt");
	struct ol_log log;

	if (!in)
		return;
	while (fgets(line, sizeof(line), in)) {
		const char *lines[2] = { NULL, NULL };
		bool good;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (fields(line, f, 5) != 5) {
			ok_got(false, "a warning-lines.txt line has five fields", line);
			continue;
		}
		lines[0] = f[3];
		feed(&log, lines);
		snprintf(what, sizeof(what), "warning line: '%.100s'", f[3]);
		if (strcmp(f[0], "-") == 0) {
			ok_got(log.warnings == 0 && !log.have_warning, what, "counted as a warning");
			continue;
		}
		good = log.warnings == 1 && strcmp(log.warn_origin, f[0]) == 0 &&
		       strcmp(log.warn_where, strcmp(f[1], "-") ? f[1] : "") == 0 &&
		       strcmp(log.warn_func, strcmp(f[2], "-") ? f[2] : "") == 0;
		snprintf(got, sizeof(got), "%lu warning(s), origin '%s', where '%s', function '%s'", log.warnings,
			 log.warn_origin, log.warn_where, log.warn_func);
		ok_got(good, what, got);
	}
	fclose(in);
}

static void test_classify(void)
{
	char origin[OL_SHORT], detail[OL_TEXT];
	enum ol_var_id setting;
	const char *r;

	/* a tiny output buffer truncates, never overflows */
	r = ol_classify_panic("averyveryverylongorigin: panic_on_warn set ...", NULL, &setting, origin, 5,
			      detail, 1);
	ok_got(strcmp(origin, "aver") == 0 && strcmp(r, "panic_on_warn") == 0 && setting == OL_V_PANIC_ON_WARN,
	       "origin truncated to its buffer", origin);
	r = ol_classify_panic("kernel: system warned too often (kernel.warn_limit is 3)", NULL, &setting, origin,
			      sizeof(origin), detail, sizeof(detail));
	ok_got(strcmp(origin, "kernel") == 0 && setting == OL_V_WARN_LIMIT, "warn_limit: origin and setting", origin);
	r = ol_classify_panic("something new", NULL, &setting, origin, sizeof(origin), detail, sizeof(detail));
	ok_got(strcmp(r, "other") == 0 && strstr(detail, "does not know"), "an unknown message: other, said so",
	       detail);
	r = ol_classify_panic("NMI: Not continuing", NULL, &setting, origin, sizeof(origin), detail, sizeof(detail));
	ok_got(strcmp(r, "other") == 0 && strstr(detail, "several causes"),
	       "a message of several paths, the deciding line missing: other, never a guess", detail);
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
	/* 6.10 on: the die() header is printed with a second "Oops: " */
	static const char *const pof_610[] = {
		"[    5.1] BUG: kernel NULL pointer dereference, address: 0000000000000000",
		"[    5.1] Oops: Oops: 0002 [#1] PREEMPT SMP NOPTI",
		"[    5.1] CPU: 0 UID: 0 PID: 63 Comm: provoke Not tainted 6.12.117+deb13-amd64 #1",
		NULL,
	};
	static const char *const init_612[] = {
		"Oops: Oops: 0002 [#1] PREEMPT SMP NOPTI", "CPU: 0 UID: 0 PID: 1 Comm: init Not tainted 6.12.117 #1", NULL,
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
		{ pof_610, 1, true, "panic_on_oops", "6.10's \"Oops: Oops: 0002 [#1]\" header, panic_on_oops 1" },
		{ irq, 1, true, "oops_in_interrupt", "an oops in interrupt" },
		{ irq_stamped, 1, true, "oops_in_interrupt", "an oops in interrupt, time-stamped log" },
		{ init, 0, true, "oops_in_init", "an oops in init" },
		{ init_612, 0, true, "oops_in_init", "an oops in init, 6.12's \"CPU: 0 UID: 0 PID: 1\" line" },
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
		"[   2.2] CPU: 0 PID: 364 Comm: sh Not tainted 6.1.0-57-cloud-amd64 #1  Debian 6.1.192-3",
		NULL,
	};
	static const char *const tainted[] = {
		"[ 1.0] CPU: 1 UID: 0 PID: 9 Comm: sh Tainted: G        W  OE      6.12.117+deb13-amd64 #1 Debian",
		"[ 1.1] CPU: 0 PID: 1 Comm: init Not tainted 9.9.9 #1",
		"[ 1.2] Kernel panic - not syncing: Oopsed too often (kernel.oops_limit is 1)",
		NULL,
	};
	static const char *const no_release[] = {
		"[ 1.0] CPU: 1 PID: 9 Comm: sh Tainted: G W",
		"[ 1.1] CPU: 0 PID: 1 Comm: x Not tainted -rc1",
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
	      strcmp(log.warn_where, "drivers/misc/lkdtm/bugs.c:330") == 0,
	      "warns: last warning is the UBSAN report (its column dropped)", log.warn_where);

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
	ok_got(strcmp(log.release, "6.1.0-57-cloud-amd64") == 0, "release: from panic()'s own header", log.release);
	feed(&log, tainted);
	ok_got(strcmp(log.release, "6.12.117+deb13-amd64") == 0,
	      "release: after the taint columns (6.10's UID:), the first header wins", log.release);
	feed(&log, no_release);
	ok_got(log.release[0] == '\0', "release: none where no header names one", log.release);

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
	find_data_dir();
	test_classify();
	test_panic_messages();
	test_warning_lines();
	test_log();
	test_json();
	return tap_done();
}
