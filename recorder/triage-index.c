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
 * What a run looks at, so that a report added, changed or removed on disk
 * is right on the next one: every report file's modification time, inode
 * and size, and every other directory's time and inode, against the
 * index's.  A directory whose time and inode are the index's (and were
 * settled, not in the last seconds before the run that saw them) lists what
 * it listed then, so it is not read again: a new dump shows in its host's
 * directory.  A dump directory with a report is not stat'ed itself, its
 * report is (one call a dump): a report replaced by rename, as every writer
 * here does, has a new inode, one rewritten in place a new time or size,
 * one removed is not there.  A dump directory without one (a capture still
 * writing) is stat'ed, so that its report is read when it comes.  What only
 * a dump directory's own time would show, and so needs --rescan: a second
 * report file beside its first, or a directory made inside it.  A report
 * file is read again when its size, time or inode differ, and every one
 * with --rescan.
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

#define SCHEMA 3		/* PRAGMA user_version of this layout */
#define BUSY_MS 2000		/* how long to wait for another run's transaction */

static const char schema_sql[] =
	"CREATE TABLE str(id INTEGER PRIMARY KEY, s TEXT NOT NULL UNIQUE);"
	/* mtime -1: not settled, to be looked at again */
	"CREATE TABLE dir(path TEXT PRIMARY KEY, parent TEXT, mtime INTEGER NOT NULL, ino INTEGER NOT NULL,"
	" leaf INTEGER NOT NULL);"
	/* a directory's subdirectories, in order and without the table */
	"CREATE INDEX dir_parent ON dir(parent, path, mtime, ino, leaf);"
	/* why: NULL for a report, else why the file was skipped; the ids are str's */
	"CREATE TABLE report(path TEXT NOT NULL UNIQUE, dir TEXT NOT NULL, size INTEGER, mtime INTEGER,"
	" ino INTEGER, why TEXT, root INTEGER, dump TEXT, host INTEGER, signature INTEGER,"
	" signature_version INTEGER, reason INTEGER, release INTEGER, time INTEGER, oops_count INTEGER,"
	" oops_limit INTEGER, warn_count INTEGER, warn_limit INTEGER);"
	/* a directory's report files as a run compares them, in order and without the table */
	"CREATE INDEX report_dir ON report(dir, path, size, mtime, ino);"
	"CREATE INDEX report_skipped ON report(root) WHERE why IS NOT NULL;"
	/* what a summary loads, read without the table's paths (a tenth of its size) */
	"CREATE INDEX report_load ON report(root, host, signature, signature_version, reason, release, time,"
	" oops_count, oops_limit, warn_count, warn_limit) WHERE why IS NULL;";


static const char *const sql[N_Q] = {
	[Q_STR_ALL] = "SELECT id, s FROM str",
	[Q_STR_ADD] = "INSERT INTO str(s) VALUES (?1)",
	[Q_DIR_GET] = "SELECT mtime, ino, leaf FROM dir WHERE path = ?1",
	[Q_DIR_KIDS] = "SELECT path, mtime, ino, leaf FROM dir WHERE parent = ?1 ORDER BY path",
	[Q_DIR_PUT] = "INSERT OR REPLACE INTO dir VALUES (?1, ?2, ?3, ?4, ?5)",
	[Q_DIR_DEL] = "DELETE FROM dir WHERE path = ?1 OR (path > ?1 || '/' AND path < ?1 || '0')",
	[Q_FILES] = "SELECT path, size, mtime, ino FROM report WHERE dir = ?1 ORDER BY path",
	[Q_FILES_UNDER] = "SELECT dir, path, size, mtime, ino FROM report WHERE dir > ?1 || '/' AND dir < ?1 || '0'"
			  " ORDER BY dir, path",
	[Q_REP_PUT] = "INSERT OR REPLACE INTO report VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
		      " ?14, ?15, ?16, ?17, ?18)",
	[Q_REP_DEL] = "DELETE FROM report WHERE path = ?1",
	[Q_REP_DEL_UNDER] = "DELETE FROM report WHERE dir = ?1 OR (dir > ?1 || '/' AND dir < ?1 || '0')",
	[Q_LOAD] = "SELECT rowid, host, signature, signature_version, reason, release, time, oops_count,"
		   " oops_limit, warn_count, warn_limit FROM report WHERE root = ?1 AND why IS NULL",
	[Q_SKIPPED] = "SELECT path, why FROM report WHERE root = ?1 AND why IS NOT NULL",
	[Q_DUMP] = "SELECT dump FROM report WHERE rowid = ?1",
};

static sqlite3_stmt *q[N_Q];
static uint32_t *db2mem, *mem2db;	/* str ids: the index's to ours, ours to the index's */
static size_t n_db2mem, n_mem2db;
int64_t start_ns;
bool full;
unsigned long n_read, n_removed;
sqlite3 *db;

/* ---- SQLite, in small pieces: an error longjmps nowhere, it is returned ---- */

int fail_rc;	/* the first error of this run, SQLITE_OK while there is none */

sqlite3_stmt *stmt(int which)
{
	sqlite3_stmt *s = q[which];

	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

void step_done(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW && !fail_rc)
		fail_rc = rc;
	sqlite3_reset(s);
}

bool row(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	if (rc == SQLITE_ROW)
		return true;
	if (rc != SQLITE_DONE && !fail_rc)
		fail_rc = rc;
	return false;
}

void bind_i(sqlite3_stmt *s, int i, int64_t v)
{
	if (v == NONE)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

void bind_s(sqlite3_stmt *s, int i, const char *v)
{
	sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
}

int64_t col_i(sqlite3_stmt *s, int i)
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

int64_t db_id(uint32_t mine)
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
	/* one thread: no mutex */
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK)
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
	struct timespec ts;
	struct stat st;
	int i, rc, fd;
	size_t n0 = r->n;
	unsigned long skipped0 = r->skipped;

	fail_rc = SQLITE_OK;
	n_read = n_removed = 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	start_ns = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	rc = open_db(o->index);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
				  "PRAGMA cache_size = -65536; PRAGMA mmap_size = 4294967296", NULL, NULL, NULL);
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
	full = o->rescan;
	for (i = 0; i < n_roots && !fail_rc; i++) {
		fd = open(roots[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
			if (fd >= 0)
				close(fd);
			walk_root(roots[i], r);	/* a file, or what cannot be opened: said there */
			continue;
		}
		scan_root(fd, roots[i], intern(roots[i]));
		if (!fail_rc)
			db_id(intern(roots[i]));
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
		 n_read == 1 ? "" : "s", n_removed, full && !state[0] ? " (every report read again)" : "", r->n - n0);
	return 0;
}
