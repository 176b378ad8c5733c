// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's reading of a dump (see reason.h): the variables of
 * common/vars.def through VMCOREINFO's SYMBOL() lines, else the dump's own
 * kallsyms tables; the printk ring buffer; and all of it in a child
 * process, whose answer the parent checks before it takes it, and which
 * it stops after a time limit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/kallsyms.h"
#include "../common/printk.h"
#include "../common/report.h"
#include "dump.h"
#include "reason.h"

/* Reads a variable at the address found, size bytes, little-endian. */
static void read_value(struct ol_report *r, const struct ol_mem *mem, enum ol_var_id id)
{
	struct ol_var *v = &r->var[id];
	uint8_t buf[8];

	if (mem->read(mem->ctx, v->addr, buf, ol_vars[id].size) != 0) {
		ol_note(r, "cannot read %s at 0x%" PRIx64 " (%s): not in the dump", ol_vars[id].symbol,
			v->addr, v->how);
		return;
	}
	v->read = true;
	v->value = ol_vars[id].size == 8 ? ol_le64(buf) : ol_le32(buf);
}

/*
 * Every variable through the dump's own kallsyms: the only way to those
 * VMCOREINFO has no SYMBOL() line for (a kernel without our patches:
 * every distribution kernel), and the second way to the others, which must
 * agree (a damaged or edited SYMBOL() line reads another variable).  What
 * kallsyms cannot say matters only for a variable it alone could locate.
 */
static void find_by_kallsyms(struct ol_dump *d, struct ol_report *r, struct ol_lookup look[][2],
			     size_t *nlook)
{
	struct ol_ksym syms[OL_NVARS];
	struct ol_kallsyms_info info;
	char err[OL_TEXT], why[OL_TEXT], type;
	bool needed = false;
	size_t i;
	uint64_t addr;

	for (i = 0; i < OL_NVARS; i++) {
		memset(&syms[i], 0, sizeof(syms[i]));
		syms[i].name = ol_vars[i].symbol;
		needed |= nlook[i] == 0;
	}
	if (ol_kallsyms_find(ol_dump_mem(d), syms, OL_NVARS, &info, err, sizeof(err)) != 0) {
		if (needed)
			ol_note(r, "kallsyms: %s", err);
		return;
	}
	for (i = 0; i < OL_NVARS; i++) {
		if (ol_ksym_pick(&syms[i], &addr, &type, why, sizeof(why)) != 0) {
			/* a kernel without the variable is no news; a collision is */
			if (syms[i].found && nlook[i] == 0)
				ol_note(r, "kallsyms: %s", why);
			continue;
		}
		look[i][nlook[i]].source = OL_SRC_KALLSYMS;
		look[i][nlook[i]].addr = addr;
		snprintf(look[i][nlook[i]].how, sizeof(look[i][nlook[i]].how), "kallsyms in the dump, type %c",
			 type);
		nlook[i]++;
	}
}

/*
 * For a capture's record: the free pages the kernel counted at the panic,
 * vm_zone_stat[NR_FREE_PAGES], found through the dump's kallsyms (no
 * VMCOREINFO line has it).  NR_FREE_PAGES is the first zone_stat_item on
 * every kernel line read here, 5.10 to 7.x (include/linux/mmzone.h).
 */
static void read_free_pages(struct ol_dump *d, struct ol_report *r)
{
	struct ol_ksym sym = { .name = "vm_zone_stat" };
	struct ol_kallsyms_info info;
	char err[OL_TEXT], type;
	uint8_t buf[8];
	uint64_t addr;
	int64_t v;

	if (ol_kallsyms_find(ol_dump_mem(d), &sym, 1, &info, err, sizeof(err)) != 0 ||
	    ol_ksym_pick(&sym, &addr, &type, err, sizeof(err)) != 0) {
		ol_note(r, "the kernel's count of free pages: %s", err);
		return;
	}
	if (ol_dump_mem(d)->read(ol_dump_mem(d)->ctx, addr, buf, sizeof(buf)) != 0) {
		ol_note(r, "the kernel's count of free pages at 0x%" PRIx64 " cannot be read", addr);
		return;
	}
	/* an atomic_long_t the per-CPU differences are folded into: it can dip below 0 */
	v = (int64_t)ol_le64(buf);
	r->capture.free_pages = v > 0 ? (uint64_t)v : 0;
	r->capture.have_free = true;
}

struct ol_dump *reason_read_dump(const char *path, struct ol_report *r)
{
	struct ol_lookup look[OL_NVARS][2];
	size_t nlook[OL_NVARS] = { 0 };
	struct ol_dump *d;
	const char *release;
	char why[OL_TEXT];
	int64_t when;
	int i;

	d = ol_dump_open(path, r->dump_error, sizeof(r->dump_error));
	if (!d)
		return NULL;
	release = ol_dump_release(d);
	if (release)
		snprintf(r->release, sizeof(r->release), "%s", release);
	/* crash_save_vmcoreinfo() adds it when the kernel enters kdump */
	if (ol_dump_crashtime(d, &when) == 0 && when >= 0) {
		r->crashed = true;
		r->crash_time = (uint64_t)when;
	}
	if (!ol_dump_has_vmcoreinfo(d)) {
		snprintf(r->dump_error, sizeof(r->dump_error),
			 "the dump has no VMCOREINFO note at all: nothing locates the kernel's variables");
		return d;
	}
	if (ol_dump_damage(d)[0])
		snprintf(r->dump_error, sizeof(r->dump_error), "%s", ol_dump_damage(d));
	for (i = 0; i < OL_NVARS; i++) {
		struct ol_lookup *l = &look[i][0];

		if (ol_dump_symbol(d, ol_vars[i].symbol, &l->addr, why, sizeof(why)) != 0)
			continue;
		l->source = OL_SRC_VMCOREINFO;
		snprintf(l->how, sizeof(l->how), "SYMBOL(%s) in VMCOREINFO", ol_vars[i].symbol);
		nlook[i] = 1;
	}
	find_by_kallsyms(d, r, look, nlook);
	if (r->capture.present)
		read_free_pages(d, r);
	for (i = 0; i < OL_NVARS; i++) {
		ol_var_locate(r, (enum ol_var_id)i, look[i], nlook[i]);
		if (r->var[i].found)
			read_value(r, ol_dump_mem(d), (enum ol_var_id)i);
	}
	if (r->var[OL_V_TAINTED_MASK].read) {
		ol_taint_letters(r->var[OL_V_TAINTED_MASK].value, r->taint, sizeof(r->taint));
		r->have_taint = true;
	}
	return d;
}

static void ring_line(void *arg, const char *line, size_t len)
{
	(void)len;
	ol_report_log_line(arg, line);
}

/* The log from the printk ring buffer in the dump itself. */
void reason_read_ring(struct ol_dump *d, struct ol_report *r)
{
	struct ol_printk res;

	snprintf(r->log_from, sizeof(r->log_from), "printk ring buffer");
	if (ol_printk_read(ol_dump_mem(d), ring_line, r, &res) != 0) {
		snprintf(r->log_trouble, sizeof(r->log_trouble), "the printk ring buffer could not be read: %.190s",
			 res.why);
		/* read, and no ring: the pages are wrong */
		r->memory_damaged = res.garbled;
		return;
	}
	if (!res.reliable) {
		r->log_unreliable = true;
		/* the ring was there, and its records did not fit it: the pages are wrong */
		r->memory_damaged = res.garbled;
		snprintf(r->log_trouble, sizeof(r->log_trouble), "the printk ring buffer does not decode reliably: %.190s",
			 res.why);
	}
}

/*
 * The dump is read in a child process.  ol_dump_open() checks what
 * libkdumpfile would read unchecked, but a crafted file can still make it
 * die (a VMCOREINFO note that passes the checks made kdump_open_fdset() of
 * 0.5.1 read unmapped memory); in a child, that death costs the dump, not
 * the report.  The child fills the report (the variables, and the ring
 * buffer when ring is set) and hands it back whole through a pipe: the
 * struct holds no pointer but to static data, which a fork shares.  The
 * signals a fault raises are left to kill the child, whatever handler a
 * sanitizer installed, so its death is the parent's to tell.
 */
static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The child's answer, checked before any of it is used: every string
 * terminated within its array, every count within its array, every enum in
 * its range, the pointers it may set (the log's context, the sites'
 * origins and counters) one of panics.def's and sites.c's; the pointers and the capture record the child has no
 * business changing are the parent's own.  False, with *why, when the
 * answer does not hold: it is not taken.
 */
static bool take_back(struct ol_report *r, struct ol_report *back, const char **why)
{
	unsigned int i;

	*why = NULL;
	for (i = 0; i < OL_NVARS && !*why; i++) {
		if (!OL_TERMINATED(back->var[i].how))
			*why = "a variable's description is not terminated";
		else if (back->var[i].source < OL_SRC_NONE || back->var[i].source > OL_SRC_LOG)
			*why = "a variable's source is out of range";
	}
	if (!*why && !(OL_TERMINATED(back->log_from) && OL_TERMINATED(back->release) && OL_TERMINATED(back->taint) &&
		       OL_TERMINATED(back->log_trouble) && OL_TERMINATED(back->log_start) &&
		       OL_TERMINATED(back->detail) && OL_TERMINATED(back->evidence) && OL_TERMINATED(back->dump_error)))
		*why = "a text of the report is not terminated";
	if (!*why && !(OL_TERMINATED(back->log.panic) && OL_TERMINATED(back->log.origin) &&
		       OL_TERMINATED(back->log.detail) && OL_TERMINATED(back->log.release) &&
		       OL_TERMINATED(back->log.first_oops) && OL_TERMINATED(back->log.warn_origin) &&
		       OL_TERMINATED(back->log.warn_where) && OL_TERMINATED(back->log.warn_func)))
		*why = "a text of the log summary is not terminated";
	if (!*why && back->n_notes > OL_NOTES)
		*why = "more notes than the report holds";
	for (i = 0; i < OL_NOTES && !*why; i++)
		if (!OL_TERMINATED(back->notes[i]))
			*why = "a note is not terminated";
	if (!*why && (back->log.setting < OL_V_NONE || back->log.setting >= OL_NVARS ||
		      back->setting < OL_V_NONE || back->setting >= OL_NVARS))
		*why = "a setting is out of range";
	if (!*why && !ol_log_context_known(back->log.context))
		*why = "the log's context is none of panics.def's";
	if (!*why)
		*why = ol_sites_valid(&back->sites);
	if (*why)
		return false;
	back->program = r->program;
	back->reason = r->reason;
	back->log.reason = r->log.reason;
	/* the capture record is the caller's, but for the kernel's count of free pages */
	{
		bool have_free = back->capture.have_free;
		uint64_t free_pages = back->capture.free_pages;

		back->capture = r->capture;
		back->capture.have_free = have_free;
		back->capture.free_pages = free_pages;
	}
	*r = *back;
	return true;
}

/*
 * How long the child may read: a dump whose reading never ends (a loop in
 * damaged page tables, a device that stalls) costs the dump, not the
 * report.  $OOPSLIMIT_READ_SECONDS for tests.
 */
static int read_limit_ms(void)
{
	const char *e = getenv("OOPSLIMIT_READ_SECONDS");
	char *end;
	long s;

	if (e && *e) {
		errno = 0;
		s = strtol(e, &end, 10);
		if (!errno && !*end && s > 0 && s <= 86400)
			return (int)(s * 1000);
	}
	return 300 * 1000;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * read_all with a deadline (a CLOCK_MONOTONIC time in ms): what came before
 * it; *late is set when the deadline passed first.
 */
static size_t read_until(int fd, void *buf, size_t len, long long deadline, bool *late)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();
		ssize_t n;
		int pr;

		if (left <= 0) {
			*late = true;
			break;
		}
		pr = poll(&pfd, 1, left > INT_MAX ? INT_MAX : (int)left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			break;
		if (pr == 0) {
			*late = true;
			break;
		}
		n = read(fd, p + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

bool reason_read_dump_apart(const char *path, struct ol_report *r, bool ring)
{
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS };
	static struct ol_report back;
	int fds[2], status = 0;
	char opened = 0;
	size_t got;
	pid_t pid;
	unsigned int i;

	if (pipe2(fds, O_CLOEXEC) != 0) {
		snprintf(r->dump_error, sizeof(r->dump_error), "cannot read %s apart: pipe: %s", path,
			 strerror(errno));
		return false;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(r->dump_error, sizeof(r->dump_error), "cannot read %s apart: fork: %s", path,
			 strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		struct ol_dump *d;

		close(fds[0]);
		for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
			signal(faults[i], SIG_DFL);
		d = reason_read_dump(path, r);
		if (d && ring)
			reason_read_ring(d, r);
		opened = d != NULL;
		/* _exit: no exit handlers, no closing a context libkdumpfile may have left unsafe */
		_exit(write_all(fds[1], &opened, 1) || write_all(fds[1], r, sizeof(*r)) ? 1 : 0);
	}
	close(fds[1]);
	{
		int limit = read_limit_ms();
		long long deadline = now_ms() + limit;
		bool late = false;
		const char *why = NULL;

		got = read_until(fds[0], &opened, 1, deadline, &late);
		if (got == 1)
			got += read_until(fds[0], &back, sizeof(back), deadline, &late);
		close(fds[0]);
		if (late)
			kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (late) {
			snprintf(r->dump_error, sizeof(r->dump_error), "%s could not be read: the reader took "
				 "more than %d s and was stopped", path, limit / 1000);
			return false;
		}
		if (got == 1 + sizeof(back) && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			if (opened != 0 && opened != 1)
				why = "its answer is neither opened nor not";
			else if (take_back(r, &back, &why))
				return opened;
			snprintf(r->dump_error, sizeof(r->dump_error), "%s could not be read: the reader's "
				 "answer does not hold (%s): not taken", path, why);
			return false;
		}
	}
	if (WIFSIGNALED(status))
		snprintf(r->dump_error, sizeof(r->dump_error), "%s could not be read: reading it killed "
			 "the reader (signal %d, %s): the file is damaged where libkdumpfile does not check",
			 path, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(r->dump_error, sizeof(r->dump_error), "%s could not be read: the reader reading it "
			 "failed (exit status %d)", path, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return false;
}
