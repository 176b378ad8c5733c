// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-triage: the panics of a fleet, grouped by signature.
 *
 * Reads every report (reason.json, and any *.json beside it) under the
 * trees it is given, a local dump directory or a dump server's per-host
 * directories, and prints one row per group, most panics first: the panics
 * in the window and in the one before it, the hosts and their share of the
 * fleet, the kernel release it was first seen on and whether it is new with
 * the newest, the count per release, the reasons, the first and last
 * crash, the newest dumps to open, and the bug it is known as.  With
 * --index, an SQLite file keeps what every report said, so that a run reads
 * only what changed; it is a cache, never the truth.  A file that cannot be
 * read or is no oopslimit report is named on standard error and skipped.
 * See oopslimit-triage.1; triage.h says which file does what.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../common/outfile.h"
#include "triage.h"

/* "2026-12-01", "2026-12-01T08:00:00Z", or "7d" / "12h" before now; NONE when none of them. */
static int64_t parse_time(const char *s, time_t now)
{
	char buf[32], *end;
	unsigned long n;
	struct tm tm;

	if (strlen(s) == 10 && snprintf(buf, sizeof(buf), "%sT00:00:00Z", s) > 0)
		s = buf;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (end && !*end && strlen(s) == 20)
		return (int64_t)timegm(&tm);
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || (strcmp(end, "d") != 0 && strcmp(end, "h") != 0) || n > 100000 || s[0] == '-')
		return NONE;
	return (int64_t)now - (int64_t)n * (*end == 'd' ? 86400 : 3600);
}

static bool parse_count(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return !errno && end != s && !*end && s[0] != '-' && *v <= max;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [--json | --csv | --json-lines] [--since TIME [--until TIME]] [--group-by KEY]\n"
		"       [--top N] [--samples N] [--reason R] [--release K] [--host H] [--known FILE]\n"
		"       [--index FILE [--rescan]] [--output FILE] [--metrics FILE] PATH...\n"
		"  the reports under each PATH (a dump directory, a dump server's per-host\n"
		"  directories), grouped by signature, most panics first\n"
		"  --json, --csv     the summary, machine-readable; --json-lines: one report a line\n"
		"  --since TIME      the window: crashes at or after TIME (2026-12-01, 2026-12-01T08:00:00Z,\n"
		"                    7d, 12h), compared with the window of the same length before it\n"
		"  --until TIME      the window's end (default: now)\n"
		"  --group-by KEY    signature (default), reason, release or host\n"
		"  --top N           the first N groups only; --samples N: dumps named a group (3)\n"
		"  --reason, --release, --host   only the reports with that reason, kernel, host\n"
		"  --known FILE      a signature a line, then its bug's URL or the word mute\n"
		"  --index FILE      an SQLite cache of the reports: a run reads what changed\n"
		"  --rescan          with --index: look at every directory and file again\n"
		"  --output FILE     the summary to FILE, atomically; --metrics FILE: node_exporter's textfile\n",
		PROG);
}

static int save(const char *path, char *buf, size_t len, const char *what)
{
	char err[512];

	if (ol_write_file(path, buf, len, 0, err, sizeof(err)) == OL_OUT_FAILED) {
		fprintf(stderr, "%s: error: cannot write the %s: %s\n", PROG, what, err);
		return 1;
	}
	return 0;
}

static int bad(const char *opt, const char *what, const char *arg)
{
	fprintf(stderr, "%s: error: %s takes %s, not '%s'\n", PROG, opt, what, arg);
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "json-lines", no_argument, NULL, 'l' },
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "group-by", required_argument, NULL, 'g' },
		{ "top", required_argument, NULL, 't' },
		{ "samples", required_argument, NULL, 'n' },
		{ "reason", required_argument, NULL, 'R' },
		{ "release", required_argument, NULL, 'K' },
		{ "host", required_argument, NULL, 'H' },
		{ "known", required_argument, NULL, 'k' },
		{ "index", required_argument, NULL, 'i' },
		{ "rescan", no_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .format = 't', .by = BY_SIGNATURE, .since = NONE, .until = NONE, .samples = 3 };
	struct recs r = { 0 };
	struct summary s;
	char line[512], *out = NULL;
	size_t out_len = 0;
	time_t now = time(NULL);
	int c, i, rc = 0;
	FILE *f;

	intern("");
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'j':
		case 'c':
		case 'l':
			o.format = c;
			break;
		case 's':
		case 'u':
			*(c == 's' ? &o.since : &o.until) = parse_time(optarg, now);
			if ((c == 's' ? o.since : o.until) == NONE)
				return bad(c == 's' ? "--since" : "--until",
					   "a date, a UTC time or a number of days or hours (7d, 12h)", optarg);
			break;
		case 'g':
			for (i = BY_SIGNATURE; i <= BY_HOST && strcmp(optarg, group_by_name(i)) != 0; i++)
				;
			if (i > BY_HOST)
				return bad("--group-by", "signature, reason, release or host", optarg);
			o.by = i;
			break;
		case 't':
		case 'n':
			if (!parse_count(optarg, c == 't' ? 1000000 : 100, c == 't' ? &o.top : &o.samples) ||
			    (c == 't' && !o.top))
				return bad(c == 't' ? "--top" : "--samples",
					   c == 't' ? "a number from 1 to 1000000" : "a number from 0 to 100", optarg);
			break;
		case 'R':
			o.reason = intern(optarg);
			break;
		case 'K':
			o.release = intern(optarg);
			break;
		case 'H':
			o.host = intern(optarg);
			break;
		case 'k':
			o.known = optarg;
			break;
		case 'i':
			o.index = optarg;
			break;
		case 'r':
			o.rescan = true;
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'm':
			o.metrics = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	if (o.since != NONE && o.until == NONE)
		o.until = (int64_t)now;
	if (o.since != NONE && o.until <= o.since) {
		fprintf(stderr, "%s: error: --until must come after --since\n", PROG);
		return 2;
	}
	if (o.known && load_known(o.known) != 0)
		return 2;

	if (!o.index || index_run(&o, argv + optind, argc - optind, &r, line, sizeof(line)) != 0)
		for (i = optind; i < argc; i++)
			walk_root(argv[i], &r);
	if (o.index && o.format != 't')
		fprintf(stderr, "%s: %s\n", PROG, line);

	f = open_memstream(&out, &out_len);
	if (!f)
		xrealloc(NULL, SIZE_MAX);
	summarize(&o, &r, &s);
	s.index_line = o.index ? line : NULL;
	if (o.format == 'l')
		write_lines(f, &o, &r);
	else
		write_summary(f, &o, &s);
	if (fclose(f) != 0)
		xrealloc(NULL, SIZE_MAX);
	if (o.output) {
		rc |= save(o.output, out, out_len, "summary");
	} else if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout) != 0) {
		fprintf(stderr, "%s: error: cannot write the summary: %s\n", PROG, strerror(errno));
		rc = 1;
	}
	free(out);
	if (o.metrics) {
		out = NULL;
		f = open_memstream(&out, &out_len);
		if (!f)
			xrealloc(NULL, SIZE_MAX);
		write_metrics(f, &o, &s);
		if (fclose(f) != 0)
			xrealloc(NULL, SIZE_MAX);
		rc |= save(o.metrics, out, out_len, "metrics");
		free(out);
	}
	index_close();
	return rc;
}
