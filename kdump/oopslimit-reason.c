// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-reason: records why a kernel panicked, from its dump.
 *
 * Runs in the capture kernel on /proc/vmcore (and on the host on a saved
 * vmcore).  The counters and limits come from the dump through the
 * VMCOREINFO SYMBOL() entries our kernel patch adds, read with
 * libkdumpfile; the panic message, the warning origin and the last warning
 * come from the kernel log (vmcore-dmesg.txt).  When the dump has no such
 * symbols, the counters come from the log and the report says so.
 *
 * The judging itself is common/verdict.c, shared with the crash extension.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libkdumpfile/kdumpfile.h>

#include "../common/verdict.h"

#define PROG "oopslimit-reason"

static const char usage[] =
	"usage: " PROG " [options] VMCORE\n"
	"Records why the kernel in VMCORE panicked.\n"
	"  -l, --log FILE       the kernel log, as vmcore-dmesg writes it\n"
	"                       (default: vmcore-dmesg.txt next to VMCORE, if there)\n"
	"  -j, --json FILE      write the JSON report to FILE\n"
	"  -t, --text FILE      write the one-screen text report to FILE\n"
	"      --time TEXT      when the kernel crashed (the capture kernel's clock)\n"
	"      --capture STATUS complete, failed or skipped: how saving the dump went\n"
	"      --dump FILE      the saved dump file, for its size\n"
	"      --collector-exit N   the dump collector's exit status\n"
	"      --seconds S      how long saving the dump took\n"
	"      --error TEXT     what went wrong while capturing\n"
	"      --reserve BYTES  pad each file with blanks to at least BYTES, so that\n"
	"                       a later report fits in place on a full target\n"
	"Without -j or -t the text report goes to standard output; -j - writes\n"
	"JSON to standard output.  Exit status: 0 when the report was written,\n"
	"1 when it could not be, 2 on bad usage.\n";

struct capture {
	const char *status, *dump, *error, *time;
	long collector_exit;
	bool have_exit;
	double seconds;
	bool have_seconds;
	long long dump_bytes;
};

struct report {
	char release[OL_SHORT];
	const char *counters_source;	/* "vmcoreinfo", "log" or "none" */
	char dump_error[OL_TEXT];	/* why the dump could not be read */
	struct ol_counters c;
	bool have_panic_on_oops;
	unsigned int panic_on_oops;
	struct ol_log log;
	const char *log_file;
	bool have_log;
	char why[OL_TEXT];	/* inconsistency between counters and log */
	bool consistent;
};

static void warnx(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Reads one 32-bit counter through its VMCOREINFO symbol. */
static bool read_symbol(kdump_ctx_t *ctx, const char *name, unsigned int *out,
			char *err, size_t err_len)
{
	kdump_addr_t addr;
	uint32_t v;
	size_t len = sizeof(v);

	if (kdump_vmcoreinfo_symbol(ctx, name, &addr) != KDUMP_OK) {
		snprintf(err, err_len, "no SYMBOL(%s) in VMCOREINFO", name);
		return false;
	}
	if (kdump_read(ctx, KDUMP_KVADDR, addr, &v, &len) != KDUMP_OK || len != sizeof(v)) {
		snprintf(err, err_len, "cannot read %s at 0x%" KDUMP_PRIxADDR ": %s", name, addr,
			 kdump_get_err(ctx) ? kdump_get_err(ctx) : "short read");
		return false;
	}
	*out = (unsigned int)kdump_d32toh(ctx, v);
	return true;
}

static void read_dump(const char *path, struct report *r)
{
	kdump_ctx_t *ctx;
	char *val = NULL, err[OL_TEXT] = "";
	int fd;
	struct {
		const char *name;
		unsigned int *val;
		bool *have;
	} vars[] = {
		{ "oops_count", &r->c.oops_count, &r->c.have_oops_count },
		{ "oops_limit", &r->c.oops_limit, &r->c.have_oops_limit },
		{ "warn_count", &r->c.warn_count, &r->c.have_warn_count },
		{ "warn_limit", &r->c.warn_limit, &r->c.have_warn_limit },
	};
	size_t i, n = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(r->dump_error, sizeof(r->dump_error), "cannot open %s: %s", path,
			 strerror(errno));
		return;
	}
	ctx = kdump_new();
	if (!ctx) {
		snprintf(r->dump_error, sizeof(r->dump_error), "out of memory");
		close(fd);
		return;
	}
	if (kdump_open_fd(ctx, fd) != KDUMP_OK) {
		snprintf(r->dump_error, sizeof(r->dump_error), "cannot read %s as a dump: %s",
			 path, kdump_get_err(ctx));
		goto out;
	}
	/* libkdumpfile reads VMCOREINFO only once it knows the dump is Linux */
	if (kdump_set_string_attr(ctx, KDUMP_ATTR_OSTYPE, "linux") != KDUMP_OK) {
		snprintf(r->dump_error, sizeof(r->dump_error), "%s is not a Linux dump: %s",
			 path, kdump_get_err(ctx));
		goto out;
	}
	/*
	 * makedumpfile -d 1 and up leaves out pages that are all zero; a page
	 * of kernel data is left out for no other reason, so it reads as zeros.
	 */
	if (kdump_set_number_attr(ctx, KDUMP_ATTR_ZERO_EXCLUDED, 1) != KDUMP_OK)
		kdump_clear_err(ctx);
	if (kdump_vmcoreinfo_line(ctx, "OSRELEASE", &val) == KDUMP_OK && val) {
		snprintf(r->release, sizeof(r->release), "%s", val);
		free(val);
	}
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		if (read_symbol(ctx, vars[i].name, vars[i].val, err, sizeof(err))) {
			*vars[i].have = true;
			n++;
		} else if (!r->dump_error[0]) {
			snprintf(r->dump_error, sizeof(r->dump_error), "%s", err);
		}
	}
	if (n)
		r->counters_source = "vmcoreinfo";
	/* older kernels of the series do not publish it: no error then */
	r->have_panic_on_oops = read_symbol(ctx, "panic_on_oops", &r->panic_on_oops, err, sizeof(err));
out:
	kdump_free(ctx);
	close(fd);
}

static void read_log(const char *path, struct report *r)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f) {
		warnx("cannot read the log %s: %s", path, strerror(errno));
		return;
	}
	while (getline(&line, &cap, f) >= 0)
		ol_log_line(&r->log, line);
	if (ferror(f))
		warnx("error reading the log %s", path);
	free(line);
	fclose(f);
	r->have_log = true;
	r->log_file = path;
}

/*
 * Without the symbols, what the log says: the limit printed in the panic
 * message is the limit the counter reached, and the oops headers number the
 * oopses since boot.
 */
static void counters_from_log(struct report *r)
{
	struct ol_counters *c = &r->c;
	bool any = false;

	if (r->log.reason == OL_OOPS_LIMIT && r->log.have_limit && !c->have_oops_limit) {
		c->oops_limit = (unsigned int)r->log.limit;
		c->oops_count = (unsigned int)r->log.limit;
		c->have_oops_limit = c->have_oops_count = any = true;
	} else if (r->log.last_die && !c->have_oops_count && r->log.last_die <= UINT32_MAX) {
		c->oops_count = (unsigned int)r->log.last_die;
		c->have_oops_count = any = true;
	}
	if (r->log.reason == OL_WARN_LIMIT && r->log.have_limit && !c->have_warn_limit) {
		c->warn_limit = (unsigned int)r->log.limit;
		c->warn_count = (unsigned int)r->log.limit;
		c->have_warn_limit = c->have_warn_count = any = true;
	}
	if (any && !r->counters_source)
		r->counters_source = "log";
}

/* Files of a dump directory are named without it: the directory moves. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void write_json(FILE *f, const struct report *r, const struct capture *cap)
{
	bool first = true;

	ol_json_key(f, "schema", &first);
	fputs("1", f);
	ol_json_text(f, "kernel_release", r->release, &first);
	ol_json_text(f, "crash_time", cap->time, &first);
	ol_json_text(f, "panic_message", r->log.have_panic ? r->log.panic : NULL, &first);
	ol_json_text(f, "reason", ol_reason_name(r->log.reason), &first);
	ol_json_text(f, "origin", r->log.origin, &first);
	ol_json_text(f, "detail", r->log.detail, &first);
	ol_json_text(f, "counters_source", r->counters_source ? r->counters_source : "none", &first);
	ol_json_uint(f, "oops_count", r->c.have_oops_count, r->c.oops_count, &first);
	ol_json_uint(f, "oops_limit", r->c.have_oops_limit, r->c.oops_limit, &first);
	ol_json_uint(f, "warn_count", r->c.have_warn_count, r->c.warn_count, &first);
	ol_json_uint(f, "warn_limit", r->c.have_warn_limit, r->c.warn_limit, &first);
	ol_json_uint(f, "panic_on_oops", r->have_panic_on_oops, r->panic_on_oops, &first);
	ol_json_bool(f, "consistent", r->consistent, &first);
	ol_json_text(f, "inconsistency", r->why, &first);
	ol_json_text(f, "dump_read_error", r->dump_error, &first);

	ol_json_last_warning(f, &r->log, &first);

	ol_json_key(f, "log", &first);
	if (r->have_log) {
		fputs("{ \"file\": ", f);
		ol_json_string(f, base_name(r->log_file));
		fprintf(f, ", \"lines\": %lu, \"oopses\": %lu, \"last_oops_number\": %lu, \"warnings\": %lu }",
			r->log.lines, r->log.oopses, r->log.last_die, r->log.warnings);
	} else {
		fputs("null", f);
	}

	ol_json_key(f, "capture", &first);
	fputs("{ \"status\": ", f);
	ol_json_string(f, cap->status ? cap->status : "not recorded");
	fputs(", \"dump_file\": ", f);
	if (cap->dump)
		ol_json_string(f, base_name(cap->dump));
	else
		fputs("null", f);
	if (cap->dump_bytes >= 0)
		fprintf(f, ", \"dump_bytes\": %lld", cap->dump_bytes);
	else
		fputs(", \"dump_bytes\": null", f);
	if (cap->have_exit)
		fprintf(f, ", \"collector_exit\": %ld", cap->collector_exit);
	else
		fputs(", \"collector_exit\": null", f);
	if (cap->have_seconds)
		fprintf(f, ", \"seconds\": %.2f", cap->seconds);
	else
		fputs(", \"seconds\": null", f);
	fputs(", \"error\": ", f);
	if (cap->error && *cap->error)
		ol_json_string(f, cap->error);
	else
		fputs("null", f);
	fputs(" }\n}\n", f);
}

static void text_counter(FILE *f, const char *label, bool have_count, unsigned int count,
			 bool have_limit, unsigned int limit)
{
	fprintf(f, "%-13s", label);
	if (have_count)
		fprintf(f, "%u", count);
	else
		fputs("unknown", f);
	if (!have_limit)
		fputs(" (limit unknown)\n", f);
	else if (limit == 0)
		fputs(" (limit 0: no limit)\n", f);
	else
		fprintf(f, " of limit %u\n", limit);
}

static void write_text(FILE *f, const struct report *r, const struct capture *cap)
{
	fprintf(f, "%-13s%s\n", "kernel:", r->release[0] ? r->release : "unknown");
	if (cap->time)
		fprintf(f, "%-13s%s\n", "crashed:", cap->time);
	fprintf(f, "%-13s%s\n", "panic:", r->log.have_panic ? r->log.panic :
		r->log.reason == OL_PANIC_ON_OOPS ? "(none: panic_on_oops sent the oops straight to kdump)" :
		"(no panic message in the log)");
	fprintf(f, "%-13s%s", "reason:", ol_reason_name(r->log.reason));
	if (r->log.origin[0])
		fprintf(f, " (origin %s)", r->log.origin);
	if (r->log.detail[0])
		fprintf(f, " (%s)", r->log.detail);
	fputc('\n', f);
	text_counter(f, "oopses:", r->c.have_oops_count, r->c.oops_count,
		     r->c.have_oops_limit, r->c.oops_limit);
	text_counter(f, "warnings:", r->c.have_warn_count, r->c.warn_count,
		     r->c.have_warn_limit, r->c.warn_limit);
	fprintf(f, "%-13s%s\n", "counters:",
		!r->counters_source ? "not available" :
		strcmp(r->counters_source, "vmcoreinfo") == 0 ?
		"read from the dump (VMCOREINFO symbols)" : "taken from the log (the dump has no symbols)");
	if (r->dump_error[0])
		fprintf(f, "%-13s%s\n", "dump read:", r->dump_error);
	if (!r->consistent)
		fprintf(f, "%-13s%s\n", "WARNING:", r->why);
	if (r->log.have_warning)
		fprintf(f, "%-13s%s%s%s%s%s\n", "last warn:", r->log.warn_origin,
			r->log.warn_where[0] ? " at " : "", r->log.warn_where,
			r->log.warn_func[0] ? " in " : "", r->log.warn_func);
	fprintf(f, "%-13s%s", "capture:", cap->status ? cap->status : "not recorded");
	if (cap->dump_bytes >= 0)
		fprintf(f, ", %lld bytes", cap->dump_bytes);
	if (cap->have_seconds)
		fprintf(f, " in %.2f s", cap->seconds);
	if (cap->have_exit)
		fprintf(f, " (collector exit %ld)", cap->collector_exit);
	if (cap->error && *cap->error)
		fprintf(f, ": %s", cap->error);
	fputc('\n', f);
}

/*
 * Writes the report to path: to path.tmp and renamed into place, or, when
 * the target has no room for another file, over the file reserved there
 * before the dump was written (padded with blanks, which JSON and text
 * readers ignore).
 */
static int write_report(const char *path, bool json, const struct report *r,
			const struct capture *cap, size_t reserve)
{
	char *buf = NULL, tmp[4096];
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int fd, ok = -1;
	struct stat st;

	if (!m) {
		warnx("out of memory");
		return -1;
	}
	if (json)
		write_json(m, r, cap);
	else
		write_text(m, r, cap);
	if (fclose(m) != 0) {
		warnx("out of memory");
		free(buf);
		return -1;
	}
	if (len < reserve && strcmp(path, "-") != 0) {
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
	if (strcmp(path, "-") == 0) {
		ok = fwrite(buf, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : -1;
		free(buf);
		return ok;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		warnx("path too long: %s", path);
		free(buf);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0 && write(fd, buf, len) == (ssize_t)len && fsync(fd) == 0 &&
	    close(fd) == 0 && rename(tmp, path) == 0) {
		free(buf);
		return 0;
	}
	if (fd >= 0)
		close(fd);
	unlink(tmp);

	fd = open(path, O_WRONLY);
	if (fd >= 0 && fstat(fd, &st) == 0 && (size_t)st.st_size >= len) {
		size_t pad = (size_t)st.st_size - len;
		char *full = realloc(buf, len + pad);

		if (full) {
			buf = full;
			memset(buf + len, ' ', pad);
			if (pad)
				buf[len + pad - 1] = '\n';
			if (pwrite(fd, buf, len + pad, 0) == (ssize_t)(len + pad) && fsync(fd) == 0)
				ok = 0;
		}
	}
	if (ok != 0)
		warnx("cannot write %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(buf);
	return ok;
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
		{ "collector-exit", required_argument, NULL, 'x' },
		{ "seconds", required_argument, NULL, 's' },
		{ "error", required_argument, NULL, 'e' },
		{ "reserve", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct capture cap = { .dump_bytes = -1 };
	static struct report r;
	const char *log = NULL, *json = NULL, *text = NULL;
	char *def_log = NULL, *end;
	struct stat st;
	int c, rc = 0;
	long reserve = 0;

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
			cap.time = optarg;
			break;
		case 'c':
			cap.status = optarg;
			break;
		case 'd':
			cap.dump = optarg;
			break;
		case 'e':
			cap.error = optarg;
			break;
		case 'x':
			if (!parse_long(optarg, &cap.collector_exit)) {
				warnx("--collector-exit takes a number, not '%s'", optarg);
				return 2;
			}
			cap.have_exit = true;
			break;
		case 's':
			errno = 0;
			cap.seconds = strtod(optarg, &end);
			if (errno || end == optarg || *end) {
				warnx("--seconds takes a number, not '%s'", optarg);
				return 2;
			}
			cap.have_seconds = true;
			break;
		case 'r':
			if (!parse_long(optarg, &reserve) || reserve < 0 || reserve > 1 << 20) {
				warnx("--reserve takes a size up to 1 MiB, not '%s'", optarg);
				return 2;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		return 2;
	}

	ol_log_init(&r.log);
	read_dump(argv[optind], &r);
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
	if (log)
		read_log(log, &r);
	ol_log_done(&r.log);
	/* a vmcore is a crash: an oops may have gone to kdump without a panic line */
	ol_log_crashed(&r.log, r.have_panic_on_oops ? (int)r.panic_on_oops : -1);
	counters_from_log(&r);
	r.consistent = ol_consistent(&r.log, &r.c, r.why, sizeof(r.why));
	if (cap.dump && stat(cap.dump, &st) == 0)
		cap.dump_bytes = (long long)st.st_size;

	if (!json && !text)
		text = "-";
	if (json && write_report(json, true, &r, &cap, (size_t)reserve) != 0)
		rc = 1;
	if (text && write_report(text, false, &r, &cap, (size_t)reserve) != 0)
		rc = 1;
	free(def_log);
	return rc;
}
