/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pstore record of the kernel log, read as a report's log: what the
 * kernel's pstore_dump() leaves in a backend (ramoops, efi-pstore, ...) at
 * a panic or an oops, as /sys/fs/pstore shows it after the reboot (and as
 * systemd-pstore archives it, the bytes unchanged): a header line naming
 * why it was written ("Panic#1 Part1": the kmsg_dump reason, how many
 * dumps of that reason this boot, the part), then the end of the kernel log
 * in syslog form ("<4>[   12.345678] text"), oldest line first.  A log
 * longer than a record is split: Part1 holds its end, Part2 what came
 * before, and so on.  A record the kernel could not decompress is shown as
 * NAME.enc.z with its compressed bytes, header included.
 *
 * Plain C, no file access: the recorder reads the files, these functions
 * judge their bytes (tests/unit/pstore-test.c).
 */
#ifndef OOPSLIMIT_PSTORE_H
#define OOPSLIMIT_PSTORE_H

#include <stddef.h>

#include "report.h"

enum ol_pstore_kind {
	OL_PSTORE_PANIC,	/* a log written at a panic */
	OL_PSTORE_NOT_PANIC,	/* an oops, a shutdown, ...: no panic to judge */
	OL_PSTORE_UNREADABLE,	/* not a log this reader can trust: why says */
};

struct ol_pstore_part {
	char why[16];		/* "Panic", "Oops", ... */
	unsigned int count;	/* the N of "Panic#N" */
	unsigned int partno;	/* the M of "PartM" */
	size_t body;		/* where the log begins, after the header */
};

/*
 * What the record name (its file's base name) holding len bytes at buf is;
 * fills part for a record whose header reads, and why (whylen bytes) for
 * one that is not a panic or cannot be read.
 */
enum ol_pstore_kind ol_pstore_part(const char *name, const char *buf, size_t len,
				   struct ol_pstore_part *part, char *why, size_t whylen);

/*
 * Feeds the log of a record's part (buf from part->body on) to r, line by
 * line, the syslog "<N>" prefix taken off.  Parts are fed oldest first: the
 * highest part number first, Part1 last.
 */
void ol_pstore_feed(struct ol_report *r, const char *buf, size_t len, const struct ol_pstore_part *part);

/*
 * The verdict on a report whose log came from pstore alone: no memory was
 * read (every variable unknown, not absent), the same judging as a dump's,
 * and a record written at a panic whose log has no panic message (cut
 * before it) is unknown, never judged from what came before.
 */
void ol_pstore_judge(struct ol_report *r);

#endif
