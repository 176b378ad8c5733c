// SPDX-License-Identifier: GPL-2.0
/*
 * The report of one dump, the model every reader fills: the variables,
 * where each was found, the notes and the log lines.  See report.h; the
 * checks are in checks.c, the judging in judge.c, the writers in
 * report-text.c and report-json.c.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arches.h"
#include "report.h"
#include "report-int.h"

const char *ol_source_name(enum ol_source src)
{
	switch (src) {
	case OL_SRC_DEBUGINFO:
		return "debuginfo";
	case OL_SRC_VMCOREINFO:
	case OL_SRC_VMCOREINFO_MEM:
		return "vmcoreinfo";
	case OL_SRC_KALLSYMS:
		return "kallsyms";
	case OL_SRC_LOG:
		return "log";
	case OL_SRC_NONE:
		break;
	}
	return "none";
}

void ol_report_init(struct ol_report *r, const char *program)
{
	memset(r, 0, sizeof(*r));
	r->program = program;
	ol_log_init(&r->log);
	ol_sites_init(&r->sites);
	r->setting = OL_V_NONE;
	r->consistent = -1;
	r->capture.dump_bytes = -1;
}

void ol_note(struct ol_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n_notes == OL_NOTES) {
		snprintf(r->notes[OL_NOTES - 1], OL_NOTE, "(more problems not shown)");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(r->notes[r->n_notes++], OL_NOTE, fmt, ap);
	va_end(ap);
}

/*
 * "[ 1234.567890] text": copies the stamp and returns the text.  A line
 * without a stamp continues the record before it, which crash's "log"
 * indents by the stamp's width: up to that many blanks go.
 */
static const char *split_stamp(struct ol_report *r, const char *line, char *stamp, size_t stamp_len)
{
	const char *p = line + 1, *close;
	size_t n, blanks = 0;

	stamp[0] = '\0';
	close = line[0] == '[' ? strchr(line, ']') : NULL;
	if (close && close[1] == ' ' && close - line <= 24) {
		while (p < close && (*p == ' ' || *p == '.' || (*p >= '0' && *p <= '9')))
			p++;
		if (p == close) {
			for (p = line + 1; *p == ' '; p++)
				;
			n = (size_t)(close - p);
			if (n < stamp_len)
				ol_copy(stamp, stamp_len, p, n);
			r->log_indent = (size_t)(close + 2 - line);
			return close + 2;
		}
	}
	while (blanks < r->log_indent && line[blanks] == ' ')
		blanks++;
	return line + blanks;
}

void ol_report_log_line(struct ol_report *r, const char *line)
{
	char stamp[sizeof(r->log_start)];
	const char *text = split_stamp(r, line, stamp, sizeof(stamp));

	if (r->log.lines == 0) {
		r->log_wrapped = !ol_arch_log_first(text);
		memcpy(r->log_start, stamp, sizeof(stamp));
	}
	ol_log_line(&r->log, text);
	ol_sites_line(&r->sites, line);
	r->log_read = true;
}

/* The counter a limit verdict spent, and its index in sites.counted[]. */
static enum ol_var_id spent(const struct ol_report *r, int *which)
{
	*which = r->setting == OL_V_OOPS_LIMIT;
	if (r->setting == OL_V_OOPS_LIMIT)
		return OL_V_OOPS_COUNT;
	return r->setting == OL_V_WARN_LIMIT ? OL_V_WARN_COUNT : OL_V_NONE;
}

bool ol_report_not_in_log(const struct ol_report *r, uint64_t *n)
{
	int which;
	enum ol_var_id count = spent(r, &which);

	if (count == OL_V_NONE || !r->log_read || r->log_unreliable || !ol_have(r, count))
		return false;
	/* more in the log than counted: KASAN's multi-shot reports count nowhere */
	*n = r->var[count].value > r->sites.counted[which] ? r->var[count].value - r->sites.counted[which] : 0;
	return true;
}

bool ol_report_budget(const struct ol_report *r, char *buf, size_t len)
{
	char spent_on[OL_TEXT * 2], total[40];
	int which;
	enum ol_var_id count = spent(r, &which);
	unsigned long shown;
	uint64_t gone = 0;
	bool known;

	if (len)
		buf[0] = '\0';
	if (count == OL_V_NONE || !r->log_read || r->log_unreliable)
		return false;
	shown = ol_sites_budget(&r->sites, ol_vars[count].key, spent_on, sizeof(spent_on));
	known = ol_report_not_in_log(r, &gone);
	if (ol_have(r, r->setting))
		snprintf(total, sizeof(total), "%llu", (unsigned long long)r->var[r->setting].value);
	else if (r->log.have_limit)
		snprintf(total, sizeof(total), "%lu", r->log.limit);
	else
		snprintf(total, sizeof(total), "?");
	if (known && gone)
		snprintf(buf, len, "%lu of %s in the log: %s; %llu counted earlier %s no longer in the log", shown,
			 total, shown ? spent_on : "none", (unsigned long long)gone, gone == 1 ? "is" : "are");
	else
		snprintf(buf, len, "%lu of %s: %s", shown, total, shown ? spent_on : "none in the log");
	return true;
}

bool ol_have(const struct ol_report *r, enum ol_var_id id)
{
	return id != OL_V_NONE && r->var[id].read;
}

bool ol_report_no_limits(const struct ol_report *r)
{
	static const enum ol_var_id limits[] = {
		OL_V_OOPS_COUNT, OL_V_OOPS_LIMIT, OL_V_WARN_COUNT, OL_V_WARN_LIMIT,
	};
	size_t i;

	/* no memory was read: nothing says the series is missing */
	if (r->no_memory)
		return false;
	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		if (r->var[limits[i]].found || r->var[limits[i]].rejected)
			return false;
	return true;
}

bool ol_headroom(uint64_t count, uint64_t limit, uint64_t *headroom)
{
	if (limit == 0)
		return false;
	*headroom = count >= limit ? 0 : limit - count;
	return true;
}

void ol_taint_letters(uint64_t mask, char *buf, size_t len)
{
	static const char letters[] = OL_TAINT_LETTERS;
	size_t n = 0;
	unsigned int bit;

	if (len == 0)
		return;
	for (bit = 0; bit < 64 && n + 1 < len; bit++) {
		if (!(mask & ((uint64_t)1 << bit)))
			continue;
		buf[n++] = bit < sizeof(letters) - 1 ? letters[bit] : '?';
	}
	buf[n] = '\0';
}

/* ---- the policy as configured ---------------------------------------------- */

/* Settings the kernel clears on its way to the panic (common/panics.def). */
static bool cleared_on_panic(enum ol_var_id id)
{
	return id == OL_V_PANIC_ON_WARN || id == OL_V_PANIC_ON_TAINT;
}

bool ol_report_drift(const struct ol_report *r, enum ol_var_id id)
{
	const struct ol_log *log = &r->log;

	if (!r->log_read || r->log_unreliable || !log->have_policy || !log->policy_set[id] ||
	    !r->var[id].read)
		return false;
	if (cleared_on_panic(id) && r->var[id].value == 0 && (log->have_panic || r->crashed))
		return false;
	return r->var[id].value != log->policy[id];
}

/* ---- where a variable is: the lookups must agree -------------------------- */

static const char *lookup_name(enum ol_source src)
{
	switch (src) {
	case OL_SRC_DEBUGINFO:
		return "the vmlinux";
	case OL_SRC_VMCOREINFO:
		return "VMCOREINFO";
	case OL_SRC_VMCOREINFO_MEM:
		return "VMCOREINFO in kernel memory";
	case OL_SRC_KALLSYMS:
		return "kallsyms";
	case OL_SRC_LOG:
		return "the log";
	case OL_SRC_NONE:
		break;
	}
	return "nothing";
}

#define OL_LOOKUPS 8

void ol_var_locate(struct ol_report *r, enum ol_var_id id, const struct ol_lookup *l, size_t n)
{
	struct ol_var *v = &r->var[id];
	const struct ol_lookup *use[OL_LOOKUPS];
	const char *key = ol_vars[id].key;
	size_t m = 0, i, j, best = 0, best_n = 0, len, dropped = 0;

	for (i = 0; i < n && m < OL_LOOKUPS; i++) {
		if (l[i].source == OL_SRC_DEBUGINFO && r->symbols_mismatch)
			dropped++;
		else
			use[m++] = &l[i];
	}
	if (m == 0) {
		if (dropped) {
			v->rejected = true;
			ol_note(r, "%s: not used: only the vmlinux, which does not fit the dump, gives its "
				"address", key);
		}
		return;
	}
	for (i = 0; i < m; i++) {
		size_t k = 0;

		for (j = 0; j < m; j++)
			k += use[j]->addr == use[i]->addr;
		if (k > best_n) {
			best_n = k;
			best = i;
		}
	}
	if (best_n < m && !(best_n >= 2 && best_n == m - 1)) {
		/* two against one is a majority; one against one is not */
		char says[OL_NOTE];

		len = 0;
		says[0] = '\0';
		for (i = 0; i < m && len < sizeof(says); i++)
			len += (size_t)snprintf(says + len, sizeof(says) - len, "%s%s at %llx", i ? ", " : "",
						lookup_name(use[i]->source),
						(unsigned long long)use[i]->addr);
		v->found = false;
		v->read = false;
		v->rejected = true;
		ol_note(r, "%s: not used: its lookups disagree (%s)", key, says);
		return;
	}
	v->found = true;
	v->addr = use[best]->addr;
	v->source = use[best]->source;
	snprintf(v->how, sizeof(v->how), "%s", use[best]->how);
	for (i = 0, j = 0; i < m; i++) {
		if (i == best || use[i]->addr != v->addr)
			continue;
		len = strlen(v->how);
		snprintf(v->how + len, sizeof(v->how) - len, "%s%s", j++ ? " and " : ", ",
			 lookup_name(use[i]->source));
	}
	if (j) {
		len = strlen(v->how);
		snprintf(v->how + len, sizeof(v->how) - len, " %s", j == 1 ? "agrees" : "agree");
	}
	for (i = 0; i < m; i++)
		if (use[i]->addr != v->addr)
			ol_note(r, "%s: %s has it at %llx, the others at %llx (used)", key,
				lookup_name(use[i]->source), (unsigned long long)use[i]->addr,
				(unsigned long long)v->addr);
}

/* ---- for the writers ---------------------------------------------------------- */

/* The first read counter's source: how the counters came. */
enum ol_source ol_counters_source(const struct ol_report *r)
{
	static const enum ol_var_id counters[] = {
		OL_V_OOPS_COUNT, OL_V_OOPS_LIMIT, OL_V_WARN_COUNT, OL_V_WARN_LIMIT,
	};
	size_t i;

	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		if (r->var[counters[i]].read)
			return r->var[counters[i]].source;
	return OL_SRC_NONE;
}

/* "2026-12-03T14:05:09Z" */
void ol_iso_time(uint64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if ((uint64_t)tt != t || !gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%llu", (unsigned long long)t);
}
