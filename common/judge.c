// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict of a report: the log's panic classified (verdict.c) and
 * checked against the counters and settings the dump holds
 * (ol_report_judge).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "report-int.h"

static void set_evidence(struct ol_report *r, int consistent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_evidence(struct ol_report *r, int consistent, const char *fmt, ...)
{
	va_list ap;

	r->consistent = consistent;
	va_start(ap, fmt);
	vsnprintf(r->evidence, sizeof(r->evidence), fmt, ap);
	va_end(ap);
}

/* A *_limit verdict needs count >= limit > 0 and the limit the message printed. */
static void check_limit(struct ol_report *r, enum ol_var_id count_id, enum ol_var_id limit_id)
{
	const struct ol_var *c = &r->var[count_id], *l = &r->var[limit_id];
	const char *count = ol_vars[count_id].key, *limit = ol_vars[limit_id].key;

	if (!c->read || !l->read) {
		set_evidence(r, -1, "%s %s", !c->read ? count : limit,
			     (!c->read ? c : l)->rejected ? "is not trusted (see the notes)" : "could not be read");
		return;
	}
	if (c->source == OL_SRC_LOG || l->source == OL_SRC_LOG) {
		set_evidence(r, -1, "%s and %s were taken from the panic message itself", count, limit);
		return;
	}
	if (l->value == 0)
		set_evidence(r, 0, "%s is 0 (no limit), yet the kernel panicked on it", limit);
	else if (c->value < l->value)
		set_evidence(r, 0, "%s %llu is below %s %llu", count, (unsigned long long)c->value,
			     limit, (unsigned long long)l->value);
	else if (r->log.have_limit && r->log.limit != l->value)
		set_evidence(r, 0, "the message says %s %lu, the dump %llu", limit, r->log.limit,
			     (unsigned long long)l->value);
	else
		set_evidence(r, 1, "%s %llu reached %s %llu", count, (unsigned long long)c->value, limit,
			     (unsigned long long)l->value);
}

/*
 * A setting's path: the setting must be on, unless the kernel clears it on
 * the way (common/panics.def's comments say where).
 */
static void check_setting(struct ol_report *r)
{
	const struct ol_var *v = &r->var[r->setting];
	const struct ol_var *unrec = &r->var[OL_V_PANIC_ON_UNRECOVERED_NMI];
	const char *key = ol_vars[r->setting].key;

	if (v->rejected) {
		set_evidence(r, -1, "%s is not trusted (see the notes)", key);
	} else if (!v->found && !v->read) {
		set_evidence(r, -1, "this kernel has no %s", key);
	} else if (!v->read) {
		set_evidence(r, -1, "%s could not be read", key);
	} else if (r->setting == OL_V_PANIC_ON_WARN) {
		/* panic() clears it before anything else; it also panics before counting */
		set_evidence(r, -1, "panic() clears panic_on_warn (the dump has %llu): nothing to check",
			     (unsigned long long)v->value);
	} else if (r->setting == OL_V_PANIC_ON_TAINT) {
		set_evidence(r, -1, "add_taint() clears panic_on_taint before it panics (the dump has %llu): "
			     "nothing to check", (unsigned long long)v->value);
	} else if (r->setting == OL_V_UNKNOWN_NMI_PANIC && v->value == 0 && unrec->read && unrec->value) {
		/* unknown_nmi_error(): "if (unknown_nmi_panic || panic_on_unrecovered_nmi)" */
		set_evidence(r, 1, "unknown_nmi_panic is 0, panic_on_unrecovered_nmi %llu enables the path too",
			     (unsigned long long)unrec->value);
	} else if (v->value == 0) {
		set_evidence(r, 0, "%s is 0, yet the kernel took the path it enables", key);
	} else if (r->setting == OL_V_PANIC_ON_OOM && r->log.have_panic &&
		   (strstr(r->log.panic, "system-wide") ? v->value != 1 : v->value != 2)) {
		/* check_panic_on_oom(): 2 panics on every OOM ("compulsory"), 1 on a system-wide one */
		set_evidence(r, 0, "the message says %s, the dump has panic_on_oom %llu",
			     strstr(r->log.panic, "system-wide") ? "system-wide (1)" : "compulsory (2)",
			     (unsigned long long)v->value);
	} else {
		set_evidence(r, 1, "%s is %llu", key, (unsigned long long)v->value);
	}
}

static void judge(struct ol_report *r)
{
	struct ol_log *log = &r->log;
	int pov;

	/* a log without a dump (pstore, -l alone) still names its kernel */
	if (!r->release[0] && log->release[0])
		snprintf(r->release, sizeof(r->release), "%s", log->release);
	ol_report_check(r);
	pov = ol_have(r, OL_V_PANIC_ON_OOPS) ? (int)r->var[OL_V_PANIC_ON_OOPS].value : -1;
	r->setting = OL_V_NONE;
	r->detail[0] = '\0';
	set_evidence(r, -1, "%s", "");
	if (r->live) {
		r->reason = NULL;
		set_evidence(r, -1, "a running kernel: no verdict");
		return;
	}
	if (!r->log_read || r->log_unreliable) {
		/* why, in this reader's words, is a note (log_trouble) */
		r->reason = "unknown";
		snprintf(r->detail, sizeof(r->detail), "%s", r->log_read ?
			 "the kernel log does not decode reliably" : "no kernel log could be read");
		set_evidence(r, -1, "the verdict comes from the log, and the log could not be used");
		return;
	}
	if (!log->have_panic && r->crashed && !ol_log_crashed(log, pov)) {
		r->reason = "unknown";
		snprintf(r->detail, sizeof(r->detail), "%s", log->last_is_oops ?
			 "a capture at an oops in a task, yet panic_on_oops is 0" :
			 "a capture taken at a crash, yet the log has no panic message and does not end in an oops");
		set_evidence(r, -1, "nothing says which path entered kdump");
		return;
	}
	r->reason = log->reason;
	r->setting = log->setting;
	snprintf(r->detail, sizeof(r->detail), "%s", log->detail);
	if (strcmp(r->reason, OL_NO_PANIC) == 0)
		set_evidence(r, -1, "the log has no panic message%s", r->crashed ? "" :
			     " and the dump was not taken at a crash");
	else if (strcmp(r->reason, OL_OTHER) == 0)
		set_evidence(r, -1, "no known panic path: nothing to check");
	else if (r->setting == OL_V_OOPS_LIMIT)
		check_limit(r, OL_V_OOPS_COUNT, OL_V_OOPS_LIMIT);
	else if (r->setting == OL_V_WARN_LIMIT)
		check_limit(r, OL_V_WARN_COUNT, OL_V_WARN_LIMIT);
	else if (r->setting != OL_V_NONE)
		check_setting(r);
	else
		set_evidence(r, -1, "no setting in the dump enables this path: nothing to check");
}

void ol_report_judge(struct ol_report *r)
{
	ol_sites_done(&r->sites);
	judge(r);
	/* the bucket: the reason and the report that decided it (sites-decide.c) */
	r->signature[0] = '\0';
	if (r->reason)
		ol_signature(r->signature, sizeof(r->signature), r->reason,
			     ol_sites_deciding(&r->sites, r->reason, r->log.origin));
}

int ol_pages_judge(const struct ol_capture *cap, uint64_t *margin)
{
	uint64_t used;

	*margin = OL_PAGES_MARGIN(cap->ram_pages);
	if (!cap->have_pages || !cap->have_free || cap->free_pages > cap->ram_pages)
		return -1;
	used = cap->ram_pages - cap->free_pages;
	return cap->saved_pages <= used + *margin;
}
