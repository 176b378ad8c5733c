/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One report of one dump: what oopslimit knows about why a kernel panicked.
 *
 * Every reader fills the same struct and hands it to the same judging and
 * the same writers: the capture-side recorder (recorder/oopslimit-reason.c,
 * libkdumpfile) and the crash extension (crash-ext/oopslimit.c, crash's
 * readmem).  A reader fills in
 *   - the kernel's identity (release, live or not, CRASHTIME),
 *   - each variable of vars.def: found where, read or not, its value,
 *   - the kernel log, one line at a time through ol_report_log_line(),
 *   - for a capture, the capture record,
 * then calls ol_report_judge() and one of the writers.  The JSON document
 * is described in common/report.schema.json (its "schema" member is
 * OL_SCHEMA); two readers of one dump write the same members with the same
 * values, except the reader-specific ones the schema names.
 *
 * Plain C with no dump access, unit-tested without a dump
 * (tests/unit/report-test.c).
 */
#ifndef OOPSLIMIT_REPORT_H
#define OOPSLIMIT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"
#include "sites.h"
#include "verdict.h"

#define OL_SCHEMA 4
#define OL_VERSION "2.0"

/* How a reader found a variable's address. */
enum ol_source {
	OL_SRC_NONE,
	OL_SRC_DEBUGINFO,	/* the vmlinux's symbol table */
	OL_SRC_VMCOREINFO,	/* a SYMBOL() line of the dump's VMCOREINFO */
	OL_SRC_VMCOREINFO_MEM,	/* the same, from the kernel's own copy in its memory */
	OL_SRC_KALLSYMS,	/* the dump's own kallsyms tables */
	OL_SRC_LOG,		/* no address: the value the log implies */
};
const char *ol_source_name(enum ol_source src);

/* One variable: where it is (lookup) and what it holds (read). */
struct ol_var {
	bool found;		/* its address is known */
	bool read;		/* and its value was read there (or, OL_SRC_LOG, implied) */
	uint64_t addr;
	uint64_t value;
	enum ol_source source;
	char how[96];		/* how it was found, for people: "exit.c, VMCOREINFO agrees" */
	bool rejected;		/* its lookups disagree, or its value failed a check
				   (ol_report_check): null, a note says why */
};

/* One way a reader found a variable's address, for ol_var_locate(). */
struct ol_lookup {
	enum ol_source source;
	uint64_t addr;
	char how[64];		/* "exit.c", "SYMBOL(oops_count) in VMCOREINFO" */
};

#define OL_REMOVED 16

/* What saving the dump did: the recorder in the capture kernel knows. */
struct ol_capture {
	bool present;
	char status[24];	/* complete, failed, in progress */
	char dump_file[128];	/* its base name */
	long long dump_bytes;	/* -1 unknown */
	bool have_exit;
	long collector_exit;
	bool have_seconds;
	double seconds;
	char time[40];		/* the capture kernel's clock, UTC */
	char error[256];
	char warning[256];	/* the collector's warning, on a capture it completed */
	char target[192];	/* where the dump went: FSTYPE:SOURCE and directory */
	char failure_action[16];/* reboot, poweroff, fallback: taken as the target failed */
	int n_removed;		/* old dump directories retention removed */
	char removed[OL_REMOVED][32];
	char collector_version[32];	/* makedumpfile -v's, "" unknown */
	/* what the dump holds against what the kernel used (ol_pages_judge) */
	bool have_pages;	/* the saved dump's bitmaps were read */
	uint64_t ram_pages;	/* the memory the dumped kernel had (1st bitmap) */
	uint64_t saved_pages;	/* pages saved with their data (2nd bitmap, not zeros) */
	bool have_free;		/* the kernel's own count was read */
	uint64_t free_pages;	/* vm_zone_stat[NR_FREE_PAGES] at the panic */
};

#define OL_NOTES 16
#define OL_NOTE 192

struct ol_report {
	/* the reader */
	const char *program;	/* "oopslimit-reason", "crash oopslimit" */
	char log_from[64];	/* "vmcore-dmesg.txt", "crash log", "printk ring buffer" */

	/* the kernel */
	char release[65];
	bool live;		/* a running kernel: no verdict */
	bool crashed;		/* VMCOREINFO has CRASHTIME: a capture taken at a crash */
	bool no_memory;		/* no dump at all, a log alone (a pstore record): every
				   variable is unknown, not absent from the kernel */
	uint64_t crash_time;	/* its value, seconds since the epoch */

	struct ol_var var[OL_NVARS];
	bool symbols_mismatch;	/* the reader's symbol file does not fit the dump (a note
				   says how): no address from it is used */
	bool memory_damaged;	/* the dump's own log read but did not decode: its pages
				   hold what they cannot (a damaged page bitmap), so no
				   value read from it is a fact */
	char taint[40];		/* letters of the set taint bits, from the dump's table if read */
	bool have_taint;

	/* the log */
	bool log_read;		/* some of it could be read */
	bool log_unreliable;	/* it did not decode cleanly: no verdict from it */
	char log_trouble[OL_TEXT];	/* why, when log_unreliable or not log_read */
	bool log_wrapped;	/* its start (the boot banner) is overwritten */
	char log_start[24];	/* time stamp of the oldest line left */
	size_t log_indent;	/* (ol_report_log_line's state) */
	struct ol_log log;
	struct ol_sites sites;	/* the log's warning and oops sites (sites.h) */

	/* the verdict: ol_report_judge() */
	const char *reason;	/* ol_reason_name(), "unknown", NULL when live */
	enum ol_var_id setting;	/* the variable of the setting that panicked, or OL_V_NONE */
	char detail[OL_TEXT];	/* for other and unknown: what, or why not known */
	int consistent;		/* 1 the dump confirms it, 0 contradicts it, -1 cannot tell */
	char evidence[OL_TEXT];	/* what was checked, or why nothing could be */
	char signature[OL_SITE_TITLE + 48];	/* the reason and the deciding report's title
						   ("warn_limit: WARNING in foo"), "" when live */

	char dump_error[OL_TEXT];	/* why the dump (or part of it) could not be read */
	struct ol_capture capture;

	char notes[OL_NOTES][OL_NOTE];
	unsigned int n_notes;
};

void ol_report_init(struct ol_report *r, const char *program);

/* Adds a note (printf format); notes past OL_NOTES are counted in the last. */
void ol_note(struct ol_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Where variable id is, from the n ways the reader found it (in the order it
 * trusts them; debuginfo ones are dropped when symbols_mismatch is set).
 * One lookup, or lookups that agree: found there.  Lookups that disagree:
 * the address most of them give when only one dissents from at least two
 * (the dissent is a note), else none is trusted: rejected, with a note.
 * The reader then reads the value at v->addr when v->found.
 */
void ol_var_locate(struct ol_report *r, enum ol_var_id id, const struct ol_lookup *l, size_t n);

/*
 * The checks a value must pass before it is reported as fact: its range
 * (vars.def), the log (oopses and warnings seen, the limit the panic message
 * printed), and its page (a value on the page of one that failed is not
 * trusted either).  A value that fails is rejected: null, with a note.
 * ol_report_judge() calls it first; call it directly only to test it.
 */
void ol_report_check(struct ol_report *r);

/*
 * Feeds one line of the kernel log, oldest first, as dmesg, vmcore-dmesg or
 * crash's "log" print it ("[    1.234567] text"; a line without a stamp
 * continues the record before it, indented by the stamp's width).  The first
 * line decides whether the log wrapped.
 */
void ol_report_log_line(struct ol_report *r, const char *line);

/* True when the kernel shows no trace of the oops/warn limit series. */
bool ol_report_no_limits(const struct ol_report *r);

/*
 * Headroom of a limit: how many more events until the one that panics.  0
 * when the limit is reached; false when the limit is 0 (disabled).
 */
bool ol_headroom(uint64_t count, uint64_t limit, uint64_t *headroom);

/*
 * Letters of the taint bits set in mask, in bit order, from OL_TAINT_LETTERS
 * (vars.h), for when the dump's own taint_flags cannot be read.  Bits beyond
 * the table print as '?'.
 */
void ol_taint_letters(uint64_t mask, char *buf, size_t len);

/*
 * Whether the setting id differs in the dump from the value oopslimit-kdump
 * applied (the log's policy line): someone changed it at run time.  A
 * setting the kernel clears on its way to a panic does not count.
 */
bool ol_report_drift(const struct ol_report *r, enum ol_var_id id);

/*
 * The verdict from the log and the variables: sets reason, setting, detail,
 * consistent and evidence.  Call once everything is filled in.
 */
void ol_report_judge(struct ol_report *r);

/*
 * Whether the capture left free pages out, from the dump itself: the pages
 * saved against those the kernel used (its memory less what it counted
 * free), allowing OL_PAGES_MARGIN(ram) for counts that lag (per-CPU
 * differences not yet folded in).  1: at most that many pages are saved,
 * 0: more (free pages kept), -1: unknown (no counts).  *margin gets the
 * allowance in pages.
 */
#define OL_PAGES_MARGIN(ram) ((ram) / 64 + 1024)
int ol_pages_judge(const struct ol_capture *cap, uint64_t *margin);

/* The report as aligned "LABEL: value" lines; verbose adds where each variable was found. */
void ol_report_text(FILE *f, const struct ol_report *r, bool verbose);

/*
 * How a limit verdict's budget was spent: "3 of 3: 2x WARNING in foo
 * (drivers/x.c:10), 1x UBSAN: ... in bar", and for a log that no longer
 * holds them all, "N of LIMIT in the log: ...; M counted earlier are no
 * longer in the log".  False (buf empty) unless the verdict is oops_limit
 * or warn_limit and the log was read.
 */
bool ol_report_budget(const struct ol_report *r, char *buf, size_t len);

/*
 * Counted reports (of the verdict's counter) the log no longer shows: the
 * counter less the counted reports in the log; false when unknown (no
 * limit verdict, the counter not read).
 */
bool ol_report_not_in_log(const struct ol_report *r, uint64_t *n);

/* The SITES lines of the text, alone: crash's "oopslimit -s". */
void ol_report_sites_text(FILE *f, const struct ol_report *r);

/* The report as one JSON object (common/report.schema.json). */
void ol_report_json(FILE *f, const struct ol_report *r);

#endif
