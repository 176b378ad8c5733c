/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of oopslimit-triage share: the strings (interned), the
 * records (one a report), the options, and each part's entry points.
 *   oopslimit-triage.c  the options, the order of the run
 *   triage-read.c       the strings, reading one report, the walk without an index
 *   triage-index.c      the index (SQLite): its schema, the run; triage-scan.c its walk
 *   triage-group.c      Debian's version order, --known, the groups
 *   triage-write.c      text, --json, --csv, --json-lines, the metrics
 */
#ifndef OOPSLIMIT_TRIAGE_H
#define OOPSLIMIT_TRIAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define PROG "oopslimit-triage"
#define NONE INT64_MIN		/* a member the report does not have */

/* ---- strings, interned (triage-read.c) ---- */
void *xrealloc(void *p, size_t n);
uint32_t intern(const char *s);	/* the same id for the same text; 0 is "" */
const char *str(uint32_t id);
size_t n_interned(void);

/* ---- one report ---- */
enum { C_OOPS_COUNT, C_OOPS_LIMIT, C_WARN_COUNT, C_WARN_LIMIT, N_COUNTERS };
extern const char *const counter_names[N_COUNTERS];

struct rec {
	int64_t time;			/* crash (else capture) time, s since the epoch; NONE */
	int64_t sigver;			/* signature_version; NONE */
	int64_t counters[N_COUNTERS];	/* NONE each when absent */
	int64_t rowid;			/* the index's row, 0 when read from the file */
	uint32_t root;			/* the PATH argument it was found under */
	uint32_t dump;			/* its directory relative to root; 0: ask the index */
	uint32_t host, signature, reason, release;
};

struct recs {
	struct rec *v;
	size_t n, cap;
	unsigned long skipped;
};
void recs_add(struct recs *r, const struct rec *x);

/*
 * Reads the report name in directory dir (shown as path); 0 and *out filled
 * (but root and dump) when it is an oopslimit report, else -1 and why.
 */
int read_report(int dir, const char *name, const char *path, struct rec *out, char *why, size_t why_len);
bool is_report_name(const char *name);
struct dirent;
/* A directory entry's type, from readdir or else from fstatat; -1 (errno) when neither says. */
int entry_type(int dir, const struct dirent *e, unsigned char *type);
/* The host of a report at rel (relative to its root): the directory above its own. */
uint32_t host_of(const char *root, const char *rel);
/* The directory of the report at rel, relative to its root ("." for one at the top). */
uint32_t dump_of(const char *rel);
/* The record's dump directory, relative to its root (from the index when it came from there). */
const char *rec_dump(const struct rec *x);
void skipped(struct recs *r, const char *path, const char *why);
/* Every report under root (a directory or one file), into r. */
void walk_root(const char *root, struct recs *r);

/* ---- the options ---- */
enum group_by { BY_SIGNATURE, BY_REASON, BY_RELEASE, BY_HOST };

struct opts {
	int format;			/* 't' text, 'j' JSON, 'c' CSV, 'l' JSON lines */
	enum group_by by;
	int64_t since, until;		/* the window [since, until); NONE: open */
	unsigned long top, samples;
	uint32_t reason, release, host;	/* filters; 0: none */
	const char *known, *index, *metrics, *output;
	bool rescan;
};

/* ---- the index (triage-index.c) ---- */
/*
 * Brings the index at o->index up to date with the roots and loads their
 * reports into r; the line says what it did.  -1 when it cannot be used at
 * all (r untouched): the caller reads the reports itself.
 */
int index_run(const struct opts *o, char *const *roots, int n_roots, struct recs *r, char *line, size_t len);
/* The dump directory of a record loaded from the index. */
const char *index_dump(const struct rec *x);
void index_close(void);

/* ---- the groups (triage-group.c) ---- */
int version_cmp(const char *a, const char *b);	/* dpkg --compare-versions */
int load_known(const char *path);		/* 0, or -1 with the error said */

struct release_count {
	uint32_t release;
	unsigned long n;
};

struct group {
	uint32_t key, known;		/* known: the URL, 0 none */
	unsigned long panics, previous, hosts;
	uint32_t first_release;		/* over every report of it, whatever the window */
	bool new;
	int64_t first, last;		/* in the window */
	struct release_count *releases;
	unsigned int n_releases;
	uint32_t reasons[8];
	unsigned int n_reasons;
	bool more_reasons;
	const struct rec **samples;	/* newest first */
	unsigned int n_samples;
};

struct summary {
	struct group *groups;
	size_t n_groups, shown;		/* shown: the first ones, --top */
	unsigned long reports, outside, skipped, filtered, hosts;
	unsigned long muted_groups, muted_panics;
	uint32_t newest;		/* the newest release seen, 0 none */
	bool has_window;
	const char *index_line;
};
void summarize(const struct opts *o, const struct recs *r, struct summary *s);
bool in_window(const struct opts *o, int64_t t);
bool passes(const struct opts *o, const struct rec *x);	/* --reason, --release, --host */
bool is_muted(const struct rec *x);			/* --known's mute */

/* ---- the writers (triage-write.c) ---- */
void iso(int64_t t, char *buf, size_t len);
void write_summary(FILE *f, const struct opts *o, const struct summary *s);
void write_lines(FILE *f, const struct opts *o, const struct recs *r);
void write_metrics(FILE *f, const struct opts *o, const struct summary *s);
const char *group_by_name(enum group_by by);

#endif
