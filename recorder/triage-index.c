// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-triage --index: what every report said, in SQLite, so that a
 * run reads only what changed.
 *
 * The index is a cache, never the truth.  Each run is one write
 * transaction (a kill leaves the index as the last run left it; WAL mode, so
 * a reader is never blocked).  One that is missing, empty, damaged or of
 * another schema is built again from the reports; one held by another run
 * is left to it, and this run reads every report itself.  Either way the
 * summary is the reports', and the caller says in one line what happened.
 *
 * What a run looks at: a directory whose modification time and inode are
 * those the index holds (and were settled, not in the last seconds before
 * the run that saw them) lists what it listed then, so it is not read
 * again.  Its subdirectories that hold directories are looked at (on a dump
 * server: every host's directory), and so are the dump directories that
 * were recent (a day) or empty when last seen: a dump being received.  A
 * settled dump directory in a directory that did not change is trusted
 * whole.  In a directory that changed, a subdirectory whose inode is the
 * one the index holds is trusted the same way; the rest are read, and each
 * report file is re-read when its size, modification time or inode
 * differ.  Once a day (and with --rescan) every directory and file is
 * looked at.
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

#define SCHEMA 1		/* PRAGMA user_version of this layout */
#define SETTLE_NS 2000000000LL	/* a time this close to the run's start may still change unseen */
#define RECENT_S 86400		/* a dump directory this young is looked at on every run */
#define FULL_EVERY_S 86400	/* every directory and file, at least this often */
#define BUSY_MS 2000		/* how long to wait for another run's transaction */
#define MAX_DEPTH 16

static const char schema_sql[] =
	"CREATE TABLE str(id INTEGER PRIMARY KEY, s TEXT NOT NULL UNIQUE);"
	/* mtime -1: not settled, to be looked at again */
	"CREATE TABLE dir(path TEXT PRIMARY KEY, parent TEXT, mtime INTEGER NOT NULL, ino INTEGER NOT NULL,"
	" leaf INTEGER NOT NULL, hot INTEGER NOT NULL);"
	"CREATE INDEX dir_parent ON dir(parent);"
	/* why: NULL for a report, else why the file was skipped; the ids are str's */
	"CREATE TABLE report(path TEXT NOT NULL UNIQUE, dir TEXT NOT NULL, size INTEGER, mtime INTEGER,"
	" ino INTEGER, why TEXT, root INTEGER, dump TEXT, host INTEGER, signature INTEGER,"
	" signature_version INTEGER, reason INTEGER, release INTEGER, time INTEGER, oops_count INTEGER,"
	" oops_limit INTEGER, warn_count INTEGER, warn_limit INTEGER);"
	"CREATE INDEX report_dir ON report(dir);"
	"CREATE INDEX report_skipped ON report(root) WHERE why IS NOT NULL;"
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER);";

enum {
	Q_STR_ALL, Q_STR_ADD, Q_DIR_GET, Q_DIR_KIDS, Q_DIR_PUT, Q_DIR_DEL, Q_FILES, Q_REP_PUT, Q_REP_DEL,
	Q_REP_DEL_UNDER, Q_LOAD, Q_SKIPPED, Q_DUMP, Q_META_GET, Q_META_PUT, N_Q
};

static const char *const sql[N_Q] = {
	[Q_STR_ALL] = "SELECT id, s FROM str",
	[Q_STR_ADD] = "INSERT INTO str(s) VALUES (?1)",
	[Q_DIR_GET] = "SELECT mtime, ino, leaf, hot FROM dir WHERE path = ?1",
	[Q_DIR_KIDS] = "SELECT path, mtime, ino, leaf, hot FROM dir WHERE parent = ?1 ORDER BY path",
	[Q_DIR_PUT] = "INSERT OR REPLACE INTO dir VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[Q_DIR_DEL] = "DELETE FROM dir WHERE path = ?1 OR (path > ?1 || '/' AND path < ?1 || '0')",
	[Q_FILES] = "SELECT path, size, mtime, ino FROM report WHERE dir = ?1 ORDER BY path",
	[Q_REP_PUT] = "INSERT OR REPLACE INTO report VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
		      " ?14, ?15, ?16, ?17, ?18)",
	[Q_REP_DEL] = "DELETE FROM report WHERE path = ?1",
	[Q_REP_DEL_UNDER] = "DELETE FROM report WHERE dir = ?1 OR (dir > ?1 || '/' AND dir < ?1 || '0')",
	[Q_LOAD] = "SELECT rowid, host, signature, signature_version, reason, release, time, oops_count,"
		   " oops_limit, warn_count, warn_limit FROM report WHERE root = ?1 AND why IS NULL",
	[Q_SKIPPED] = "SELECT path, why FROM report WHERE root = ?1 AND why IS NOT NULL",
	[Q_DUMP] = "SELECT dump FROM report WHERE rowid = ?1",
	[Q_META_GET] = "SELECT value FROM meta WHERE key = ?1",
	[Q_META_PUT] = "INSERT OR REPLACE INTO meta VALUES (?1, ?2)",
};

static sqlite3 *db;
static sqlite3_stmt *q[N_Q];
static uint32_t *db2mem, *mem2db;	/* str ids: the index's to ours, ours to the index's */
static size_t n_db2mem, n_mem2db;
static int64_t start_ns, now_s;
static bool full;
static unsigned long n_read, n_removed;

/* ---- SQLite, in small pieces: an error longjmps nowhere, it is returned ---- */

static int fail_rc;	/* the first error of this run, SQLITE_OK while there is none */

static sqlite3_stmt *stmt(int which)
{
	sqlite3_stmt *s = q[which];

	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

static void step_done(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW && !fail_rc)
		fail_rc = rc;
	sqlite3_reset(s);
}

static bool row(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	if (rc == SQLITE_ROW)
		return true;
	if (rc != SQLITE_DONE && !fail_rc)
		fail_rc = rc;
	return false;
}

static void bind_i(sqlite3_stmt *s, int i, int64_t v)
{
	if (v == NONE)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

static void bind_s(sqlite3_stmt *s, int i, const char *v)
{
	sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
}

static int64_t col_i(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NONE : sqlite3_column_int64(s, i);
}

static bool exec(const char *text)
{
	int rc = sqlite3_exec(db, text, NULL, NULL, NULL);

	if (rc != SQLITE_OK && !fail_rc)
		fail_rc = rc;
	return rc == SQLITE_OK;
}

/* ---- the strings: the index's ids and ours ---- */

static void map(uint32_t **m, size_t *n, size_t at, uint32_t v)
{
	if (at >= *n) {
		size_t k = *n ? *n : 1024;

		while (k <= at)
			k *= 2;
		*m = xrealloc(*m, k * sizeof(**m));
		memset(*m + *n, 0, (k - *n) * sizeof(**m));
		*n = k;
	}
	(*m)[at] = v;
}

static void load_strings(void)
{
	sqlite3_stmt *s = stmt(Q_STR_ALL);

	while (row(s)) {
		int64_t id = sqlite3_column_int64(s, 0);
		const char *text = (const char *)sqlite3_column_text(s, 1);
		uint32_t mine;

		if (id <= 0 || id > UINT32_MAX || !text)
			continue;
		mine = intern(text);
		map(&db2mem, &n_db2mem, (size_t)id, mine);
		map(&mem2db, &n_mem2db, mine, (uint32_t)id);
	}
}

static int64_t db_id(uint32_t mine)
{
	sqlite3_stmt *s;

	if (mine < n_mem2db && mem2db[mine])
		return mem2db[mine];
	s = stmt(Q_STR_ADD);
	bind_s(s, 1, str(mine));
	step_done(s);
	map(&mem2db, &n_mem2db, mine, (uint32_t)sqlite3_last_insert_rowid(db));
	map(&db2mem, &n_db2mem, (size_t)sqlite3_last_insert_rowid(db), mine);
	return sqlite3_last_insert_rowid(db);
}

static uint32_t mem_id(int64_t id)
{
	return id > 0 && (size_t)id < n_db2mem ? db2mem[id] : 0;
}

/* ---- the walk ---- */

struct known_dir {
	char *path;
	int64_t mtime, ino;
	bool leaf, hot, seen;
};

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

static void put_dir(const char *path, const struct stat *st, bool leaf, bool empty)
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
	bind_i(s, 6, empty || st->st_mtim.tv_sec > now_s - RECENT_S);
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
		v[*n].hot = sqlite3_column_int(s, 4);
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

/*
 * The index's report files of a directory, each checked by its size, time
 * and inode: gone ones forgotten, changed ones read again.  Returns how many
 * are there; *known (sorted) the paths the index had, for the caller to free.
 */
static size_t check_files(int fd, const char *path, uint32_t root, size_t root_len, char ***known, size_t *n_known)
{
	sqlite3_stmt *s = stmt(Q_FILES);
	char **have = NULL;
	unsigned char *what = NULL;	/* 0 unchanged, 1 changed, 2 gone */
	size_t n = 0, i, there = 0;
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
		there++;
		if (what[i] == 1)
			read_one(fd, name ? name + 1 : have[i], have[i], path, root, root_len);
	}
	free(what);
	*known = have;
	*n_known = n;
	return there;
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
	size_t n = 0, n_kids, n_known, i, j = 0, there;
	char sub[PATH_MAX], **known;
	bool leaf = true;
	struct stat st;

	if (!d) {
		fprintf(stderr, "%s: skipped %s: %s\n", PROG, path, strerror(errno));
		close(fd);
		return;
	}
	while ((errno = 0, de = readdir(d))) {
		unsigned char type = de->d_type;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (type == DT_UNKNOWN) {
			if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG :
			       S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
		}
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
			/* the same directory, settled and not recent: trusted whole */
			if (!full && kids[j].ino == (int64_t)e[i].ino && kids[j].leaf && !kids[j].hot && kids[j].mtime != -1)
				continue;
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
	/* the report files the index has, then the new ones */
	there = check_files(fd, path, root, root_len, &known, &n_known);
	for (i = 0, j = 0; i < n; i++) {
		if (e[i].type == DT_DIR)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e[i].name);
		while (j < n_known && strcmp(known[j], sub) < 0)
			j++;
		if (j == n_known || strcmp(known[j], sub) != 0) {
			read_one(fd, e[i].name, sub, path, root, root_len);
			there++;
		}
	}
	free_list(known, n_known);
	for (i = 0; i < n; i++)
		free(e[i].name);
	free(e);
	put_dir(path, self, leaf, leaf && !there);
	closedir(d);
}

static void visit(int fd, const char *path, int depth, const struct known_dir *k, uint32_t root, size_t root_len)
{
	struct known_dir *kids;
	struct stat st;
	size_t n_kids, n_known, i, there;
	char **known, *name;

	if (fstat(fd, &st) != 0) {
		close(fd);
		return;
	}
	if (full || !k || k->mtime != ns(&st.st_mtim) || k->ino != (int64_t)st.st_ino) {
		read_dir(fd, path, depth, &st, root, root_len);
		return;
	}
	/* the same listing as the index's */
	kids = known_kids(path, &n_kids);
	for (i = 0; i < n_kids; i++) {
		if (!kids[i].leaf || kids[i].hot || kids[i].mtime == -1) {
			name = strrchr(kids[i].path, '/');
			open_kid(fd, name ? name + 1 : kids[i].path, kids[i].path, depth, &kids[i], root, root_len);
		}
		free(kids[i].path);
	}
	free(kids);
	there = check_files(fd, path, root, root_len, &known, &n_known);
	free_list(known, n_known);
	/* a dump directory stops being recent, or stops being empty */
	if (k->hot != (!there && k->leaf) && k->hot != (st.st_mtim.tv_sec > now_s - RECENT_S))
		put_dir(path, &st, k->leaf, k->leaf && !there);
	close(fd);
}

static bool dir_get(const char *path, struct known_dir *k)
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
		k->hot = sqlite3_column_int(s, 3);
	}
	sqlite3_reset(s);
	return found;
}

/* ---- the run ---- */

static void close_db(void)
{
	int i;

	for (i = 0; i < N_Q; i++) {
		sqlite3_finalize(q[i]);
		q[i] = NULL;
	}
	sqlite3_close(db);
	db = NULL;
}

void index_close(void)
{
	if (db)
		close_db();
}

static int open_db(const char *path)
{
	int fd;

	/* a new index is the reports' secret too: 0600, and SQLite gives its -wal and -shm the same */
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return SQLITE_CANTOPEN;
	close(fd);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK)
		return sqlite3_errcode(db);
	sqlite3_busy_timeout(db, BUSY_MS);
	return SQLITE_OK;
}

static int prepare_all(void)
{
	int i, rc;

	for (i = 0; i < N_Q; i++) {
		if (!sql[i][0])
			continue;
		rc = sqlite3_prepare_v3(db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &q[i], NULL);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

/*
 * Makes the index's tables this version's, inside the transaction.  Returns
 * the SQLite error, and what it did in state ("" when the index was as it is).
 */
static int schema(char *state, size_t len)
{
	sqlite3_stmt *s;
	int rc, version = -1, tables = 0;
	char **names = NULL;
	int n = 0, i;

	rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL);
	if (rc == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		version = sqlite3_column_int(s, 0);
	rc = sqlite3_finalize(s);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &s, NULL);
	while (rc == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW) {
		names = xrealloc(names, (size_t)(n + 1) * sizeof(*names));
		names[n++] = strdup((const char *)sqlite3_column_text(s, 0));
		tables++;
	}
	rc = sqlite3_finalize(s);
	if (rc == SQLITE_OK && !tables && !state[0])
		snprintf(state, len, "%s", "was empty: built from the reports; ");
	else if (rc == SQLITE_OK && version != SCHEMA && tables)
		snprintf(state, len, "had schema %d, not %d: built again from the reports; ", version,
			 SCHEMA);
	for (i = 0; i < n; i++) {
		char drop[300];

		if (rc == SQLITE_OK && !(version == SCHEMA && tables) && names[i] &&
		    !strchr(names[i], '"') && strncmp(names[i], "sqlite_", 7) != 0) {
			snprintf(drop, sizeof(drop), "DROP TABLE \"%s\"", names[i]);
			rc = sqlite3_exec(db, drop, NULL, NULL, NULL);
		}
		free(names[i]);
	}
	free(names);
	if (rc == SQLITE_OK && !(version == SCHEMA && tables)) {
		char pragma[64];

		rc = sqlite3_exec(db, schema_sql, NULL, NULL, NULL);
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", SCHEMA);
		if (rc == SQLITE_OK)
			rc = sqlite3_exec(db, pragma, NULL, NULL, NULL);
	}
	return rc;
}

static bool damaged(int rc)
{
	return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB;
}

/* Removes a damaged index and its -wal and -shm, regular files only. */
static void remove_index(const char *path)
{
	static const char *const tails[] = { "", "-wal", "-shm" };
	char p[PATH_MAX];
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", path, tails[i]);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
			unlink(p);
	}
}

static void load(uint32_t root, struct recs *r)
{
	sqlite3_stmt *s;
	struct rec x;
	int c;

	if (root >= n_mem2db || !mem2db[root])
		return;
	s = stmt(Q_LOAD);
	sqlite3_bind_int64(s, 1, mem2db[root]);
	while (row(s)) {
		x.rowid = sqlite3_column_int64(s, 0);
		x.root = root;
		x.dump = 0;
		x.host = mem_id(sqlite3_column_int64(s, 1));
		x.signature = mem_id(sqlite3_column_int64(s, 2));
		x.sigver = col_i(s, 3);
		x.reason = mem_id(sqlite3_column_int64(s, 4));
		x.release = mem_id(col_i(s, 5) == NONE ? 0 : sqlite3_column_int64(s, 5));
		x.time = col_i(s, 6);
		for (c = 0; c < N_COUNTERS; c++)
			x.counters[c] = col_i(s, 7 + c);
		recs_add(r, &x);
	}
	s = stmt(Q_SKIPPED);
	sqlite3_bind_int64(s, 1, mem2db[root]);
	while (row(s))
		skipped(r, (const char *)sqlite3_column_text(s, 0), (const char *)sqlite3_column_text(s, 1));
}

const char *index_dump(const struct rec *x)
{
	static char buf[PATH_MAX];
	sqlite3_stmt *s;

	buf[0] = '\0';
	if (!db)
		return buf;
	s = stmt(Q_DUMP);
	sqlite3_bind_int64(s, 1, x->rowid);
	if (row(s))
		snprintf(buf, sizeof(buf), "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_reset(s);
	return buf;
}

/* One attempt: 0 done, 1 locked, -1 an error (fail_rc says which). */
static int attempt(const struct opts *o, char *const *roots, int n_roots, struct recs *r, char *state, size_t len)
{
	struct known_dir k;
	struct timespec ts;
	struct stat st;
	sqlite3_stmt *s;
	int i, rc, fd;
	size_t n0 = r->n;
	unsigned long skipped0 = r->skipped;

	fail_rc = SQLITE_OK;
	n_read = n_removed = 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	start_ns = ns(&ts);
	now_s = ts.tv_sec;
	rc = open_db(o->index);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
				  "PRAGMA cache_size = -65536", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		return 1;
	if (rc == SQLITE_OK)
		rc = schema(state, len);
	if (rc == SQLITE_OK)
		rc = prepare_all();
	if (rc != SQLITE_OK) {
		fail_rc = rc;
		return -1;
	}
	load_strings();
	s = stmt(Q_META_GET);
	bind_s(s, 1, "full");
	full = o->rescan || !row(s) || sqlite3_column_int64(s, 0) < now_s - FULL_EVERY_S;
	sqlite3_reset(s);
	for (i = 0; i < n_roots && !fail_rc; i++) {
		fd = open(roots[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
			if (fd >= 0)
				close(fd);
			walk_root(roots[i], r);	/* a file, or what cannot be opened: said there */
			continue;
		}
		visit(fd, roots[i], 0, dir_get(roots[i], &k) ? &k : NULL, intern(roots[i]), strlen(roots[i]) + 1);
		if (!fail_rc)
			db_id(intern(roots[i]));
	}
	if (full && !fail_rc) {
		s = stmt(Q_META_PUT);
		bind_s(s, 1, "full");
		sqlite3_bind_int64(s, 2, now_s);
		step_done(s);
	}
	if (!fail_rc)
		exec("COMMIT");
	/* the reports under the roots, as the index now has them */
	if (!fail_rc && exec("BEGIN"))
		for (i = 0; i < n_roots && !fail_rc; i++)
			load(intern(roots[i]), r);
	if (fail_rc) {
		r->n = n0;
		r->skipped = skipped0;
		return -1;
	}
	exec("COMMIT");
	return 0;
}

int index_run(const struct opts *o, char *const *roots, int n_roots, struct recs *r, char *line, size_t len)
{
	char state[300] = "";
	struct stat st;
	size_t n0 = r->n;
	int rc, tries;

	if (lstat(o->index, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(line, len, "index %s: not a regular file, not used: every report read", o->index);
		return -1;
	}
	if (lstat(o->index, &st) != 0)
		snprintf(state, sizeof(state), "%s", "was not there: built from the reports; ");
	for (tries = 0;; tries++) {
		rc = attempt(o, roots, n_roots, r, state, sizeof(state));
		if (rc == 0)
			break;
		if (rc == 1) {
			snprintf(line, len, "index %s: in use by another run: every report read without it", o->index);
			close_db();
			return -1;
		}
		if (!damaged(fail_rc) || tries) {
			snprintf(line, len, "index %s: %s: every report read without it", o->index,
				 sqlite3_errstr(fail_rc));
			close_db();
			return -1;
		}
		close_db();
		remove_index(o->index);
		free(db2mem);
		free(mem2db);
		db2mem = mem2db = NULL;
		n_db2mem = n_mem2db = 0;
		snprintf(state, sizeof(state), "was damaged (%s): built again from the reports; ",
			 sqlite3_errstr(fail_rc));
	}
	snprintf(line, len, "index %s: %s%lu file%s read, %lu removed%s; %zu reports in it", o->index, state, n_read,
		 n_read == 1 ? "" : "s", n_removed, full && !state[0] ? " (every file looked at)" : "", r->n - n0);
	return 0;
}
