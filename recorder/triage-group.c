// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-triage: Debian's version order (for "first seen on" and "new"),
 * the --known list, and the groups of a summary.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "triage.h"

/* ---- Debian's version order: deb-version(7), as dpkg --compare-versions ---- */

/* A character's weight: '~' before everything, even the end; letters before the rest. */
static int order(int c)
{
	if (isdigit(c))
		return 0;
	if (isalpha(c))
		return c;
	if (c == '~')
		return -1;
	return c ? c + 256 : 0;
}

/* The upstream versions or revisions a and b: non-digits by order(), digit runs as numbers. */
static int part_cmp(const char *a, const char *a_end, const char *b, const char *b_end)
{
	while (a < a_end || b < b_end) {
		int first_diff = 0;

		while ((a < a_end && !isdigit((unsigned char)*a)) || (b < b_end && !isdigit((unsigned char)*b))) {
			int ac = a < a_end ? order((unsigned char)*a) : 0;
			int bc = b < b_end ? order((unsigned char)*b) : 0;

			if (ac != bc)
				return ac - bc;
			a++;
			b++;
		}
		while (a < a_end && *a == '0')
			a++;
		while (b < b_end && *b == '0')
			b++;
		while (a < a_end && b < b_end && isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			if (!first_diff)
				first_diff = *a - *b;
			a++;
			b++;
		}
		if (a < a_end && isdigit((unsigned char)*a))
			return 1;
		if (b < b_end && isdigit((unsigned char)*b))
			return -1;
		if (first_diff)
			return first_diff;
	}
	return 0;
}

struct version {
	unsigned long epoch;
	const char *up, *up_end, *rev, *rev_end;
};

/* [epoch:]upstream[-revision]; the revision after the last hyphen. */
static void version_split(const char *s, struct version *v)
{
	const char *colon = strchr(s, ':'), *hyphen, *end = s + strlen(s), *p;

	v->epoch = 0;
	if (colon) {
		for (p = s; p < colon && isdigit((unsigned char)*p); p++)
			;
		if (p == colon && p > s) {
			errno = 0;
			v->epoch = strtoul(s, NULL, 10);
			if (errno)
				v->epoch = ULONG_MAX;
			s = colon + 1;
		}
	}
	hyphen = strrchr(s, '-');
	v->up = s;
	v->up_end = hyphen ? hyphen : end;
	v->rev = hyphen ? hyphen + 1 : end;
	v->rev_end = end;
}

int version_cmp(const char *a, const char *b)
{
	struct version x, y;
	int c;

	version_split(a, &x);
	version_split(b, &y);
	if (x.epoch != y.epoch)
		return x.epoch < y.epoch ? -1 : 1;
	c = part_cmp(x.up, x.up_end, y.up, y.up_end);
	if (c)
		return c;
	return part_cmp(x.rev, x.rev_end, y.rev, y.rev_end);
}

/* ---- --known FILE ---- */

#define MUTE UINT32_MAX
static uint32_t *known_of;	/* by signature id: the URL's id, MUTE, 0 */
static size_t n_known_of;

static uint32_t known(uint32_t sig)
{
	return sig < n_known_of ? known_of[sig] : 0;
}

bool is_muted(const struct rec *x)
{
	return known(x->signature) == MUTE;
}

/*
 * One signature a line, then blanks and its bug's URL or the word "mute";
 * "#" starts a comment line.  The signature is everything before the last
 * blank, so it may hold blanks itself.
 */
int load_known(const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, *end, *last;
	size_t cap = 0, len;
	unsigned long no = 0;
	uint32_t sig, what;
	int rc = 0;

	if (!f) {
		fprintf(stderr, "%s: error: --known %s: %s\n", PROG, path, strerror(errno));
		return -1;
	}
	while (rc == 0 && getline(&line, &cap, f) >= 0) {
		no++;
		len = strlen(line);
		while (len && isspace((unsigned char)line[len - 1]))
			line[--len] = '\0';
		for (last = line; *last == ' ' || *last == '\t'; last++)
			;
		if (!*last || *last == '#')
			continue;
		end = line + len;
		while (end > line && end[-1] != ' ' && end[-1] != '\t')
			end--;
		last = end;
		while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		*end = '\0';
		while (*line == ' ' || *line == '\t')
			memmove(line, line + 1, strlen(line));
		if (!line[0] || (strcmp(last, "mute") != 0 && strncmp(last, "https://", 8) != 0 &&
				 strncmp(last, "http://", 7) != 0)) {
			fprintf(stderr, "%s: error: --known %s:%lu: a signature, then a URL (http:// or https://) or "
				"the word mute\n", PROG, path, no);
			rc = -1;
			break;
		}
		what = strcmp(last, "mute") == 0 ? MUTE : intern(last);
		sig = intern(line);
		if (sig >= n_known_of) {
			size_t n = n_known_of ? n_known_of : 64;

			while (n <= sig)
				n *= 2;
			known_of = xrealloc(known_of, n * sizeof(*known_of));
			memset(known_of + n_known_of, 0, (n - n_known_of) * sizeof(*known_of));
			n_known_of = n;
		}
		known_of[sig] = what;
	}
	if (rc == 0 && ferror(f)) {
		fprintf(stderr, "%s: error: --known %s: %s\n", PROG, path, strerror(errno));
		rc = -1;
	}
	free(line);
	fclose(f);
	return rc;
}

/* ---- the groups ---- */

bool in_window(const struct opts *o, int64_t t)
{
	if (o->since == NONE && o->until == NONE)
		return true;
	return t != NONE && (o->since == NONE || t >= o->since) && (o->until == NONE || t < o->until);
}

bool passes(const struct opts *o, const struct rec *x)
{
	return (!o->reason || x->reason == o->reason) && (!o->release || x->release == o->release) &&
	       (!o->host || x->host == o->host);
}

/* (group, host) pairs seen, for the distinct hosts of a group */
static uint64_t *pairs;
static size_t n_pairs, n_pair_slots;

static bool pair_add(uint64_t key)
{
	size_t j, i;

	if (2 * (n_pairs + 1) > n_pair_slots) {
		uint64_t *old = pairs;
		size_t n_old = n_pair_slots;

		n_pair_slots = n_pair_slots ? n_pair_slots * 2 : 4096;
		pairs = xrealloc(NULL, n_pair_slots * sizeof(*pairs));
		memset(pairs, 0, n_pair_slots * sizeof(*pairs));
		for (i = 0; i < n_old; i++) {
			if (!old[i])
				continue;
			for (j = (old[i] * 0x9e3779b97f4a7c15ULL) >> 20 & (n_pair_slots - 1); pairs[j];
			     j = (j + 1) & (n_pair_slots - 1))
				;
			pairs[j] = old[i];
		}
		free(old);
	}
	key++;	/* 0 marks an empty slot */
	for (j = (key * 0x9e3779b97f4a7c15ULL) >> 20 & (n_pair_slots - 1); pairs[j]; j = (j + 1) & (n_pair_slots - 1))
		if (pairs[j] == key)
			return false;
	pairs[j] = key;
	n_pairs++;
	return true;
}

static uint32_t *rank;		/* by release id: its place in Debian's order, 0 for none */

static int by_version(const void *a, const void *b)
{
	return version_cmp(str(*(const uint32_t *)a), str(*(const uint32_t *)b));
}

/* The releases of r in Debian's order, once: then a comparison is of two numbers. */
static void rank_releases(const struct recs *r, size_t n_ids)
{
	uint32_t *ids = xrealloc(NULL, (n_ids + 1) * sizeof(*ids));
	size_t i, n = 0;

	rank = xrealloc(NULL, n_ids * sizeof(*rank));
	memset(rank, 0, n_ids * sizeof(*rank));
	for (i = 0; i < r->n; i++)
		if (r->v[i].release && !rank[r->v[i].release]) {
			rank[r->v[i].release] = 1;
			ids[n++] = r->v[i].release;
		}
	qsort(ids, n, sizeof(*ids), by_version);
	for (i = 0; i < n; i++)
		rank[ids[i]] = (uint32_t)i + 1;
	free(ids);
}

static uint32_t key_of(const struct opts *o, const struct rec *x)
{
	switch (o->by) {
	case BY_REASON:
		return x->reason;
	case BY_RELEASE:
		return x->release ? x->release : intern("unknown");
	case BY_HOST:
		return x->host;
	default:
		return x->signature;
	}
}

/* Newer first; at the same time, by the dump's name (from the index, rare). */
static bool newer(const struct rec *a, const struct rec *b)
{
	char name[PATH_MAX];

	if (a->time != b->time)
		return a->time > b->time;
	snprintf(name, sizeof(name), "%s", rec_dump(a));
	return strcmp(name, rec_dump(b)) < 0;
}

static void sample(const struct opts *o, struct group *g, const struct rec *x)
{
	unsigned int i;

	if (!o->samples)
		return;
	if (!g->samples)
		g->samples = xrealloc(NULL, o->samples * sizeof(*g->samples));
	if (g->n_samples == o->samples && !newer(x, g->samples[g->n_samples - 1]))
		return;
	if (g->n_samples < o->samples)
		g->n_samples++;
	for (i = g->n_samples - 1; i > 0 && newer(x, g->samples[i - 1]); i--)
		g->samples[i] = g->samples[i - 1];
	g->samples[i] = x;
}

static void count_in(struct group *g, const struct rec *x)
{
	unsigned int i;

	g->panics++;
	for (i = 0; i < g->n_releases && g->releases[i].release != x->release; i++)
		;
	if (i == g->n_releases) {
		g->releases = xrealloc(g->releases, (i + 1) * sizeof(*g->releases));
		g->releases[i].release = x->release;
		g->releases[i].n = 0;
		g->n_releases++;
	}
	g->releases[i].n++;
	for (i = 0; i < g->n_reasons && g->reasons[i] != x->reason; i++)
		;
	if (i == g->n_reasons) {
		if (i < sizeof(g->reasons) / sizeof(g->reasons[0]))
			g->reasons[g->n_reasons++] = x->reason;
		else
			g->more_reasons = true;
	}
	if (x->time != NONE && (g->first == NONE || x->time < g->first))
		g->first = x->time;
	if (x->time != NONE && (g->last == NONE || x->time > g->last))
		g->last = x->time;
}

static int by_panics(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->panics != y->panics)
		return x->panics > y->panics ? -1 : 1;
	return strcmp(str(x->key), str(y->key));
}

static int by_rank(const void *a, const void *b)
{
	const struct release_count *x = a, *y = b;

	return (rank[x->release] > rank[y->release]) - (rank[x->release] < rank[y->release]);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(str(*(const uint32_t *)a), str(*(const uint32_t *)b));
}

void summarize(const struct opts *o, const struct recs *r, struct summary *s)
{
	size_t n_ids, i, kept = 0;
	uint32_t *group_of, *muted_seen, best = 0;
	uint8_t *host_seen;
	bool *not_new;
	int64_t prev_since = o->since != NONE && o->until != NONE ? o->since - (o->until - o->since) : NONE;

	intern("unknown");	/* key_of's, before the count */
	n_ids = n_interned();
	memset(s, 0, sizeof(*s));
	s->skipped = r->skipped;
	s->has_window = o->since != NONE || o->until != NONE;
	rank_releases(r, n_ids);
	group_of = calloc(n_ids, sizeof(*group_of));
	muted_seen = calloc(n_ids, sizeof(*muted_seen));
	host_seen = calloc(n_ids, 1);
	if (!group_of || !muted_seen || !host_seen)
		xrealloc(NULL, SIZE_MAX);
	for (i = 0; i < r->n; i++) {
		const struct rec *x = &r->v[i];

		if (!passes(o, x))
			s->filtered++;
		else if (known(x->signature) != MUTE && x->release && rank[x->release] > rank[best])
			best = x->release;
	}
	s->newest = best;
	not_new = calloc(n_ids, sizeof(*not_new));
	if (!not_new)
		xrealloc(NULL, SIZE_MAX);
	for (i = 0; i < r->n; i++) {
		const struct rec *x = &r->v[i];
		uint32_t k = key_of(o, x);
		struct group *g;

		if (!passes(o, x))
			continue;
		if (known(x->signature) == MUTE) {
			if (in_window(o, x->time)) {
				s->muted_panics++;
				if (!muted_seen[x->signature]) {
					muted_seen[x->signature] = 1;
					s->muted_groups++;
				}
			}
			continue;
		}
		if (!group_of[k]) {
			s->groups = xrealloc(s->groups, (s->n_groups + 1) * sizeof(*s->groups));
			g = &s->groups[s->n_groups];
			memset(g, 0, sizeof(*g));
			g->key = k;
			g->first = g->last = NONE;
			g->known = o->by == BY_SIGNATURE ? known(k) : 0;
			group_of[k] = (uint32_t)++s->n_groups;
		}
		g = &s->groups[group_of[k] - 1];
		if (x->release && (!g->first_release || rank[x->release] < rank[g->first_release]))
			g->first_release = x->release;
		if (x->release != best || !best)
			not_new[k] = true;
		if (prev_since != NONE && x->time != NONE && x->time >= prev_since && x->time < o->since)
			g->previous++;
		if (!in_window(o, x->time)) {
			s->outside++;
			continue;
		}
		s->reports++;
		if (!host_seen[x->host]) {
			host_seen[x->host] = 1;
			s->hosts++;
		}
		if (pair_add((uint64_t)(group_of[k] - 1) << 32 | x->host))
			g->hosts++;
		count_in(g, x);
		sample(o, g, x);
	}
	/* the groups with panics in the window, most first */
	for (i = 0; i < s->n_groups; i++) {
		struct group *g = &s->groups[i];

		g->new = !not_new[g->key];
		if (!g->panics) {
			free(g->releases);
			free(g->samples);
			continue;
		}
		qsort(g->releases, g->n_releases, sizeof(*g->releases), by_rank);
		qsort(g->reasons, g->n_reasons, sizeof(*g->reasons), by_text);
		s->groups[kept++] = *g;
	}
	s->n_groups = kept;
	qsort(s->groups, s->n_groups, sizeof(*s->groups), by_panics);
	s->shown = o->top && o->top < s->n_groups ? o->top : s->n_groups;
	free(group_of);
	free(muted_seen);
	free(host_seen);
	free(not_new);
}
