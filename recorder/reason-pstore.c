// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-reason --pstore: the report judged from one pstore record of a
 * panic's log (/sys/fs/pstore/dmesg-*, or systemd-pstore's copy) instead
 * of a dump.  common/pstore.c tells a record's parts apart and feeds them;
 * this file reads them from their files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/pstore.h"
#include "reason.h"

/*
 * --pstore: the parts of one record, each read whole (a part is at most a
 * backend's record, kilobytes: more than 4 MiB is not one) and fed oldest
 * first.  A part that cannot be read as a panic's log makes the log unread:
 * the verdict is then unknown, the reason a note, never a guess from what
 * is left.  Returns 4 when the record was not written at a panic.
 */
#define PSTORE_MAX (4 << 20)
#define PSTORE_PARTS 64

int reason_read_pstore(struct ol_report *r, char **paths, int n)
{
	static char *bufs[PSTORE_PARTS];
	static size_t lens[PSTORE_PARTS];
	struct ol_pstore_part parts[PSTORE_PARTS];
	char why[OL_TEXT];
	int i, j, order[PSTORE_PARTS], rc = 0;

	if (n > PSTORE_PARTS) {
		reason_warnx("at most %d parts of one record", PSTORE_PARTS);
		return 2;
	}
	snprintf(r->log_from, sizeof(r->log_from), "pstore %.56s", reason_base_name(paths[0]));
	for (i = 0; i < n; i++) {
		FILE *f = fopen(paths[i], "rb");
		enum ol_pstore_kind kind;

		bufs[i] = malloc(PSTORE_MAX + 1);
		if (!f || !bufs[i]) {
			snprintf(r->log_trouble, sizeof(r->log_trouble), "cannot read the pstore record %s: %s",
				 reason_base_name(paths[i]), f ? "out of memory" : strerror(errno));
			if (f)
				fclose(f);
			rc = -1;
			break;
		}
		lens[i] = fread(bufs[i], 1, PSTORE_MAX + 1, f);
		if (ferror(f) || lens[i] > PSTORE_MAX) {
			snprintf(r->log_trouble, sizeof(r->log_trouble), "the pstore record %s %s",
				 reason_base_name(paths[i]), ferror(f) ? "could not be read" : "is larger than any record");
			fclose(f);
			rc = -1;
			break;
		}
		fclose(f);
		kind = ol_pstore_part(reason_base_name(paths[i]), bufs[i], lens[i], &parts[i], why, sizeof(why));
		if (kind == OL_PSTORE_NOT_PANIC) {
			reason_warnx("%s: not judged", why);
			rc = 4;
			break;
		}
		if (kind == OL_PSTORE_UNREADABLE) {
			snprintf(r->log_trouble, sizeof(r->log_trouble), "%s", why);
			rc = -1;
			break;
		}
		if (i > 0 && (parts[i].count != parts[0].count || strcmp(parts[i].why, parts[0].why) != 0)) {
			snprintf(r->log_trouble, sizeof(r->log_trouble), "%.80s is part of %.15s#%u, %.80s of %.15s#%u: "
				 "not one record", reason_base_name(paths[i]), parts[i].why, parts[i].count,
				 reason_base_name(paths[0]), parts[0].why, parts[0].count);
			rc = -1;
			break;
		}
		order[i] = i;
	}
	if (rc == 0) {
		/* oldest first: the highest part number first; each number once */
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && parts[order[j]].partno > parts[order[j - 1]].partno; j--) {
				int t = order[j];

				order[j] = order[j - 1];
				order[j - 1] = t;
			}
		for (i = 1; i < n && rc == 0; i++)
			if (parts[order[i]].partno == parts[order[i - 1]].partno) {
				snprintf(r->log_trouble, sizeof(r->log_trouble), "two parts %u of %.15s#%u",
					 parts[order[i]].partno, parts[0].why, parts[0].count);
				rc = -1;
			}
	}
	if (rc == 0) {
		for (i = 0; i < n; i++)
			ol_pstore_feed(r, bufs[order[i]], lens[order[i]], &parts[order[i]]);
		if (!r->log_read)
			snprintf(r->log_trouble, sizeof(r->log_trouble), "the pstore record %s holds no log",
				 reason_base_name(paths[0]));
		else
			ol_note(r, "no dump: the log is pstore's record %s#%u (%d part%s), the counters and "
				"settings are not in it", parts[0].why, parts[0].count, n, n == 1 ? "" : "s");
		if (parts[order[n - 1]].partno != 1 || parts[order[0]].partno != (unsigned int)n)
			ol_note(r, "the record's parts are not all here (%d of up to Part%u): its log has gaps",
				n, parts[order[0]].partno);
	}
	for (i = 0; i < n; i++)
		free(bufs[i]);
	return rc == 4 || rc == 2 ? rc : 0;
}

