// SPDX-License-Identifier: GPL-2.0
/*
 * The report of one dump: the judging and the two writers every reader
 * shares.  See report.h; the JSON document is common/report.schema.json.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"

const struct ol_var_info ol_vars[OL_NVARS] = {
#define OL_VAR(id, key, symbol, file, size, sysctl, range) \
	[OL_V_##id] = { key, symbol, file, size, sysctl, range },
#include "vars.def"
#undef OL_VAR
};

enum ol_var_id ol_var_id_of(const char *key)
{
	int i;

	for (i = 0; i < OL_NVARS; i++)
		if (strcmp(ol_vars[i].key, key) == 0)
			return (enum ol_var_id)i;
	return OL_V_NONE;
}

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

struct ol_var *ol_var_by_key(struct ol_report *r, const char *key)
{
	enum ol_var_id id = ol_var_id_of(key);

	return id == OL_V_NONE ? NULL : &r->var[id];
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
		r->log_wrapped = strncmp(text, "Linux version ", 14) != 0;
		memcpy(r->log_start, stamp, sizeof(stamp));
	}
	ol_log_line(&r->log, text);
	r->log_read = true;
}

static bool have(const struct ol_report *r, enum ol_var_id id)
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
	static const char letters[] = "PFSRMBUDAWCIOELKXTNJ";
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

/* ---- checks before a value is a fact ----------------------------------------- */

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
	if (!have(r, OL_V_TAINTED_MASK))
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

/* ---- judging ------------------------------------------------------------- */

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

void ol_report_judge(struct ol_report *r)
{
	struct ol_log *log = &r->log;
	int pov;

	/* a log without a dump (pstore, -l alone) still names its kernel */
	if (!r->release[0] && log->release[0])
		snprintf(r->release, sizeof(r->release), "%s", log->release);
	ol_report_check(r);
	pov = have(r, OL_V_PANIC_ON_OOPS) ? (int)r->var[OL_V_PANIC_ON_OOPS].value : -1;
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

/* ---- text ---------------------------------------------------------------- */

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

/* The first read counter's source: how the counters came. */
static enum ol_source counters_source(const struct ol_report *r)
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
static void iso_time(uint64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if ((uint64_t)tt != t || !gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%llu", (unsigned long long)t);
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
	fputc('\n', f);
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
	char when[40];
	unsigned int i;

	label(f, "KERNEL");
	put_text(f, r->release[0] ? r->release : "unknown");
	if (r->crashed) {
		iso_time(r->crash_time, when, sizeof(when));
		fprintf(f, ", crashed %s", when);
	}
	fputc('\n', f);
	if (ol_report_no_limits(r)) {
		label(f, "LIMITS");
		fprintf(f, "none: this kernel has no oops_limit or warn_limit\n");
	} else {
		label(f, "OOPS_COUNT");
		print_plain(f, r, OL_V_OOPS_COUNT);
		fputc('\n', f);
		label(f, "OOPS_LIMIT");
		print_limit(f, r, OL_V_OOPS_COUNT, OL_V_OOPS_LIMIT, "oops", "oopses");
		fputc('\n', f);
		label(f, "WARN_COUNT");
		print_plain(f, r, OL_V_WARN_COUNT);
		fputc('\n', f);
		label(f, "WARN_LIMIT");
		print_limit(f, r, OL_V_WARN_COUNT, OL_V_WARN_LIMIT, "warning", "warnings");
		fputc('\n', f);
	}
	label(f, "PANIC_ON_OOPS");
	print_plain(f, r, OL_V_PANIC_ON_OOPS);
	fputc('\n', f);
	label(f, "PANIC_ON_WARN");
	print_plain(f, r, OL_V_PANIC_ON_WARN);
	if (have(r, OL_V_PANIC_ON_WARN) && r->var[OL_V_PANIC_ON_WARN].value == 0 && r->log.have_panic)
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
	print_policy(f, r);
	label(f, "LAST_WARNING");
	print_warning(f, r);
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

/* ---- JSON ---------------------------------------------------------------- */

void ol_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		unsigned char c = *p;
		int n = 0, i;

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c == '\r') {
			fputs("\\r", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, f);
		} else {
			/* a well-formed UTF-8 sequence passes; anything else is U+FFFD */
			if (c >= 0xc2 && c <= 0xdf)
				n = 1;
			else if (c >= 0xe0 && c <= 0xef)
				n = 2;
			else if (c >= 0xf0 && c <= 0xf4)
				n = 3;
			for (i = 1; i <= n; i++)
				if ((p[i] & 0xc0) != 0x80)
					break;
			if (n == 0 || i <= n ||
			    (c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
			    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f)) {
				fputs("\\ufffd", f);
			} else {
				fwrite(p, 1, (size_t)n + 1, f);
				p += n;
			}
		}
		p++;
	}
	fputc('"', f);
}

/*
 * The members of an object: key() writes the separator and the key, the
 * others a value.  depth is the object's nesting, for the indentation.
 */
struct jw {
	FILE *f;
	bool first[4];
	int depth;
};

static void key(struct jw *w, const char *k)
{
	fputs(w->first[w->depth] ? "\n" : ",\n", w->f);
	w->first[w->depth] = false;
	fprintf(w->f, "%*s", 2 * w->depth, "");
	ol_json_string(w->f, k);
	fputs(": ", w->f);
}

static void open_obj(struct jw *w)
{
	fputc('{', w->f);
	w->first[++w->depth] = true;
}

static void close_obj(struct jw *w)
{
	bool empty = w->first[w->depth];

	w->depth--;
	if (!empty)
		fprintf(w->f, "\n%*s", 2 * w->depth, "");
	fputc('}', w->f);
}

static void j_str(struct jw *w, const char *k, const char *v)
{
	key(w, k);
	if (v)
		ol_json_string(w->f, v);
	else
		fputs("null", w->f);
}

/* null for NULL and for an empty string */
static void j_text(struct jw *w, const char *k, const char *v)
{
	j_str(w, k, v && *v ? v : NULL);
}

static void j_uint(struct jw *w, const char *k, bool known, uint64_t v)
{
	key(w, k);
	if (known)
		fprintf(w->f, "%llu", (unsigned long long)v);
	else
		fputs("null", w->f);
}

static void j_bool(struct jw *w, const char *k, int v)
{
	key(w, k);
	fputs(v > 0 ? "true" : v == 0 ? "false" : "null", w->f);
}

static void j_headroom(struct jw *w, const char *k, const struct ol_report *r, enum ol_var_id count,
		       enum ol_var_id limit)
{
	uint64_t h = 0;
	bool known = have(r, count) && have(r, limit) &&
		     ol_headroom(r->var[count].value, r->var[limit].value, &h);

	j_uint(w, k, known, h);
}

static void j_reader(struct jw *w, const struct ol_report *r)
{
	char addr[24];
	int i;

	key(w, "reader");
	open_obj(w);
	j_str(w, "program", r->program);
	j_str(w, "version", OL_VERSION);
	j_text(w, "log_from", r->log_from);
	key(w, "variables");
	open_obj(w);
	for (i = 0; i < OL_NVARS; i++) {
		const struct ol_var *v = &r->var[i];

		key(w, ol_vars[i].key);
		if (!v->found && !v->read) {
			fputs("null", w->f);
			continue;
		}
		fputs("{ \"symbol\": ", w->f);
		ol_json_string(w->f, ol_vars[i].symbol);
		fputs(", \"address\": ", w->f);
		if (v->found) {
			snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)v->addr);
			ol_json_string(w->f, addr);
		} else {
			fputs("null", w->f);
		}
		fputs(", \"source\": ", w->f);
		ol_json_string(w->f, ol_source_name(v->source));
		fputs(", \"how\": ", w->f);
		ol_json_string(w->f, v->how);
		fputs(" }", w->f);
	}
	close_obj(w);
	close_obj(w);
}

static void j_log(struct jw *w, const struct ol_report *r)
{
	const struct ol_log *log = &r->log;

	key(w, "last_warning");
	if (!r->log_read || !log->have_warning) {
		fputs("null", w->f);
	} else {
		open_obj(w);
		j_text(w, "origin", log->warn_origin);
		j_text(w, "where", log->warn_where);
		j_text(w, "function", log->warn_func);
		close_obj(w);
	}
	key(w, "log");
	if (!r->log_read) {
		fputs("null", w->f);
		return;
	}
	open_obj(w);
	j_uint(w, "lines", true, log->lines);
	j_bool(w, "wrapped", r->log_wrapped);
	j_bool(w, "reliable", !r->log_unreliable);
	j_uint(w, "oopses", true, log->oopses);
	j_uint(w, "last_oops_number", log->oopses > 0, log->last_die);
	j_uint(w, "warnings", true, log->warnings);
	j_text(w, "first_oops", log->first_oops);
	close_obj(w);
}

/* "policy": { "configured": { KEY: N, ... }, "drift": [ { setting, configured, found } ] } */
static void j_policy(struct jw *w, const struct ol_report *r)
{
	const struct ol_log *log = &r->log;
	bool first = true;
	int i;

	key(w, "policy");
	if (!r->log_read || r->log_unreliable || !log->have_policy) {
		fputs("null", w->f);
		return;
	}
	open_obj(w);
	key(w, "configured");
	open_obj(w);
	for (i = 0; i < OL_NVARS; i++)
		if (log->policy_set[i])
			j_uint(w, ol_vars[i].key, true, log->policy[i]);
	close_obj(w);
	key(w, "drift");
	fputc('[', w->f);
	for (i = 0; i < OL_NVARS; i++) {
		if (!ol_report_drift(r, (enum ol_var_id)i))
			continue;
		fprintf(w->f, "%s{ \"setting\": ", first ? "" : ", ");
		ol_json_string(w->f, ol_vars[i].key);
		fprintf(w->f, ", \"configured\": %llu, \"found\": %llu }", log->policy[i],
			(unsigned long long)r->var[i].value);
		first = false;
	}
	fputc(']', w->f);
	close_obj(w);
}

static void j_capture(struct jw *w, const struct ol_capture *cap)
{
	key(w, "capture");
	if (!cap->present) {
		fputs("null", w->f);
		return;
	}
	open_obj(w);
	j_str(w, "status", cap->status);
	j_text(w, "dump_file", cap->dump_file);
	j_uint(w, "dump_bytes", cap->dump_bytes >= 0, (uint64_t)cap->dump_bytes);
	key(w, "collector_exit");
	if (cap->have_exit)
		fprintf(w->f, "%ld", cap->collector_exit);
	else
		fputs("null", w->f);
	key(w, "seconds");
	if (cap->have_seconds)
		fprintf(w->f, "%.2f", cap->seconds);
	else
		fputs("null", w->f);
	j_text(w, "time", cap->time);
	j_text(w, "error", cap->error);
	j_text(w, "warning", cap->warning);
	j_text(w, "target", cap->target);
	j_text(w, "failure_action", cap->failure_action);
	key(w, "removed");
	fputc('[', w->f);
	for (int i = 0; i < cap->n_removed; i++) {
		if (i)
			fputs(", ", w->f);
		ol_json_string(w->f, cap->removed[i]);
	}
	fputc(']', w->f);
	close_obj(w);
}

void ol_report_json(FILE *f, const struct ol_report *r)
{
	struct jw w = { .f = f };
	bool logged = r->log_read && !r->log_unreliable, first_note = true;
	char when[40];
	unsigned int i;

	open_obj(&w);
	j_uint(&w, "schema", true, OL_SCHEMA);
	j_reader(&w, r);
	j_text(&w, "kernel_release", r->release);
	j_bool(&w, "live", r->live);
	if (r->crashed)
		iso_time(r->crash_time, when, sizeof(when));
	j_str(&w, "crash_time", r->crashed ? when : NULL);
	j_str(&w, "panic_message", logged && r->log.have_panic ? r->log.panic : NULL);
	j_str(&w, "reason", r->reason);
	j_str(&w, "setting", r->setting != OL_V_NONE ? ol_vars[r->setting].sysctl : NULL);
	j_uint(&w, "setting_value", have(r, r->setting), r->setting != OL_V_NONE ? r->var[r->setting].value : 0);
	j_text(&w, "origin", logged && (r->setting == OL_V_WARN_LIMIT || r->setting == OL_V_PANIC_ON_WARN) ?
	       r->log.origin : NULL);
	j_text(&w, "detail", r->detail);
	j_bool(&w, "consistent", r->consistent);
	j_text(&w, "evidence", r->evidence);
	j_str(&w, "counters_source", ol_source_name(counters_source(r)));
	j_bool(&w, "has_limits", r->no_memory ? -1 : !ol_report_no_limits(r));
	for (i = 0; i < OL_NVARS; i++) {
		j_uint(&w, ol_vars[i].key, r->var[i].read, r->var[i].value);
		if (i == OL_V_OOPS_LIMIT)
			j_headroom(&w, "oops_headroom", r, OL_V_OOPS_COUNT, OL_V_OOPS_LIMIT);
		if (i == OL_V_WARN_LIMIT)
			j_headroom(&w, "warn_headroom", r, OL_V_WARN_COUNT, OL_V_WARN_LIMIT);
	}
	j_str(&w, "taint", have(r, OL_V_TAINTED_MASK) && r->have_taint ? r->taint : NULL);
	j_log(&w, r);
	j_policy(&w, r);
	j_capture(&w, &r->capture);
	j_text(&w, "dump_read_error", r->dump_error);
	/* the log's trouble, in this reader's words, is the first note */
	key(&w, "notes");
	fputc('[', f);
	for (i = 0; i < r->n_notes + 1; i++) {
		const char *n = i == 0 ? r->log_trouble : r->notes[i - 1];

		if (!n[0])
			continue;
		fprintf(f, "%s\n    ", first_note ? "" : ",");
		first_note = false;
		ol_json_string(f, n);
	}
	fprintf(f, "%s]", first_note ? "" : "\n  ");
	close_obj(&w);
	fputc('\n', f);
}
