// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's parts, one a job, for its main program (oopslimit-reason.c:
 * the command line, the log and the output files):
 *   reason-dump.c     reading a dump (also for the fuzzer that feeds it
 *                     VMCOREINFO notes)
 *   reason-pstore.c   --pstore: a pstore record instead of a dump
 *   reason-capture.c  --capture and its options: how saving the dump went
 *   reason-query.c    --settings and --get: questions that read no dump
 */
#ifndef OOPSLIMIT_REASON_H
#define OOPSLIMIT_REASON_H

#include <stdbool.h>

#include "../common/report.h"
#include "dump.h"

/*
 * Opens the dump at path and fills r's variables, release and crash time
 * from it: the dump, or NULL with r->dump_error saying why.
 */
struct ol_dump *reason_read_dump(const char *path, struct ol_report *r);
/* Feeds the dump's printk ring buffer to r as its log, when it has one. */
void reason_read_ring(struct ol_dump *d, struct ol_report *r);
/*
 * The two above in a child process (with the ring when ring is set), so
 * that a dump that kills its reader, or stalls it past
 * OOPSLIMIT_READ_SECONDS (300 s), costs its facts, not the report: true
 * when the dump was opened; r->dump_error says what went wrong.
 */
bool reason_read_dump_apart(const char *path, struct ol_report *r, bool ring);

/* "oopslimit-reason: " and the message on standard error. */
void reason_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A file of a dump directory is named without it: the directory moves. */
const char *reason_base_name(const char *path);
/* A whole decimal number in s. */
bool reason_parse_long(const char *s, long *out);

/*
 * Reads the parts of one pstore record into r (reason-pstore.c): 0 when
 * they were read or the trouble is in r->log_trouble, 2 on bad usage, 4
 * when the record was not written at a panic (said on standard error).
 */
int reason_read_pstore(struct ol_report *r, char **paths, int n);

/* The capture options as they are taken (reason-capture.c). */
struct reason_capture {
	struct ol_capture *cap;
	const char *dump;	/* --dump */
	long dump_size;		/* --dump-size, or -1 */
	int removed_more;	/* --removed names past what the report holds */
	const char *collector_note[4];	/* --collector-note, for the report's notes */
	int n_collector_note;
};
/* 1 when opt (its getopt value) is a capture option, taken; 0 when it is
 * not one; -1 on a bad value (said). */
int reason_capture_option(struct reason_capture *rc, int opt, const char *arg);
/* Whether any capture option was given. */
bool reason_capture_any(const struct reason_capture *rc);
/* False (said) when capture options came without --capture. */
bool reason_capture_check(const struct reason_capture *rc);
/* The notes of the capture: removed dumps the report could not name, and
 * what the project knows of the collector on this kernel (--collector-note). */
void reason_capture_note(struct ol_report *r, const struct reason_capture *rc);
/*
 * The dump's size (--dump-size, else the --dump file's) and, for a complete
 * capture saved here, its pages: saved against what the kernel used.
 */
void reason_capture_size(struct ol_report *r, const struct reason_capture *rc);

/* --settings: "KEY SYSCTL" of each panic setting of vars.def (reason-query.c). */
int reason_settings(void);
/* Whether member is a name --get takes: KEY or OBJECT.KEY. */
bool reason_member_name(const char *member);
/*
 * --get: the value of each of the n members of the report at path ("-":
 * standard input), one a line, nothing for null, an object, an array or a
 * member that is not there; 0, or 1 (said) when path is no JSON report.
 */
int reason_get(const char *const *member, int n, const char *path);

#endif
