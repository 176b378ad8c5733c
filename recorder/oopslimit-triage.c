// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-triage: the panics of a fleet, grouped by signature.
 *
 * Reads every report (reason.json, and any *.json beside it) under the
 * trees it is given, a local dump directory or a dump server's per-host
 * directories, and prints one row per signature, most panics first: the
 * panics, the hosts, the reasons, the kernel releases, the first and last
 * crash.  A file that cannot be read or is no oopslimit report is named on
 * standard error and skipped.  Symbolic links are never followed: every
 * open is relative to its directory with O_NOFOLLOW.  See
 * oopslimit-triage.1.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/json.h"

#define PROG "oopslimit-triage"
#define MAX_REPORT (1 << 20)	/* a report is a few KiB; anything past this is no report */
#define MAX_DEPTH 16
#define KEEP 6			/* distinct reasons and releases listed a group */

/* ---- strings, interned -------------------------------------------------- */

struct str {
	char *s;
	uint32_t hash;
};

static struct str *strs;
static size_t n_strs, cap_strs;
static uint32_t *str_slots;	/* index + 1, 0 empty */
static size_t n_str_slots;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "%s: error: out of memory\n", PROG);
		exit(1);
	}
	return p;
}

static uint32_t hash_of(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void str_grow(void)
{
	size_t i, j;

	n_str_slots = n_str_slots ? n_str_slots * 2 : 1024;
	free(str_slots);
	str_slots = xrealloc(NULL, n_str_slots * sizeof(*str_slots));
	memset(str_slots, 0, n_str_slots * sizeof(*str_slots));
	for (i = 0; i < n_strs; i++) {
		for (j = strs[i].hash & (n_str_slots - 1); str_slots[j]; j = (j + 1) & (n_str_slots - 1))
			;
		str_slots[j] = (uint32_t)i + 1;
	}
}

/* The id of string s, the same for the same text. */
static uint32_t intern(const char *s)
{
	uint32_t h = hash_of(s);
	size_t j;

	if (2 * (n_strs + 1) > n_str_slots)
		str_grow();
	for (j = h & (n_str_slots - 1); str_slots[j]; j = (j + 1) & (n_str_slots - 1))
		if (strs[str_slots[j] - 1].hash == h && strcmp(strs[str_slots[j] - 1].s, s) == 0)
			return str_slots[j] - 1;
	if (n_strs == cap_strs) {
		cap_strs = cap_strs ? cap_strs * 2 : 1024;
		strs = xrealloc(strs, cap_strs * sizeof(*strs));
	}
	strs[n_strs].s = strdup(s);
	if (!strs[n_strs].s)
		xrealloc(NULL, SIZE_MAX);
	strs[n_strs].hash = h;
	str_slots[j] = (uint32_t)n_strs + 1;
	return (uint32_t)n_strs++;
}

/* ---- groups ----------------------------------------------------------- */

struct group {
	uint32_t signature;
	unsigned long panics, hosts;
	uint32_t reasons[KEEP], releases[KEEP];
	unsigned int n_reasons, n_releases;
	bool more_reasons, more_releases;
	char first[24], last[24];	/* "YYYY-MM-DDTHH:MM:SSZ", "" unknown */
};

static struct group *groups;
static size_t n_groups, cap_groups;
static uint32_t *group_of;	/* by signature id: group index + 1 */
static size_t n_group_of;

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

static void keep(uint32_t *list, unsigned int *n, bool *more, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (list[i] == id)
			return;
	if (*n < KEEP)
		list[(*n)++] = id;
	else
		*more = true;
}

/* ---- one report ----------------------------------------------------------- */

struct report {
	bool schema, reason_seen;
	char reason[OL_JSON_VALUE], signature[OL_JSON_VALUE], release[OL_JSON_VALUE];
	char crash_time[OL_JSON_VALUE], capture_time[OL_JSON_VALUE];
};

static void member(void *arg, const char *parent, const char *key, enum ol_json_type type, const char *value)
{
	struct report *r = arg;
	char *dst = NULL;

	if (parent[0]) {
		if (strcmp(parent, "capture") == 0 && strcmp(key, "time") == 0)
			dst = r->capture_time;
	} else if (strcmp(key, "schema") == 0) {
		r->schema = type == OL_JSON_NUMBER;
	} else if (strcmp(key, "reason") == 0) {
		r->reason_seen = true;
		dst = r->reason;
	} else if (strcmp(key, "signature") == 0) {
		dst = r->signature;
	} else if (strcmp(key, "kernel_release") == 0) {
		dst = r->release;
	} else if (strcmp(key, "crash_time") == 0) {
		dst = r->crash_time;
	}
	if (dst && type == OL_JSON_STRING)
		snprintf(dst, OL_JSON_VALUE, "%s", value);
}

/* "2026-12-06T12:00:00Z" and nothing else: then it compares as text. */
static bool iso_time(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	size_t i;

	for (i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i])
			return false;
	return s[i] == '\0';
}

static char since[24];
static unsigned long n_reports, n_skipped, n_old;
static char *buf;

static void skip(const char *path, const char *why)
{
	fprintf(stderr, "%s: skipped %s: %s\n", PROG, path, why);
	n_skipped++;
}

static void add_report(const struct report *r, const char *host)
{
	const char *when = iso_time(r->crash_time) ? r->crash_time : iso_time(r->capture_time) ? r->capture_time : "";
	uint32_t sig = intern(r->signature[0] ? r->signature : r->reason[0] ? r->reason : "unknown");
	struct group *g;

	if (since[0] && (!when[0] || strcmp(when, since) < 0)) {
		n_old++;
		return;
	}
	n_reports++;
	if (sig >= n_group_of) {
		size_t n = n_group_of ? n_group_of : 1024;

		while (n <= sig)
			n *= 2;
		group_of = xrealloc(group_of, n * sizeof(*group_of));
		memset(group_of + n_group_of, 0, (n - n_group_of) * sizeof(*group_of));
		n_group_of = n;
	}
	if (!group_of[sig]) {
		if (n_groups == cap_groups) {
			cap_groups = cap_groups ? cap_groups * 2 : 256;
			groups = xrealloc(groups, cap_groups * sizeof(*groups));
		}
		memset(&groups[n_groups], 0, sizeof(groups[0]));
		groups[n_groups].signature = sig;
		group_of[sig] = (uint32_t)++n_groups;
	}
	g = &groups[group_of[sig] - 1];
	g->panics++;
	if (pair_add((uint64_t)(group_of[sig] - 1) << 32 | intern(host)))
		g->hosts++;
	keep(g->reasons, &g->n_reasons, &g->more_reasons, intern(r->reason[0] ? r->reason : "unknown"));
	if (r->release[0])
		keep(g->releases, &g->n_releases, &g->more_releases, intern(r->release));
	if (when[0] && (!g->first[0] || strcmp(when, g->first) < 0))
		memcpy(g->first, when, 21);
	if (when[0] && strcmp(when, g->last) > 0)
		memcpy(g->last, when, 21);
}

/* The directory above the report's own: a dump server's per-host directory. */
static void host_of(const char *path, char *host, size_t len)
{
	const char *end = strrchr(path, '/'), *p;

	if (end)
		while (end > path && end[-1] == '/')
			end--;
	p = end ? memrchr(path, '/', (size_t)(end - path)) : NULL;
	if (!p) {
		snprintf(host, len, "%s", "unknown");
		return;
	}
	end = p;
	p = memrchr(path, '/', (size_t)(end - path));
	p = p ? p + 1 : path;
	snprintf(host, len, "%.*s", (int)(end - p), p);
}

static void read_report(int dir, const char *name, const char *path)
{
	struct report r;
	struct stat st;
	char err[160], host[256];
	size_t got = 0;
	ssize_t n;
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0) {
		skip(path, strerror(errno));
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_REPORT) {
		skip(path, S_ISREG(st.st_mode) ? "larger than a report can be" : "not a regular file");
		close(fd);
		return;
	}
	/* up to its size: no read just to see the end */
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, (size_t)st.st_size - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			skip(path, strerror(errno));
			close(fd);
			return;
		}
		got += (size_t)n;
	}
	close(fd);
	memset(&r, 0, sizeof(r));
	if (ol_json_read(buf, got, member, &r, err, sizeof(err)) != 0) {
		skip(path, err);
		return;
	}
	if (!r.schema || !r.reason_seen) {
		skip(path, "not an oopslimit report (no schema and reason members)");
		return;
	}
	host_of(path, host, sizeof(host));
	add_report(&r, host);
}

static bool is_report_name(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static void walk(int dir, const char *path, int depth)
{
	DIR *d = fdopendir(dir);
	struct dirent *e;
	char sub[PATH_MAX];
	struct stat st;
	int fd;

	if (!d) {
		skip(path, strerror(errno));
		close(dir);
		return;
	}
	while ((errno = 0, e = readdir(d))) {
		unsigned char type = e->d_type;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >= sizeof(sub)) {
			skip(path, "a name too long under it");
			continue;
		}
		if (type == DT_UNKNOWN) {
			if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
				skip(sub, strerror(errno));
				continue;
			}
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG :
			       S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
		}
		if (type == DT_DIR) {
			if (depth >= MAX_DEPTH) {
				skip(sub, "nested too deep");
				continue;
			}
			fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				skip(sub, strerror(errno));
			else
				walk(fd, sub, depth + 1);
		} else if (type == DT_LNK && is_report_name(e->d_name)) {
			skip(sub, "a symbolic link (not followed)");
		} else if (type == DT_REG && is_report_name(e->d_name)) {
			read_report(dirfd(d), e->d_name, sub);
		}
	}
	if (errno)
		skip(path, strerror(errno));
	closedir(d);
}

/* ---- output ----------------------------------------------------------------- */

static int by_panics(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->panics != y->panics)
		return x->panics > y->panics ? -1 : 1;
	return strcmp(strs[x->signature].s, strs[y->signature].s);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(strs[*(const uint32_t *)a].s, strs[*(const uint32_t *)b].s);
}

static void list(FILE *f, const uint32_t *ids, unsigned int n, bool more, const char *sep)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? sep : "", strs[ids[i]].s);
	if (more)
		fprintf(f, "%s...", n ? sep : "");
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_list(FILE *f, const uint32_t *ids, unsigned int n)
{
	unsigned int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		json_str(f, strs[ids[i]].s);
	}
	fputc(']', f);
}

static void csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_list(FILE *f, const uint32_t *ids, unsigned int n, bool more)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		xrealloc(NULL, SIZE_MAX);
	list(m, ids, n, more, ";");
	fclose(m);
	csv_field(f, text);
	free(text);
}

static void print(FILE *f, int format)
{
	size_t i;

	qsort(groups, n_groups, sizeof(*groups), by_panics);
	for (i = 0; i < n_groups; i++) {
		qsort(groups[i].reasons, groups[i].n_reasons, sizeof(uint32_t), by_text);
		qsort(groups[i].releases, groups[i].n_releases, sizeof(uint32_t), by_text);
	}
	if (format == 'j') {
		fprintf(f, "{\"reports\":%lu,\"skipped\":%lu,\"before_since\":%lu,\"groups\":[", n_reports, n_skipped,
			n_old);
		for (i = 0; i < n_groups; i++) {
			const struct group *g = &groups[i];

			fprintf(f, "%s\n{\"signature\":", i ? "," : "");
			json_str(f, strs[g->signature].s);
			fprintf(f, ",\"panics\":%lu,\"hosts\":%lu,\"reasons\":", g->panics, g->hosts);
			json_list(f, g->reasons, g->n_reasons);
			fprintf(f, ",\"kernel_releases\":");
			json_list(f, g->releases, g->n_releases);
			fprintf(f, ",\"first_crash\":");
			g->first[0] ? json_str(f, g->first) : (void)fputs("null", f);
			fprintf(f, ",\"last_crash\":");
			g->last[0] ? json_str(f, g->last) : (void)fputs("null", f);
			fputc('}', f);
		}
		fprintf(f, "\n]}\n");
		return;
	}
	if (format == 'c') {
		fprintf(f, "signature,panics,hosts,reasons,kernel_releases,first_crash,last_crash\n");
		for (i = 0; i < n_groups; i++) {
			const struct group *g = &groups[i];

			csv_field(f, strs[g->signature].s);
			fprintf(f, ",%lu,%lu,", g->panics, g->hosts);
			csv_list(f, g->reasons, g->n_reasons, g->more_reasons);
			fputc(',', f);
			csv_list(f, g->releases, g->n_releases, g->more_releases);
			fprintf(f, ",%s,%s\n", g->first, g->last);
		}
		return;
	}
	fprintf(f, "%6s %5s  %-20s  %-20s  %s\n", "PANICS", "HOSTS", "FIRST", "LAST", "SIGNATURE");
	for (i = 0; i < n_groups; i++) {
		const struct group *g = &groups[i];

		fprintf(f, "%6lu %5lu  %-20s  %-20s  %s\n", g->panics, g->hosts, g->first[0] ? g->first : "-",
			g->last[0] ? g->last : "-", strs[g->signature].s);
		fprintf(f, "%36s reasons: ", "");
		list(f, g->reasons, g->n_reasons, g->more_reasons, ", ");
		fprintf(f, "; kernels: ");
		if (!g->n_releases)
			fputs("-", f);
		list(f, g->releases, g->n_releases, g->more_releases, ", ");
		fputc('\n', f);
	}
	fprintf(f, "%lu report%s in %zu group%s", n_reports, n_reports == 1 ? "" : "s", n_groups,
		n_groups == 1 ? "" : "s");
	if (n_skipped)
		fprintf(f, ", %lu file%s skipped", n_skipped, n_skipped == 1 ? "" : "s");
	if (n_old)
		fprintf(f, ", %lu before %s or without a time", n_old, since);
	fputc('\n', f);
}

/* --since: "2026-12-01", "2026-12-01T08:00:00Z", or "7d" / "12h" ago. */
static bool parse_since(const char *s)
{
	char *end;
	unsigned long n;
	time_t t;
	struct tm tm;

	if (strlen(s) == 10 && snprintf(since, sizeof(since), "%sT00:00:00Z", s) > 0 && iso_time(since))
		return true;
	if (iso_time(s)) {
		snprintf(since, sizeof(since), "%s", s);
		return true;
	}
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || (strcmp(end, "d") != 0 && strcmp(end, "h") != 0) || n > 100000)
		return false;
	t = time(NULL) - (time_t)n * (*end == 'd' ? 86400 : 3600);
	if (!gmtime_r(&t, &tm))
		return false;
	strftime(since, sizeof(since), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return true;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [--json | --csv] [--since TIME] PATH...\n"
		"  the reports under each PATH (a dump directory, a dump server's per-host\n"
		"  directories), grouped by signature, most panics first\n"
		"  --json, --csv   machine-readable output\n"
		"  --since TIME    only crashes at or after TIME: 2026-12-01, 2026-12-01T08:00:00Z, 7d, 12h\n",
		PROG);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "since", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, format = 't', i, fd;
	struct stat st;

	while ((c = getopt_long(argc, argv, "jcs:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
		case 'c':
			format = c;
			break;
		case 's':
			if (!parse_since(optarg)) {
				fprintf(stderr, "%s: error: --since takes a date, a UTC time or a number of days or "
					"hours (7d, 12h), not '%s'\n", PROG, optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	buf = xrealloc(NULL, MAX_REPORT);
	for (i = optind; i < argc; i++) {
		/* a directory given may be a link (the user's own word); nothing under it is followed */
		fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0) {
			skip(argv[i], strerror(errno));
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			walk(fd, argv[i], 0);
		} else {
			close(fd);
			read_report(AT_FDCWD, argv[i], argv[i]);
		}
	}
	print(stdout, format);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: error: cannot write the summary: %s\n", PROG, strerror(errno));
		return 1;
	}
	return 0;
}
