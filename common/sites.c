// SPDX-License-Identifier: GPL-2.0
/*
 * The warning and oops sites of a kernel log.  See sites.h.
 *
 * Which line starts which report is common/reports.def's, the table the log
 * scanner (verdict.c) counts warnings and oopses by: a report counts here
 * exactly when it counts there, so a site's count and the report's
 * warnings and oopses agree.  This file adds what the scanner does not
 * keep: each report's frames, read up to the end of its first trace, and
 * the reports the limits do not count (lockdep, RCU stalls, lockups, hung
 * tasks, KMSAN, kmemleak).  Which frame is guilty is sites-frames.c's,
 * which report decided the panic sites-decide.c's.
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
 * Which report counts in which counter is reports.def's (its warn and cls
 * columns); these are the strings a site points at besides the table's own,
 * one address each, so that ol_sites_valid() can tell them from any other.
 */
static const char COUNTS_WARN[] = "warn_count", COUNTS_OOPS[] = "oops_count";

int site_warn_origin_of(const char *warn)
{
	size_t i, j;
	int id = 0;

	if (!warn)
		return -1;
	for (i = 0; i < ol_nshapes; i++) {
		const char *w = ol_shapes[i].warn;
		bool seen = false;

		if (!w)
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = ol_shapes[j].warn && strcmp(ol_shapes[j].warn, w) == 0;
		if (seen)
			continue;
		if (strcmp(w, warn) == 0)
			return id < OL_SITE_ORIGINS ? id : -1;
		id++;
	}
	return -1;
}

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

/*
 * Lines after which a trace comes: the stack dumpers' headers (x86, arm64,
 * 4.x's "Backtrace:", kmemleak's "backtrace:"; "Call Trace:" may follow a
 * stack dump's words on one line), page_owner's stack of a bad page's
 * allocation, and lockdep's lines that
 * introduce the stack of the lock it blames ("... which became
 * HARDIRQ-irq-safe at:", 4.x's "is trying to release lock (x) at:").
 */
static const struct {
	const char *text;
	bool contains;
} trace_starts[] = {
	{ "Call Trace:", true }, { "Call trace:", true }, { "Backtrace:", false }, { "backtrace", false },
	{ "... which became ", false }, { " is trying to release lock ", true }, { "page last allocated", false },
};

/*
 * Lines that end a report's first trace: what follows are other traces of
 * the same report (where KASAN's object was allocated and freed, where
 * KMSAN's value was made, the locks hung_task lists), which name no guilty
 * frame.  Matched on the line's start, case and all.
 */
static const char *const trace_ends[] = {
	"Allocated by task", "Freed by task", "allocated by task", "freed by task",
	"The buggy address", "Memory state around", "Last potentially related work creation",
	"Second to last potentially related", "Uninit was created at:", "Uninit was stored to memory at:",
	"Local variable ", "Bytes ", "Showing all locks held", "page last free", "The following locks", "other info that might help",
};

/* ---- events -------------------------------------------------------------- */

static void add_frame(struct ol_site_event *ev, const char *name, const char *mod, enum ol_frame_kind kind)
{
	struct ol_event_frame *f;

	if (!name[0] || strncmp(name, "0x", 2) == 0)
		return;
	/* a deep trace (a recursion that overflowed the stack): its first half and its latest frames */
	if (ev->nframes == OL_EVENT_FRAMES) {
		memmove(&ev->frames[OL_EVENT_FRAMES / 2], &ev->frames[OL_EVENT_FRAMES / 2 + 1],
			(OL_EVENT_FRAMES / 2 - 1) * sizeof(ev->frames[0]));
		ev->nframes--;
	}
	f = &ev->frames[ev->nframes++];
	put(f->name, sizeof(f->name), name);
	put(f->module, sizeof(f->module), mod);
	f->kind = kind;
}

static void note_last(struct ol_sites *s, int site, const struct ol_site_event *ev)
{
	const struct ol_shape *shape = &ol_shapes[ev->shape];
	int o;

	if (ev->after_panic)
		return;
	if (s->first[shape->cls] < 0 || ev->seq < s->first_seq[shape->cls]) {
		s->first[shape->cls] = site;
		s->first_seq[shape->cls] = ev->seq;
	}
	if (s->last[shape->cls] < 0 || ev->seq >= s->last_seq[shape->cls]) {
		s->last[shape->cls] = site;
		s->last_seq[shape->cls] = ev->seq;
	}
	o = site_warn_origin_of(shape->warn);
	if (o >= 0 && (s->last_origin[o] < 0 || ev->seq >= s->last_origin_seq[o])) {
		s->last_origin[o] = site;
		s->last_origin_seq[o] = ev->seq;
	}
}

/* The report is complete: its site gets it. */
static void close_event(struct ol_sites *s, struct ol_site_event *ev)
{
	const struct ol_shape *shape = &ol_shapes[ev->shape];
	struct ol_site *site;
	char title[OL_SITE_TITLE], func[OL_SITE_NAME], mod[OL_SITE_NAME];
	bool corrupted = !site_guilty(ev, func, sizeof(func), mod, sizeof(mod));
	unsigned int i, k;

	ev->open = false;
	if (corrupted)
		put(func, sizeof(func), OL_SITE_CORRUPTED);
	title[0] = '\0';
	append(title, sizeof(title), ev->what);
	if (ev->access[0]) {
		append(title, sizeof(title), " ");
		append(title, sizeof(title), ev->access);
	}
	if (func[0]) {
		append(title, sizeof(title), " in ");
		append(title, sizeof(title), func);
	}
	site_clean(title);
	s->events++;
	if (!ev->after_panic && shape->cls == OL_CLASS_OOPS)
		s->counted[1]++;
	else if (!ev->after_panic && shape->warn)
		s->counted[0]++;
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
		put(site->func, sizeof(site->func), corrupted ? "" : func);
		put(site->module, sizeof(site->module), mod);
		site->origin = shape->origin;
		site->counts = shape->cls == OL_CLASS_OOPS ? COUNTS_OOPS : shape->warn ? COUNTS_WARN : NULL;
		site->class = shape->cls;
		site->corrupted = corrupted;
		for (k = 0; k < ev->nframes && site->nframes < OL_SITE_FRAMES; k++)
			if (ev->frames[k].kind != OL_FK_AT)
				put(site->frames[site->nframes++], OL_SITE_NAME, ev->frames[k].name);
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

/* A new report of shape row in stream: the one open there is complete. */
static struct ol_site_event *open_event(struct ol_sites *s, const char *stream, int row, bool have_time,
					uint64_t us)
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
	ev->shape = row;
	ev->after_panic = s->panicked;
	ev->have_time = have_time;
	ev->time_us = us;
	put(ev->what, sizeof(ev->what), ol_shapes[row].title);
	return ev;
}

/* The function a header names and its module: "foo+0x1/0x2 [btrfs]" at p. */
static void header_function(struct ol_site_event *ev, const char *p)
{
	char name[OL_SITE_NAME], mod[OL_SITE_NAME];

	if (p && site_frame(p, true, name, sizeof(name), mod, sizeof(mod))) {
		put(ev->header, sizeof(ev->header), name);
		put(ev->header_module, sizeof(ev->header_module), mod);
	}
}

/* OL_F_WORDS: the header's words after the row's text, up to " in " or ':'. */
static void kind_words(struct ol_site_event *ev, const struct ol_shape *shape, const char *t)
{
	const char *p = t, *in;
	size_t n;

	if (shape->at == OL_ANYWHERE && (p = strstr(t, shape->text)) == NULL)
		return;
	p += strlen(shape->text);
	/* "lockup suspected on CPU#1, kworker/u4:1/123": the kind's words, not the CPU's or the task's */
	in = strstr(p, " in ");
	n = in ? (size_t)(in - p) : strlen(p);
	if (strcspn(p, ":,") < n)
		n = strcspn(p, ":,");
	if ((in = strstr(p, " on CPU")) && (size_t)(in - p) < n)
		n = (size_t)(in - p);
	while (n && p[n - 1] == ' ')
		n--;
	if (strlen(ev->what) + n < sizeof(ev->what))
		strncat(ev->what, p, n);
}

/* A warning by the scanner's rules (a __warn() line): true, with the event opened. */
static bool warning_header(struct ol_sites *s, const char *stream, const char *t, bool ht, uint64_t us)
{
	struct ol_log scratch;
	struct ol_site_event *ev;
	int row;

	if (strncmp(t, "WARNING: ", 9) != 0)
		return false;
	ol_log_init(&scratch);
	ol_log_line(&scratch, t);
	if (!scratch.warnings || strcmp(scratch.warn_origin, "kernel") != 0)
		return false;
	for (row = ol_shape_find(t, strlen(t), OL_START, 0); row >= 0; row = ol_shape_find(t, strlen(t), OL_START, (size_t)row + 1))
		if (ol_shapes[row].flags & OL_F_WARN)
			break;
	if (row < 0)
		return false;
	ev = open_event(s, stream, row, ht, us);
	put(ev->where, sizeof(ev->where), scratch.warn_where);
	site_clean(ev->where);
	if (scratch.warn_func[0])
		header_function(ev, strstr(t, scratch.warn_func));
	return true;
}

/*
 * An oops header, "<str>: <code> [#N] ..." (arch/x86/kernel/dumpstack.c
 * __die_header(); "Oops: <str>" since 6.10, so a page fault's reads
 * "Oops: Oops: 0000 [#1]"; arm64's "Internal error: <str>: <esr> [#N]"):
 * it belongs to the report the line before it opened in the same stream
 * ("kernel BUG at", "BUG: kernel NULL pointer dereference"), or is one of
 * its own, titled by its str.
 */
static bool oops_header(struct ol_sites *s, const char *stream, const char *t, bool ht, uint64_t us)
{
	struct ol_log scratch;
	struct ol_site_event *ev;
	const char *str = t, *end;
	int row;

	if (!(end = strstr(t, " [#")))
		return false;
	ol_log_init(&scratch);
	ol_log_line(&scratch, t);
	if (!scratch.oopses)
		return false;
	ev = stream_event(s, stream);
	if (ev && (ol_shapes[ev->shape].flags & OL_F_DIE) && !ev->have_header) {
		ev->have_header = true;
		return true;
	}
	/* the str: before ": <code>", without the prefixes around it */
	while (end > str && end[-1] != ':')
		end--;
	if (end > str)
		end--;
	if (strncmp(str, "Internal error: ", 16) == 0)
		str += 16;
	if (strncmp(str, "Oops: ", 6) == 0 && str + 6 < end)
		str += 6;
	row = ol_shape_find(str, (size_t)(end > str ? end - str : 0), OL_DIE, 0);
	if (row < 0)
		return false;
	ev = open_event(s, stream, row, ht, us);
	ev->have_header = true;
	return true;
}

/* Every other header of reports.def: true, with the event opened. */
static bool other_header(struct ol_sites *s, const char *stream, const char *t, bool ht, uint64_t us)
{
	const struct ol_shape *shape;
	struct ol_site_event *ev;
	const char *p;
	size_t len = strlen(t), n;
	int row;

	for (row = ol_shape_find(t, len, OL_START, 0); row >= 0; row = ol_shape_find(t, len, OL_START, (size_t)row + 1))
		if (!(ol_shapes[row].flags & OL_F_WARN))
			break;
	if (row < 0)
		return false;
	shape = &ol_shapes[row];
	ev = open_event(s, stream, row, ht, us);
	/* a sanitizer's FILE:LINE, as the scanner reads it ("UBSAN: ... in f.c:20:7") */
	if (shape->warn) {
		struct ol_log scratch;

		ol_log_init(&scratch);
		ol_log_line(&scratch, t);
		put(ev->where, sizeof(ev->where), scratch.warn_where);
		site_clean(ev->where);
	}
	if (shape->flags & OL_F_WORDS)
		kind_words(ev, shape, t);
	p = shape->at == OL_ANYWHERE ? strstr(t, shape->text) : t;
	p = p ? p + strlen(shape->text) : t + len;
	if (shape->flags & OL_F_PLACE) {
		n = strcspn(p, "! ");
		ol_copy(ev->where, sizeof(ev->where), p, n);
		site_clean(ev->where);
	}
	/* "BUG: KASAN: use-after-free in foo+0x1/0x2", "stack is corrupted in: foo" */
	if (shape->guilty == OL_G_HEADER && (p = strstr(p, " in ")))
		header_function(ev, p + 4 + strspn(p + 4, ": "));
	return true;
}

/* "RIP: 0010:foo+0x1/0x2", "RIP: 0010:[<ffffffff81234567>]  [<ffffffff81234567>] foo+0x1/0x2" (4.x). */
static const char *rip_function(const char *t)
{
	static const char *const rips[] = { "RIP: ", "EIP: ", "pc : ", "IP: ", "PC is at ", "NIP: " };
	const char *p = NULL, *e;
	size_t i;

	for (i = 0; i < sizeof(rips) / sizeof(rips[0]) && !p; i++)
		if (strncmp(t, rips[i], strlen(rips[i])) == 0)
			p = t + strlen(rips[i]);
	if (!p)
		return NULL;
	if (strspn(p, "0123456789abcdef") == 4 && p[4] == ':')
		p += 5;
	for (;;) {
		while (*p == ' ')
			p++;
		if (p[0] != '[' || p[1] != '<' || !(e = strstr(p, ">]")))
			return p;
		p = e + 2;
	}
}

/* Whether the report has read a frame of a trace yet (lockdep's lock lists do not count). */
static bool traced(const struct ol_site_event *ev)
{
	unsigned int i;

	for (i = 0; i < ev->nframes; i++)
		if (ev->frames[i].kind != OL_FK_AT)
			return true;
	return false;
}

/* A line inside a report: its trace, its RIP, its KASAN access, its end. */
static void event_line(struct ol_sites *s, struct ol_site_event *ev, const char *t)
{
	const struct ol_shape *shape = &ol_shapes[ev->shape];
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
	/* another CPU's backtrace: for a stall, the CPU that held it; for the rest, not the report's */
	if (strncmp(t, "NMI backtrace for cpu", 21) == 0) {
		if (shape->flags & OL_F_GATHERS)
			ev->muted = ev->in_trace = false;
		else if (traced(ev))
			ev->frames_done = true;
		return;
	}
	if ((shape->flags & OL_F_ACCESS) && !ev->access[0] &&
	    (strncmp(t, "Read of size ", 13) == 0 || strncmp(t, "Write of size ", 14) == 0 ||
	     strncmp(t, "Read at addr ", 13) == 0 || strncmp(t, "Write at addr ", 14) == 0)) {
		ol_copy(ev->access, sizeof(ev->access), t, strcspn(t, " "));
		return;
	}
	/* lockdep: "(&lock){+.+.}-{3:3}, at: caller+0x1a/0x40": the caller of the lock */
	if ((p = strstr(t, ", at: "))) {
		p += 6;
		if (!ev->muted && site_frame(p, false, name, sizeof(name), mod, sizeof(mod)))
			add_frame(ev, name, mod, OL_FK_AT);
		return;
	}
	if (ev->frames_done || ev->muted)
		return;
	for (i = 0; i < sizeof(trace_ends) / sizeof(trace_ends[0]); i++)
		if (strncmp(t, trace_ends[i], strlen(trace_ends[i])) == 0 && traced(ev)) {
			ev->frames_done = true;
			return;
		}
	/* "<IRQ>", "<EOI>", "</IRQ>", "<TASK>": where the stack changes, a frame may follow on the line */
	while (t[0] == '<' && (p = strchr(t, '>')) && p - t <= 6)
		for (t = p + 1; *t == ' '; t++)
			;
	for (i = 0; i < sizeof(trace_starts) / sizeof(trace_starts[0]); i++)
		if (trace_starts[i].contains ? strstr(t, trace_starts[i].text) != NULL :
		    strncmp(t, trace_starts[i].text, strlen(trace_starts[i].text)) == 0) {
			ev->in_trace = true;
			return;
		}
	/* the faulting or interrupted instruction: x86-64, i386, arm64, 4.x's IP: */
	if ((p = rip_function(t))) {
		/* arm's "pc : [<80b10c70>]    lr : [<00000000>]" names no function */
		if (p[strcspn(p, " ")] != '\0' && p[strcspn(p, " ") + strspn(p + strcspn(p, " "), " ")] == ':')
			return;
		if (site_frame(p, true, name, sizeof(name), mod, sizeof(mod)))
			add_frame(ev, name, mod, OL_FK_RIP);
		return;
	}
	if ((ev->in_trace || (shape->flags & OL_F_BARE)) && site_frame(t, false, name, sizeof(name), mod, sizeof(mod)))
		add_frame(ev, name, mod, OL_FK_TRACE);
}

void ol_sites_init(struct ol_sites *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < OL_NCLASSES; i++)
		s->last[i] = s->first[i] = -1;
	for (i = 0; i < OL_SITE_ORIGINS; i++)
		s->last_origin[i] = -1;
}

void ol_sites_line(struct ol_sites *s, const char *line)
{
	char caller[sizeof(s->stream)], text[512];
	struct ol_site_event *ev;
	uint64_t us = 0;
	bool ht, bracketed;
	const char *t = ol_log_prefixes(line, &us, &ht, caller, sizeof(caller), &bracketed);
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
		/* a panic that reports itself is the last report before it */
		if (!s->panicked)
			other_header(s, s->stream, text, ht, us);
		s->panicked = true;
		return;
	}
	if (warning_header(s, s->stream, text, ht, us) || oops_header(s, s->stream, text, ht, us) ||
	    other_header(s, s->stream, text, ht, us))
		return;
	ev = stream_event(s, s->stream);
	/* another CPU's backtrace, printed for a stall report */
	for (i = 0; !ev && i < OL_SITE_STREAMS; i++)
		if (s->ev[i].open && (ol_shapes[s->ev[i].shape].flags & OL_F_GATHERS) && (!ev || s->ev[i].seq > ev->seq))
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

/* Whether p is NULL (when that may be) or one of the strings sites point at. */
static bool known_string(const char *p, bool may_be_null)
{
	size_t i;

	if (!p)
		return may_be_null;
	if (p == COUNTS_WARN || p == COUNTS_OOPS)
		return true;
	for (i = 0; i < ol_nshapes; i++)
		if (p == ol_shapes[i].origin)
			return true;
	return false;
}

const char *ol_sites_valid(const struct ol_sites *s)
{
	unsigned int i, k;

	if (s->n > OL_SITES)
		return "more sites than the log's list holds";
	if (!OL_TERMINATED(s->stream))
		return "the log's stream name is not terminated";
	for (i = 0; i < s->n; i++) {
		const struct ol_site *site = &s->site[i];

		if (!(OL_TERMINATED(site->title) && OL_TERMINATED(site->where) && OL_TERMINATED(site->func) &&
		      OL_TERMINATED(site->module)))
			return "a site's text is not terminated";
		if (site->nframes > OL_SITE_FRAMES)
			return "a site keeps more frames than it holds";
		for (k = 0; k < site->nframes; k++)
			if (!OL_TERMINATED(site->frames[k]))
				return "a site's frame is not terminated";
		if (!known_string(site->origin, false) || !known_string(site->counts, true))
			return "a site's origin or counter is none of sites.c's";
		if ((unsigned int)site->class >= OL_NCLASSES)
			return "a site's class is out of range";
	}
	for (i = 0; i < OL_NCLASSES; i++)
		if (s->last[i] < -1 || s->last[i] >= (int)s->n || s->first[i] < -1 || s->first[i] >= (int)s->n)
			return "a first or last site is out of range";
	for (i = 0; i < OL_SITE_ORIGINS; i++)
		if (s->last_origin[i] < -1 || s->last_origin[i] >= (int)s->n)
			return "a last site of an origin is out of range";
	for (i = 0; i < OL_SITE_STREAMS; i++) {
		const struct ol_site_event *ev = &s->ev[i];

		if (!(OL_TERMINATED(ev->stream) && OL_TERMINATED(ev->what) && OL_TERMINATED(ev->access) &&
		      OL_TERMINATED(ev->where) && OL_TERMINATED(ev->header) && OL_TERMINATED(ev->header_module)))
			return "an open report's text is not terminated";
		if (ev->nframes > OL_EVENT_FRAMES)
			return "an open report has more frames than it holds";
		for (k = 0; k < ev->nframes; k++)
			if (!OL_TERMINATED(ev->frames[k].name) || !OL_TERMINATED(ev->frames[k].module) ||
			    (unsigned int)ev->frames[k].kind > OL_FK_AT)
				return "an open report's frame is not fit";
		if (ev->shape < 0 || (size_t)ev->shape >= ol_nshapes)
			return "an open report's kind is none of reports.def's";
	}
	return NULL;
}
