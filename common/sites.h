/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The warning and oops sites of one kernel log, and the signature a fleet
 * buckets panics by.
 *
 * A site is one place in the kernel that reported: a WARN() at a file and
 * line, a KASAN report in a function, an oops in a function.  Its title
 * is the kernel community's ("WARNING in foo", "WARNING: refcount bug in
 * foo", "KASAN: use-after-free Read in bar", "INFO: rcu detected stall in
 * sys_futex"): the kind of report from common/reports.def, and the guilty
 * function by that row's rule (sites-frames.c: common/frames.def's generic
 * helpers walked past, common/entries.def's entry points for stalls), or
 * "corrupted" when the report lost the frames that would name it.
 * Everything that differs between two hosts or two boots of the same bug
 * (offsets, addresses, CPU and PID numbers, compiler suffixes, module build
 * ids, time stamps) is left out of it.
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

#include "shapes.h"

#define OL_SITES 32		/* distinct sites kept; events of others are counted */
#define OL_SITE_TITLE 160
#define OL_SITE_WHERE 128
#define OL_SITE_NAME 64
#define OL_SITE_STREAMS 16	/* reports open at once, one per caller id */
#define OL_SITE_ORIGINS 8	/* warning origins told apart for the deciding report */
#define OL_SITE_FRAMES 12	/* frames a site keeps of its first report, for re-titling */
#define OL_EVENT_FRAMES 48	/* frames of one report read for its guilty frame */
#define OL_SITE_CORRUPTED "corrupted"	/* the function of a report that lost its frames */

/*
 * The version of the titles: what the shapes of reports.def, the frames of
 * frames.def and entries.def and the rules of sites-frames.c make of a
 * report.  A fleet summary that finds reports of an older version can
 * title them again from their frames.  1: the titles before report shapes
 * (until schema 3); 2: reports.def, entries.def, corrupted reports.
 */
#define OL_SIGNATURE_VERSION 2

struct ol_site {
	char title[OL_SITE_TITLE];	/* "WARNING in foo_xmit" */
	char where[OL_SITE_WHERE];	/* FILE:LINE as printed, "" when not */
	char func[OL_SITE_NAME];	/* the guilty function, "" when none was named */
	char module[OL_SITE_NAME];	/* its module, "" for the kernel itself */
	const char *origin;		/* reports.def's origin: WARN, UBSAN, KASAN, lockdep, RCU, ... */
	const char *counts;		/* "warn_count", "oops_count", or NULL: the counter an
					   event of this origin increments (a kernel with the limit
					   series, 6.2 and the stable lines it went to) */
	enum ol_site_class class;
	bool corrupted;			/* the report lost the frames its title needs */
	unsigned int nframes;
	char frames[OL_SITE_FRAMES][OL_SITE_NAME];	/* its first report's top frames, as read */
	unsigned long count;		/* its reports before the panic line */
	unsigned long after_panic;	/* and after it: they decided nothing */
	uint64_t first_us, last_us;	/* printk time of the first and last, microseconds */
	bool have_time;
};

/* A frame of a report being read. */
enum ol_frame_kind {
	OL_FK_TRACE,	/* a line of a trace */
	OL_FK_RIP,	/* the interrupted or faulting instruction: RIP:, pc :, IP: */
	OL_FK_AT,	/* lockdep's "..., at: FUNCTION" */
};

struct ol_event_frame {
	char name[OL_SITE_NAME];
	char module[32];
	enum ol_frame_kind kind;
};

/* One report being read: its header seen, its trace still coming. */
struct ol_site_event {
	bool open;
	char stream[16];		/* caller id ("T123", "C1"), "" without one */
	unsigned long seq;		/* order of the headers */
	int shape;			/* its row of reports.def */
	bool have_header;		/* an oops: its "...: 0000 [#N]" line was seen */
	bool in_trace;
	bool muted;			/* in a stretch whose frames are not the culprit's */
	bool frames_done;		/* past the first trace (KASAN's "Allocated by task") */
	bool after_panic;
	unsigned long lines;
	char what[OL_SITE_TITLE];	/* the title's words: "KASAN: use-after-free" */
	char access[8];			/* KASAN: Read, Write */
	char where[OL_SITE_WHERE];
	char header[OL_SITE_NAME], header_module[32];	/* the function the header names */
	unsigned int nframes;
	struct ol_event_frame frames[OL_EVENT_FRAMES];
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
	/* the site of the first and the last report of each class before the panic line, -1 none */
	int first[OL_NCLASSES], last[OL_NCLASSES];
	unsigned long first_seq[OL_NCLASSES], last_seq[OL_NCLASSES];
	/* the same for warnings by origin (reports.def's warn origins) */
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
