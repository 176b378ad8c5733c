/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Judging why a kernel panicked, from its log and its counters.
 *
 * Plain C without any dump-reading calls, shared by the crash extension
 * (crash-ext/oopslimit.c) and the capture-side recorder
 * (kdump/oopslimit-reason.c), and unit-tested on its own
 * (tests/unit/verdict-test.c).
 *
 * Feed the log one line at a time with ol_log_line(), oldest first, then
 * call ol_log_done().  Lines may carry the "[    1.234567] " time stamp
 * that dmesg, vmcore-dmesg and crash's "log" print; it is skipped.
 */
#ifndef OOPSLIMIT_VERDICT_H
#define OOPSLIMIT_VERDICT_H

#include <stdbool.h>
#include <stdio.h>

#define OL_TEXT 256
#define OL_SHORT 64

enum ol_reason {
	OL_NO_PANIC,
	OL_OOPS_LIMIT,
	OL_WARN_LIMIT,
	OL_PANIC_ON_WARN,
	OL_PANIC_ON_OOPS,
	OL_OTHER,
};

/* What the surviving part of the log says. */
struct ol_log {
	bool have_panic;
	char panic[OL_TEXT];	/* last "Kernel panic - not syncing: " text */
	enum ol_reason reason;
	char origin[OL_SHORT];	/* warn_limit, panic_on_warn: "kernel", "UBSAN", ... */
	char detail[OL_SHORT];	/* other: "sysrq", "oops in interrupt", ... */
	bool have_limit;
	unsigned long limit;	/* the limit printed in an *_limit panic */

	unsigned long warnings;	/* warning reports seen (WARNING:, UBSAN:, ...) */
	unsigned long oopses;	/* oops headers seen ("...: 0002 [#3] ...") */
	unsigned long last_die;	/* N of the last "[#N]": oopses since boot */
	char first_oops[OL_TEXT];	/* what crash's "sys" calls the panic */

	bool have_warning;
	char warn_origin[OL_SHORT];	/* origin of the last warning report */
	char warn_where[OL_TEXT];	/* its file:line, when printed */
	char warn_func[OL_SHORT];	/* its function, when printed */

	bool sysrq_crash;	/* "sysrq: Trigger a crash" seen */
	unsigned long lines;

	/* the last event of the log, if it is an oops: where it happened */
	bool last_is_oops;
	bool last_oops_irq;	/* its trace has <IRQ> */
	long last_oops_pid;	/* "CPU: 0 PID: 63 Comm: ..."; -1 unknown */
};

/* Counters and limits read from the dump; have_* says whether each read. */
struct ol_counters {
	bool have_oops_count, have_oops_limit, have_warn_count, have_warn_limit;
	unsigned int oops_count, oops_limit, warn_count, warn_limit;
};

void ol_log_init(struct ol_log *log);
void ol_log_line(struct ol_log *log, const char *line);
void ol_log_done(struct ol_log *log);

/*
 * For a dump known to come from a crash (a capture kernel's /proc/vmcore
 * or a copy of it) whose log has no panic message: with panic_on_oops set,
 * or for an oops in interrupt context, in init or in the idle task,
 * oops_end() enters the capture kernel before panic() prints anything.
 * panic_on_oops is 0, 1, or -1 when unknown.  Call after ol_log_done().
 */
void ol_log_crashed(struct ol_log *log, int panic_on_oops);

/* Classifies a panic message (without the "Kernel panic - not syncing: "). */
enum ol_reason ol_classify_panic(const char *msg, char *origin, size_t origin_len,
				 char *detail, size_t detail_len);

/* "oops_limit", "warn_limit", ..., "no panic" */
const char *ol_reason_name(enum ol_reason reason);

/*
 * Checks the verdict against the counters: an oops_limit panic needs
 * oops_count >= oops_limit > 0, and so on.  Returns true when consistent or
 * when the counters needed are not known; otherwise false with the reason in
 * why.
 */
bool ol_consistent(const struct ol_log *log, const struct ol_counters *c,
		   char *why, size_t why_len);

/* Writes s as a JSON string, quotes included; invalid UTF-8 becomes U+FFFD. */
void ol_json_string(FILE *f, const char *s);

/*
 * Members of a JSON object, one a line: ol_json_key() writes the opening
 * brace before the first (*first is true until then) and commas between.
 * ol_json_text() writes null for a NULL or empty value, ol_json_uint()
 * null when have is false.  The caller closes the object ("\n}").
 */
void ol_json_key(FILE *f, const char *key, bool *first);
void ol_json_text(FILE *f, const char *key, const char *val, bool *first);
void ol_json_uint(FILE *f, const char *key, bool have, unsigned long val, bool *first);
/* Like ol_json_text(), but an empty string stays "" (only NULL is null). */
void ol_json_str(FILE *f, const char *key, const char *val, bool *first);
void ol_json_bool(FILE *f, const char *key, bool val, bool *first);
/* "last_warning": {"origin", "where", "function"}, or null without one. */
void ol_json_last_warning(FILE *f, const struct ol_log *log, bool *first);

/* Strips the time stamp and trailing newline; returns a pointer into line. */
const char *ol_log_text(const char *line, size_t *len);

#endif
