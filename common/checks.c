// SPDX-License-Identifier: GPL-2.0
/*
 * The cross-checks of a report: values out of their range, a log that
 * contradicts the counters, settings changed since oopslimit-kdump applied
 * them.  A value that fails is rejected with a note (ol_report_check).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "report-int.h"

static void reject(struct ol_report *r, enum ol_var_id id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void reject(struct ol_report *r, enum ol_var_id id, const char *fmt, ...)
{
	struct ol_var *v = &r->var[id];
	char why[OL_NOTE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	ol_note(r, "%s: %llu read, not used: %s", ol_vars[id].key, (unsigned long long)v->value, why);
	v->read = false;
	v->rejected = true;
}

/* A value read from the dump (not implied by the log), still trusted. */
static bool checkable(const struct ol_report *r, enum ol_var_id id)
{
	return r->var[id].read && r->var[id].source != OL_SRC_LOG;
}

/* vars.def's range: false with why when the value cannot be the variable's. */
static bool in_range(enum ol_var_id id, uint64_t v, char *why, size_t len)
{
	const struct ol_range *rg = &ol_vars[id].range;

	if (rg->kind == OL_R_TAINTS && (v & ~rg->max)) {
		snprintf(why, len, "bits 0x%llx are no taint flag", (unsigned long long)(v & ~rg->max));
		return false;
	}
	if (rg->kind == OL_R_MAX && v > rg->max) {
		if (rg->max == 1)
			snprintf(why, len, "it is 0 or 1");
		else
			snprintf(why, len, "it is at most %llu", rg->max);
		return false;
	}
	return true;
}

/* The counts against the log: what it shows happened, and the limit its panic message printed. */
static void check_log(struct ol_report *r)
{
	const struct ol_log *log = &r->log;
	uint64_t lo, v;
	int i;

	if (r->live || !r->log_read || r->log_unreliable)
		return;
	/*
	 * __die() numbers every oops since boot ("[#N]"), and every oops but
	 * one that panics (panic_on_oops, in interrupt) goes on to count in
	 * make_task_dead(); a second CPU's oops may be cut short by the panic.
	 */
	if (checkable(r, OL_V_OOPS_COUNT)) {
		v = r->var[OL_V_OOPS_COUNT].value;
		if (log->oopses && v > log->last_die)
			reject(r, OL_V_OOPS_COUNT, "the log's last oops is [#%lu]", log->last_die);
		else if (log->oopses && v + 2 < log->last_die)
			reject(r, OL_V_OOPS_COUNT, "the log shows oops [#%lu]", log->last_die);
		else if (!log->oopses && !r->log_wrapped && v)
			reject(r, OL_V_OOPS_COUNT, "the whole log since boot has no oops");
	}
	/*
	 * Every warning report counts in check_panic_on_warn() but one that
	 * panics there, KASAN's in multi-shot mode, and one cut short by the
	 * panic; a log that starts at boot shows every one that counted.
	 */
	if (checkable(r, OL_V_WARN_COUNT)) {
		v = r->var[OL_V_WARN_COUNT].value;
		lo = log->warnings > log->kasan + 2 ? log->warnings - log->kasan - 2 : 0;
		if (v < lo)
			reject(r, OL_V_WARN_COUNT, "the log shows %lu warnings", log->warnings);
		else if (!r->log_wrapped && v > log->warnings)
			reject(r, OL_V_WARN_COUNT, "the whole log since boot shows %lu warning%s", log->warnings,
			       log->warnings == 1 ? "" : "s");
	}
	/* taint is never cleared: the mask holds every flag the log showed set */
	if (checkable(r, OL_V_TAINTED_MASK) &&
	    (r->var[OL_V_TAINTED_MASK].value & log->taint_seen) != log->taint_seen) {
		char letters[OL_TAINT_BITS + 1];

		ol_taint_letters(log->taint_seen & ~r->var[OL_V_TAINTED_MASK].value, letters, sizeof(letters));
		reject(r, OL_V_TAINTED_MASK, "the log showed the kernel tainted %s", letters);
	}
	/* the limit that panicked is the one the message printed, and its count reached it */
	for (i = 0; i < 2 && log->have_limit; i++) {
		enum ol_var_id limit = i ? OL_V_WARN_LIMIT : OL_V_OOPS_LIMIT;
		enum ol_var_id count = i ? OL_V_WARN_COUNT : OL_V_OOPS_COUNT;

		enum ol_var_id other = i ? OL_V_OOPS_LIMIT : OL_V_WARN_LIMIT;

		if (log->setting != limit)
			continue;
		if (checkable(r, limit) && r->var[limit].value != log->limit) {
			reject(r, limit, "the panic message says %s is %lu", ol_vars[limit].sysctl, log->limit);
			/* the other limit holding this one's value: their addresses are exchanged */
			if (checkable(r, other) && r->var[other].value == log->limit)
				reject(r, other, "it holds the %s the panic message gives, which %s lacks",
				       ol_vars[limit].key, ol_vars[limit].key);
		}
		if (checkable(r, count) && r->var[count].value < log->limit)
			reject(r, count, "the panic message says it reached %s %lu", ol_vars[limit].key,
			       log->limit);
	}
}

void ol_report_check(struct ol_report *r)
{
	bool bad[OL_NVARS] = { false };
	char why[OL_NOTE];
	int i, j;

	if (r->memory_damaged) {
		/* one note: the counters first, as vars.def lists them */
		char names[OL_NOTE];
		size_t len = 0;

		names[0] = '\0';
		for (i = 0; i < OL_NVARS; i++) {
			if (!checkable(r, (enum ol_var_id)i))
				continue;
			if (len < sizeof(names))
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "",
							ol_vars[i].key);
			r->var[i].read = false;
			r->var[i].rejected = true;
		}
		if (names[0])
			ol_note(r, "not used, the dump's pages not being what they should (its own log does "
				"not decode): %s", names);
	}
	for (i = 0; i < OL_NVARS; i++) {
		if (!checkable(r, (enum ol_var_id)i) ||
		    in_range((enum ol_var_id)i, r->var[i].value, why, sizeof(why)))
			continue;
		reject(r, (enum ol_var_id)i, "%s", why);
		bad[i] = true;
	}
	/* a value no variable can hold: its page is damaged, and every value on it suspect */
	for (i = 0; i < OL_NVARS; i++) {
		for (j = 0; j < OL_NVARS && bad[i]; j++) {
			if (j == i || !checkable(r, (enum ol_var_id)j) ||
			    r->var[j].addr >> 12 != r->var[i].addr >> 12)
				continue;
			reject(r, (enum ol_var_id)j, "it shares its page with %s, whose value is impossible",
			       ol_vars[i].key);
		}
	}
	check_log(r);
	if (!ol_have(r, OL_V_TAINTED_MASK))
		r->have_taint = false;
	/*
	 * A setting other than the one applied: changed at run time, or read
	 * from a damaged page; only the panic message printing it tells which.
	 */
	for (i = 0; i < OL_NVARS; i++) {
		if (!ol_report_drift(r, (enum ol_var_id)i) ||
		    (r->log.have_limit && r->log.setting == i && r->log.limit == r->var[i].value))
			continue;
		ol_note(r, "%s: %llu in the dump, %llu as oopslimit-kdump applied it: changed at run time, "
			"or the dump is damaged there", ol_vars[i].key, (unsigned long long)r->var[i].value,
			r->log.policy[i]);
	}
}
