// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-reason's capture options: what the capture script says of
 * saving the dump (--capture and the options that go with it), for the
 * report's "capture" member.  The recorder's main program hands each such
 * option here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dump.h"
#include "reason.h"

bool reason_parse_long(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno == 0 && end != s && *end == '\0';
}

/* A version as makedumpfile -v gives it: digits and dots, a few more. */
static bool version_word(const char *s)
{
	size_t n = strspn(s, "0123456789.+~-abcdefghijklmnopqrstuvwxyz");

	return n > 0 && n < 32 && s[n] == '\0' && s[0] >= '0' && s[0] <= '9';
}

int reason_capture_option(struct reason_capture *rc, int opt, const char *arg)
{
	struct ol_capture *cap = rc->cap;
	char *end;

	switch (opt) {
	case 'T':
		snprintf(cap->time, sizeof(cap->time), "%s", arg);
		break;
	case 'c':
		cap->present = true;
		snprintf(cap->status, sizeof(cap->status), "%s", arg);
		break;
	case 'd':
		rc->dump = arg;
		snprintf(cap->dump_file, sizeof(cap->dump_file), "%s", reason_base_name(arg));
		break;
	case 'B':
		if (!reason_parse_long(arg, &rc->dump_size) || rc->dump_size < 0) {
			reason_warnx("--dump-size takes a number of bytes, not '%s'", arg);
			return -1;
		}
		break;
	case 'e':
		snprintf(cap->error, sizeof(cap->error), "%s", arg);
		break;
	case 'w':
		snprintf(cap->warning, sizeof(cap->warning), "%s", arg);
		break;
	case 'D':
		snprintf(cap->target, sizeof(cap->target), "%s", arg);
		break;
	case 'A':
		if (strcmp(arg, "reboot") && strcmp(arg, "poweroff") && strcmp(arg, "fallback")) {
			reason_warnx("--failure-action is reboot, poweroff or fallback, not '%s'", arg);
			return -1;
		}
		snprintf(cap->failure_action, sizeof(cap->failure_action), "%s", arg);
		break;
	case 'R':
		/*
		 * Retention may remove more than the report lists: the report
		 * is still written (a refusal here would leave the capture "in
		 * progress" for good), with a note.
		 */
		if (cap->n_removed == OL_REMOVED || strlen(arg) >= sizeof(cap->removed[0]))
			rc->removed_more++;
		else
			snprintf(cap->removed[cap->n_removed++], sizeof(cap->removed[0]), "%s", arg);
		break;
	case 'V':
		if (!version_word(arg)) {
			reason_warnx("--collector-version takes a version such as 1.7.8, not '%s'", arg);
			return -1;
		}
		snprintf(cap->collector_version, sizeof(cap->collector_version), "%s", arg);
		break;
	case 'N':
		/* a line of makedumpfile-pairs' (oopslimit-makedumpfile.sh): one
		 * line of text, as a note says it */
		/* (a long line is cut to a note's size: the report must be
		 * written whatever the line's length) */
		if (rc->n_collector_note == (int)(sizeof(rc->collector_note) / sizeof(rc->collector_note[0])) ||
		    !*arg || strpbrk(arg, "\n\r")) {
			reason_warnx("--collector-note takes up to 4 lines of text");
			return -1;
		}
		rc->collector_note[rc->n_collector_note++] = arg;
		break;
	case 'x':
		if (!reason_parse_long(arg, &cap->collector_exit)) {
			reason_warnx("--collector-exit takes a number, not '%s'", arg);
			return -1;
		}
		cap->have_exit = true;
		break;
	case 's':
		errno = 0;
		cap->seconds = strtod(arg, &end);
		if (errno || end == arg || *end) {
			reason_warnx("--seconds takes a number, not '%s'", arg);
			return -1;
		}
		cap->have_seconds = true;
		break;
	default:
		return 0;
	}
	return 1;
}

bool reason_capture_any(const struct reason_capture *rc)
{
	const struct ol_capture *cap = rc->cap;

	return cap->present || cap->time[0] || rc->dump || rc->dump_size >= 0 || cap->error[0] || cap->warning[0] ||
	       cap->have_exit || cap->have_seconds || cap->target[0] || cap->failure_action[0] || cap->n_removed ||
	       cap->collector_version[0] || rc->n_collector_note;
}

bool reason_capture_check(const struct reason_capture *rc)
{
	if (!rc->cap->present && reason_capture_any(rc)) {
		reason_warnx("--time, --dump, --dump-size, --error, --warning, --collector-exit, --seconds, --target, "
			     "--failure-action, --removed, --collector-version and --collector-note go with --capture");
		return false;
	}
	return true;
}

void reason_capture_note(struct ol_report *r, const struct reason_capture *rc)
{
	int i;

	for (i = 0; i < rc->n_collector_note; i++)
		ol_note(r, "%s", rc->collector_note[i]);
	if (rc->removed_more)
		ol_note(r, "retention removed %d more old dumps than capture.removed lists (it holds %d names)",
			rc->removed_more, OL_REMOVED);
}

/*
 * The saved dump's page counts (a kdump-compressed file: its two bitmaps),
 * for the capture record's judgement of what was left out (ol_pages_judge);
 * a dump that is not here (sent to a server) or not readable is noted.
 */
static void saved_pages(struct ol_report *r, const char *path)
{
	char err[OL_TEXT];
	struct ol_dump *d = ol_dump_open(path, err, sizeof(err));
	uint64_t ram, saved;

	if (!d) {
		if (access(path, F_OK) == 0)
			ol_note(r, "the saved dump's pages cannot be counted: %s", err);
		return;
	}
	if (ol_dump_pages(d, &ram, &saved)) {
		r->capture.have_pages = true;
		r->capture.ram_pages = ram;
		r->capture.saved_pages = saved;
	}
	ol_dump_close(d);
}

void reason_capture_size(struct ol_report *r, const struct reason_capture *rc)
{
	struct stat st;

	if (rc->dump_size >= 0)
		rc->cap->dump_bytes = rc->dump_size;
	else if (rc->dump && stat(rc->dump, &st) == 0)
		rc->cap->dump_bytes = (long long)st.st_size;
	if (rc->dump && !strcmp(rc->cap->status, "complete"))
		saved_pages(r, rc->dump);
}
