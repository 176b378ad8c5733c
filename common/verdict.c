// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the kernel log for why a kernel panicked.  See
 * verdict.h.  No allocation, no dump access: every input is a string or a
 * number, so a garbled log can only produce a less certain verdict.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "shapes.h"
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

/* "[   12.345678]" as microseconds. */
static bool stamp_us(const char *p, const char *e, uint64_t *us)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	while (p < e && *p == ' ')
		p++;
	if (p == e || !isdigit((unsigned char)*p))
		return false;
	while (p < e && isdigit((unsigned char)*p) && sec < 1000000000000ULL)
		sec = sec * 10 + (uint64_t)(*p++ - '0');
	if (p == e || *p++ != '.')
		return false;
	while (p < e && isdigit((unsigned char)*p)) {
		if (digits++ < 6)
			frac = frac * 10 + (uint64_t)(*p - '0');
		p++;
	}
	if (p != e || digits == 0)
		return false;
	while (digits++ < 6)
		frac *= 10;
	*us = sec * 1000000 + frac;
	return true;
}

const char *ol_log_prefixes(const char *line, uint64_t *us, bool *have_time, char *caller, size_t clen,
			    bool *bracketed)
{
	const char *p = line, *e, *q;

	*have_time = *bracketed = false;
	if (clen)
		caller[0] = '\0';
	/* a serial console's line may carry another program's output before the stamp */
	if (p[0] != '<' && p[0] != '[') {
		for (q = strchr(p, '['); q; q = strchr(q + 1, '['))
			if ((e = strchr(q, ']')) && e - q <= 24 && stamp_us(q + 1, e, us)) {
				p = q;
				break;
			}
	}
	if (p[0] == '<' && isdigit((unsigned char)p[1]) && (e = strchr(p, '>')) && e - p <= 5)
		p = e + 1;
	while (*p == '[' && (e = strchr(p, ']')) && e - p <= 24) {
		for (q = p + 1; q < e && *q == ' '; q++)
			;
		if (q + 1 < e && (*q == 'T' || *q == 'C') && strspn(q + 1, "0123456789") == (size_t)(e - q - 1))
			ol_copy(caller, clen, q, (size_t)(e - q));
		else if (stamp_us(p + 1, e, us))
			*have_time = true;
		else
			break;
		*bracketed = true;
		p = e + 1;
	}
	return p;
}

const char *ol_log_text(const char *line, size_t *len)
{
	const char *s;
	char caller[16];
	uint64_t us;
	bool have_time, bracketed;
	size_t n;

	s = ol_log_prefixes(line, &us, &have_time, caller, sizeof(caller), &bracketed);
	while (*s == ' ')
		s++;
	n = strlen(s);
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
	const char *context;
	const char *source;
};

/*
 * The panic paths of the tree, first match wins (common/panics.def).  A
 * row whose text starts with ": " names the reporter before it (the
 * warning's origin).
 */
static const struct ol_panic_row panic_rows[] = {
#define OL_PANIC(reason, how, text, setting, context, source) \
	{ reason, how, text, setting, context, source },
#include "panics.def"
#undef OL_PANIC
};
#define N_ROWS (sizeof(panic_rows) / sizeof(panic_rows[0]))

/* Does row's text match the message (len bytes)?  Sets *at to where. */
static bool row_matches(const struct ol_panic_row *row, const char *msg, size_t len, const char **at)
{
	size_t n = strlen(row->text);

	switch (row->how) {
	case OL_EXACT:
		*at = len == n && memcmp(msg, row->text, n) == 0 ? msg : NULL;
		break;
	case OL_PREFIX:
		*at = starts(msg, len, row->text) ? msg : NULL;
		break;
	case OL_CONTAINS:
		*at = find(msg, len, row->text);
		break;
	}
	return *at != NULL;
}

bool ol_log_context_known(const char *context)
{
	size_t i;

	if (!context)
		return true;
	for (i = 0; i < N_ROWS; i++)
		if (panic_rows[i].context == context)
			return true;
	return false;
}

/* The context line prefix a log line starts with, of any row; NULL if none. */
static const char *context_of(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < N_ROWS; i++)
		if (panic_rows[i].context && starts(s, len, panic_rows[i].context))
			return panic_rows[i].context;
	return NULL;
}

const char *ol_classify_panic(const char *msg, const char *context, enum ol_var_id *setting,
			      char *origin, size_t origin_len, char *detail, size_t detail_len)
{
	size_t len = strlen(msg), i;
	const char *at = NULL, *nl = memchr(msg, '\n', len);
	bool ambiguous = false;

	ol_copy(origin, origin_len, "", 0);
	ol_copy(detail, detail_len, "", 0);
	*setting = OL_V_NONE;
	/* a message with newlines: its first line */
	if (nl)
		len = (size_t)(nl - msg);
	while (len && (msg[len - 1] == '\r' || msg[len - 1] == ' '))
		len--;
	for (i = 0; i < N_ROWS; i++) {
		const struct ol_panic_row *row = &panic_rows[i];

		if (!row_matches(row, msg, len, &at))
			continue;
		/* rows that share a text: the line the kernel printed first decides */
		if (row->context && (!context || strcmp(context, row->context) != 0)) {
			ambiguous = true;
			continue;
		}
		if (row->text[0] == ':' && row->text[1] == ' ')
			ol_copy(origin, origin_len, msg, (size_t)(at - msg));
		else if (row->setting == OL_V_PANIC_ON_WARN)
			ol_copy(origin, origin_len, "kernel", 6);
		*setting = row->setting;
		return row->reason;
	}
	if (ambiguous) {
		static const char why[] = "this message has several causes, and the line before it that tells "
					  "them apart is not in the log";

		ol_copy(detail, detail_len, why, sizeof(why) - 1);
	} else {
		static const char why[] = "a panic message oopslimit's table of panic paths does not know";

		ol_copy(detail, detail_len, why, sizeof(why) - 1);
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

/*
 * Reasons for a capture with an oops at the end of the log and no panic
 * line: kexec_should_crash() sent oops_end() to the capture kernel first
 * (kernel/kexec_core.c).  They name the oops, not the panic that never came.
 */
#define OL_OOPS_IN_INTERRUPT "oops_in_interrupt"
#define OL_OOPS_IN_INIT "oops_in_init"
#define OL_OOPS_IN_IDLE "oops_in_idle"

bool ol_log_crashed(struct ol_log *log, int panic_on_oops)
{
	const char *why;

	if (log->have_panic || !log->last_is_oops)
		return false;
	log->setting = OL_V_NONE;
	if (log->last_oops_irq) {
		why = OL_OOPS_IN_INTERRUPT;
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

/* A token "FILE:LINE" (a path, a colon, digits): the place a warning names. */
static bool is_place(const char *s, size_t len)
{
	const char *colon = len ? memrchr(s, ':', len) : NULL;
	size_t i;

	if (!colon || colon == s || colon + 1 == s + len)
		return false;
	for (i = (size_t)(colon + 1 - s); i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* The next blank-separated token of [*p, end), its trailing ',' dropped. */
static size_t token(const char **p, const char *end)
{
	const char *s = *p, *sp;
	size_t n;

	while (s < end && *s == ' ')
		s++;
	sp = memchr(s, ' ', (size_t)(end - s));
	n = (size_t)((sp ? sp : end) - s);
	*p = s;
	while (n && s[n - 1] == ',')
		n--;
	return n;
}

/* A function as printed, "name+0x8/0xb", "name()", "0x0": its name, if any. */
static void take_function(struct ol_log *log, const char *s, size_t n)
{
	const char *plus = find(s, n, "+0x");

	if (plus)
		n = (size_t)(plus - s);
	if (n >= 2 && s[n - 2] == '(' && s[n - 1] == ')')
		n -= 2;
	if (starts(s, n, "0x") || n == 0)
		return;
	ol_copy(log->warn_func, sizeof(log->warn_func), s, n);
}

/*
 * The WARNING line __warn() prints, in the forms kernels have used:
 *   WARNING: CPU: 0 PID: 46 at drivers/misc/lkdtm/bugs.c:89 lkdtm_WARNING+0x11/0x20 [mod]
 *   WARNING: CPU: 2 PID: 0 at intel_idle+0x5d/0xa0    (no file:line)
 *   WARNING: at kernel/sched.c:5914 thread_return+0x232/0x79d()    (2.6)
 *   WARNING: kernel/dma/debug.c:601 at add_dma_entry+0x220/0x278, CPU#3: comm/1    (6.19)
 *   WARNING: [cond] kernel/sched/core.c:8511 at sched_init+0x20/0x410, CPU#0: ...
 *   WARNING: at __seccomp_filter+0x3c9/0x6f0, CPU#0: systemd-journal/163
 * (tests/unit/warning-lines.txt names their sources).  Other lines that
 * start with "WARNING: " (lockdep's reports, timekeeping's) are not
 * warnings of check_panic_on_warn(): false.
 */
static bool take_warning(struct ol_log *log, const char *s, size_t len)
{
	const char *end = s + len, *p = s + 9, *at;
	size_t n;

	if (!starts(s, len, "WARNING: "))
		return false;
	if (starts(p, (size_t)(end - p), "CPU: ")) {
		/* only __warn() prints this; a line cut short is still one */
		at = find(p, (size_t)(end - p), " at ");
		p = at ? at + 4 : end;
	} else if (starts(p, (size_t)(end - p), "at ")) {
		p += 3;
	} else {
		/* 6.19: "[condition] FILE:LINE at FUNCTION, CPU#N: ..." */
		if (*p == '[') {
			const char *close = memchr(p, ']', (size_t)(end - p));

			if (!close)
				return false;
			p = close + 1;
		}
		n = token(&p, end);
		if (!is_place(p, n) || !starts(p + n, (size_t)(end - p - n), " at "))
			return false;
		log->warnings++;
		log->have_warning = true;
		ol_copy(log->warn_origin, sizeof(log->warn_origin), "kernel", 6);
		ol_copy(log->warn_where, sizeof(log->warn_where), p, n);
		ol_copy(log->warn_func, sizeof(log->warn_func), "", 0);
		p += n + 4;
		n = token(&p, end);
		take_function(log, p, n);
		return true;
	}
	log->warnings++;
	log->have_warning = true;
	ol_copy(log->warn_origin, sizeof(log->warn_origin), "kernel", 6);
	ol_copy(log->warn_where, sizeof(log->warn_where), "", 0);
	ol_copy(log->warn_func, sizeof(log->warn_func), "", 0);
	n = token(&p, end);
	if (is_place(p, n)) {
		ol_copy(log->warn_where, sizeof(log->warn_where), p, n);
		p += n;
		n = token(&p, end);
	}
	take_function(log, p, n);
	return true;
}

/*
 * The reports of common/reports.def that count in warn_count besides
 * __warn()'s own lines: "UBSAN: array-index-out-of-bounds in f.c:330:16",
 * "BUG: KASAN: use-after-free in foo+0x1/0x2", ...
 */
static bool take_report(struct ol_log *log, const char *s, size_t len)
{
	const char *in, *end = s + len, *sp;
	int row;

	for (row = ol_shape_find(s, len, OL_START, 0); row >= 0; row = ol_shape_find(s, len, OL_START, (size_t)row + 1)) {
		const char *origin = ol_shapes[row].warn;

		if (!origin || (ol_shapes[row].flags & OL_F_WARN))
			continue;
		log->warnings++;
		if (strcmp(origin, "KASAN") == 0)
			log->kasan++;
		log->have_warning = true;
		ol_copy(log->warn_origin, sizeof(log->warn_origin), origin, strlen(origin));
		ol_copy(log->warn_where, sizeof(log->warn_where), "", 0);
		ol_copy(log->warn_func, sizeof(log->warn_func), "", 0);
		in = find(s, len, " in ");
		if (in) {
			in += 4;
			sp = memchr(in, ' ', (size_t)(end - in));
			if (!sp)
				sp = end;
			/* a file:line (UBSAN's :column dropped), or a function+0x.. (KASAN, KCSAN) */
			if (memchr(in, ':', (size_t)(sp - in)) && !find(in, (size_t)(sp - in), "+0x")) {
				size_t n = (size_t)(sp - in);
				const char *col = memrchr(in, ':', n);

				if (col && !is_place(in, n))
					n = 0;
				else if (col && is_place(in, (size_t)(col - in)))
					n = (size_t)(col - in);
				ol_copy(log->warn_where, sizeof(log->warn_where), in, n);
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

/*
 * An oops header: "<str>: <code> [#N]", the code 4 hex digits on x86
 * (arch/x86/kernel/dumpstack.c __die_header()), the ESR's 16 on arm64
 * (arch/arm64/kernel/traps.c __die(), 8 before 5.x's "%016lx").
 */
static bool take_oops(struct ol_log *log, const char *s, size_t len)
{
	const char *p = find(s, len, " [#"), *h;
	unsigned long n;
	int digits = 0;

	if (!p || p - s < 4)
		return false;
	for (h = p; h > s && isxdigit((unsigned char)h[-1]) && digits < 17; h--)
		digits++;
	if (digits == 0 || digits > 16 || h - s < 2 || h[-1] != ' ' || h[-2] != ':')
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

/*
 * "CPU: 0 PID: 121 Comm: provoke Tainted: G        W          6.1.192 #1":
 * print_tainted() gives a column for each taint flag, its letter when set
 * ('G' is P's "not set"), up to the release, which starts with a digit.
 * taint_columns_end: the first character past those columns.
 */
static const char *taint_columns_end(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || (*p >= 'A' && *p <= 'Z')))
		p++;
	return p;
}

static void take_tainted(struct ol_log *log, const char *s, size_t len)
{
	static const char letters[] = OL_TAINT_LETTERS;
	const char *p = find(s, len, " Tainted: "), *cols, *l;
	unsigned long long mask = 0;

	if (!p || !starts(s, len, "CPU: "))
		return;
	p += strlen(" Tainted: ");
	for (cols = taint_columns_end(p, s + len); p < cols; p++)
		if (*p != 'G' && *p != ' ' && (l = strchr(letters, *p)))
			mask |= 1ULL << (l - letters);
	log->taint_seen = mask;
}

/*
 * The release in a dump_stack() header, after "Not tainted " or after the
 * taint columns of "Tainted: ": "CPU: 1 UID: 0 PID: 9 Comm: sh Tainted: G
 * W 6.12.117+deb13-amd64 #1 Debian ..." (6.10 added UID:).  A release
 * starts with a digit and ends at the next blank.
 */
static void take_release(struct ol_log *log, const char *s, size_t len)
{
	const char *end = s + len, *p = find(s, len, " Not tainted ");
	size_t n = 0;

	if (p) {
		p += strlen(" Not tainted ");
	} else if ((p = find(s, len, " Tainted: "))) {
		p = taint_columns_end(p + strlen(" Tainted: "), end);
	} else {
		return;
	}
	if (p >= end || *p < '0' || *p > '9')
		return;
	while (p + n < end && p[n] > ' ' && p[n] < 0x7f)
		n++;
	if (n < sizeof(log->release))
		ol_copy(log->release, sizeof(log->release), p, n);
}

/* "oopslimit: policy applied: oops_limit=10000 warn_limit=3": KEY=VALUE words of vars.def keys. */
static void take_policy(struct ol_log *log, const char *s, size_t len)
{
	const char *end = s + len, *p = s + strlen(OL_POLICY_LINE);
	char key[OL_SHORT];
	unsigned long v;
	enum ol_var_id id;
	size_t n;

	log->have_policy = true;
	memset(log->policy_set, 0, sizeof(log->policy_set));
	while ((n = token(&p, end)) > 0) {
		const char *eq = memchr(p, '=', n);

		if (eq && (size_t)(eq - p) < sizeof(key) && number_at(eq + 1, p + n, &v) &&
		    eq + 1 + strspn(eq + 1, "0123456789") >= p + n) {
			ol_copy(key, sizeof(key), p, (size_t)(eq - p));
			id = ol_var_id_of(key);
			if (id != OL_V_NONE) {
				log->policy_set[id] = true;
				log->policy[id] = v;
			}
		}
		p += n;
	}
}

void ol_log_line(struct ol_log *log, const char *line)
{
	size_t len;
	const char *s = ol_log_text(line, &len), *ctx;
	static const char panic_prefix[] = "Kernel panic - not syncing: ";

	log->lines++;
	/* panic() prints its own header after its message: taken even then */
	if (!log->release[0] && starts(s, len, "CPU: "))
		take_release(log, s, len);
	if (!log->have_panic && (ctx = context_of(s, len)))
		log->context = ctx;
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
	if (starts(s, len, OL_POLICY_LINE)) {
		take_policy(log, s, len);
	} else if (take_warning(log, s, len)) {
		log->last_is_oops = false;
	} else if (take_report(log, s, len)) {
		log->last_is_oops = false;
	} else if (take_oops(log, s, len)) {
		;
	} else if (starts(s, len, "sysrq: Trigger a crash")) {
		log->sysrq_crash = true;
		log->last_is_oops = false;
	} else if (starts(s, len, "CPU: ") && (take_tainted(log, s, len), false)) {
		;
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
	log->reason = ol_classify_panic(log->panic, log->context, &log->setting, log->origin,
					sizeof(log->origin), log->detail, sizeof(log->detail));
	p = strstr(log->panic, "_limit is ");
	if (p && (log->setting == OL_V_OOPS_LIMIT || log->setting == OL_V_WARN_LIMIT) &&
	    number_at(p + strlen("_limit is "), log->panic + strlen(log->panic), &n)) {
		log->have_limit = true;
		log->limit = n;
	}
}
