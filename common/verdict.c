// SPDX-License-Identifier: GPL-2.0
/*
 * Judging why a kernel panicked, from its log and its counters.  See
 * verdict.h.  No allocation, no dump access: every input is a string or a
 * number, so a garbled log can only produce a less certain verdict.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* Copies at most size - 1 bytes of src (length len) and terminates. */
static void copy_text(char *dst, size_t size, const char *src, size_t len)
{
	if (size == 0)
		return;
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/* Like strstr for a string of known length; returns NULL when absent. */
static const char *find(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	if (n == 0 || n > len)
		return NULL;
	for (i = 0; i + n <= len; i++)
		if (memcmp(s + i, needle, n) == 0)
			return s + i;
	return NULL;
}

const char *ol_log_text(const char *line, size_t *len)
{
	const char *s = line, *e;
	size_t n = strlen(line);

	/* "<4>" level prefixes and "[    1.234567] " / "[    T1] " stamps */
	for (;;) {
		if (n >= 3 && s[0] == '<' && isdigit((unsigned char)s[1])) {
			e = memchr(s, '>', n > 6 ? 6 : n);
			if (!e)
				break;
			n -= (size_t)(e + 1 - s);
			s = e + 1;
		} else if (n >= 2 && s[0] == '[') {
			e = memchr(s, ']', n > 24 ? 24 : n);
			if (!e)
				break;
			n -= (size_t)(e + 1 - s);
			s = e + 1;
			while (n && *s == ' ') {
				s++;
				n--;
			}
		} else {
			break;
		}
	}
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	*len = n;
	return s;
}

/* Parses the decimal number at s; false when there is none. */
static bool number_at(const char *s, const char *end, unsigned long *out)
{
	unsigned long v = 0;
	const char *p = s;

	while (p < end && isdigit((unsigned char)*p)) {
		unsigned long d = (unsigned long)(*p - '0');

		if (v > (~0UL - d) / 10)
			return false;
		v = v * 10 + d;
		p++;
	}
	if (p == s)
		return false;
	*out = v;
	return true;
}

static const char *const origins[] = {
	"kernel", "KASAN", "KFENCE", "KCSAN", "UBSAN", "scheduling while atomic",
};

static const struct {
	const char *text;
	bool anywhere;		/* else a prefix */
	const char *detail;
} others[] = {
	{ "Fatal exception in interrupt", false, "oops in interrupt" },
	{ "sysrq triggered crash", false, "sysrq" },
	{ "Attempted to kill init!", false, "init died" },
	{ "softlockup", true, "lockup" },
	{ "hard LOCKUP", true, "lockup" },
	{ "hung_task", true, "lockup" },
	{ "Machine check", true, "machine check" },
	{ "VFS: Unable to mount root fs", false, "no root fs" },
	{ "Out of memory", false, "out of memory" },
};

enum ol_reason ol_classify_panic(const char *msg, char *origin, size_t origin_len,
				 char *detail, size_t detail_len)
{
	size_t len = strlen(msg), i;
	const char *p;

	copy_text(origin, origin_len, "", 0);
	copy_text(detail, detail_len, "", 0);
	while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;

	if (starts(msg, len, "Oopsed too often (kernel.oops_limit is "))
		return OL_OOPS_LIMIT;

	p = find(msg, len, ": system warned too often (kernel.warn_limit is ");
	if (p) {
		copy_text(origin, origin_len, msg, (size_t)(p - msg));
		return OL_WARN_LIMIT;
	}
	p = find(msg, len, ": panic_on_warn set");
	if (p) {
		copy_text(origin, origin_len, msg, (size_t)(p - msg));
		return OL_PANIC_ON_WARN;
	}
	/* Kernels before check_panic_on_warn() said only this, for WARN(). */
	if (starts(msg, len, "panic_on_warn set")) {
		copy_text(origin, origin_len, "kernel", 6);
		return OL_PANIC_ON_WARN;
	}
	/* Reports that end in panic_on_warn without going through the helper. */
	for (i = 1; i < sizeof(origins) / sizeof(origins[0]); i++) {
		size_t n = strlen(origins[i]);

		if (len > n && starts(msg, len, origins[i]) && msg[n] == ':' &&
		    find(msg, len, "panic_on_warn")) {
			copy_text(origin, origin_len, origins[i], n);
			return OL_PANIC_ON_WARN;
		}
	}

	if (len == strlen("Fatal exception") && starts(msg, len, "Fatal exception"))
		return OL_PANIC_ON_OOPS;
	/* other panics, told apart by a prefix or by a word anywhere */
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		if (others[i].anywhere ? !find(msg, len, others[i].text) :
		    !starts(msg, len, others[i].text))
			continue;
		copy_text(detail, detail_len, others[i].detail, strlen(others[i].detail));
		return OL_OTHER;
	}
	copy_text(detail, detail_len, "panic", 5);
	return OL_OTHER;
}

const char *ol_reason_name(enum ol_reason reason)
{
	switch (reason) {
	case OL_OOPS_LIMIT:
		return "oops_limit";
	case OL_WARN_LIMIT:
		return "warn_limit";
	case OL_PANIC_ON_WARN:
		return "panic_on_warn";
	case OL_PANIC_ON_OOPS:
		return "panic_on_oops";
	case OL_OTHER:
		return "other";
	case OL_NO_PANIC:
		break;
	}
	return "no panic";
}

void ol_log_init(struct ol_log *log)
{
	memset(log, 0, sizeof(*log));
	log->reason = OL_NO_PANIC;
	log->last_oops_pid = -1;
}

void ol_log_crashed(struct ol_log *log, int panic_on_oops)
{
	const char *why = NULL;

	if (log->have_panic)
		return;
	if (!log->last_is_oops)
		why = "no panic message";
	else if (log->last_oops_irq)
		why = "oops in interrupt";
	else if (log->last_oops_pid == 1)
		why = "oops in init";
	else if (log->last_oops_pid == 0)
		why = "oops in the idle task";
	else if (panic_on_oops == 0)
		why = "oops, no panic message";
	if (why) {
		log->reason = OL_OTHER;
		copy_text(log->detail, sizeof(log->detail), why, strlen(why));
	} else {
		log->reason = OL_PANIC_ON_OOPS;
	}
}

/* "WARNING: CPU: 0 PID: 46 at drivers/misc/lkdtm/bugs.c:89 lkdtm_WARNING+0x11/0x20 [...]" */
static void take_warning(struct ol_log *log, const char *s, size_t len)
{
	const char *at = find(s, len, " at "), *end = s + len, *sp, *plus;

	log->have_warning = true;
	copy_text(log->warn_origin, sizeof(log->warn_origin), "kernel", 6);
	copy_text(log->warn_where, sizeof(log->warn_where), "", 0);
	copy_text(log->warn_func, sizeof(log->warn_func), "", 0);
	if (!at)
		return;
	at += 4;
	sp = memchr(at, ' ', (size_t)(end - at));
	if (!sp) {
		copy_text(log->warn_where, sizeof(log->warn_where), at, (size_t)(end - at));
		return;
	}
	if (memchr(at, ':', (size_t)(sp - at))) {
		copy_text(log->warn_where, sizeof(log->warn_where), at, (size_t)(sp - at));
		at = sp + 1;
	}
	/* the function: up to "+0x" or the next blank */
	sp = memchr(at, ' ', (size_t)(end - at));
	if (!sp)
		sp = end;
	plus = find(at, (size_t)(sp - at), "+0x");
	copy_text(log->warn_func, sizeof(log->warn_func), at, (size_t)((plus ? plus : sp) - at));
}

/* Sanitizer and scheduler reports: "UBSAN: array-index-out-of-bounds in f.c:330:16" */
static bool take_report(struct ol_log *log, const char *s, size_t len)
{
	static const struct {
		const char *prefix, *origin;
	} reports[] = {
		{ "UBSAN: ", "UBSAN" },
		{ "BUG: KASAN: ", "KASAN" },
		{ "BUG: KFENCE: ", "KFENCE" },
		{ "BUG: KCSAN: ", "KCSAN" },
		{ "BUG: scheduling while atomic", "scheduling while atomic" },
	};
	const char *in, *end = s + len, *sp;
	size_t i;

	for (i = 0; i < sizeof(reports) / sizeof(reports[0]); i++) {
		if (!starts(s, len, reports[i].prefix))
			continue;
		log->warnings++;
		log->have_warning = true;
		copy_text(log->warn_origin, sizeof(log->warn_origin), reports[i].origin,
			  strlen(reports[i].origin));
		copy_text(log->warn_where, sizeof(log->warn_where), "", 0);
		copy_text(log->warn_func, sizeof(log->warn_func), "", 0);
		in = find(s, len, " in ");
		if (in) {
			in += 4;
			sp = memchr(in, ' ', (size_t)(end - in));
			if (!sp)
				sp = end;
			/* a file:line, or a function+0x.. (KASAN, KCSAN) */
			if (memchr(in, ':', (size_t)(sp - in)) && !find(in, (size_t)(sp - in), "+0x")) {
				copy_text(log->warn_where, sizeof(log->warn_where), in, (size_t)(sp - in));
			} else {
				const char *plus = find(in, (size_t)(sp - in), "+0x");

				copy_text(log->warn_func, sizeof(log->warn_func), in,
					  (size_t)((plus ? plus : sp) - in));
			}
		}
		return true;
	}
	return false;
}

/* An oops header: "<str>: <4 hex digits> [#N]" (arch/x86 __die_header). */
static bool take_oops(struct ol_log *log, const char *s, size_t len)
{
	const char *p = find(s, len, " [#"), *h;
	unsigned long n;
	int i;

	if (!p || p - s < 7)
		return false;
	h = p - 4;
	for (i = 0; i < 4; i++)
		if (!isxdigit((unsigned char)h[i]))
			return false;
	if (h[-1] != ' ' || h[-2] != ':')
		return false;
	if (!number_at(p + 3, s + len, &n))
		return false;
	log->oopses++;
	log->last_die = n;
	log->last_is_oops = true;
	log->last_oops_irq = false;
	log->last_oops_pid = -1;
	if (!log->first_oops[0])
		copy_text(log->first_oops, sizeof(log->first_oops), s, len);
	return true;
}

void ol_log_line(struct ol_log *log, const char *line)
{
	size_t len;
	const char *s = ol_log_text(line, &len);
	static const char panic_prefix[] = "Kernel panic - not syncing: ";

	log->lines++;
	if (starts(s, len, panic_prefix)) {
		/* the first panic wins: a second one is a panic inside panic() */
		if (!log->have_panic) {
			log->have_panic = true;
			copy_text(log->panic, sizeof(log->panic), s + strlen(panic_prefix),
				  len - strlen(panic_prefix));
		}
		return;
	}
	if (log->have_panic)
		return;
	if (starts(s, len, "WARNING: CPU: ")) {
		log->warnings++;
		log->last_is_oops = false;
		take_warning(log, s, len);
	} else if (take_report(log, s, len)) {
		log->last_is_oops = false;
	} else if (take_oops(log, s, len)) {
		;
	} else if (starts(s, len, "sysrq: Trigger a crash")) {
		log->sysrq_crash = true;
		log->last_is_oops = false;
	} else if (log->last_is_oops && starts(s, len, "CPU: ") && log->last_oops_pid < 0) {
		const char *pid = find(s, len, " PID: ");
		unsigned long v;

		if (pid && number_at(pid + 6, s + len, &v))
			log->last_oops_pid = (long)v;
	} else if (log->last_is_oops) {
		/* trace lines are indented, but the stamp's blanks are gone */
		while (len && *s == ' ') {
			s++;
			len--;
		}
		if (starts(s, len, "<IRQ>"))
			log->last_oops_irq = true;
	}
}

void ol_log_done(struct ol_log *log)
{
	const char *p;
	unsigned long n;

	if (!log->have_panic) {
		log->reason = OL_NO_PANIC;
		return;
	}
	log->reason = ol_classify_panic(log->panic, log->origin, sizeof(log->origin),
					log->detail, sizeof(log->detail));
	p = strstr(log->panic, "_limit is ");
	if (p && (log->reason == OL_OOPS_LIMIT || log->reason == OL_WARN_LIMIT) &&
	    number_at(p + strlen("_limit is "), log->panic + strlen(log->panic), &n)) {
		log->have_limit = true;
		log->limit = n;
	}
}

/* A *_limit verdict needs count >= limit > 0 and the limit the message printed. */
static bool limit_consistent(const char *name, bool have_count, unsigned int count,
			     bool have_limit, unsigned int limit, const struct ol_log *log,
			     char *why, size_t why_len)
{
	if (!have_count || !have_limit)
		return true;
	if (limit == 0) {
		snprintf(why, why_len, "%s_limit is 0 (disabled) but the kernel panicked on it", name);
		return false;
	}
	if (count < limit) {
		snprintf(why, why_len, "%s_count %u is below %s_limit %u", name, count, name, limit);
		return false;
	}
	if (log->have_limit && log->limit != limit) {
		snprintf(why, why_len, "the message says %s_limit %lu, the dump %u", name, log->limit, limit);
		return false;
	}
	return true;
}

bool ol_consistent(const struct ol_log *log, const struct ol_counters *c,
		   char *why, size_t why_len)
{
	copy_text(why, why_len, "", 0);
	switch (log->reason) {
	case OL_OOPS_LIMIT:
		return limit_consistent("oops", c->have_oops_count, c->oops_count,
					c->have_oops_limit, c->oops_limit, log, why, why_len);
	case OL_WARN_LIMIT:
		return limit_consistent("warn", c->have_warn_count, c->warn_count,
					c->have_warn_limit, c->warn_limit, log, why, why_len);
	case OL_PANIC_ON_WARN:
		/*
		 * check_panic_on_warn() panics before it counts, so the
		 * warning that panicked is not in warn_count: a first WARN
		 * leaves 0.  Nothing here to check.
		 */
	case OL_PANIC_ON_OOPS:
	case OL_OTHER:
	case OL_NO_PANIC:
		break;
	}
	return true;
}

void ol_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		unsigned char c = *p;
		int n = 0, i;

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c == '\r') {
			fputs("\\r", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, f);
		} else {
			/* a well-formed UTF-8 sequence passes; anything else is U+FFFD */
			if (c >= 0xc2 && c <= 0xdf)
				n = 1;
			else if (c >= 0xe0 && c <= 0xef)
				n = 2;
			else if (c >= 0xf0 && c <= 0xf4)
				n = 3;
			for (i = 1; i <= n; i++)
				if ((p[i] & 0xc0) != 0x80)
					break;
			if (n == 0 || i <= n ||
			    (c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
			    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f)) {
				fputs("\\ufffd", f);
			} else {
				fwrite(p, 1, (size_t)n + 1, f);
				p += n;
			}
		}
		p++;
	}
	fputc('"', f);
}

void ol_json_key(FILE *f, const char *key, bool *first)
{
	fputs(*first ? "{\n  " : ",\n  ", f);
	*first = false;
	ol_json_string(f, key);
	fputs(": ", f);
}

void ol_json_str(FILE *f, const char *key, const char *val, bool *first)
{
	ol_json_key(f, key, first);
	if (val)
		ol_json_string(f, val);
	else
		fputs("null", f);
}

void ol_json_text(FILE *f, const char *key, const char *val, bool *first)
{
	ol_json_str(f, key, val && *val ? val : NULL, first);
}

void ol_json_bool(FILE *f, const char *key, bool val, bool *first)
{
	ol_json_key(f, key, first);
	fputs(val ? "true" : "false", f);
}

/* a value inside an object on one line: "text" or null when empty */
static void json_inline(FILE *f, const char *sep, const char *key, const char *val)
{
	fputs(sep, f);
	ol_json_string(f, key);
	fputs(": ", f);
	if (*val)
		ol_json_string(f, val);
	else
		fputs("null", f);
}

void ol_json_last_warning(FILE *f, const struct ol_log *log, bool *first)
{
	ol_json_key(f, "last_warning", first);
	if (!log->have_warning) {
		fputs("null", f);
		return;
	}
	json_inline(f, "{ ", "origin", log->warn_origin);
	json_inline(f, ", ", "where", log->warn_where);
	json_inline(f, ", ", "function", log->warn_func);
	fputs(" }", f);
}

void ol_json_uint(FILE *f, const char *key, bool have, unsigned long val, bool *first)
{
	ol_json_key(f, key, first);
	if (have)
		fprintf(f, "%lu", val);
	else
		fputs("null", f);
}
