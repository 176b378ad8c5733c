/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The warning and oops sites of one kernel log, and the signature a fleet
 * buckets panics by.
 *
 * A site is one place in the kernel that reported: a WARN() at a file and
 * line, a KASAN report in a function, an oops in a function.  Its title
 * follows the convention crash dashboards use ("WARNING in foo",
 * "KASAN: use-after-free Read in bar", "general protection fault in baz"),
 * the function being the guilty one: the first frame of the report that is
 * not a generic helper of common/frames.def.  Everything that differs
 * between two hosts or two boots of the same bug (offsets, addresses, CPU
 * and PID numbers, compiler suffixes, module build ids, time stamps) is
 * left out of it.
 *
 * Feed the log with ol_sites_line(), oldest first, each line as dmesg,
 * vmcore-dmesg or crash's "log" prints it (time stamp and caller id
 * included: "[   12.345678][ T1234] text"; the caller id keeps two CPUs'
 * interleaved reports apart), then call ol_sites_done().  Plain C, no
 * allocation; tests/unit/sites-test.c.
 */
#ifndef OOPSLIMIT_SITES_H
#define OOPSLIMIT_SITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OL_SITES 32		/* distinct sites kept; events of others are counted */
#define OL_SITE_TITLE 160
#define OL_SITE_WHERE 128
#define OL_SITE_NAME 64
#define OL_SITE_STREAMS 16	/* reports open at once, one per caller id */
#define OL_SITE_ORIGINS 8	/* warning origins told apart for the deciding report */

/* Kinds of report, for what decided a panic. */
enum ol_site_class {
	OL_CLASS_WARNING,	/* counts in warn_count (check_panic_on_warn()) */
	OL_CLASS_OOPS,		/* counts in oops_count (make_task_dead()) */
	OL_CLASS_LOCKDEP,
	OL_CLASS_RCU,
	OL_CLASS_SOFTLOCKUP,
	OL_CLASS_HARDLOCKUP,
	OL_CLASS_HUNG_TASK,
	OL_CLASS_OTHER,
	OL_NCLASSES
};

struct ol_site {
	char title[OL_SITE_TITLE];	/* "WARNING in foo_xmit" */
	char where[OL_SITE_WHERE];	/* FILE:LINE as printed, "" when not */
	char func[OL_SITE_NAME];	/* the guilty function, "" when none was named */
	char module[OL_SITE_NAME];	/* its module, "" for the kernel itself */
	const char *origin;		/* WARN, UBSAN, KASAN, KFENCE, KCSAN, scheduling while atomic,
					   lockdep, RCU, softlockup, hardlockup, hung_task, might_sleep,
					   BUG, GPF, page fault, oops */
	const char *counts;		/* "warn_count", "oops_count", or NULL: the counter an
					   event of this origin increments (a kernel with the limit
					   series, 6.2 and the stable lines it went to) */
	enum ol_site_class class;
	unsigned long count;		/* its reports before the panic line */
	unsigned long after_panic;	/* and after it: they decided nothing */
	uint64_t first_us, last_us;	/* printk time of the first and last, microseconds */
	bool have_time;
};

/* One report being read: its header seen, its trace still coming. */
struct ol_site_event {
	bool open;
	char stream[16];		/* caller id ("T123", "C1"), "" without one */
	unsigned long seq;		/* order of the headers */
	const char *origin, *counts, *label;
	enum ol_site_class class;
	bool gathers;			/* other CPUs' backtraces belong to it (stalls) */
	bool have_header;		/* an oops: its "...: 0000 [#N]" line was seen */
	bool in_trace;
	bool muted;			/* in a stretch whose frames are not the culprit's */
	bool after_panic;
	unsigned long lines;
	char what[OL_SITE_TITLE];	/* the kind the header names: "use-after-free" */
	char access[8];			/* KASAN: Read, Write */
	char where[OL_SITE_WHERE];
	char func[OL_SITE_NAME], module[OL_SITE_NAME];	/* the guilty frame so far */
	char first[OL_SITE_NAME], first_module[OL_SITE_NAME];	/* the first frame, helper or not */
	uint64_t time_us;
	bool have_time;
};

struct ol_sites {
	struct ol_site site[OL_SITES];
	unsigned int n;
	unsigned long events;		/* reports seen */
	unsigned long dropped;		/* of those, of sites past OL_SITES */
	unsigned long counted[2];	/* reports before the panic that count in warn_count, oops_count */
	bool panicked;			/* the panic line was seen */
	/* the site of the last report of each class before the panic line, -1 none */
	int last[OL_NCLASSES];
	unsigned long last_seq[OL_NCLASSES];
	/* the same for warnings by origin (sites.c's table of origins) */
	int last_origin[OL_SITE_ORIGINS];
	unsigned long last_origin_seq[OL_SITE_ORIGINS];
	/* reading state */
	struct ol_site_event ev[OL_SITE_STREAMS];
	char stream[16];		/* the caller id of the line before */
	unsigned long seq;
};

void ol_sites_init(struct ol_sites *s);
void ol_sites_line(struct ol_sites *s, const char *line);
void ol_sites_done(struct ol_sites *s);

/*
 * Why s, filled by another process (the recorder's reading child), is not
 * fit to use, or NULL when it is: every count within its array, every
 * string terminated, every pointer one of sites.c's own strings.
 */
const char *ol_sites_valid(const struct ol_sites *s);

/*
 * The site of the report that decided a panic of this reason (panics.def's
 * reason; origin the warning origin its message names, "kernel", "UBSAN",
 * or "" when none): the last report of the kind that reason counts or
 * panics on, before the panic line.  NULL when the reason is not decided by
 * a report, or the log no longer shows it.
 */
const struct ol_site *ol_sites_deciding(const struct ol_sites *s, const char *reason, const char *origin);

/* "warn_limit: WARNING in foo", or the reason alone without a deciding site. */
void ol_signature(char *buf, size_t len, const char *reason, const struct ol_site *decider);

/*
 * How the events that count in counter ("warn_count", "oops_count") were
 * spent, most first: "2x WARNING in foo (drivers/x.c:10), 1x UBSAN: ... in
 * bar".  Returns how many events the log shows counted.
 */
unsigned long ol_sites_budget(const struct ol_sites *s, const char *counter, char *buf, size_t len);

/*
 * A function name as a frame prints it ("foo.isra.0+0x12/0x40 [mod]"),
 * without offset, size, module and compiler suffixes: "foo".  Exposed for
 * the tests.
 */
void ol_site_function(const char *s, size_t n, char *out, size_t out_len);

/* Whether name is a generic helper of common/frames.def. */
bool ol_site_generic(const char *name);

#endif
