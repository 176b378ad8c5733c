// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-triage: the strings, one report read, and the walk of a tree
 * without an index.  Symbolic links are never followed: every open is
 * relative to its directory with O_NOFOLLOW.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/json.h"
#include "triage.h"

#define MAX_REPORT (1 << 20)	/* a report is a few KiB; anything past this is no report */
#define MAX_DEPTH 16

const char *const counter_names[N_COUNTERS] = { "oops_count", "oops_limit", "warn_count", "warn_limit" };

/* ---- strings, interned ---- */

struct str {
	char *s;
	uint32_t hash;
};

static struct str *strs;
static size_t n_strs, cap_strs;
static uint32_t *str_slots;	/* index + 1, 0 empty */
static size_t n_str_slots;

void *xrealloc(void *p, size_t n)
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

uint32_t intern(const char *s)
{
	uint32_t h = hash_of(s);
	size_t j;

	if (2 * (n_strs + 2) > n_str_slots)
		str_grow();
	if (!n_strs && *s)
		intern("");	/* id 0 is "" */
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

const char *str(uint32_t id)
{
	return id < n_strs ? strs[id].s : "";
}

size_t n_interned(void)
{
	return n_strs;
}

void recs_add(struct recs *r, const struct rec *x)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 4096;
		r->v = xrealloc(r->v, r->cap * sizeof(*r->v));
	}
	r->v[r->n++] = *x;
}

void skipped(struct recs *r, const char *path, const char *why)
{
	fprintf(stderr, "%s: skipped %s: %s\n", PROG, path, why);
	r->skipped++;
}

/* ---- one report ---- */

struct doc {
	bool schema, reason_seen;
	char reason[OL_JSON_VALUE], signature[OL_JSON_VALUE], release[OL_JSON_VALUE];
	char crash_time[OL_JSON_VALUE], capture_time[OL_JSON_VALUE];
	int64_t sigver, counters[N_COUNTERS];
};

static int64_t number(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	return errno || *end || end == s ? NONE : v;
}

static void member(void *arg, const char *parent, const char *key, enum ol_json_type type, const char *value)
{
	struct doc *d = arg;
	char *dst = NULL;
	int i;

	if (parent[0]) {
		if (strcmp(parent, "capture") == 0 && strcmp(key, "time") == 0)
			dst = d->capture_time;
	} else if (strcmp(key, "schema") == 0) {
		d->schema = type == OL_JSON_NUMBER;
	} else if (strcmp(key, "reason") == 0) {
		d->reason_seen = true;
		dst = d->reason;
	} else if (strcmp(key, "signature") == 0) {
		dst = d->signature;
	} else if (strcmp(key, "kernel_release") == 0) {
		dst = d->release;
	} else if (strcmp(key, "crash_time") == 0) {
		dst = d->crash_time;
	} else if (strcmp(key, "signature_version") == 0 && type == OL_JSON_NUMBER) {
		d->sigver = number(value);
	} else if (type == OL_JSON_NUMBER) {
		for (i = 0; i < N_COUNTERS; i++)
			if (strcmp(key, counter_names[i]) == 0)
				d->counters[i] = number(value);
	}
	if (dst && type == OL_JSON_STRING)
		snprintf(dst, OL_JSON_VALUE, "%s", value);
}

/* "2026-12-06T12:00:00Z" and nothing else, as seconds since the epoch; NONE otherwise. */
static int64_t iso_time(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	struct tm tm;
	size_t i;

	for (i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i])
			return NONE;
	if (s[i])
		return NONE;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = atoi(s) - 1900;
	tm.tm_mon = atoi(s + 5) - 1;
	tm.tm_mday = atoi(s + 8);
	tm.tm_hour = atoi(s + 11);
	tm.tm_min = atoi(s + 14);
	tm.tm_sec = atoi(s + 17);
	if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
	    tm.tm_sec > 60)
		return NONE;
	return (int64_t)timegm(&tm);
}

int read_report(int dir, const char *name, const char *path, struct rec *out, char *why, size_t why_len)
{
	static char *buf;
	struct doc d;
	struct stat st;
	size_t got = 0;
	ssize_t n;
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK), i;

	(void)path;
	if (!buf)
		buf = xrealloc(NULL, MAX_REPORT);
	if (fd < 0) {
		snprintf(why, why_len, "%s", errno == ELOOP ? "a symbolic link (not followed)" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_REPORT) {
		snprintf(why, why_len, "%s", S_ISREG(st.st_mode) ? "larger than a report can be" : "not a regular file");
		close(fd);
		return -1;
	}
	/* up to its size: no read just to see the end */
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, (size_t)st.st_size - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(why, why_len, "%s", strerror(errno));
			close(fd);
			return -1;
		}
		got += (size_t)n;
	}
	close(fd);
	memset(&d, 0, sizeof(d));
	d.sigver = NONE;
	for (i = 0; i < N_COUNTERS; i++)
		d.counters[i] = NONE;
	if (ol_json_read(buf, got, member, &d, why, why_len) != 0)
		return -1;
	if (!d.schema || !d.reason_seen) {
		snprintf(why, why_len, "not an oopslimit report (no schema and reason members)");
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->time = iso_time(d.crash_time);
	if (out->time == NONE)
		out->time = iso_time(d.capture_time);
	out->sigver = d.sigver;
	memcpy(out->counters, d.counters, sizeof(d.counters));
	out->signature = intern(d.signature[0] ? d.signature : d.reason[0] ? d.reason : "unknown");
	out->reason = intern(d.reason[0] ? d.reason : "unknown");
	out->release = intern(d.release);
	return 0;
}

bool is_report_name(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

uint32_t host_of(const char *root, const char *rel)
{
	char path[PATH_MAX * 2];
	const char *end, *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	end = strrchr(path, '/');
	while (end > path && end[-1] == '/')
		end--;
	p = memrchr(path, '/', (size_t)(end - path));
	if (!p)
		return intern("unknown");
	end = p;
	p = memrchr(path, '/', (size_t)(end - path));
	p = p ? p + 1 : path;
	path[end - path] = '\0';
	return intern(p);
}

uint32_t dump_of(const char *rel)
{
	char d[PATH_MAX];
	const char *slash = strrchr(rel, '/');

	if (!slash)
		return intern(".");
	snprintf(d, sizeof(d), "%.*s", (int)(slash - rel), rel);
	return intern(d);
}

const char *rec_dump(const struct rec *x)
{
	return x->dump ? str(x->dump) : index_dump(x);
}

int entry_type(int dir, const struct dirent *e, unsigned char *type)
{
	struct stat st;

	*type = e->d_type;
	if (*type != DT_UNKNOWN)
		return 0;
	if (fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	*type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
	return 0;
}

/* ---- the walk without an index ---- */

static void found(int dir, const char *name, const char *path, uint32_t root, size_t root_len, struct recs *r)
{
	struct rec x;
	char why[200];

	if (read_report(dir, name, path, &x, why, sizeof(why)) != 0) {
		skipped(r, path, why);
		return;
	}
	x.root = root;
	x.host = host_of(str(root), path + root_len);
	x.dump = dump_of(path + root_len);
	recs_add(r, &x);
}

static void walk(int dir, const char *path, int depth, uint32_t root, size_t root_len, struct recs *r)
{
	DIR *d = fdopendir(dir);
	struct dirent *e;
	char sub[PATH_MAX];
	int fd;

	if (!d) {
		skipped(r, path, strerror(errno));
		close(dir);
		return;
	}
	while ((errno = 0, e = readdir(d))) {
		unsigned char type;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >= sizeof(sub)) {
			skipped(r, path, "a name too long under it");
			continue;
		}
		if (entry_type(dirfd(d), e, &type) != 0) {
			skipped(r, sub, strerror(errno));
			continue;
		}
		if (type == DT_DIR) {
			if (depth >= MAX_DEPTH) {
				skipped(r, sub, "nested too deep");
				continue;
			}
			fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				skipped(r, sub, strerror(errno));
			else
				walk(fd, sub, depth + 1, root, root_len, r);
		} else if (type == DT_LNK && is_report_name(e->d_name)) {
			skipped(r, sub, "a symbolic link (not followed)");
		} else if (type == DT_REG && is_report_name(e->d_name)) {
			found(dirfd(d), e->d_name, sub, root, root_len, r);
		}
	}
	if (errno)
		skipped(r, path, strerror(errno));
	closedir(d);
}

void walk_root(const char *root, struct recs *r)
{
	struct stat st;
	const char *slash;
	/* a directory given may be a link (the user's own word); nothing under it is followed */
	int fd = open(root, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0) {
		skipped(r, root, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		walk(fd, root, 0, intern(root), strlen(root) + 1, r);
		return;
	}
	close(fd);
	/* one file: its root is its directory */
	slash = strrchr(root, '/');
	if (slash) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - root), root);
		found(AT_FDCWD, root, root, intern(dir[0] ? dir : "/"), (size_t)(slash - root) + 1, r);
	} else {
		found(AT_FDCWD, root, root, intern("."), 0, r);
	}
}
