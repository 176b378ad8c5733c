// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-triage --index: the walk that reads only what changed (see
 * triage-index.c for what a run looks at and why).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "triage.h"
#include "triage-db.h"

#define SETTLE_NS 2000000000LL	/* a time this close to the run's start may still change unseen */
#define MAX_DEPTH 16

struct entry {
	char *name;
	unsigned char type;
	ino_t ino;
};

static int64_t ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static void forget_dir(const char *path)
{
	sqlite3_stmt *s = stmt(Q_REP_DEL_UNDER);

	bind_s(s, 1, path);
	step_done(s);
	n_removed += (unsigned long)sqlite3_changes(db);
	s = stmt(Q_DIR_DEL);
	bind_s(s, 1, path);
	step_done(s);
}

static void put_report(const char *path, const char *dir, const struct stat *st, const struct rec *x,
		       const char *why, uint32_t root, size_t root_len)
{
	sqlite3_stmt *s = stmt(Q_REP_PUT);
	int c;

	bind_s(s, 1, path);
	bind_s(s, 2, dir);
	bind_i(s, 3, st ? st->st_size : NONE);
	bind_i(s, 4, st ? ns(&st->st_mtim) : NONE);
	bind_i(s, 5, st ? (int64_t)st->st_ino : NONE);
	if (why) {
		bind_s(s, 6, why);
		bind_i(s, 7, db_id(root));
	} else {
		bind_i(s, 7, db_id(root));
		bind_s(s, 8, str(dump_of(path + root_len)));
		bind_i(s, 9, db_id(host_of(str(root), path + root_len)));
		bind_i(s, 10, db_id(x->signature));
		bind_i(s, 11, x->sigver);
		bind_i(s, 12, db_id(x->reason));
		bind_i(s, 13, x->release ? db_id(x->release) : NONE);
		bind_i(s, 14, x->time);
		for (c = 0; c < N_COUNTERS; c++)
			bind_i(s, 15 + c, x->counters[c]);
	}
	step_done(s);
	n_read++;
}

static void read_one(int dir, const char *name, const char *path, const char *dpath, uint32_t root,
		     size_t root_len)
{
	struct stat st;
	struct rec x;
	char why[200];
	bool have_st = fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0;

	if (read_report(dir, name, path, &x, why, sizeof(why)) == 0)
		put_report(path, dpath, have_st ? &st : NULL, &x, NULL, root, root_len);
	else
		put_report(path, dpath, NULL, NULL, why, root, root_len);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void visit(int fd, const char *path, int depth, const struct known_dir *k, uint32_t root, size_t root_len);


static void put_dir(const char *path, const struct stat *st, bool leaf)
{
	sqlite3_stmt *s = stmt(Q_DIR_PUT);
	const char *slash = strrchr(path, '/');
	int64_t m = ns(&st->st_mtim);

	bind_s(s, 1, path);
	if (slash)
		sqlite3_bind_text(s, 2, path, (int)(slash - path), SQLITE_TRANSIENT);
	bind_i(s, 3, m > start_ns - SETTLE_NS ? -1 : m);
	bind_i(s, 4, (int64_t)st->st_ino);
	bind_i(s, 5, leaf);
	step_done(s);
}

/* The index's subdirectories of path, sorted by path. */
static struct known_dir *known_kids(const char *path, size_t *n)
{
	sqlite3_stmt *s = stmt(Q_DIR_KIDS);
	struct known_dir *v = NULL;

	*n = 0;
	bind_s(s, 1, path);
	while (row(s)) {
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[*n].path = strdup((const char *)sqlite3_column_text(s, 0));
		if (!v[*n].path)
			xrealloc(NULL, SIZE_MAX);
		v[*n].mtime = sqlite3_column_int64(s, 1);
		v[*n].ino = sqlite3_column_int64(s, 2);
		v[*n].leaf = sqlite3_column_int(s, 3);
		v[*n].seen = false;
		(*n)++;
	}
	return v;
}

static void open_kid(int dir, const char *name, const char *sub, int depth, const struct known_dir *k,
		     uint32_t root, size_t root_len)
{
	int fd;

	if (depth >= MAX_DEPTH)
		return;
	fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (k)
			forget_dir(sub);
		fprintf(stderr, "%s: skipped %s: %s\n", PROG, sub, strerror(errno));
		return;
	}
	visit(fd, sub, depth + 1, k, root, root_len);
}

/* A report file as the index has it. */
struct known_file {
	char *dir, *path;
	int64_t size, mtime, ino;
};

/* The report files of a directory's dump directories, in path order. */
struct leaf_files {
	struct known_file *v;
	size_t n, at;	/* at: the next dump directory's first */
};

/*
 * The report files in path's subdirectories, in one query, when each of
 * them is a dump directory (path is a host's directory): true.  Else each
 * dump directory asks for its own.
 */
static bool get_leaf_files(const char *path, const struct known_dir *kids, size_t n_kids, struct leaf_files *lf)
{
	sqlite3_stmt *s;
	size_t i, cap = 0;

	memset(lf, 0, sizeof(*lf));
	for (i = 0; i < n_kids; i++)
		if (!kids[i].leaf)
			return false;
	if (!n_kids)
		return false;
	s = stmt(Q_FILES_UNDER);
	bind_s(s, 1, path);
	while (row(s)) {
		struct known_file *f;

		if (lf->n == cap) {
			cap = cap ? cap * 2 : 128;
			lf->v = xrealloc(lf->v, cap * sizeof(*lf->v));
		}
		f = &lf->v[lf->n++];
		f->dir = strdup((const char *)sqlite3_column_text(s, 0));
		f->path = strdup((const char *)sqlite3_column_text(s, 1));
		if (!f->dir || !f->path)
			xrealloc(NULL, SIZE_MAX);
		f->size = col_i(s, 2);
		f->mtime = col_i(s, 3);
		f->ino = col_i(s, 4);
	}
	return true;
}

static void free_leaf_files(struct leaf_files *lf)
{
	size_t i;

	for (i = 0; i < lf->n; i++) {
		free(lf->v[i].dir);
		free(lf->v[i].path);
	}
	free(lf->v);
}

/*
 * One report file the index has, at path, in the dump directory sub (whose
 * last name_len bytes are its name in the parent dir): as it was?  Stat'ed
 * from the parent dir by the path's tail, name/file, with no copy.
 */
static bool file_same(int dir, const char *path, const char *sub, size_t sub_len, size_t name_len, int64_t size,
		      int64_t mtime, int64_t ino)
{
	struct stat st;

	return path && strncmp(path, sub, sub_len) == 0 && path[sub_len] == '/' && path[sub_len + 1] &&
	       fstatat(dir, path + sub_len - name_len, &st, AT_SYMLINK_NOFOLLOW) == 0 && size == st.st_size &&
	       mtime == ns(&st.st_mtim) && ino == (int64_t)st.st_ino && ns(&st.st_mtim) <= start_ns - SETTLE_NS;
}

/* A dump directory the index has, stat'ed itself from its parent dir: its time and inode the index's? */
static bool dir_same(int dir, const char *name, const struct known_dir *k)
{
	struct stat st;

	return fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
	       k->mtime == ns(&st.st_mtim) && k->ino == (int64_t)st.st_ino;
}

/*
 * A dump directory the index has (a leaf), looked at from its parent dir
 * without opening it.  With report files in the index: each one's size,
 * time and inode against the index's (from lf, or asked for when lf is
 * NULL), one stat a report and none for the directory: a report replaced by
 * rename has a new inode, one rewritten in place a new time or size, one
 * removed (or its directory) is not there, and a directory replaced whole
 * holds a new file.  Without any (a dump still being written, or one with
 * no report): the directory's time and inode, so that a report appearing
 * in it is read.  The same: its reports are the index's.  Else (or
 * unsettled when indexed, or --rescan) it is opened and read as any changed
 * directory is.
 */
static void check_leaf(int dir, const char *name, const char *sub, int depth, const struct known_dir *k,
		       struct leaf_files *lf, uint32_t root, size_t root_len)
{
	size_t sub_len = strlen(sub), name_len = strlen(name), n_files = 0;
	bool same = !full && k->mtime != -1;
	sqlite3_stmt *s;

	if (same && lf) {
		while (lf->at < lf->n && strcmp(lf->v[lf->at].dir, sub) < 0)
			lf->at++;
		for (; same && lf->at < lf->n && strcmp(lf->v[lf->at].dir, sub) == 0; lf->at++, n_files++) {
			const struct known_file *f = &lf->v[lf->at];

			same = file_same(dir, f->path, sub, sub_len, name_len, f->size, f->mtime, f->ino);
		}
	} else if (same) {
		s = stmt(Q_FILES);
		bind_s(s, 1, sub);
		while (same && row(s)) {
			const char *p = (const char *)sqlite3_column_text(s, 0);

			n_files++;
			same = file_same(dir, p, sub, sub_len, name_len, col_i(s, 1), col_i(s, 2), col_i(s, 3));
		}
		sqlite3_reset(s);
	}
	if (same && !n_files)
		same = dir_same(dir, name, k);
	if (!same)
		open_kid(dir, name, sub, depth, k, root, root_len);
}

/*
 * The index's report files of a directory, each checked by its size, time
 * and inode: gone ones forgotten, changed ones read again.  *known (sorted):
 * the paths the index had, for the caller to free.
 */
static void check_files(int fd, const char *path, uint32_t root, size_t root_len, char ***known, size_t *n_known)
{
	sqlite3_stmt *s = stmt(Q_FILES);
	char **have = NULL;
	unsigned char *what = NULL;	/* 0 unchanged, 1 changed, 2 gone */
	size_t n = 0, i;
	struct stat st;

	bind_s(s, 1, path);
	while (row(s)) {
		const char *p = (const char *)sqlite3_column_text(s, 0), *name = strrchr(p, '/');

		have = xrealloc(have, (n + 1) * sizeof(*have));
		what = xrealloc(what, n + 1);
		have[n] = strdup(p);
		if (!have[n])
			xrealloc(NULL, SIZE_MAX);
		name = name ? name + 1 : p;
		if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			what[n] = 2;
		else
			what[n] = full || col_i(s, 1) != st.st_size || col_i(s, 2) != ns(&st.st_mtim) ||
				  col_i(s, 3) != (int64_t)st.st_ino || ns(&st.st_mtim) > start_ns - SETTLE_NS;
		n++;
	}
	for (i = 0; i < n; i++) {
		const char *name = strrchr(have[i], '/');

		if (what[i] == 2) {
			s = stmt(Q_REP_DEL);
			bind_s(s, 1, have[i]);
			step_done(s);
			n_removed++;
			continue;
		}
		if (what[i] == 1)
			read_one(fd, name ? name + 1 : have[i], have[i], path, root, root_len);
	}
	free(what);
	*known = have;
	*n_known = n;
}

static void free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A directory whose listing changed (or is new, or --rescan): read it, and compare with the index. */
static void read_dir(int fd, const char *path, int depth, const struct stat *self, uint32_t root, size_t root_len)
{
	DIR *d = fdopendir(fd);
	struct entry *e = NULL;
	struct known_dir *kids;
	struct dirent *de;
	size_t n = 0, n_kids, n_known, i, j = 0;
	char sub[PATH_MAX], **known;
	bool leaf = true, has_lf;
	struct leaf_files lf;

	if (!d) {
		fprintf(stderr, "%s: skipped %s: %s\n", PROG, path, strerror(errno));
		close(fd);
		return;
	}
	while ((errno = 0, de = readdir(d))) {
		unsigned char type;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 || entry_type(fd, de, &type) != 0)
			continue;
		if (type != DT_DIR && !((type == DT_REG || type == DT_LNK) && is_report_name(de->d_name)))
			continue;
		e = xrealloc(e, (n + 1) * sizeof(*e));
		e[n].name = strdup(de->d_name);
		if (!e[n].name)
			xrealloc(NULL, SIZE_MAX);
		e[n].type = type;
		e[n++].ino = de->d_ino;
	}
	qsort(e, n, sizeof(*e), by_name);
	kids = known_kids(path, &n_kids);
	has_lf = get_leaf_files(path, kids, n_kids, &lf);
	for (i = 0; i < n; i++) {
		if (e[i].type != DT_DIR)
			continue;
		leaf = false;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, e[i].name) >= sizeof(sub)) {
			fprintf(stderr, "%s: skipped %s: a name too long under it\n", PROG, path);
			continue;
		}
		while (j < n_kids && strcmp(kids[j].path, sub) < 0)
			j++;
		if (j < n_kids && strcmp(kids[j].path, sub) == 0) {
			kids[j].seen = true;
			if (kids[j].leaf)
				check_leaf(fd, e[i].name, sub, depth, &kids[j], has_lf ? &lf : NULL, root, root_len);
			else
				open_kid(fd, e[i].name, sub, depth, &kids[j], root, root_len);
		} else {
			open_kid(fd, e[i].name, sub, depth, NULL, root, root_len);
		}
	}
	for (j = 0; j < n_kids; j++) {
		if (!kids[j].seen)
			forget_dir(kids[j].path);
		free(kids[j].path);
	}
	free(kids);
	free_leaf_files(&lf);
	/* the report files the index has, then the new ones */
	check_files(fd, path, root, root_len, &known, &n_known);
	for (i = 0, j = 0; i < n; i++) {
		if (e[i].type == DT_DIR)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e[i].name);
		while (j < n_known && strcmp(known[j], sub) < 0)
			j++;
		if (j == n_known || strcmp(known[j], sub) != 0)
			read_one(fd, e[i].name, sub, path, root, root_len);
	}
	free_list(known, n_known);
	for (i = 0; i < n; i++)
		free(e[i].name);
	free(e);
	put_dir(path, self, leaf);
	closedir(d);
}

static void visit(int fd, const char *path, int depth, const struct known_dir *k, uint32_t root, size_t root_len)
{
	struct known_dir *kids;
	struct stat st;
	size_t n_kids, n_known, i;
	char **known, *name;
	struct leaf_files lf;
	bool has_lf;

	if (fstat(fd, &st) != 0) {
		close(fd);
		return;
	}
	if (full || !k || k->mtime != ns(&st.st_mtim) || k->ino != (int64_t)st.st_ino) {
		read_dir(fd, path, depth, &st, root, root_len);
		return;
	}
	/* the same listing as the index's: every subdirectory and report file looked at */
	kids = known_kids(path, &n_kids);
	has_lf = get_leaf_files(path, kids, n_kids, &lf);
	for (i = 0; i < n_kids; i++) {
		name = strrchr(kids[i].path, '/');
		name = name ? name + 1 : kids[i].path;
		if (kids[i].leaf)
			check_leaf(fd, name, kids[i].path, depth, &kids[i], has_lf ? &lf : NULL, root, root_len);
		else
			open_kid(fd, name, kids[i].path, depth, &kids[i], root, root_len);
		free(kids[i].path);
	}
	free(kids);
	free_leaf_files(&lf);
	check_files(fd, path, root, root_len, &known, &n_known);
	free_list(known, n_known);
	close(fd);
}

bool dir_get(const char *path, struct known_dir *k)
{
	sqlite3_stmt *s = stmt(Q_DIR_GET);
	bool found;

	bind_s(s, 1, path);
	found = row(s);
	if (found) {
		k->path = NULL;
		k->mtime = sqlite3_column_int64(s, 0);
		k->ino = sqlite3_column_int64(s, 1);
		k->leaf = sqlite3_column_int(s, 2);
	}
	sqlite3_reset(s);
	return found;
}

void scan_root(int fd, const char *path, uint32_t root)
{
	struct known_dir k;

	visit(fd, path, 0, dir_get(path, &k) ? &k : NULL, root, strlen(path) + 1);
}
