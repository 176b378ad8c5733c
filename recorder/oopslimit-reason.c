// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-reason: records why a kernel panicked, from its dump.
 *
 * Runs in the capture kernel on /proc/vmcore (and on the host on a saved
 * vmcore).  A thin reader: this file is its command line, its output
 * files and the retention notes; reason-dump.c finds the variables of
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
	"Without -j or -t the text report goes to standard output; -j - writes\n"
	"JSON to standard output.  A file is replaced whole through a temporary\n"
	"beside it; a device or FIFO (/dev/null, /dev/stdout) is written as it\n"
	"is.  Exit status: 0 when the report was written, 1 when it could not\n"
	"be, 2 on bad usage, 3 when it was written but the dump itself could\n"
	"not be read (dump_read_error says why), 4 (--pstore) when the record was\n"
	"not written at a panic: nothing is written, one line says why.\n";

static void warnx(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Files of a dump directory are named without it: the directory moves. */
static const char *base_name(const char *path)
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
			 base_name(path), strerror(errno));
		return;
	}
	snprintf(r->log_from, sizeof(r->log_from), "%s", base_name(path));
	while (getline(&line, &cap, f) >= 0)
		ol_report_log_line(r, line);
	if (ferror(f)) {
		r->log_unreliable = true;
		snprintf(r->log_trouble, sizeof(r->log_trouble), "error reading the log %s",
			 base_name(path));
	}
	if (!r->log_read)
		snprintf(r->log_trouble, sizeof(r->log_trouble), "the log %s is empty", base_name(path));
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
 * --pstore: the parts of one record, each read whole (a part is at most a
 * backend's record, kilobytes: more than 4 MiB is not one) and fed oldest
 * first.  A part that cannot be read as a panic's log makes the log unread:
 * the verdict is then unknown, the reason a note, never a guess from what
 * is left.  Returns 4 when the record was not written at a panic.
 */
#define PSTORE_MAX (4 << 20)
#define PSTORE_PARTS 64

static int read_pstore(struct ol_report *r, char **paths, int n)
{
	static char *bufs[PSTORE_PARTS];
	static size_t lens[PSTORE_PARTS];
	struct ol_pstore_part parts[PSTORE_PARTS];
	char why[OL_TEXT];
	int i, j, order[PSTORE_PARTS], rc = 0;

	if (n > PSTORE_PARTS) {
		warnx("at most %d parts of one record", PSTORE_PARTS);
		return 2;
	}
	snprintf(r->log_from, sizeof(r->log_from), "pstore %.56s", base_name(paths[0]));
	for (i = 0; i < n; i++) {
		FILE *f = fopen(paths[i], "rb");
		enum ol_pstore_kind kind;

		bufs[i] = malloc(PSTORE_MAX + 1);
		if (!f || !bufs[i]) {
			snprintf(r->log_trouble, sizeof(r->log_trouble), "cannot read the pstore record %s: %s",
				 base_name(paths[i]), f ? "out of memory" : strerror(errno));
			if (f)
				fclose(f);
			rc = -1;
			break;
		}
		lens[i] = fread(bufs[i], 1, PSTORE_MAX + 1, f);
		if (ferror(f) || lens[i] > PSTORE_MAX) {
			snprintf(r->log_trouble, sizeof(r->log_trouble), "the pstore record %s %s",
				 base_name(paths[i]), ferror(f) ? "could not be read" : "is larger than any record");
			fclose(f);
			rc = -1;
			break;
		}
		fclose(f);
		kind = ol_pstore_part(base_name(paths[i]), bufs[i], lens[i], &parts[i], why, sizeof(why));
		if (kind == OL_PSTORE_NOT_PANIC) {
			warnx("%s: not judged", why);
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
				 "not one record", base_name(paths[i]), parts[i].why, parts[i].count,
				 base_name(paths[0]), parts[0].why, parts[0].count);
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
				 base_name(paths[0]));
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
		warnx("out of memory");
		return -1;
	}
	if (json)
		ol_report_json(m, r);
	else
		ol_report_text(m, r, false);
	if (fclose(m) != 0) {
		warnx("out of memory");
		free(buf);
		return -1;
	}
	/* padding only for a file: a terminal or a pipe gets the report alone */
	if (len < reserve && strcmp(path, "-") != 0) {
		struct stat st;

		if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) {
			char *full = realloc(buf, reserve);

			if (!full) {
				warnx("out of memory");
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
			warnx("%s; --follow-symlinks writes the file it leads to", err);
		else
			warnx("%s", err);
	}
	free(buf);
	return ok;
}

/* A version as makedumpfile -v gives it: digits and dots, a few more. */
static bool version_word(const char *s)
{
	size_t n = strspn(s, "0123456789.+~-abcdefghijklmnopqrstuvwxyz");

	return n > 0 && n < 32 && s[n] == '\0' && s[0] >= '0' && s[0] <= '9';
}

/*
 * The saved dump's page counts (a kdump-compressed file: its two bitmaps),
 * for the capture record's judgement of what was left out (ol_pages_judge);
 * a dump that is not here (sent to a server) or not readable is noted.
 */
static void saved_pages(const char *path, struct ol_report *r)
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

static bool parse_long(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno == 0 && end != s && *end == '\0';
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
		{ "follow-symlinks", no_argument, NULL, 'F' },
		{ "settings", no_argument, NULL, 'S' },
		{ "pstore", no_argument, NULL, 'P' },
		{ "crash-time", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct ol_report r;
	struct ol_capture *cap = &r.capture;
	const char *log = NULL, *json = NULL, *text = NULL, *dump = NULL;
	bool opened;
	char *def_log = NULL, *end;
	struct stat st;
	int c, rc = 0, removed_more = 0;
	long reserve = 0, crash_time = -1, dump_size = -1;
	unsigned int wflags = 0;
	bool pstore = false;

	ol_report_init(&r, PROG);
	while ((c = getopt_long(argc, argv, "l:j:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			log = optarg;
			break;
		case 'j':
			json = optarg;
			break;
		case 't':
			text = optarg;
			break;
		case 'T':
			snprintf(cap->time, sizeof(cap->time), "%s", optarg);
			break;
		case 'c':
			cap->present = true;
			snprintf(cap->status, sizeof(cap->status), "%s", optarg);
			break;
		case 'd':
			dump = optarg;
			snprintf(cap->dump_file, sizeof(cap->dump_file), "%s", base_name(optarg));
			break;
		case 'B':
			if (!parse_long(optarg, &dump_size) || dump_size < 0) {
				warnx("--dump-size takes a number of bytes, not '%s'", optarg);
				return 2;
			}
			break;
		case 'e':
			snprintf(cap->error, sizeof(cap->error), "%s", optarg);
			break;
		case 'w':
			snprintf(cap->warning, sizeof(cap->warning), "%s", optarg);
			break;
		case 'D':
			snprintf(cap->target, sizeof(cap->target), "%s", optarg);
			break;
		case 'A':
			if (strcmp(optarg, "reboot") && strcmp(optarg, "poweroff") && strcmp(optarg, "fallback")) {
				warnx("--failure-action is reboot, poweroff or fallback, not '%s'", optarg);
				return 2;
			}
			snprintf(cap->failure_action, sizeof(cap->failure_action), "%s", optarg);
			break;
		case 'R':
			/*
			 * Retention may remove more than the report lists: the
			 * report is still written (a refusal here would leave
			 * the capture "in progress" for good), with a note.
			 */
			if (cap->n_removed == OL_REMOVED || strlen(optarg) >= sizeof(cap->removed[0]))
				removed_more++;
			else
				snprintf(cap->removed[cap->n_removed++], sizeof(cap->removed[0]), "%s", optarg);
			break;
		case 'V':
			if (!version_word(optarg)) {
				warnx("--collector-version takes a version such as 1.7.8, not '%s'", optarg);
				return 2;
			}
			snprintf(cap->collector_version, sizeof(cap->collector_version), "%s", optarg);
			break;
		case 'x':
			if (!parse_long(optarg, &cap->collector_exit)) {
				warnx("--collector-exit takes a number, not '%s'", optarg);
				return 2;
			}
			cap->have_exit = true;
			break;
		case 's':
			errno = 0;
			cap->seconds = strtod(optarg, &end);
			if (errno || end == optarg || *end) {
				warnx("--seconds takes a number, not '%s'", optarg);
				return 2;
			}
			cap->have_seconds = true;
			break;
		case 'r':
			if (!parse_long(optarg, &reserve) || reserve < 0 || reserve > 1 << 20) {
				warnx("--reserve takes a size up to 1 MiB, not '%s'", optarg);
				return 2;
			}
			break;
		case 'F':
			wflags |= OL_OUT_FOLLOW;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'P':
			pstore = true;
			break;
		case 'C':
			if (!parse_long(optarg, &crash_time) || crash_time < 0) {
				warnx("--crash-time takes seconds since the epoch, not '%s'", optarg);
				return 2;
			}
			break;
		case 'S':
			/* vars.def is the one list: the shell side asks for it */
			for (c = 0; c < OL_NVARS; c++)
				if (ol_vars[c].sysctl)
					printf("%s %s\n", ol_vars[c].key, ol_vars[c].sysctl);
			return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (pstore) {
		if (optind >= argc || log || cap->present || reserve) {
			warnx("--pstore takes the record's parts, and -j, -t, --crash-time, --follow-symlinks");
			return 2;
		}
		rc = read_pstore(&r, argv + optind, argc - optind);
		if (rc)
			return rc;
		/* no dump to fail to open: the exit status is the writing's */
		opened = true;
		/* pstore's time of the record: when the kernel panicked */
		if (crash_time >= 0) {
			r.crashed = true;
			r.crash_time = (uint64_t)crash_time;
		}
		ol_pstore_judge(&r);
		goto write;
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		return 2;
	}

	if (!cap->present && (cap->time[0] || dump || dump_size >= 0 || cap->error[0] || cap->warning[0] || cap->have_exit ||
			       cap->have_seconds || cap->target[0] || cap->failure_action[0] || cap->n_removed ||
			       cap->collector_version[0])) {
		warnx("--time, --dump, --dump-size, --error, --warning, --collector-exit, --seconds, --target, --failure-action, --removed and --collector-version go with --capture");
		return 2;
	}
	if (!log) {
		const char *slash = strrchr(argv[optind], '/');
		int dirlen = slash ? (int)(slash - argv[optind] + 1) : 0;

		if (asprintf(&def_log, "%.*svmcore-dmesg.txt", dirlen, argv[optind]) < 0) {
			warnx("out of memory");
			return 1;
		}
		if (access(def_log, R_OK) == 0)
			log = def_log;
	}
	opened = reason_read_dump_apart(argv[optind], &r, !log);
	if (log)
		read_log(log, &r);
	else if (!opened)
		snprintf(r.log_trouble, sizeof(r.log_trouble),
			 "no kernel log: the dump could not be read and there is no -l FILE or vmcore-dmesg.txt beside it");
	if (removed_more)
		ol_note(&r, "retention removed %d more old dumps than capture.removed lists (it holds %d names)",
			removed_more, OL_REMOVED);
	ol_log_done(&r.log);
	counters_from_log(&r);
	ol_report_judge(&r);
	if (dump_size >= 0)
		cap->dump_bytes = dump_size;
	else if (dump && stat(dump, &st) == 0)
		cap->dump_bytes = (long long)st.st_size;
	if (dump && !strcmp(cap->status, "complete"))
		saved_pages(dump, &r);
write:
	if (!json && !text)
		text = "-";
	if (json && write_report(json, true, &r, (size_t)reserve, wflags) != 0)
		rc = 1;
	if (text && write_report(text, false, &r, (size_t)reserve, wflags) != 0)
		rc = 1;
	/* a report of a dump that could not be opened is written, and said so */
	if (rc == 0 && !opened)
		rc = 3;
	free(def_log);
	return rc;
}
