// SPDX-License-Identifier: GPL-2.0
/*
 * Printing what "crash> oopslimit" found.  See report.h; the JSON keys are
 * documented in crash-ext/README.md and in "help oopslimit", and are stable:
 * a key is only ever added, never renamed or given another meaning.
 */
#include <stdarg.h>
#include <string.h>

#include "report.h"

#define LABEL_WIDTH 13

static const char *const var_names[OLX_NVARS] = {
	[OLX_OOPS_COUNT] = "oops_count",
	[OLX_OOPS_LIMIT] = "oops_limit",
	[OLX_WARN_COUNT] = "warn_count",
	[OLX_WARN_LIMIT] = "warn_limit",
	[OLX_PANIC_ON_OOPS] = "panic_on_oops",
	[OLX_PANIC_ON_WARN] = "panic_on_warn",
	[OLX_TAINTED_MASK] = "tainted_mask",
};

const char *olx_var_name(enum olx_var_id id)
{
	return (unsigned int)id < OLX_NVARS ? var_names[id] : "?";
}

void olx_report_init(struct olx_report *r)
{
	memset(r, 0, sizeof(*r));
	ol_log_init(&r->log);
	r->consistent = true;
}

void olx_note(struct olx_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n_notes == OLX_NOTES) {
		snprintf(r->notes[OLX_NOTES - 1], OLX_NOTE, "(more problems not shown)");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(r->notes[r->n_notes++], OLX_NOTE, fmt, ap);
	va_end(ap);
}

bool olx_no_limits(const struct olx_report *r)
{
	return !r->var[OLX_OOPS_COUNT].found && !r->var[OLX_OOPS_LIMIT].found &&
	       !r->var[OLX_WARN_COUNT].found && !r->var[OLX_WARN_LIMIT].found;
}

void olx_counters(const struct olx_report *r, struct ol_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->have_oops_count = r->var[OLX_OOPS_COUNT].read;
	c->have_oops_limit = r->var[OLX_OOPS_LIMIT].read;
	c->have_warn_count = r->var[OLX_WARN_COUNT].read;
	c->have_warn_limit = r->var[OLX_WARN_LIMIT].read;
	c->oops_count = (unsigned int)r->var[OLX_OOPS_COUNT].value;
	c->oops_limit = (unsigned int)r->var[OLX_OOPS_LIMIT].value;
	c->warn_count = (unsigned int)r->var[OLX_WARN_COUNT].value;
	c->warn_limit = (unsigned int)r->var[OLX_WARN_LIMIT].value;
}

bool olx_checkable(const struct olx_report *r)
{
	const struct olx_var *v = r->var;

	if (r->live || !r->log_read)
		return false;
	switch (r->log.reason) {
	case OL_OOPS_LIMIT:
		return v[OLX_OOPS_COUNT].read && v[OLX_OOPS_LIMIT].read;
	case OL_WARN_LIMIT:
		return v[OLX_WARN_COUNT].read && v[OLX_WARN_LIMIT].read;
	default:
		return true;
	}
}

void olx_judge(struct olx_report *r)
{
	struct ol_counters c;

	r->why[0] = '\0';
	r->consistent = true;
	if (!olx_checkable(r))
		return;
	olx_counters(r, &c);
	r->consistent = ol_consistent(&r->log, &c, r->why, sizeof(r->why));
}

const char *olx_verdict(const struct olx_report *r)
{
	if (r->live)
		return NULL;
	if (!r->log_read)
		return "unknown";
	return ol_reason_name(r->log.reason);
}

bool olx_headroom(unsigned long count, unsigned long limit, unsigned long *headroom)
{
	if (limit == 0)
		return false;
	*headroom = count >= limit ? 0 : limit - count;
	return true;
}

void olx_taint_letters(unsigned long mask, char *buf, size_t len)
{
	static const char letters[] = "PFSRMBUDAWCIOELKXTN";
	size_t n = 0;
	unsigned int bit;

	if (len == 0)
		return;
	for (bit = 0; bit < 8 * sizeof(mask) && n + 1 < len; bit++) {
		if (!(mask & (1UL << bit)))
			continue;
		buf[n++] = bit < sizeof(letters) - 1 ? letters[bit] : '?';
	}
	buf[n] = '\0';
}

const char *olx_log_split(const char *line, char *stamp, size_t stamp_len, size_t *indent)
{
	const char *p = line + 1, *close;
	size_t n, blanks = 0;

	if (stamp_len)
		stamp[0] = '\0';
	close = line[0] == '[' ? strchr(line, ']') : NULL;
	if (close && close[1] == ' ' && close - line <= 24) {
		while (p < close && (*p == ' ' || *p == '.' || (*p >= '0' && *p <= '9')))
			p++;
		if (p == close) {
			for (p = line + 1; *p == ' '; p++)
				;
			n = (size_t)(close - p);
			if (stamp_len && n < stamp_len) {
				memcpy(stamp, p, n);
				stamp[n] = '\0';
			}
			*indent = (size_t)(close + 2 - line);
			return close + 2;
		}
	}
	while (blanks < *indent && line[blanks] == ' ')
		blanks++;
	return line + blanks;
}

/* ---- text ---------------------------------------------------------------- */

static void label(FILE *f, const char *l)
{
	fprintf(f, "%*s: ", LABEL_WIDTH, l);
}

/* Log text came through crash's printable filter; print it safely anyway. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f ? '?' : *s, f);
}

static void print_plain(FILE *f, const struct olx_report *r, enum olx_var_id id)
{
	const struct olx_var *v = &r->var[id];

	if (!v->found)
		fprintf(f, "not in this kernel");
	else if (!v->read)
		fprintf(f, "unreadable (at %lx)", v->addr);
	else
		fprintf(f, "%lu", v->value);
}

/* 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st */
static const char *ordinal(unsigned long n)
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

static void print_limit(FILE *f, const struct olx_report *r, enum olx_var_id count,
			enum olx_var_id limit, const char *event, const char *events)
{
	const struct olx_var *c = &r->var[count], *l = &r->var[limit];
	unsigned long h;

	print_plain(f, r, limit);
	if (!l->read)
		return;
	if (!olx_headroom(c->value, l->value, &h))
		fprintf(f, " (0: no limit, %s never panic by count)", events);
	else if (!c->read)
		fprintf(f, " (headroom unknown: %s_count unreadable)", event);
	else if (h == 0)
		fprintf(f, " (reached)");
	else if (h == 1)
		fprintf(f, " (headroom 1: the next %s panics)", event);
	else
		fprintf(f, " (headroom %lu: the %lu%s %s from now panics)", h, h, ordinal(h), event);
}

static void print_log(FILE *f, const struct olx_report *r)
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
	fprintf(f, ", %lu warning%s\n", log->warnings, log->warnings == 1 ? "" : "s");
}

static void print_verdict(FILE *f, const struct olx_report *r)
{
	const char *v = olx_verdict(r);
	const struct ol_log *log = &r->log;

	if (!v) {
		fprintf(f, "none (live system)\n");
		return;
	}
	fprintf(f, "%s", v);
	if (!r->log_read)
		fprintf(f, " (the log could not be read)");
	else if ((log->reason == OL_WARN_LIMIT || log->reason == OL_PANIC_ON_WARN) && log->origin[0]) {
		fprintf(f, " (origin: ");
		put_text(f, log->origin);
		fprintf(f, ")");
	} else if (log->reason == OL_OTHER && log->detail[0]) {
		fprintf(f, " (");
		put_text(f, log->detail);
		fprintf(f, ")");
	}
	fputc('\n', f);
}

static void print_warning(FILE *f, const struct olx_report *r)
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

void olx_print_text(FILE *f, const struct olx_report *r, bool verbose)
{
	const struct olx_var *pow = &r->var[OLX_PANIC_ON_WARN];
	const struct olx_var *taint = &r->var[OLX_TAINTED_MASK];
	unsigned int i;

	if (olx_no_limits(r)) {
		label(f, "LIMITS");
		fprintf(f, "none: this kernel has no oops_limit or warn_limit\n");
	} else {
		label(f, "OOPS_COUNT");
		print_plain(f, r, OLX_OOPS_COUNT);
		fputc('\n', f);
		label(f, "OOPS_LIMIT");
		print_limit(f, r, OLX_OOPS_COUNT, OLX_OOPS_LIMIT, "oops", "oopses");
		fputc('\n', f);
		label(f, "WARN_COUNT");
		print_plain(f, r, OLX_WARN_COUNT);
		fputc('\n', f);
		label(f, "WARN_LIMIT");
		print_limit(f, r, OLX_WARN_COUNT, OLX_WARN_LIMIT, "warning", "warnings");
		fputc('\n', f);
	}
	label(f, "PANIC_ON_OOPS");
	print_plain(f, r, OLX_PANIC_ON_OOPS);
	fputc('\n', f);
	label(f, "PANIC_ON_WARN");
	print_plain(f, r, OLX_PANIC_ON_WARN);
	if (pow->read && pow->value == 0 && !r->live && r->log_read &&
	    r->log.reason == OL_PANIC_ON_WARN)
		fprintf(f, " (cleared by panic(); the panic message names panic_on_warn)");
	fputc('\n', f);
	label(f, "TAINTED");
	if (!taint->read)
		print_plain(f, r, OLX_TAINTED_MASK);
	else if (taint->value == 0)
		fprintf(f, "no (0x0)");
	else
		fprintf(f, "%s (0x%lx)", r->have_taint ? r->taint : "?", taint->value);
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
		} else if (r->crashed) {
			fprintf(f, "none in the log: the kernel entered kdump before panic() printed\n");
		} else {
			fprintf(f, "none in the log\n");
		}
	}
	label(f, "VERDICT");
	print_verdict(f, r);
	if (!r->live && r->log_read) {
		label(f, "CONSISTENT");
		if (!olx_checkable(r)) {
			fprintf(f, "unknown (the counters it needs could not be read)\n");
		} else if (r->consistent) {
			fprintf(f, "yes\n");
		} else {
			fprintf(f, "no: ");
			put_text(f, r->why);
			fputc('\n', f);
		}
	}
	label(f, "LAST_WARNING");
	print_warning(f, r);
	if (verbose) {
		if (r->log_read && r->log.first_oops[0]) {
			label(f, "FIRST_OOPS");
			put_text(f, r->log.first_oops);
			fputc('\n', f);
		}
		for (i = 0; i < OLX_NVARS; i++) {
			const struct olx_var *v = &r->var[i];

			label(f, olx_var_name(i));
			if (v->found)
				fprintf(f, "%lx  ", v->addr);
			put_text(f, v->source[0] ? v->source : "not found");
			fputc('\n', f);
		}
	}
	for (i = 0; i < r->n_notes; i++) {
		label(f, "NOTE");
		put_text(f, r->notes[i]);
		fputc('\n', f);
	}
}

/* ---- JSON ---------------------------------------------------------------- */

static void jheadroom(FILE *f, const char *k, const struct olx_report *r,
		      enum olx_var_id count, enum olx_var_id limit, bool *first)
{
	unsigned long h = 0;
	bool have = r->var[count].read && r->var[limit].read &&
		    olx_headroom(r->var[count].value, r->var[limit].value, &h);

	ol_json_uint(f, k, have, h, first);
}

void olx_print_json(FILE *f, const struct olx_report *r)
{
	const struct ol_log *log = &r->log;
	bool first = true, logged = r->log_read && !r->live;
	unsigned int i;
	char addr[24];

	ol_json_uint(f, "format", true, 1, &first);
	ol_json_bool(f, "live", r->live, &first);
	ol_json_bool(f, "has_limits", !olx_no_limits(r), &first);
	for (i = 0; i < OLX_NVARS; i++) {
		ol_json_uint(f, olx_var_name(i), r->var[i].read, r->var[i].value, &first);
		if (i == OLX_OOPS_LIMIT)
			jheadroom(f, "oops_headroom", r, OLX_OOPS_COUNT, OLX_OOPS_LIMIT, &first);
		if (i == OLX_WARN_LIMIT)
			jheadroom(f, "warn_headroom", r, OLX_WARN_COUNT, OLX_WARN_LIMIT, &first);
	}
	ol_json_str(f, "taint", r->var[OLX_TAINTED_MASK].read && r->have_taint ? r->taint : NULL, &first);
	ol_json_uint(f, "crash_time", r->crashed, r->crash_time, &first);
	ol_json_bool(f, "log_read", r->log_read, &first);
	ol_json_uint(f, "log_lines", r->log_read, log->lines, &first);
	ol_json_key(f, "log_wrapped", &first);
	fputs(r->log_read ? (r->log_wrapped ? "true" : "false") : "null", f);
	ol_json_uint(f, "log_oopses", r->log_read, log->oopses, &first);
	ol_json_uint(f, "log_warnings", r->log_read, log->warnings, &first);
	ol_json_uint(f, "last_die", r->log_read && log->oopses, log->last_die, &first);
	ol_json_text(f, "first_oops", r->log_read ? log->first_oops : NULL, &first);
	ol_json_str(f, "panic", logged && log->have_panic ? log->panic : NULL, &first);
	ol_json_str(f, "verdict", olx_verdict(r), &first);
	ol_json_text(f, "origin", logged ? log->origin : NULL, &first);
	ol_json_text(f, "detail", logged ? log->detail : NULL, &first);
	ol_json_uint(f, "panic_limit", logged && log->have_limit, log->limit, &first);
	ol_json_key(f, "consistent", &first);
	fputs(olx_checkable(r) ? (r->consistent ? "true" : "false") : "null", f);
	ol_json_text(f, "inconsistency", logged && !r->consistent ? r->why : NULL, &first);
	ol_json_last_warning(f, log, &first);
	ol_json_key(f, "symbols", &first);
	fputc('{', f);
	for (i = 0; i < OLX_NVARS; i++) {
		fprintf(f, "%s\n    \"%s\": ", i ? "," : "", olx_var_name(i));
		if (!r->var[i].found) {
			fputs("null", f);
			continue;
		}
		snprintf(addr, sizeof(addr), "0x%lx", r->var[i].addr);
		fprintf(f, "{\"address\": \"%s\", \"source\": ", addr);
		ol_json_string(f, r->var[i].source);
		fprintf(f, ", \"read\": %s}", r->var[i].read ? "true" : "false");
	}
	fprintf(f, "\n  }");
	ol_json_key(f, "notes", &first);
	fputc('[', f);
	for (i = 0; i < r->n_notes; i++) {
		fprintf(f, "%s\n    ", i ? "," : "");
		ol_json_string(f, r->notes[i]);
	}
	fprintf(f, "%s]", r->n_notes ? "\n  " : "");
	fprintf(f, "\n}\n");
}
