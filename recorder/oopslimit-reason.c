// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-reason: records why a kernel panicked, from its dump.
 *
 * Runs in the capture kernel on /proc/vmcore (and on the host on a saved
 * vmcore).  A thin reader: this file is its command line, the kernel log
 * and its output files (reason.h lists the other parts, one a job);
 * reason-dump.c finds the variables of
 * common/vars.def in the dump (VMCOREINFO's SYMBOL() lines with
 * libkdumpfile, else the dump's kallsyms) in a child process it bounds in
 * time; the kernel log (vmcore-dmesg.txt) goes to the report, and the
 * judging and the writing stay in common/, which the crash extension
 * shares.  When the dump has no such symbols, the counters the log implies
 * are used and the report says so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <poll.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/kallsyms.h"
#include "../common/outfile.h"
#include "../common/printk.h"
#include "../common/pstore.h"
#include "../common/report.h"
#include "dump.h"
#include "reason.h"

#define PROG "oopslimit-reason"

static const char usage[] =
	"usage: " PROG " [options] VMCORE\n"
	"       " PROG " --pstore [--crash-time EPOCH] [-j FILE] [-t FILE] RECORD...\n"
	"       " PROG " --get MEMBER [--get MEMBER]... REPORT\n"
	"Records why the kernel in VMCORE panicked; with --pstore, from the parts of\n"
	"one pstore record of its log (/sys/fs/pstore/dmesg-*) instead of a dump.\n"
	"  -l, --log FILE       the kernel log, as vmcore-dmesg writes it\n"
	"                       (default: vmcore-dmesg.txt next to VMCORE, if there)\n"
	"  -j, --json FILE      write the JSON report to FILE\n"
	"  -t, --text FILE      write the one-screen text report to FILE\n"
	"      --time TEXT      when the capture began (the capture kernel's clock)\n"
	"      --capture STATUS complete, failed or skipped: how saving the dump went\n"
	"      --dump FILE      the saved dump file, for its size and (complete,\n"
	"                       kdump-compressed) its pages: saved against what\n"
	"                       the kernel used, whether free pages were left out\n"
	"      --dump-size BYTES  its size, when it was saved elsewhere (a dump\n"
	"                       sent to an ssh server and rebuilt there)\n"
	"      --collector-exit N   the dump collector's exit status\n"
	"      --seconds S      how long saving the dump took\n"
	"      --error TEXT     what went wrong while capturing\n"
	"      --warning TEXT   what the collector warned of, the dump saved\n"
	"      --target TEXT    where the dump went (FSTYPE:SOURCE and directory)\n"
	"      --failure-action A   reboot, poweroff or fallback: what the capture\n"
	"                       did because the dump target failed\n"
	"      --removed NAME   an old dump directory retention removed (repeatable;\n"
	"                       past 16, counted in a note)\n"
	"      --collector-version V  the dump collector's version (makedumpfile -v)\n"
	"      --collector-note TEXT  what is known of the collector on this kernel\n"
	"                       (a line of makedumpfile-pairs), for the notes\n"
	"                       (repeatable, up to 4; a long line is cut)\n"
	"      --reserve BYTES  pad each file with blanks to at least BYTES, so that\n"
	"                       a later report fits in place on a full target\n"
	"      --follow-symlinks  a symbolic link at FILE: write the file it leads to\n"
	"                       (refused otherwise)\n"
	"      --pstore         the arguments are the parts of one pstore record of a\n"
	"                       panic's log: no dump, counters and settings null\n"
	"      --crash-time EPOCH  when the record was written (pstore's time of it)\n"
	"      --settings       print the panic settings of the variable table, one\n"
	"                       a line (KEY SYSCTL; a boot parameter has no dot),\n"
	"                       and exit: the list the live metrics read\n"
	"      --get MEMBER     print MEMBER of the JSON report REPORT (\"-\": standard\n"
	"                       input), KEY or OBJECT.KEY (capture.status), one line\n"
	"                       a --get, empty for null or a member not there\n"
	"Without -j or -t the text report goes to standard output; -j - writes\n"
	"JSON to standard output.  A file is replaced whole through a temporary\n"
	"beside it; a device or FIFO (/dev/null, /dev/stdout) is written as it\n"
	"is.  Exit status: 0 when the report was written, 1 when it could not\n"
	"be, 2 on bad usage, 3 when it was written but the dump itself could\n"
	"not be read (dump_read_error says why), 4 (--pstore) when the record was\n"
	"not written at a panic: nothing is written, one line says why.\n";

void reason_warnx(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *reason_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void read_log(const char *path, struct ol_report *r)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f) {
		snprintf(r->log_trouble, sizeof(r->log_trouble), "cannot read the log %s: %s",
			 reason_base_name(path), strerror(errno));
		return;
	}
	snprintf(r->log_from, sizeof(r->log_from), "%s", reason_base_name(path));
	while (getline(&line, &cap, f) >= 0)
		ol_report_log_line(r, line);
	if (ferror(f)) {
		r->log_unreliable = true;
		snprintf(r->log_trouble, sizeof(r->log_trouble), "error reading the log %s",
			 reason_base_name(path));
	}
	if (!r->log_read)
		snprintf(r->log_trouble, sizeof(r->log_trouble), "the log %s is empty", reason_base_name(path));
	free(line);
	fclose(f);
}

/*
 * Without the symbols, what the log says: the limit printed in the panic
 * message is the limit the counter reached.  The report marks these
 * values as the log's, so the check against the message is not made.
 */
static void counters_from_log(struct ol_report *r)
{
	static const enum ol_var_id pairs[][2] = {
		{ OL_V_OOPS_COUNT, OL_V_OOPS_LIMIT },
		{ OL_V_WARN_COUNT, OL_V_WARN_LIMIT },
	};
	size_t i, j;

	if (!r->log.have_limit || r->log.limit > UINT32_MAX)
		return;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (r->log.setting != pairs[i][1])
			continue;
		for (j = 0; j < 2; j++) {
			struct ol_var *v = &r->var[pairs[i][j]];

			if (v->read || v->found)
				continue;
			v->read = true;
			v->value = r->log.limit;
			v->source = OL_SRC_LOG;
			snprintf(v->how, sizeof(v->how), "the panic message's limit");
		}
	}
}

/*
 * Writes the report to path through common/outfile.c: a regular file
 * through a unique temporary renamed into place, a device or FIFO as it
 * is, a symbolic link or directory refused; when the target has no room
 * for another file, over the file reserved there before the dump was
 * written (padded with blanks, which JSON and text readers ignore).
 */
static int write_report(const char *path, bool json, const struct ol_report *r, size_t reserve,
			unsigned int flags)
{
	char *buf = NULL, err[PATH_MAX + 256];
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ok;

	if (!m) {
		reason_warnx("out of memory");
		return -1;
	}
	if (json)
		ol_report_json(m, r);
	else
		ol_report_text(m, r, false);
	if (fclose(m) != 0) {
		reason_warnx("out of memory");
		free(buf);
		return -1;
	}
	/* padding only for a file: a terminal or a pipe gets the report alone */
	if (len < reserve && strcmp(path, "-") != 0) {
		struct stat st;

		if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) {
			char *full = realloc(buf, reserve);

			if (!full) {
				reason_warnx("out of memory");
				free(buf);
				return -1;
			}
			buf = full;
			memset(buf + len, ' ', reserve - len);
			buf[reserve - 1] = '\n';
			len = reserve;
		}
	}
	ok = ol_write_file(path, buf, len, flags, err, sizeof(err)) == OL_OUT_FAILED ? -1 : 0;
	if (ok != 0) {
		if (errno == ELOOP)
			reason_warnx("%s; --follow-symlinks writes the file it leads to", err);
		else
			reason_warnx("%s", err);
	}
	free(buf);
	return ok;
}

/* What the command line asked for, beyond the capture options. */
struct args {
	const char *log, *json, *text;
	long reserve, crash_time;
	unsigned int wflags;
	bool pstore;
	const char *get[16];
	int n_get;
};

/* The report judged from one pstore record (--pstore). */
static int from_pstore(struct ol_report *r, const struct args *a, char **paths, int n)
{
	int rc;

	if (n < 1 || a->log || r->capture.present || a->reserve) {
		reason_warnx("--pstore takes the record's parts, and -j, -t, --crash-time, --follow-symlinks");
		return 2;
	}
	rc = reason_read_pstore(r, paths, n);
	if (rc)
		return rc;
	/* pstore's time of the record: when the kernel panicked */
	if (a->crash_time >= 0) {
		r->crashed = true;
		r->crash_time = (uint64_t)a->crash_time;
	}
	ol_pstore_judge(r);
	return 0;
}

/*
 * The report judged from the dump at path and its log: *opened says
 * whether the dump could be opened.
 */
static int from_dump(struct ol_report *r, const struct args *a, struct reason_capture *rc, const char *path,
		     bool *opened)
{
	const char *log = a->log;
	char *def_log = NULL;

	if (!reason_capture_check(rc))
		return 2;
	if (!log) {
		const char *slash = strrchr(path, '/');
		int dirlen = slash ? (int)(slash - path + 1) : 0;

		if (asprintf(&def_log, "%.*svmcore-dmesg.txt", dirlen, path) < 0) {
			reason_warnx("out of memory");
			return 1;
		}
		if (access(def_log, R_OK) == 0)
			log = def_log;
	}
	*opened = reason_read_dump_apart(path, r, !log);
	if (log)
		read_log(log, r);
	else if (!*opened)
		snprintf(r->log_trouble, sizeof(r->log_trouble),
			 "no kernel log: the dump could not be read and there is no -l FILE or vmcore-dmesg.txt beside it");
	reason_capture_note(r, rc);
	ol_log_done(&r->log);
	counters_from_log(r);
	ol_report_judge(r);
	reason_capture_size(r, rc);
	free(def_log);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "log", required_argument, NULL, 'l' },
		{ "json", required_argument, NULL, 'j' },
		{ "text", required_argument, NULL, 't' },
		{ "time", required_argument, NULL, 'T' },
		{ "capture", required_argument, NULL, 'c' },
		{ "dump", required_argument, NULL, 'd' },
		{ "dump-size", required_argument, NULL, 'B' },
		{ "collector-exit", required_argument, NULL, 'x' },
		{ "seconds", required_argument, NULL, 's' },
		{ "error", required_argument, NULL, 'e' },
		{ "warning", required_argument, NULL, 'w' },
		{ "reserve", required_argument, NULL, 'r' },
		{ "target", required_argument, NULL, 'D' },
		{ "failure-action", required_argument, NULL, 'A' },
		{ "removed", required_argument, NULL, 'R' },
		{ "collector-version", required_argument, NULL, 'V' },
		{ "collector-note", required_argument, NULL, 'N' },
		{ "follow-symlinks", no_argument, NULL, 'F' },
		{ "settings", no_argument, NULL, 'S' },
		{ "pstore", no_argument, NULL, 'P' },
		{ "crash-time", required_argument, NULL, 'C' },
		{ "get", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct ol_report r;
	struct args a = { .crash_time = -1 };
	struct reason_capture cap = { .cap = &r.capture, .dump_size = -1 };
	bool opened = true;
	int c, rc = 0;

	ol_report_init(&r, PROG);
	while ((c = getopt_long(argc, argv, "l:j:t:h", opts, NULL)) != -1) {
		switch (reason_capture_option(&cap, c, optarg)) {
		case 1:
			continue;
		case -1:
			return 2;
		}
		switch (c) {
		case 'l':
			a.log = optarg;
			break;
		case 'j':
			a.json = optarg;
			break;
		case 't':
			a.text = optarg;
			break;
		case 'r':
			if (!reason_parse_long(optarg, &a.reserve) || a.reserve < 0 || a.reserve > 1 << 20) {
				reason_warnx("--reserve takes a size up to 1 MiB, not '%s'", optarg);
				return 2;
			}
			break;
		case 'F':
			a.wflags |= OL_OUT_FOLLOW;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'P':
			a.pstore = true;
			break;
		case 'C':
			if (!reason_parse_long(optarg, &a.crash_time) || a.crash_time < 0) {
				reason_warnx("--crash-time takes seconds since the epoch, not '%s'", optarg);
				return 2;
			}
			break;
		case 'S':
			return reason_settings();
		case 'g':
			if (!reason_member_name(optarg) || a.n_get == (int)(sizeof(a.get) / sizeof(a.get[0]))) {
				reason_warnx("--get takes a member's name, KEY or OBJECT.KEY (at most %d), not '%s'",
					     (int)(sizeof(a.get) / sizeof(a.get[0])), optarg);
				return 2;
			}
			a.get[a.n_get++] = optarg;
			break;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (a.n_get) {
		if (optind != argc - 1 || a.pstore || a.log || a.json || a.text || a.reserve || a.wflags ||
		    a.crash_time >= 0 || reason_capture_any(&cap)) {
			reason_warnx("--get takes one report, and no other option");
			return 2;
		}
		return reason_get(a.get, a.n_get, argv[optind]);
	}
	if (a.pstore) {
		rc = from_pstore(&r, &a, argv + optind, argc - optind);
	} else if (optind != argc - 1) {
		fputs(usage, stderr);
		return 2;
	} else {
		rc = from_dump(&r, &a, &cap, argv[optind], &opened);
	}
	if (rc)
		return rc;
	if (!a.json && !a.text)
		a.text = "-";
	if (a.json && write_report(a.json, true, &r, (size_t)a.reserve, a.wflags) != 0)
		rc = 1;
	if (a.text && write_report(a.text, false, &r, (size_t)a.reserve, a.wflags) != 0)
		rc = 1;
	/* a report of a dump that could not be opened is written, and said so */
	if (rc == 0 && !opened)
		rc = 3;
	return rc;
}
