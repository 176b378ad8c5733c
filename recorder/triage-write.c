// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-triage: the writers.  The text, --json and --csv carry the same
 * members of each group; --json-lines is one report a line; --metrics is
 * node_exporter's textfile format for the groups shown.
 */
#define _GNU_SOURCE
#include <string.h>

#include "../common/json.h"
#include "triage.h"

#define METRICS_TOP 20	/* groups in the metrics without --top: a bounded label cardinality */

const char *group_by_name(enum group_by by)
{
	static const char *const names[] = { "signature", "reason", "release", "host" };

	return names[by];
}

void iso(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t == NONE || !gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%s", "");
}

/* ---- text ---- */

static void text_group(FILE *f, const struct opts *o, const struct summary *s, const struct group *g)
{
	char first[24], last[24], prev[24] = "-", change[24] = "-";
	unsigned int i;

	iso(g->first, first, sizeof(first));
	iso(g->last, last, sizeof(last));
	if (s->has_window && o->since != NONE) {
		snprintf(prev, sizeof(prev), "%lu", g->previous);
		snprintf(change, sizeof(change), "%+ld", (long)g->panics - (long)g->previous);
	}
	fprintf(f, "%6lu %6s %6s %5lu %5.1f%%  %-20s  %-20s  %s\n", g->panics, prev, change, g->hosts,
		100.0 * (double)g->hosts / (double)s->hosts, first[0] ? first : "-", last[0] ? last : "-",
		str(g->key));
	fprintf(f, "%7s", "");
	if (g->new)
		fprintf(f, "NEW: only on %s, the newest kernel", str(g->first_release));
	else
		fprintf(f, "first seen on %s", g->first_release ? str(g->first_release) : "an unknown kernel");
	fprintf(f, "; kernels: ");
	for (i = 0; i < g->n_releases; i++)
		fprintf(f, "%s%s (%lu)", i ? ", " : "", g->releases[i].release ? str(g->releases[i].release) : "unknown",
			g->releases[i].n);
	fprintf(f, "; reasons: ");
	for (i = 0; i < g->n_reasons; i++)
		fprintf(f, "%s%s", i ? ", " : "", str(g->reasons[i]));
	fprintf(f, "%s\n", g->more_reasons ? ", ..." : "");
	if (g->known)
		fprintf(f, "%7sknown: %s\n", "", str(g->known));
	for (i = 0; i < g->n_samples; i++)
		fprintf(f, "%7s%s %s\n", "", i ? "     " : "dumps:", rec_dump(g->samples[i]));
}

static void text(FILE *f, const struct opts *o, const struct summary *s)
{
	char since[24], until[24];
	size_t i;

	fprintf(f, "%6s %6s %6s %5s %6s  %-20s  %-20s  %s\n", "PANICS", "PREV", "CHANGE", "HOSTS", "SHARE", "FIRST",
		"LAST", o->by == BY_SIGNATURE ? "SIGNATURE" : o->by == BY_REASON ? "REASON" :
		o->by == BY_RELEASE ? "KERNEL" : "HOST");
	for (i = 0; i < s->shown; i++)
		text_group(f, o, s, &s->groups[i]);
	fprintf(f, "%lu report%s from %lu host%s in %zu group%s", s->reports, s->reports == 1 ? "" : "s", s->hosts,
		s->hosts == 1 ? "" : "s", s->n_groups, s->n_groups == 1 ? "" : "s");
	if (s->shown < s->n_groups)
		fprintf(f, " (the first %zu shown)", s->shown);
	if (s->newest)
		fprintf(f, "; newest kernel %s", str(s->newest));
	if (s->muted_groups)
		fprintf(f, "; %lu muted group%s (%lu panic%s) left out", s->muted_groups, s->muted_groups == 1 ? "" : "s",
			s->muted_panics, s->muted_panics == 1 ? "" : "s");
	if (s->filtered)
		fprintf(f, "; %lu not matching the filters", s->filtered);
	if (s->skipped)
		fprintf(f, "; %lu file%s skipped", s->skipped, s->skipped == 1 ? "" : "s");
	if (s->has_window) {
		iso(o->since, since, sizeof(since));
		iso(o->until, until, sizeof(until));
		fprintf(f, "; %lu outside %s to %s or without a time", s->outside, since[0] ? since : "the start",
			until[0] ? until : "now");
	}
	fputc('\n', f);
	if (s->index_line)
		fprintf(f, "%s\n", s->index_line);
}

/* ---- JSON ---- */

static void json_time(FILE *f, int64_t t)
{
	char buf[24];

	iso(t, buf, sizeof(buf));
	if (buf[0])
		ol_json_string(f, buf);
	else
		fputs("null", f);
}

static void json_id(FILE *f, uint32_t id)
{
	if (id)
		ol_json_string(f, str(id));
	else
		fputs("null", f);
}

static uint32_t release_of(const struct group *g, unsigned int i)
{
	return g->releases[i].release;
}

static uint32_t reason_of(const struct group *g, unsigned int i)
{
	return g->reasons[i];
}

static uint32_t sample_of(const struct group *g, unsigned int i)
{
	return intern(rec_dump(g->samples[i]));
}

/* ,"key":[...] of a group's strings (null for the id 0) */
static void json_array(FILE *f, const char *key, const struct group *g, unsigned int n,
		       uint32_t (*item)(const struct group *, unsigned int))
{
	unsigned int i;

	fprintf(f, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		fputs(i ? "," : "", f);
		json_id(f, item(g, i));
	}
	fputc(']', f);
}

static void json_group(FILE *f, const struct opts *o, const struct summary *s, const struct group *g)
{
	unsigned int i;

	fprintf(f, "{\"%s\":", group_by_name(o->by));
	ol_json_string(f, str(g->key));
	fprintf(f, ",\"panics\":%lu,\"previous\":", g->panics);
	if (o->since != NONE)
		fprintf(f, "%lu,\"change\":%ld", g->previous, (long)g->panics - (long)g->previous);
	else
		fputs("null,\"change\":null", f);
	fprintf(f, ",\"hosts\":%lu,\"share\":%.4f,\"first_release\":", g->hosts, (double)g->hosts / (double)s->hosts);
	json_id(f, g->first_release);
	fprintf(f, ",\"new\":%s,\"releases\":[", g->new ? "true" : "false");
	for (i = 0; i < g->n_releases; i++) {
		fprintf(f, "%s{\"release\":", i ? "," : "");
		json_id(f, g->releases[i].release);
		fprintf(f, ",\"panics\":%lu}", g->releases[i].n);
	}
	fputc(']', f);
	json_array(f, "kernel_releases", g, g->n_releases, release_of);
	json_array(f, "reasons", g, g->n_reasons, reason_of);
	fputs(",\"first_crash\":", f);
	json_time(f, g->first);
	fputs(",\"last_crash\":", f);
	json_time(f, g->last);
	json_array(f, "samples", g, g->n_samples, sample_of);
	fputs(",\"known\":", f);
	json_id(f, g->known);
	fputc('}', f);
}

static void json(FILE *f, const struct opts *o, const struct summary *s)
{
	size_t i;

	fprintf(f, "{\"reports\":%lu,\"hosts\":%lu,\"skipped\":%lu,\"before_since\":%lu,\"filtered\":%lu,"
		"\"group_by\":\"%s\",\"since\":", s->reports, s->hosts, s->skipped, s->outside, s->filtered,
		group_by_name(o->by));
	json_time(f, o->since);
	fputs(",\"until\":", f);
	json_time(f, o->until);
	fputs(",\"newest_release\":", f);
	json_id(f, s->newest);
	fprintf(f, ",\"muted\":{\"groups\":%lu,\"panics\":%lu},\"index\":", s->muted_groups, s->muted_panics);
	if (s->index_line)
		ol_json_string(f, s->index_line);
	else
		fputs("null", f);
	fprintf(f, ",\"total_groups\":%zu,\"groups\":[", s->n_groups);
	for (i = 0; i < s->shown; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_group(f, o, s, &s->groups[i]);
	}
	fputs("\n]}\n", f);
}

/* ---- CSV ---- */

/* Text inside a quoted field: a double quote doubled. */
static void csv_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
}

static void csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	csv_text(f, s);
	fputc('"', f);
}

static void csv(FILE *f, const struct opts *o, const struct summary *s)
{
	char a[24], b[24];
	size_t i;
	unsigned int j;

	fprintf(f, "%s,panics,previous,change,hosts,share,first_release,new,releases,reasons,first_crash,last_crash,"
		"samples,known\n", group_by_name(o->by));
	for (i = 0; i < s->shown; i++) {
		const struct group *g = &s->groups[i];

		csv_field(f, str(g->key));
		fprintf(f, ",%lu,", g->panics);
		if (o->since != NONE)
			fprintf(f, "%lu,%+ld", g->previous, (long)g->panics - (long)g->previous);
		else
			fputc(',', f);
		fprintf(f, ",%lu,%.4f,", g->hosts, (double)g->hosts / (double)s->hosts);
		csv_field(f, str(g->first_release));
		fprintf(f, ",%s,\"", g->new ? "yes" : "no");
		/* the lists, each one field joined with ";" */
		for (j = 0; j < g->n_releases; j++) {
			fputs(j ? ";" : "", f);
			csv_text(f, g->releases[j].release ? str(g->releases[j].release) : "unknown");
			fprintf(f, "=%lu", g->releases[j].n);
		}
		fputs("\",\"", f);
		for (j = 0; j < g->n_reasons; j++) {
			fputs(j ? ";" : "", f);
			csv_text(f, str(g->reasons[j]));
		}
		iso(g->first, a, sizeof(a));
		iso(g->last, b, sizeof(b));
		fprintf(f, "%s\",%s,%s,\"", g->more_reasons ? ";..." : "", a, b);
		for (j = 0; j < g->n_samples; j++) {
			fputs(j ? ";" : "", f);
			csv_text(f, rec_dump(g->samples[j]));
		}
		fputs("\",", f);
		csv_field(f, str(g->known));
		fputc('\n', f);
	}
}

void write_summary(FILE *f, const struct opts *o, const struct summary *s)
{
	if (o->format == 'j')
		json(f, o, s);
	else if (o->format == 'c')
		csv(f, o, s);
	else
		text(f, o, s);
}

/* ---- one report a line ---- */

void write_lines(FILE *f, const struct opts *o, const struct recs *r)
{
	size_t i;
	int c;

	for (i = 0; i < r->n; i++) {
		const struct rec *x = &r->v[i];

		if (!passes(o, x) || is_muted(x) || !in_window(o, x->time))
			continue;
		fputs("{\"host\":", f);
		ol_json_string(f, str(x->host));
		fputs(",\"tree\":", f);
		ol_json_string(f, str(x->root));
		fputs(",\"dump\":", f);
		ol_json_string(f, rec_dump(x));
		fputs(",\"signature\":", f);
		ol_json_string(f, str(x->signature));
		fputs(",\"signature_version\":", f);
		x->sigver == NONE ? (void)fputs("null", f) : (void)fprintf(f, "%lld", (long long)x->sigver);
		fputs(",\"reason\":", f);
		ol_json_string(f, str(x->reason));
		fputs(",\"kernel_release\":", f);
		json_id(f, x->release);
		fputs(",\"crash_time\":", f);
		json_time(f, x->time);
		for (c = 0; c < N_COUNTERS; c++) {
			fprintf(f, ",\"%s\":", counter_names[c]);
			x->counters[c] == NONE ? (void)fputs("null", f) :
						 (void)fprintf(f, "%lld", (long long)x->counters[c]);
		}
		fputs("}\n", f);
	}
}

/* ---- node_exporter's textfile ---- */

/* A label value: backslash, double quote and newline escaped, as the text format wants. */
static void label(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void metric(FILE *f, const struct opts *o, const struct summary *s, size_t n, const char *name,
		   const char *help, int which)
{
	size_t i;

	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	for (i = 0; i < n; i++) {
		const struct group *g = &s->groups[i];
		unsigned long v = which == 0 ? g->panics : which == 1 ? g->previous : which == 2 ? g->hosts : g->new;

		fprintf(f, "%s{%s=", name, group_by_name(o->by));
		label(f, str(g->key));
		fprintf(f, "} %lu\n", v);
	}
}

void write_metrics(FILE *f, const struct opts *o, const struct summary *s)
{
	size_t n = o->top ? s->shown : s->n_groups < METRICS_TOP ? s->n_groups : METRICS_TOP;

	metric(f, o, s, n, "oopslimit_bucket_panics", "Panics of the bucket in the window (oopslimit-triage).", 0);
	if (o->since != NONE)
		metric(f, o, s, n, "oopslimit_bucket_previous_panics",
		       "Panics of the bucket in the window of the same length before it.", 1);
	metric(f, o, s, n, "oopslimit_bucket_hosts", "Hosts with a panic of the bucket in the window.", 2);
	metric(f, o, s, n, "oopslimit_bucket_new",
	       "1 when every report of the bucket is on the newest kernel release seen.", 3);
	fprintf(f, "# HELP oopslimit_triage_reports Reports in the window.\n# TYPE oopslimit_triage_reports gauge\n"
		"oopslimit_triage_reports %lu\n", s->reports);
	fprintf(f, "# HELP oopslimit_triage_hosts Hosts that reported a panic in the window.\n"
		"# TYPE oopslimit_triage_hosts gauge\noopslimit_triage_hosts %lu\n", s->hosts);
	fprintf(f, "# HELP oopslimit_triage_buckets Buckets with a panic in the window, muted ones aside.\n"
		"# TYPE oopslimit_triage_buckets gauge\noopslimit_triage_buckets %zu\n", s->n_groups);
	fprintf(f, "# HELP oopslimit_triage_muted_panics Panics of muted buckets in the window.\n"
		"# TYPE oopslimit_triage_muted_panics gauge\noopslimit_triage_muted_panics %lu\n", s->muted_panics);
	fprintf(f, "# HELP oopslimit_triage_skipped_files Files under the tree that are no report.\n"
		"# TYPE oopslimit_triage_skipped_files gauge\noopslimit_triage_skipped_files %lu\n", s->skipped);
}
