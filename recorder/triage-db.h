/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the index's two files share: triage-index.c (the database: its
 * schema, its statements, the run) and triage-scan.c (the walk).
 */
#ifndef OOPSLIMIT_TRIAGE_DB_H
#define OOPSLIMIT_TRIAGE_DB_H

#include <sqlite3.h>

enum {
	Q_STR_ALL, Q_STR_ADD, Q_DIR_GET, Q_DIR_KIDS, Q_DIR_PUT, Q_DIR_DEL, Q_FILES, Q_FILES_UNDER, Q_REP_PUT, Q_REP_DEL,
	Q_REP_DEL_UNDER, Q_LOAD, Q_SKIPPED, Q_DUMP, N_Q
};

extern sqlite3 *db;
extern int fail_rc;			/* the run's first SQLite error, SQLITE_OK while none */
extern int64_t start_ns;		/* when the run started */
extern bool full;			/* --rescan: every report read again */
extern unsigned long n_read, n_removed;

/* A statement, reset; each step's error kept in fail_rc. */
sqlite3_stmt *stmt(int which);
void step_done(sqlite3_stmt *s);
bool row(sqlite3_stmt *s);
void bind_i(sqlite3_stmt *s, int i, int64_t v);	/* NONE binds NULL */
void bind_s(sqlite3_stmt *s, int i, const char *v);
int64_t col_i(sqlite3_stmt *s, int i);			/* NULL is NONE */
int64_t db_id(uint32_t mine);				/* a string's id in the index, added if new */

/* A directory as the index knows it. */
struct known_dir {
	char *path;
	int64_t mtime, ino;	/* mtime -1: not settled, to be read again */
	bool leaf, seen;	/* leaf: holds no directory (a dump directory) */
};

bool dir_get(const char *path, struct known_dir *k);
/* The tree under the directory fd (path, the root argument), brought into the index. */
void scan_root(int fd, const char *path, uint32_t root);

#endif
