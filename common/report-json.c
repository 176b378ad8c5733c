// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON report (ol_report_json), described by common/report.schema.json.
 * Its strings go through json.c's ol_json_string, the one escaper every JSON
 * writer of the project uses.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "report-int.h"

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
	bool known = ol_have(r, count) && ol_have(r, limit) &&
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

/* printk time, microseconds, as seconds: 3.401251 */
static void j_time(struct jw *w, const char *k, bool known, uint64_t us)
{
	key(w, k);
	if (known)
		fprintf(w->f, "%llu.%06llu", (unsigned long long)(us / 1000000), (unsigned long long)(us % 1000000));
	else
		fputs("null", w->f);
}

/* "frames": [ "name", ... ]: the top frames of the site's first report, as read */
static void j_frames(struct jw *w, const struct ol_site *site)
{
	unsigned int k;

	key(w, "frames");
	fputc('[', w->f);
	for (k = 0; k < site->nframes; k++) {
		fputs(k ? ", " : "", w->f);
		ol_json_string(w->f, site->frames[k]);
	}
	fputc(']', w->f);
}

/* "sites": [ { title, where, ... } ], most reports first as ol_sites keeps them: in log order */
static void j_sites(struct jw *w, const struct ol_report *r)
{
	const struct ol_sites *s = &r->sites;
	uint64_t gone = 0;
	unsigned int i;
	bool known;

	key(w, "sites");
	fputc('[', w->f);
	for (i = 0; i < s->n; i++) {
		const struct ol_site *site = &s->site[i];

		fprintf(w->f, "%s\n%*s", i ? "," : "", 2 * w->depth, "");
		open_obj(w);
		j_str(w, "title", site->title);
		j_text(w, "where", site->where);
		j_text(w, "function", site->func);
		j_text(w, "module", site->module);
		j_bool(w, "corrupted", site->corrupted);
		j_frames(w, site);
		j_str(w, "origin", site->origin);
		j_str(w, "counts", site->counts);
		j_uint(w, "count", true, site->count);
		j_uint(w, "after_panic", true, site->after_panic);
		j_time(w, "first_time", site->have_time, site->first_us);
		j_time(w, "last_time", site->have_time, site->last_us);
		close_obj(w);
	}
	fprintf(w->f, "%s]", s->n ? "\n    " : "");
	j_uint(w, "sites_dropped", true, s->dropped);
	known = ol_report_not_in_log(r, &gone);
	j_uint(w, "counted_not_in_log", known, gone);
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
	j_sites(w, r);
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

/* The dump's pages against the kernel's count of free ones: ol_pages_judge. */
static void j_pages(struct jw *w, const struct ol_capture *cap)
{
	uint64_t margin;
	int v = ol_pages_judge(cap, &margin);

	key(w, "pages");
	if (!cap->have_pages) {
		fputs("null", w->f);
		return;
	}
	open_obj(w);
	j_uint(w, "ram", true, cap->ram_pages);
	j_uint(w, "free", cap->have_free, cap->free_pages);
	j_uint(w, "saved", true, cap->saved_pages);
	j_uint(w, "margin", true, margin);
	j_bool(w, "free_excluded", v);
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
	j_text(w, "collector_version", cap->collector_version);
	j_pages(w, cap);
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
		ol_iso_time(r->crash_time, when, sizeof(when));
	j_str(&w, "crash_time", r->crashed ? when : NULL);
	j_str(&w, "panic_message", logged && r->log.have_panic ? r->log.panic : NULL);
	j_str(&w, "reason", r->reason);
	j_text(&w, "signature", r->signature);
	j_uint(&w, "signature_version", r->signature[0] != '\0', OL_SIGNATURE_VERSION);
	j_str(&w, "setting", r->setting != OL_V_NONE ? ol_vars[r->setting].sysctl : NULL);
	j_uint(&w, "setting_value", ol_have(r, r->setting), r->setting != OL_V_NONE ? r->var[r->setting].value : 0);
	j_text(&w, "origin", logged && (r->setting == OL_V_WARN_LIMIT || r->setting == OL_V_PANIC_ON_WARN) ?
	       r->log.origin : NULL);
	j_text(&w, "detail", r->detail);
	j_bool(&w, "consistent", r->consistent);
	j_text(&w, "evidence", r->evidence);
	j_str(&w, "counters_source", ol_source_name(ol_counters_source(r)));
	j_bool(&w, "has_limits", r->no_memory ? -1 : !ol_report_no_limits(r));
	for (i = 0; i < OL_NVARS; i++) {
		j_uint(&w, ol_vars[i].key, r->var[i].read, r->var[i].value);
		if (i == OL_V_OOPS_LIMIT)
			j_headroom(&w, "oops_headroom", r, OL_V_OOPS_COUNT, OL_V_OOPS_LIMIT);
		if (i == OL_V_WARN_LIMIT)
			j_headroom(&w, "warn_headroom", r, OL_V_WARN_COUNT, OL_V_WARN_LIMIT);
	}
	j_str(&w, "taint", ol_have(r, OL_V_TAINTED_MASK) && r->have_taint ? r->taint : NULL);
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
