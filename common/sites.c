// SPDX-License-Identifier: GPL-2.0
/*
 * The warning and oops sites of a kernel log.  See sites.h.
 *
 * Which line starts a warning and which an oops is the log scanner's call
 * (verdict.c): a report counts here exactly when it counts there, so a
 * site's count and the report's warnings and oopses agree.  This file adds
 * what the scanner does not keep: each report's trace, read up to its end
 * marker, for the guilty frame, and the reports the limits do not count
 * (lockdep, RCU stalls, lockups, hung tasks).  The frames of a trace are
 * sites-frames.c's, which report decided the panic sites-decide.c's.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "sites.h"
#include "sites-int.h"
#include "verdict.h"

static void put(char *dst, size_t size, const char *src)
{
	ol_copy(dst, size, src, strlen(src));
}

static void append(char *dst, size_t size, const char *src)
{
	size_t n = strlen(dst);

	if (n < size)
		put(dst + n, size - n, src);
}

/* ---- the kinds of report ------------------------------------------------- */

/*
 * Warnings, by the origin the scanner and check_panic_on_warn() give them
 * (kernel/panic.c; lib/ubsan.c ubsan_epilogue(); mm/kasan/report.c
 * end_report(), unless kasan_multi_shot; mm/kfence/report.c;
 * kernel/kcsan/report.c; kernel/sched/core.c __schedule_bug()): each
 * increments warn_count on a kernel with the limit series.  These six
 * callers of check_panic_on_warn(), and no others, are in Debian's
 * linux-source of 5.10, 6.1, 6.12 and 7.2 (5.10 has no KFENCE at all), so
 * the table holds for every kernel line the readers take.
 */
/*
 * The strings a site or an event points at, besides the tables' own: one
 * address each, so that ol_sites_valid() can tell them from any other.
 */
static const char COUNTS_WARN[] = "warn_count", COUNTS_OOPS[] = "oops_count";
static const char ORIGIN_GPF[] = "GPF", ORIGIN_BUG[] = "BUG", ORIGIN_OOPS[] = "oops";

static const struct {
	const char *scanner, *origin, *label;
} warn_origins[OL_SITE_ORIGINS] = {
	{ "kernel", "WARN", "WARNING" },
	{ "UBSAN", "UBSAN", "UBSAN: " },
	{ "KASAN", "KASAN", "KASAN: " },
	{ "KFENCE", "KFENCE", "KFENCE: " },
	{ "KCSAN", "KCSAN", "KCSAN: " },
	{ "scheduling while atomic", "scheduling while atomic", "BUG: scheduling while atomic" },
};

int site_warn_origin_of(const char *scanner)
{
	int i;

	for (i = 0; i < OL_SITE_ORIGINS && warn_origins[i].scanner; i++)
		if (strcmp(warn_origins[i].scanner, scanner) == 0)
			return i;
	return -1;
}

/*
 * Reports that count in neither counter, and the lines before an oops
 * header that name its kind, matched on the line's start (after its
 * stamps) or, with contains, anywhere in it ("watchdog: BUG: soft lockup",
 * "NMI watchdog: BUG: soft lockup" of 4.x).  title: the title's words; NULL
 * for the rest of the header line up to "detected", "!" or ",".
 */
static const struct {
	const char *text;
	bool contains;
	const char *origin, *title;
	enum ol_site_class class;
	bool where;		/* FILE:LINE follows the text, up to '!' or the end */
	bool gathers;
} kinds[] = {
	/* arch/x86/mm/fault.c show_fault_oops(), 5.0+; oops header follows */
	{ "BUG: kernel NULL pointer dereference", false, "page fault",
	  "BUG: kernel NULL pointer dereference", OL_CLASS_OOPS, false, false },
	{ "BUG: unable to handle page fault", false, "page fault",
	  "BUG: unable to handle page fault", OL_CLASS_OOPS, false, false },
	/* before 5.0 */
	{ "BUG: unable to handle kernel NULL pointer dereference", false, "page fault",
	  "BUG: kernel NULL pointer dereference", OL_CLASS_OOPS, false, false },
	{ "BUG: unable to handle kernel paging request", false, "page fault",
	  "BUG: unable to handle page fault", OL_CLASS_OOPS, false, false },
	/* lib/bug.c report_bug(): "kernel BUG at %s:%u!", then die("invalid opcode") */
	{ "kernel BUG at ", false, "BUG", "kernel BUG", OL_CLASS_OOPS, true, false },
	/* kernel/locking/lockdep.c: the report headers (lockdep prints, never warns) */
	{ "WARNING: possible circular locking dependency detected", false, "lockdep",
	  "possible deadlock", OL_CLASS_LOCKDEP, false, false },
	{ "WARNING: possible recursive locking detected", false, "lockdep",
	  "possible deadlock", OL_CLASS_LOCKDEP, false, false },
	{ "WARNING: inconsistent lock state", false, "lockdep", "inconsistent lock state",
	  OL_CLASS_LOCKDEP, false, false },
	{ "WARNING: possible irq lock inversion dependency detected", false, "lockdep",
	  "possible deadlock", OL_CLASS_LOCKDEP, false, false },
	{ "WARNING: suspicious RCU usage", false, "lockdep", "suspicious RCU usage", OL_CLASS_LOCKDEP,
	  false, false },
	{ "WARNING: bad unlock balance detected!", false, "lockdep", "bad unlock balance",
	  OL_CLASS_LOCKDEP, false, false },
	{ "WARNING: held lock freed!", false, "lockdep", "held lock freed", OL_CLASS_LOCKDEP, false,
	  false },
	{ "WARNING: lock held when returning to user space!", false, "lockdep",
	  "lock held when returning to user space", OL_CLASS_LOCKDEP, false, false },
	{ "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected", false, "lockdep",
	  "possible deadlock", OL_CLASS_LOCKDEP, false, false },
	/* kernel/sched/core.c __might_resched() (___might_sleep() before 5.16) */
	{ "BUG: sleeping function called from invalid context at ", false, "might_sleep",
	  "BUG: sleeping function called from invalid context", OL_CLASS_OTHER, true, false },
	/* kernel/rcu/tree_stall.h: print_cpu_stall(), print_other_cpu_stall(),
	 * synchronize_rcu_expedited_wait(); pr_fmt "rcu: " since 5.2 */
	{ "rcu: INFO: ", false, "RCU", "INFO: rcu detected stall", OL_CLASS_RCU, false, true },
	{ "INFO: rcu_", false, "RCU", "INFO: rcu detected stall", OL_CLASS_RCU, false, true },
	/* kernel/watchdog.c watchdog_timer_fn(): "BUG: soft lockup - CPU#%d stuck for %us! [%s:%d]" */
	{ "BUG: soft lockup - CPU#", true, "softlockup", "BUG: soft lockup", OL_CLASS_SOFTLOCKUP, false,
	  false },
	/* kernel/watchdog.c watchdog_hardlockup_check() (watchdog_hld.c before 6.7) */
	{ "Watchdog detected hard LOCKUP on cpu", true, "hardlockup", "BUG: hard lockup",
	  OL_CLASS_HARDLOCKUP, false, true },
	/* kernel/hung_task.c check_hung_task(): "INFO: task %s:%d blocked for more than %ld seconds." */
	{ "INFO: task ", false, "hung_task", "INFO: task hung", OL_CLASS_HUNG_TASK, false, false },
};

/*
 * Lines within a report that begin or end a stretch of frames that are
 * not the guilty code's.  An RCU stall that starved the grace-period
 * kthread (kernel/rcu/tree_stall.h rcu_check_gp_kthread_starvation(), 5.9+)
 * dumps that kthread's own stack, which only waits (schedule_timeout() in
 * rcu_gp_fqs_loop()), then the CPU it last ran on, whose RIP is the code
 * that held the CPU.
 */
static const struct {
	const char *text;
	bool mute;
} mutes[] = {
	{ "rcu: RCU grace-period kthread stack dump:", true },
	{ "rcu: Stack dump where RCU GP kthread last ran:", false },
};

/* ---- events -------------------------------------------------------------- */

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

/*
 * The line's "<N>" level, "[ stamp]" and "[ T123]"/"[ C1]" caller id;
 * returns the text after them.  *bracketed: a stamp or caller id was there.
 */
static const char *prefixes(const char *line, uint64_t *us, bool *have_time, char *caller, size_t clen,
			    bool *bracketed)
{
	const char *p = line, *e, *q;

	*have_time = *bracketed = false;
	caller[0] = '\0';
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

static void candidate(struct ol_site_event *ev, const char *name, const char *mod)
{
	if (!name[0] || strncmp(name, "0x", 2) == 0)
		return;
	if (!ev->first[0]) {
		put(ev->first, sizeof(ev->first), name);
		put(ev->first_module, sizeof(ev->first_module), mod);
	}
	if (!ev->func[0] && !ol_site_generic(name)) {
		put(ev->func, sizeof(ev->func), name);
		put(ev->module, sizeof(ev->module), mod);
	}
}

static void note_last(struct ol_sites *s, int site, const struct ol_site_event *ev)
{
	int o;

	if (ev->after_panic)
		return;
	if (s->last[ev->class] < 0 || ev->seq >= s->last_seq[ev->class]) {
		s->last[ev->class] = site;
		s->last_seq[ev->class] = ev->seq;
	}
	if (ev->class != OL_CLASS_WARNING)
		return;
	for (o = 0; o < OL_SITE_ORIGINS && warn_origins[o].origin; o++) {
		if (strcmp(warn_origins[o].origin, ev->origin) != 0)
			continue;
		if (s->last_origin[o] < 0 || ev->seq >= s->last_origin_seq[o]) {
			s->last_origin[o] = site;
			s->last_origin_seq[o] = ev->seq;
		}
	}
}

/* The report is complete: its site gets it. */
static void close_event(struct ol_sites *s, struct ol_site_event *ev)
{
	struct ol_site *site;
	char title[OL_SITE_TITLE];
	const char *func = ev->func[0] ? ev->func : ev->first;
	const char *mod = ev->func[0] ? ev->module : ev->first_module;
	unsigned int i;

	ev->open = false;
	title[0] = '\0';
	append(title, sizeof(title), ev->what);
	if (ev->access[0]) {
		append(title, sizeof(title), " ");
		append(title, sizeof(title), ev->access);
	}
	if (func[0] || ev->where[0]) {
		append(title, sizeof(title), func[0] ? " in " : " at ");
		append(title, sizeof(title), func[0] ? func : ev->where);
	}
	site_clean(title);
	s->events++;
	if (!ev->after_panic && ev->counts)
		s->counted[ev->class == OL_CLASS_OOPS]++;
	for (i = 0; i < s->n; i++)
		if (strcmp(s->site[i].title, title) == 0 && strcmp(s->site[i].where, ev->where) == 0)
			break;
	if (i == s->n) {
		if (s->n == OL_SITES) {
			s->dropped++;
			/* should it decide the panic, the table could not keep it */
			note_last(s, -1, ev);
			return;
		}
		site = &s->site[s->n++];
		memset(site, 0, sizeof(*site));
		put(site->title, sizeof(site->title), title);
		put(site->where, sizeof(site->where), ev->where);
		put(site->func, sizeof(site->func), func);
		put(site->module, sizeof(site->module), mod);
		site->origin = ev->origin;
		site->counts = ev->counts;
		site->class = ev->class;
	}
	site = &s->site[i];
	if (ev->after_panic)
		site->after_panic++;
	else
		site->count++;
	if (ev->have_time) {
		if (!site->have_time || ev->time_us < site->first_us)
			site->first_us = ev->time_us;
		if (!site->have_time || ev->time_us > site->last_us)
			site->last_us = ev->time_us;
		site->have_time = true;
	}
	note_last(s, (int)i, ev);
}

static struct ol_site_event *stream_event(struct ol_sites *s, const char *stream)
{
	int i;

	for (i = 0; i < OL_SITE_STREAMS; i++)
		if (s->ev[i].open && strcmp(s->ev[i].stream, stream) == 0)
			return &s->ev[i];
	return NULL;
}

/* A new report in stream: the one open there is complete. */
static struct ol_site_event *open_event(struct ol_sites *s, const char *stream, bool have_time, uint64_t us)
{
	struct ol_site_event *ev = stream_event(s, stream), *oldest = NULL;
	int i;

	if (ev)
		close_event(s, ev);
	for (i = 0; i < OL_SITE_STREAMS && !ev; i++) {
		if (!s->ev[i].open)
			ev = &s->ev[i];
		else if (!oldest || s->ev[i].seq < oldest->seq)
			oldest = &s->ev[i];
	}
	if (!ev) {
		close_event(s, oldest);
		ev = oldest;
	}
	memset(ev, 0, sizeof(*ev));
	ev->open = true;
	put(ev->stream, sizeof(ev->stream), stream);
	ev->seq = ++s->seq;
	ev->after_panic = s->panicked;
	ev->have_time = have_time;
	ev->time_us = us;
	return ev;
}

/* The module a WARNING line names after its function: "foo+0x1/0x2 [btrfs]". */
static void header_module(const char *t, const char *func, char *mod, size_t len)
{
	const char *p = func[0] ? strstr(t, func) : NULL;
	char name[OL_SITE_NAME];

	mod[0] = '\0';
	if (p)
		site_frame(p, true, name, sizeof(name), mod, len);
}

/* "KIND in ...": the words between the origin's prefix and " in ". */
static void kind_words(struct ol_site_event *ev, const char *label, const char *t, const char *prefix)
{
	const char *p = strstr(t, prefix), *in;
	size_t n;

	if (!p) {
		put(ev->what, sizeof(ev->what), label);
		return;
	}
	p += strlen(prefix);
	in = strstr(p, " in ");
	n = in ? (size_t)(in - p) : strcspn(p, ":");
	snprintf(ev->what, sizeof(ev->what), "%s%.*s", label, (int)n, p);
}

/* A warning by the scanner's rules: true, with the event opened. */
static bool warning_header(struct ol_sites *s, const char *stream, const char *t, bool ht, uint64_t us)
{
	struct ol_log scratch;
	struct ol_site_event *ev;
	char mod[OL_SITE_NAME], func[OL_SITE_NAME];
	int o;

	if (strncmp(t, "WARNING: ", 9) != 0 && strncmp(t, "UBSAN: ", 7) != 0 && strncmp(t, "BUG: ", 5) != 0)
		return false;
	ol_log_init(&scratch);
	ol_log_line(&scratch, t);
	if (!scratch.warnings || (o = site_warn_origin_of(scratch.warn_origin)) < 0)
		return false;
	ev = open_event(s, stream, ht, us);
	ev->origin = warn_origins[o].origin;
	ev->counts = COUNTS_WARN;
	ev->class = OL_CLASS_WARNING;
	put(ev->where, sizeof(ev->where), scratch.warn_where);
	site_clean(ev->where);
	if (o == 0 || strcmp(warn_origins[o].scanner, "scheduling while atomic") == 0)
		put(ev->what, sizeof(ev->what), warn_origins[o].label);
	else
		kind_words(ev, warn_origins[o].label, t, warn_origins[o].label);
	header_module(t, scratch.warn_func, mod, sizeof(mod));
	ol_site_function(scratch.warn_func, strlen(scratch.warn_func), func, sizeof(func));
	candidate(ev, func, mod);
	return true;
}

/*
 * An oops header, "<str>: <4 hex> [#N] ..." (arch/x86/kernel/dumpstack.c
 * __die_header(); "Oops: <str>" since 6.10, so a page fault's reads
 * "Oops: Oops: 0000 [#1]"): the kind named by the line before it in the
 * same stream ("kernel BUG at", "BUG: kernel NULL pointer dereference"), or
 * its own str ("general protection fault, probably for ...").
 */
static bool oops_header(struct ol_sites *s, const char *stream, const char *t, bool ht, uint64_t us)
{
	struct ol_log scratch;
	struct ol_site_event *ev;
	const char *str = t;
	size_t n;

	if (!strstr(t, " [#"))
		return false;
	ol_log_init(&scratch);
	ol_log_line(&scratch, t);
	if (!scratch.oopses)
		return false;
	ev = stream_event(s, stream);
	if (ev && ev->class == OL_CLASS_OOPS && !ev->have_header) {
		ev->have_header = true;
		return true;
	}
	ev = open_event(s, stream, ht, us);
	ev->have_header = true;
	ev->class = OL_CLASS_OOPS;
	ev->counts = COUNTS_OOPS;
	if (strncmp(str, "Oops: ", 6) == 0 && str[6] != '0')
		str += 6;
	n = strcspn(str, ",:");
	snprintf(ev->what, sizeof(ev->what), "%.*s", (int)n, str);
	if (strncmp(str, "general protection fault", 24) == 0)
		ev->origin = ORIGIN_GPF;
	else if (strncmp(str, "invalid opcode", 14) == 0)
		ev->origin = ORIGIN_BUG;	/* BUG() without CONFIG_DEBUG_BUGVERBOSE */
	else
		ev->origin = ORIGIN_OOPS;
	return true;
}

static bool other_header(struct ol_sites *s, const char *stream, const char *t, bool ht, uint64_t us)
{
	struct ol_site_event *ev;
	const char *p;
	size_t i, n;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		p = kinds[i].contains ? strstr(t, kinds[i].text) :
			strncmp(t, kinds[i].text, strlen(kinds[i].text)) == 0 ? t : NULL;
		if (!p)
			continue;
		/* "INFO: task ...": the hung-task line, not another INFO */
		if (kinds[i].class == OL_CLASS_HUNG_TASK && !strstr(t, " blocked for more than "))
			continue;
		if (kinds[i].class == OL_CLASS_RCU && !strstr(t, "stall"))
			continue;
		ev = open_event(s, stream, ht, us);
		ev->origin = kinds[i].origin;
		ev->class = kinds[i].class;
		ev->counts = ev->class == OL_CLASS_OOPS ? COUNTS_OOPS : NULL;
		ev->gathers = kinds[i].gathers;
		put(ev->what, sizeof(ev->what), kinds[i].title);
		if (kinds[i].where) {
			p += strlen(kinds[i].text);
			n = strcspn(p, "! ");
			ol_copy(ev->where, sizeof(ev->where), p, n);
			site_clean(ev->where);
		}
		return true;
	}
	return false;
}

/* A line inside a report: its trace, its RIP, its KASAN access, its end. */
static void event_line(struct ol_sites *s, struct ol_site_event *ev, const char *t)
{
	char name[OL_SITE_NAME], mod[OL_SITE_NAME];
	const char *p;
	size_t i;

	ev->lines++;
	if (strncmp(t, "---[ end trace", 14) == 0 ||
	    (strncmp(t, "==========", 10) == 0 && ev->lines > 1)) {
		close_event(s, ev);
		return;
	}
	for (i = 0; i < sizeof(mutes) / sizeof(mutes[0]); i++)
		if (strncmp(t, mutes[i].text, strlen(mutes[i].text)) == 0) {
			ev->muted = mutes[i].mute;
			ev->in_trace = false;
			return;
		}
	if (strncmp(t, "Call Trace:", 11) == 0 || strncmp(t, "Call trace:", 11) == 0) {
		ev->in_trace = true;
		return;
	}
	if (ev->muted)
		return;
	/* the faulting or interrupted instruction: x86-64, i386, arm64 */
	if (strncmp(t, "RIP: ", 5) == 0 || strncmp(t, "EIP: ", 5) == 0 || strncmp(t, "pc : ", 5) == 0) {
		p = t + 5;
		if (strspn(p, "0123456789abcdef") == 4 && p[4] == ':')
			p += 5;
		if (site_frame(p, true, name, sizeof(name), mod, sizeof(mod)))
			candidate(ev, name, mod);
		return;
	}
	if (strcmp(ev->origin, "KASAN") == 0 && !ev->access[0] &&
	    (strncmp(t, "Read of size ", 13) == 0 || strncmp(t, "Write of size ", 14) == 0)) {
		ol_copy(ev->access, sizeof(ev->access), t, strcspn(t, " "));
		return;
	}
	/* lockdep: "(&lock){+.+.}-{3:3}, at: caller+0x1a/0x40": the caller of the lock */
	if (ev->class == OL_CLASS_LOCKDEP && (p = strstr(t, ", at: "))) {
		if (site_frame(p + 6, false, name, sizeof(name), mod, sizeof(mod)))
			candidate(ev, name, mod);
		return;
	}
	if (ev->in_trace && site_frame(t, false, name, sizeof(name), mod, sizeof(mod)))
		candidate(ev, name, mod);
}

void ol_sites_init(struct ol_sites *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < OL_NCLASSES; i++)
		s->last[i] = -1;
	for (i = 0; i < OL_SITE_ORIGINS; i++)
		s->last_origin[i] = -1;
}

void ol_sites_line(struct ol_sites *s, const char *line)
{
	char caller[sizeof(s->stream)], text[512];
	struct ol_site_event *ev;
	uint64_t us = 0;
	bool ht, bracketed;
	const char *t = prefixes(line, &us, &ht, caller, sizeof(caller), &bracketed);
	size_t n;
	int i;

	/* a line without stamps continues the record before it, in its stream */
	if (bracketed)
		put(s->stream, sizeof(s->stream), caller);
	while (*t == ' ' || *t == '\t')
		t++;
	n = strcspn(t, "\r\n");
	ol_copy(text, sizeof(text), t, n);
	if (strncmp(text, "Kernel panic - not syncing: ", 28) == 0) {
		s->panicked = true;
		return;
	}
	if (warning_header(s, s->stream, text, ht, us) || oops_header(s, s->stream, text, ht, us) ||
	    other_header(s, s->stream, text, ht, us))
		return;
	ev = stream_event(s, s->stream);
	/* another CPU's backtrace, printed for a stall report */
	for (i = 0; !ev && i < OL_SITE_STREAMS; i++)
		if (s->ev[i].open && s->ev[i].gathers && (!ev || s->ev[i].seq > ev->seq))
			ev = &s->ev[i];
	if (ev)
		event_line(s, ev, text);
}

void ol_sites_done(struct ol_sites *s)
{
	int i;

	for (i = 0; i < OL_SITE_STREAMS; i++)
		if (s->ev[i].open)
			close_event(s, &s->ev[i]);
}

/* Whether p is NULL (when that may be) or one of the strings this file points at. */
static bool known_string(const char *p, bool may_be_null)
{
	static const char *const fixed[] = { COUNTS_WARN, COUNTS_OOPS, ORIGIN_GPF, ORIGIN_BUG, ORIGIN_OOPS };
	size_t i;

	if (!p)
		return may_be_null;
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (p == fixed[i])
			return true;
	for (i = 0; i < OL_SITE_ORIGINS; i++)
		if (p == warn_origins[i].origin || p == warn_origins[i].label)
			return true;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (p == kinds[i].origin)
			return true;
	return false;
}

const char *ol_sites_valid(const struct ol_sites *s)
{
	unsigned int i;

	if (s->n > OL_SITES)
		return "more sites than the log's list holds";
	if (!OL_TERMINATED(s->stream))
		return "the log's stream name is not terminated";
	for (i = 0; i < s->n; i++) {
		const struct ol_site *site = &s->site[i];

		if (!(OL_TERMINATED(site->title) && OL_TERMINATED(site->where) && OL_TERMINATED(site->func) &&
		      OL_TERMINATED(site->module)))
			return "a site's text is not terminated";
		if (!known_string(site->origin, false) || !known_string(site->counts, true))
			return "a site's origin or counter is none of sites.c's";
		if ((unsigned int)site->class >= OL_NCLASSES)
			return "a site's class is out of range";
	}
	for (i = 0; i < OL_NCLASSES; i++)
		if (s->last[i] < -1 || s->last[i] >= (int)s->n)
			return "a last site is out of range";
	for (i = 0; i < OL_SITE_ORIGINS; i++)
		if (s->last_origin[i] < -1 || s->last_origin[i] >= (int)s->n)
			return "a last site of an origin is out of range";
	for (i = 0; i < OL_SITE_STREAMS; i++) {
		const struct ol_site_event *ev = &s->ev[i];

		if (!(OL_TERMINATED(ev->stream) && OL_TERMINATED(ev->what) && OL_TERMINATED(ev->access) &&
		      OL_TERMINATED(ev->where) && OL_TERMINATED(ev->func) && OL_TERMINATED(ev->module) &&
		      OL_TERMINATED(ev->first) && OL_TERMINATED(ev->first_module)))
			return "an open report's text is not terminated";
		if (!known_string(ev->origin, true) || !known_string(ev->counts, true) ||
		    !known_string(ev->label, true) || (unsigned int)ev->class >= OL_NCLASSES)
			return "an open report's kind is none of sites.c's";
	}
	return NULL;
}
