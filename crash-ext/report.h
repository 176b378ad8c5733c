/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What "crash> oopslimit" found, and how it is printed (aligned text like
 * "sys", or one JSON object).  Filled in by oopslimit.c from the dump;
 * plain C with no crash calls, so tests/unit/crash-ext-report.c can print
 * made-up reports.  The judging itself is common/verdict.c.
 */
#ifndef OOPSLIMIT_REPORT_H
#define OOPSLIMIT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/verdict.h"

#define OLX_SOURCE 96
#define OLX_NOTE 192
#define OLX_NOTES 16

enum olx_var_id {
	OLX_OOPS_COUNT,
	OLX_OOPS_LIMIT,
	OLX_WARN_COUNT,
	OLX_WARN_LIMIT,
	OLX_PANIC_ON_OOPS,
	OLX_PANIC_ON_WARN,
	OLX_TAINTED_MASK,
	OLX_NVARS,
};

/* One kernel variable: where it is (lookup) and what it holds (read). */
struct olx_var {
	bool found;			/* its address is known */
	bool read;			/* and its value could be read there */
	unsigned long addr;
	unsigned long value;
	char source[OLX_SOURCE];	/* how the address was found, e.g. "exit.c" */
};

struct olx_report {
	bool live;			/* a running kernel: no verdict */
	struct olx_var var[OLX_NVARS];
	char taint[40];			/* letters of the set taint bits */
	bool have_taint;

	bool crashed;			/* VMCOREINFO has CRASHTIME: a kdump capture */
	unsigned long crash_time;	/* its value, seconds since the epoch */

	bool log_read;			/* the log could be read at all */
	bool log_wrapped;		/* its start (the boot banner) is overwritten */
	char log_start[24];		/* time stamp of the oldest line left, "12.345678" */
	struct ol_log log;

	bool consistent;
	char why[OL_TEXT];		/* when not consistent */

	char notes[OLX_NOTES][OLX_NOTE];	/* what could not be looked up or read */
	unsigned int n_notes;
};

/* The variable's name as the kernel spells it: "oops_count", ... */
const char *olx_var_name(enum olx_var_id id);

void olx_report_init(struct olx_report *r);

/* Adds a note (printf format); notes past OLX_NOTES are counted in the last. */
void olx_note(struct olx_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * True when the kernel shows no trace of the limits: none of oops_count,
 * oops_limit, warn_count, warn_limit was found.
 */
bool olx_no_limits(const struct olx_report *r);

/* Fills counters for ol_consistent() from what was read. */
void olx_counters(const struct olx_report *r, struct ol_counters *c);

/*
 * Whether the verdict can be checked against the counters: not for a live
 * system or an unreadable log, nor for a limit panic whose count or limit
 * could not be read.
 */
bool olx_checkable(const struct olx_report *r);

/* Sets r->consistent and r->why from the log and the counters. */
void olx_judge(struct olx_report *r);

/*
 * The verdict word: ol_reason_name() of the log's reason, "unknown" when
 * the log could not be read, NULL for a live system.
 */
const char *olx_verdict(const struct olx_report *r);

/*
 * Headroom of a limit: how many more events until the one that panics
 * (the kernel panics at the event that brings count to limit).  0 when the
 * limit is reached; false when the limit is 0 (disabled).
 */
bool olx_headroom(unsigned long count, unsigned long limit, unsigned long *headroom);

/*
 * Letters of the taint bits set in mask, in bit order, from Linux 6.1's
 * taint table ("PFSRMBUDAWCIOELKXTN"); used when the dump's own taint_flags
 * array cannot be read.  Bits beyond the table print as '?'.
 */
void olx_taint_letters(unsigned long mask, char *buf, size_t len);

/*
 * Splits a line of crash's log output, "[ 1234.567890] text", into its time
 * stamp (copied to stamp, "" when there is none) and the text, which is
 * returned.  A line without a stamp continues the record before it, which
 * crash indents by the stamp's width: up to *indent leading blanks go.  On
 * a stamped line *indent is set to the stamp's width.  The text is then
 * what crash prints with "log -t", which common/verdict.c expects.
 */
const char *olx_log_split(const char *line, char *stamp, size_t stamp_len, size_t *indent);

/* The report as aligned "LABEL: value" lines. verbose adds where each was found. */
void olx_print_text(FILE *f, const struct olx_report *r, bool verbose);

/* The report as one JSON object (keys documented in crash-ext/README.md). */
void olx_print_json(FILE *f, const struct olx_report *r);

#endif
