// SPDX-License-Identifier: GPL-2.0
/*
 * The one-screen text report (ol_report_text).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "report-int.h"

#define LABEL_WIDTH 13

static void label(FILE *f, const char *l)
{
	fprintf(f, "%*s: ", LABEL_WIDTH, l);
}

/* Log text may hold anything the kernel printed: print it safely. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f ? '?' : *s, f);
}

static void print_plain(FILE *f, const struct ol_report *r, enum ol_var_id id)
{
	const struct ol_var *v = &r->var[id];

	if (v->rejected)
		fprintf(f, "unknown (not trusted: see NOTE)");
	else if (!v->found && !v->read)
		fprintf(f, r->no_memory ? "unknown (no dump: a log alone)" : "not in this kernel");
	else if (!v->read)
		fprintf(f, "unreadable (at %llx)", (unsigned long long)v->addr);
	else
		fprintf(f, "%llu", (unsigned long long)v->value);
}

/* 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st */
static const char *ordinal(uint64_t n)
{
	if (n % 100 >= 11 && n % 100 <= 13)
		return "th";
	switch (n % 10) {
	case 1:
		return "st";
	case 2:
		return "nd";
	case 3:
		return "rd";
	}
	return "th";
}

static void print_limit(FILE *f, const struct ol_report *r, enum ol_var_id count,
			enum ol_var_id limit, const char *event, const char *events)
{
	const struct ol_var *c = &r->var[count], *l = &r->var[limit];
	uint64_t h;

	print_plain(f, r, limit);
	if (!l->read)
		return;
	if (!ol_headroom(c->value, l->value, &h))
		fprintf(f, " (0: no limit, %s never panic by count)", events);
	else if (!c->read)
		fprintf(f, " (headroom unknown: %s %s)", ol_vars[count].key,
			c->rejected ? "not trusted" : "unreadable");
	else if (h == 0)
		fprintf(f, " (reached)");
	else if (h == 1)
		fprintf(f, " (headroom 1: the next %s panics)", event);
	else
		fprintf(f, " (headroom %llu: the %llu%s %s from now panics)", (unsigned long long)h,
			(unsigned long long)h, ordinal(h), event);
}

/* The COUNT and LIMIT lines of one budget (KIND "OOPS" or "WARN"). */
static void print_budget(FILE *f, const struct ol_report *r, const char *kind,
			 enum ol_var_id count, enum ol_var_id limit, const char *event,
			 const char *events)
{
	char name[16];

	snprintf(name, sizeof(name), "%s_COUNT", kind);
	label(f, name);
	print_plain(f, r, count);
	fputc('\n', f);
	snprintf(name, sizeof(name), "%s_LIMIT", kind);
	label(f, name);
	print_limit(f, r, count, limit, event, events);
	fputc('\n', f);
}

static void print_log(FILE *f, const struct ol_report *r)
{
	const struct ol_log *log = &r->log;

	if (!r->log_read) {
		fprintf(f, "unreadable\n");
		return;
	}
	fprintf(f, "%lu lines", log->lines);
	if (r->log_wrapped)
		fprintf(f, " (wrapped: oldest left from %s s)", r->log_start[0] ? r->log_start : "?");
	fprintf(f, ", %lu oops%s", log->oopses, log->oopses == 1 ? "" : "es");
	if (log->oopses)
		fprintf(f, " (last [#%lu])", log->last_die);
	fprintf(f, ", %lu warning%s", log->warnings, log->warnings == 1 ? "" : "s");
	if (r->log_unreliable)
		fprintf(f, "; does not decode reliably");
	fputc('\n', f);
}

void ol_report_sites_text(FILE *f, const struct ol_report *r)
{
	const struct ol_sites *s = &r->sites;
	unsigned int i;

	label(f, "SITES");
	if (!r->log_read || s->n == 0) {
		fprintf(f, "%s\n", r->log_read ? "none in the log" : "unknown (the log could not be read)");
		return;
	}
	for (i = 0; i < s->n; i++) {
		const struct ol_site *site = &s->site[i];

		if (i)
			fprintf(f, "%*s  ", LABEL_WIDTH, "");
		fprintf(f, "%lux ", site->count);
		put_text(f, site->title);
		if (site->where[0]) {
			fprintf(f, " (");
			put_text(f, site->where);
			fputc(')', f);
		}
		fprintf(f, " [%s%s%s", site->origin, site->counts ? ", counts in " : "",
			site->counts ? site->counts : "");
		if (site->module[0]) {
			fprintf(f, ", module ");
			put_text(f, site->module);
		}
		if (site->have_time)
			fprintf(f, ", %llu.%06llu-%llu.%06llu s", (unsigned long long)(site->first_us / 1000000),
				(unsigned long long)(site->first_us % 1000000),
				(unsigned long long)(site->last_us / 1000000),
				(unsigned long long)(site->last_us % 1000000));
		if (site->after_panic)
			fprintf(f, ", %lu more after the panic", site->after_panic);
		fprintf(f, "]\n");
	}
	if (s->dropped) {
		fprintf(f, "%*s  ", LABEL_WIDTH, "");
		fprintf(f, "(%lu reports of further sites not listed)\n", s->dropped);
	}
}

static void print_verdict(FILE *f, const struct ol_report *r)
{
	const struct ol_log *log = &r->log;

	if (!r->reason) {
		fprintf(f, "none (live system)\n");
		return;
	}
	fprintf(f, "%s", r->reason);
	if (log->origin[0] && r->log_read && !r->log_unreliable &&
	    (r->setting == OL_V_WARN_LIMIT || r->setting == OL_V_PANIC_ON_WARN)) {
		fprintf(f, " (origin: ");
		put_text(f, log->origin);
		fprintf(f, ")");
	} else if (r->detail[0]) {
		fprintf(f, " (");
		put_text(f, r->detail);
		fprintf(f, ")");
	}
	fputc('\n', f);
}

static void print_warning(FILE *f, const struct ol_report *r)
{
	const struct ol_log *log = &r->log;

	if (!r->log_read) {
		fprintf(f, "unknown (the log could not be read)\n");
		return;
	}
	if (!log->have_warning) {
		fprintf(f, "none in the log\n");
		return;
	}
	put_text(f, log->warn_where[0] ? log->warn_where : "(no file:line)");
	if (log->warn_func[0]) {
		fprintf(f, " in ");
		put_text(f, log->warn_func);
	}
	fprintf(f, " (");
	put_text(f, log->warn_origin);
	fprintf(f, ")\n");
}

/* The dump's pages against what the kernel used: ol_pages_judge. */
static void print_pages(FILE *f, const struct ol_capture *cap)
{
	uint64_t margin;
	int v = ol_pages_judge(cap, &margin);

	if (!cap->have_pages)
		return;
	label(f, "PAGES");
	fprintf(f, "%llu saved of %llu", (unsigned long long)cap->saved_pages,
		(unsigned long long)cap->ram_pages);
	if (cap->have_free)
		fprintf(f, ", %llu free by the kernel's count", (unsigned long long)cap->free_pages);
	if (v > 0)
		fprintf(f, ": free pages left out");
	else if (v == 0)
		fprintf(f, ": FREE PAGES KEPT (%llu saved beyond what the kernel used)",
			(unsigned long long)(cap->saved_pages - (cap->ram_pages - cap->free_pages)));
	fputc('\n', f);
}

static void print_capture(FILE *f, const struct ol_capture *cap)
{
	label(f, "CAPTURE");
	put_text(f, cap->status);
	if (cap->dump_file[0]) {
		fprintf(f, ", ");
		put_text(f, cap->dump_file);
	}
	if (cap->dump_bytes >= 0)
		fprintf(f, " %lld bytes", cap->dump_bytes);
	if (cap->have_seconds)
		fprintf(f, " in %.2f s", cap->seconds);
	if (cap->have_exit)
		fprintf(f, " (collector exit %ld)", cap->collector_exit);
	if (cap->target[0]) {
		fprintf(f, " to ");
		put_text(f, cap->target);
	}
	if (cap->n_removed)
		fprintf(f, ", %d old dump%s removed", cap->n_removed, cap->n_removed == 1 ? "" : "s");
	if (cap->failure_action[0]) {
		fprintf(f, "; failure action ");
		put_text(f, cap->failure_action);
	}
	if (cap->error[0]) {
		fprintf(f, ": ");
		put_text(f, cap->error);
	}
	if (cap->warning[0]) {
		fprintf(f, "; warning: ");
		put_text(f, cap->warning);
	}
	if (cap->collector_version[0]) {
		fprintf(f, "; makedumpfile ");
		put_text(f, cap->collector_version);
	}
	fputc('\n', f);
	print_pages(f, cap);
}

/* What oopslimit-kdump applied, and what the dump says now, when they differ. */
static void print_policy(FILE *f, const struct ol_report *r)
{
	const struct ol_log *log = &r->log;
	int i, n = 0;

	if (!r->log_read || r->log_unreliable || !log->have_policy)
		return;
	label(f, "POLICY");
	for (i = 0; i < OL_NVARS; i++)
		if (log->policy_set[i])
			fprintf(f, "%s%s %llu", n++ ? ", " : "", ol_vars[i].key, log->policy[i]);
	fprintf(f, "%s (as oopslimit-kdump applied it)\n", n ? "" : "none");
	for (i = 0; i < OL_NVARS; i++) {
		if (!ol_report_drift(r, (enum ol_var_id)i))
			continue;
		label(f, "DRIFT");
		fprintf(f, "%s is %llu in the dump, %llu as configured: changed after it was applied\n",
			ol_vars[i].sysctl ? ol_vars[i].sysctl : ol_vars[i].key,
			(unsigned long long)r->var[i].value, log->policy[i]);
	}
}

/* Settings beyond the ones with lines of their own, listed when set. */
static void print_other_settings(FILE *f, const struct ol_report *r)
{
	int i, n = 0;

	for (i = OL_V_TAINTED_MASK + 1; i < OL_NVARS; i++) {
		if (!r->var[i].read || r->var[i].value == 0)
			continue;
		if (n++ == 0)
			label(f, "ALSO_SET");
		fprintf(f, "%s%s %llu", n > 1 ? ", " : "", ol_vars[i].key,
			(unsigned long long)r->var[i].value);
	}
	if (n)
		fputc('\n', f);
}

void ol_report_text(FILE *f, const struct ol_report *r, bool verbose)
{
	const struct ol_var *taint = &r->var[OL_V_TAINTED_MASK];
	char when[40], budget[OL_TEXT * 3];
	unsigned int i;

	label(f, "KERNEL");
	put_text(f, r->release[0] ? r->release : "unknown");
	if (r->crashed) {
		ol_iso_time(r->crash_time, when, sizeof(when));
		fprintf(f, ", crashed %s", when);
	}
	fputc('\n', f);
	if (ol_report_no_limits(r)) {
		label(f, "LIMITS");
		fprintf(f, "none: this kernel has no oops_limit or warn_limit\n");
	} else {
		print_budget(f, r, "OOPS", OL_V_OOPS_COUNT, OL_V_OOPS_LIMIT, "oops", "oopses");
		print_budget(f, r, "WARN", OL_V_WARN_COUNT, OL_V_WARN_LIMIT, "warning", "warnings");
	}
	label(f, "PANIC_ON_OOPS");
	print_plain(f, r, OL_V_PANIC_ON_OOPS);
	fputc('\n', f);
	label(f, "PANIC_ON_WARN");
	print_plain(f, r, OL_V_PANIC_ON_WARN);
	if (ol_have(r, OL_V_PANIC_ON_WARN) && r->var[OL_V_PANIC_ON_WARN].value == 0 && r->log.have_panic)
		fprintf(f, " (panic() clears it; the panic message tells)");
	fputc('\n', f);
	print_other_settings(f, r);
	label(f, "TAINTED");
	if (!taint->read)
		print_plain(f, r, OL_V_TAINTED_MASK);
	else if (taint->value == 0)
		fprintf(f, "no (0x0)");
	else
		fprintf(f, "%s (0x%llx)", r->have_taint ? r->taint : "?", (unsigned long long)taint->value);
	fputc('\n', f);
	label(f, "LOG");
	print_log(f, r);
	if (!r->live) {
		label(f, "PANIC");
		if (!r->log_read) {
			fprintf(f, "unknown (the log could not be read)\n");
		} else if (r->log.have_panic) {
			fputc('"', f);
			put_text(f, r->log.panic);
			fprintf(f, "\"\n");
		} else if (r->crashed && r->log.last_is_oops) {
			fprintf(f, "none in the log: the kernel entered kdump before panic() printed\n");
		} else {
			fprintf(f, "none in the log\n");
		}
	}
	label(f, "VERDICT");
	print_verdict(f, r);
	if (r->setting != OL_V_NONE && ol_vars[r->setting].sysctl) {
		label(f, "SETTING");
		fprintf(f, "%s = ", ol_vars[r->setting].sysctl);
		print_plain(f, r, r->setting);
		fputc('\n', f);
	}
	if (r->reason) {
		label(f, "CONSISTENT");
		fprintf(f, "%s", r->consistent > 0 ? "yes" : r->consistent == 0 ? "no" : "unknown");
		if (r->evidence[0]) {
			fprintf(f, " (");
			put_text(f, r->evidence);
			fputc(')', f);
		}
		fputc('\n', f);
	}
	if (r->signature[0]) {
		label(f, "SIGNATURE");
		put_text(f, r->signature);
		fputc('\n', f);
	}
	if (ol_report_budget(r, budget, sizeof(budget))) {
		/* the budget's titles are printable ASCII already (sites.c) */
		label(f, "BUDGET");
		fprintf(f, "%s\n", budget);
	}
	print_policy(f, r);
	label(f, "LAST_WARNING");
	print_warning(f, r);
	ol_report_sites_text(f, r);
	if (r->capture.present)
		print_capture(f, &r->capture);
	if (verbose) {
		if (r->log_read && r->log.first_oops[0]) {
			label(f, "FIRST_OOPS");
			put_text(f, r->log.first_oops);
			fputc('\n', f);
		}
		label(f, "READER");
		fprintf(f, "%s %s, log from %s\n", r->program, OL_VERSION,
			r->log_from[0] ? r->log_from : "nowhere");
		for (i = 0; i < OL_NVARS; i++) {
			const struct ol_var *v = &r->var[i];

			label(f, ol_vars[i].key);
			if (v->found)
				fprintf(f, "%llx  ", (unsigned long long)v->addr);
			put_text(f, v->how[0] ? v->how : v->found || v->read ? ol_source_name(v->source) :
				 "not found");
			fputc('\n', f);
		}
	}
	if (r->dump_error[0]) {
		label(f, "DUMP_ERROR");
		put_text(f, r->dump_error);
		fputc('\n', f);
	}
	if (r->log_trouble[0]) {
		label(f, "NOTE");
		put_text(f, r->log_trouble);
		fputc('\n', f);
	}
	for (i = 0; i < r->n_notes; i++) {
		label(f, "NOTE");
		put_text(f, r->notes[i]);
		fputc('\n', f);
	}
}
