/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report shapes of common/reports.def: every header the kernel prints
 * for a bug, with its title, origin, counter and where its guilty frame
 * comes from.  The log scanner (verdict.c) and the sites (sites.c) read
 * this one table.
 */
#ifndef OOPSLIMIT_SHAPES_H
#define OOPSLIMIT_SHAPES_H

#include <stdbool.h>
#include <stddef.h>

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
	OL_CLASS_PANIC,		/* a panic that is its own report (stack-protector, double fault) */
	OL_NCLASSES
};

enum ol_shape_at { OL_START, OL_ANYWHERE, OL_DIE };

/* where a report's guilty frame comes from (reports.def) */
enum ol_guilty { OL_G_HEADER, OL_G_FRAMES, OL_G_STALL, OL_G_HUNG, OL_G_LOCK, OL_G_NONE };

#define OL_F_WORDS 0x01u
#define OL_F_ACCESS 0x02u
#define OL_F_PLACE 0x04u
#define OL_F_GATHERS 0x08u
#define OL_F_WARN 0x10u
#define OL_F_BARE 0x20u
#define OL_F_DIE 0x40u

struct ol_shape {
	const char *text;
	enum ol_shape_at at;
	const char *cond;	/* "a|b": one must be in the header, or NULL */
	const char *title;
	const char *origin;
	const char *warn;	/* check_panic_on_warn()'s origin, or NULL */
	enum ol_site_class cls;
	enum ol_guilty guilty;
	const char *skip;	/* "a|b": the checker's own frames, or NULL */
	unsigned int flags;
};

extern const struct ol_shape ol_shapes[];
extern const size_t ol_nshapes;

/*
 * The first row after from whose text and condition match the header s
 * (len bytes, stamps removed) at its at; -1 when none.  For OL_DIE rows, s
 * is the oops header's own string.  Rows flagged OL_F_WARN are the
 * caller's to check against the scanner.
 */
int ol_shape_find(const char *s, size_t len, enum ol_shape_at at, size_t from);

/* Whether one of the '|'-separated words of list is in s (len bytes). */
bool ol_shape_any(const char *list, const char *s, size_t len);

#endif
