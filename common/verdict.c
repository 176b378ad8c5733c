// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the kernel log for why a kernel panicked.  See
 * verdict.h.  No allocation, no dump access: every input is a string or a
 * number, so a garbled log can only produce a less certain verdict.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

void ol_copy(char *dst, size_t size, const char *src, size_t len)
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

/* How a row's text matches a panic message. */
enum ol_match { OL_EXACT, OL_PREFIX, OL_CONTAINS };

struct ol_panic_row {
	const char *reason;
	enum ol_match how;
	const char *text;
	enum ol_var_id setting;
	const char *source;
};

/*
 * The panic messages of the tree, first match wins.  A row whose text starts
 * with ": " names the reporter before it (the warning's origin); a text
 * ending in "_limit is " is followed by the limit.
 */
static const struct ol_panic_row panic_rows[] = {
	{ "oops_limit", OL_PREFIX, "Oopsed too often (kernel.oops_limit is ", OL_V_OOPS_LIMIT,
	  "kernel/exit.c: make_task_dead()" },
	{ "warn_limit", OL_CONTAINS, ": system warned too often (kernel.warn_limit is ", OL_V_WARN_LIMIT,
	  "kernel/panic.c: check_panic_on_warn()" },
	{ "panic_on_warn", OL_CONTAINS, ": panic_on_warn set ...", OL_V_PANIC_ON_WARN,
	  "kernel/panic.c: check_panic_on_warn()" },
	/* kernels before check_panic_on_warn() said only this, for WARN() */
	{ "panic_on_warn", OL_PREFIX, "panic_on_warn set ...", OL_V_PANIC_ON_WARN,
	  "kernel/panic.c: __warn() before 6.1.y" },
	{ "panic_on_oops", OL_EXACT, "Fatal exception", OL_V_PANIC_ON_OOPS,
	  "arch/x86/kernel/dumpstack.c: oops_end()" },
	{ "oops_in_interrupt", OL_EXACT, "Fatal exception in interrupt", OL_V_NONE,
	  "arch/x86/kernel/dumpstack.c: oops_end()" },
	{ "sysrq", OL_EXACT, "sysrq triggered crash", OL_V_NONE,
	  "drivers/tty/sysrq.c: sysrq_handle_crash()" },
	{ "init_killed", OL_PREFIX, "Attempted to kill init!", OL_V_NONE,
	  "kernel/exit.c: find_child_reaper()" },
};

/* The reasons ol_log_crashed() gives, of the rows above where one fits. */
#define OL_OOPS_IN_INIT "oops_in_init"
#define OL_OOPS_IN_IDLE "oops_in_idle"

const char *ol_classify_panic(const char *msg, enum ol_var_id *setting, char *origin,
			      size_t origin_len, char *detail, size_t detail_len)
{
	size_t len = strlen(msg), i;
	const char *p = NULL;

	ol_copy(origin, origin_len, "", 0);
	ol_copy(detail, detail_len, "", 0);
	*setting = OL_V_NONE;
	while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	for (i = 0; i < sizeof(panic_rows) / sizeof(panic_rows[0]); i++) {
		const struct ol_panic_row *row = &panic_rows[i];
		size_t n = strlen(row->text);

		switch (row->how) {
		case OL_EXACT:
			p = len == n && memcmp(msg, row->text, n) == 0 ? msg : NULL;
			break;
		case OL_PREFIX:
			p = starts(msg, len, row->text) ? msg : NULL;
			break;
		case OL_CONTAINS:
			p = find(msg, len, row->text);
			break;
		}
		if (!p)
			continue;
		if (row->text[0] == ':' && row->text[1] == ' ')
			ol_copy(origin, origin_len, msg, (size_t)(p - msg));
		else if (row->setting == OL_V_PANIC_ON_WARN)
			ol_copy(origin, origin_len, "kernel", 6);
		*setting = row->setting;
		return row->reason;
	}
	return OL_OTHER;
}

void ol_log_init(struct ol_log *log)
{
	memset(log, 0, sizeof(*log));
	log->reason = OL_NO_PANIC;
	log->setting = OL_V_NONE;
	log->last_oops_pid = -1;
}

bool ol_log_crashed(struct ol_log *log, int panic_on_oops)
{
	const char *why;

	if (log->have_panic || !log->last_is_oops)
		return false;
	log->setting = OL_V_NONE;
	if (log->last_oops_irq) {
		why = "oops_in_interrupt";
	} else if (log->last_oops_pid == 1) {
		why = OL_OOPS_IN_INIT;
	} else if (log->last_oops_pid == 0) {
		why = OL_OOPS_IN_IDLE;
	} else if (panic_on_oops != 0) {
		why = "panic_on_oops";
		log->setting = OL_V_PANIC_ON_OOPS;
	} else {
		return false;
	}
	log->reason = why;
	return true;
}

/* "WARNING: CPU: 0 PID: 46 at drivers/misc/lkdtm/bugs.c:89 lkdtm_WARNING+0x11/0x20 [...]" */
static void take_warning(struct ol_log *log, const char *s, size_t len)
{
	const char *at = find(s, len, " at "), *end = s + len, *sp, *plus;

	log->have_warning = true;
	ol_copy(log->warn_origin, sizeof(log->warn_origin), "kernel", 6);
	ol_copy(log->warn_where, sizeof(log->warn_where), "", 0);
	ol_copy(log->warn_func, sizeof(log->warn_func), "", 0);
	if (!at)
		return;
	at += 4;
	sp = memchr(at, ' ', (size_t)(end - at));
	if (!sp) {
		ol_copy(log->warn_where, sizeof(log->warn_where), at, (size_t)(end - at));
		return;
	}
	if (memchr(at, ':', (size_t)(sp - at))) {
		ol_copy(log->warn_where, sizeof(log->warn_where), at, (size_t)(sp - at));
		at = sp + 1;
	}
	/* the function: up to "+0x" or the next blank */
	sp = memchr(at, ' ', (size_t)(end - at));
	if (!sp)
		sp = end;
	plus = find(at, (size_t)(sp - at), "+0x");
	ol_copy(log->warn_func, sizeof(log->warn_func), at, (size_t)((plus ? plus : sp) - at));
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
		ol_copy(log->warn_origin, sizeof(log->warn_origin), reports[i].origin,
			  strlen(reports[i].origin));
		ol_copy(log->warn_where, sizeof(log->warn_where), "", 0);
		ol_copy(log->warn_func, sizeof(log->warn_func), "", 0);
		in = find(s, len, " in ");
		if (in) {
			in += 4;
			sp = memchr(in, ' ', (size_t)(end - in));
			if (!sp)
				sp = end;
			/* a file:line, or a function+0x.. (KASAN, KCSAN) */
			if (memchr(in, ':', (size_t)(sp - in)) && !find(in, (size_t)(sp - in), "+0x")) {
				ol_copy(log->warn_where, sizeof(log->warn_where), in, (size_t)(sp - in));
			} else {
				const char *plus = find(in, (size_t)(sp - in), "+0x");

				ol_copy(log->warn_func, sizeof(log->warn_func), in,
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
		ol_copy(log->first_oops, sizeof(log->first_oops), s, len);
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
			ol_copy(log->panic, sizeof(log->panic), s + strlen(panic_prefix),
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
		log->setting = OL_V_NONE;
		return;
	}
	log->reason = ol_classify_panic(log->panic, &log->setting, log->origin, sizeof(log->origin),
					log->detail, sizeof(log->detail));
	p = strstr(log->panic, "_limit is ");
	if (p && (log->setting == OL_V_OOPS_LIMIT || log->setting == OL_V_WARN_LIMIT) &&
	    number_at(p + strlen("_limit is "), log->panic + strlen(log->panic), &n)) {
		log->have_limit = true;
		log->limit = n;
	}
}
