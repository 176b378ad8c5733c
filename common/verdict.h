/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the kernel log for why a kernel panicked: the log scanner and the
 * table of panic messages.
 *
 * Plain C without any dump-reading calls; judge.c builds the verdict on
 * it, and tests/unit/verdict-test.c tests it on its own.
 *
 * Feed the log one line at a time with ol_log_line(), oldest first, then
 * call ol_log_done().  Lines may carry the "[    1.234567] " time stamp
 * that dmesg, vmcore-dmesg and crash's "log" print; it is skipped.
 */
#ifndef OOPSLIMIT_VERDICT_H
#define OOPSLIMIT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vars.h"

#define OL_TEXT 256
#define OL_SHORT 64

/* The line oopslimit-kdump writes into the kernel log when it applies the policy. */
#define OL_POLICY_LINE "oopslimit: policy applied:"

/* Reasons that are not a row of the panic table. */
#define OL_NO_PANIC "no panic"
#define OL_OTHER "other"

/* What the surviving part of the log says. */
struct ol_log {
	bool have_panic;
	char panic[OL_TEXT];	/* first "Kernel panic - not syncing: " text */
	const char *reason;	/* set by ol_log_done(): a table row's reason, "other", "no panic" */
	enum ol_var_id setting;	/* the variable of the setting that enabled that path, or OL_V_NONE */
	char origin[OL_SHORT];	/* warn_limit, panic_on_warn: "kernel", "UBSAN", ... */
	char detail[OL_SHORT];	/* what kind of "other" panic, when the message tells */
	bool have_limit;
	unsigned long limit;	/* the limit printed in an *_limit panic */

	unsigned long warnings;	/* warning reports seen (WARNING:, UBSAN:, ...) */
	unsigned long kasan;	/* of those, KASAN's: in multi-shot mode they do not count */
	unsigned long long taint_seen;	/* the taint bits of the last "Tainted:" line (dump_stack's):
					   taint is never cleared, so the mask holds them all */
	char release[65];	/* the kernel's release, from the first dump_stack() header
				   ("CPU: 0 PID: 1 Comm: sh Not tainted 6.1.0-57-cloud-amd64 #1") */
	unsigned long oopses;	/* oops headers seen ("...: 0002 [#3] ...") */
	unsigned long last_die;	/* N of the last "[#N]": oopses since boot */
	char first_oops[OL_TEXT];	/* what crash's "sys" calls the panic */

	bool have_warning;
	char warn_origin[OL_SHORT];	/* origin of the last warning report */
	char warn_where[OL_TEXT];	/* its file:line, when printed */
	char warn_func[OL_SHORT];	/* its function, when printed */

	/*
	 * The panic policy oopslimit-kdump applied, from the last line it wrote
	 * into the kernel log before the panic ("oopslimit: policy applied:
	 * oops_limit=10000 warn_limit=3 ..."): the settings as configured.
	 */
	bool have_policy;
	bool policy_set[OL_NVARS];
	unsigned long long policy[OL_NVARS];

	bool sysrq_crash;	/* "sysrq: Trigger a crash" seen */
	const char *context;	/* the last line before the panic that starts like a
				   panics.def context: which of those */
	unsigned long lines;

	/* the last event of the log, if it is an oops: where it happened */
	bool last_is_oops;
	bool last_oops_irq;	/* its trace has <IRQ> */
	long last_oops_pid;	/* "CPU: 0 PID: 63 Comm: ..."; -1 unknown */
};

void ol_log_init(struct ol_log *log);
void ol_log_line(struct ol_log *log, const char *line);
void ol_log_done(struct ol_log *log);

/*
 * For a dump taken at a crash (a kdump capture) whose log has no panic
 * message: with panic_on_oops set, or for an oops in interrupt context, in
 * init or in the idle task, oops_end() enters the capture kernel before
 * panic() prints anything.  panic_on_oops is 0, 1, or -1 when unknown.
 * Returns false, leaving the log's verdict alone, when the log gives no
 * such reason (it does not end in an oops, or panic_on_oops was 0).
 */
bool ol_log_crashed(struct ol_log *log, int panic_on_oops);

/*
 * Classifies a panic message (without the "Kernel panic - not syncing: ")
 * by common/panics.def: returns the reason and sets *setting, origin and
 * detail.  context is the last context line the log had before the panic
 * (struct ol_log's), or NULL.  A message no row matches is OL_OTHER with
 * detail saying so; so is one whose rows need a context the log lacks.
 */
const char *ol_classify_panic(const char *msg, const char *context, enum ol_var_id *setting,
			      char *origin, size_t origin_len, char *detail, size_t detail_len);

/*
 * True when context is NULL or one of panics.def's context strings itself
 * (the pointer, not a copy): for a struct ol_log that crossed a process
 * boundary (recorder/oopslimit-reason.c's reading child).
 */
bool ol_log_context_known(const char *context);

/*
 * The line's "<N>" level, "[ stamp]" and "[ T123]"/"[ C1]" caller id (of
 * dmesg, vmcore-dmesg, crash's "log" and a serial console, whose line may
 * start with another program's output); returns the text after them.
 * *us and *have_time: the stamp; caller: the caller id, "" without one;
 * *bracketed: a stamp or caller id was there.
 */
const char *ol_log_prefixes(const char *line, uint64_t *us, bool *have_time, char *caller, size_t clen,
			    bool *bracketed);

/* The line's text without its prefixes (ol_log_prefixes()) and trailing newline; a pointer into line. */
const char *ol_log_text(const char *line, size_t *len);

/* Copies at most size - 1 bytes of src (length len) and terminates. */
void ol_copy(char *dst, size_t size, const char *src, size_t len);

/*
 * Whether the char array field holds its terminator: a string another
 * process filled (the recorder's reading child) is used only then.
 * memchr needs <string.h>.
 */
#define OL_TERMINATED(field) (memchr((field), '\0', sizeof(field)) != NULL)

#endif
