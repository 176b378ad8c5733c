// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for common/sites.c, sites-frames.c and sites-decide.c: the
 * warning and oops sites of a log, the guilty frame through
 * common/frames.def, and the signature.  Each log is
 * in the shape a kernel line prints (its comment names the kernel and the
 * function that prints it); the example values (functions, paths, PIDs)
 * are made up, the layout is the kernel's.  TAP output.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/sites.h"
#include "tap.h"

static struct ol_sites sites;
static char data_dir[4096];

/* tests/unit/reports/, beside this file: the logs, one report shape or case a file */
static void find_data_dir(void)
{
	const char *slash = strrchr(__FILE__, '/');

	snprintf(data_dir, sizeof(data_dir), "%.*s/reports", slash ? (int)(slash - __FILE__) : 1,
		 slash ? __FILE__ : ".");
}

/*
 * Feeds the log of a fixture file to a new ol_sites: its lines after the
 * header's "# " lines, as they are.  The header lines go to header (may be
 * NULL), '\n'-separated.  False when the file cannot be read.
 */
static bool feed_path(const char *path, char *header, size_t header_len)
{
	char line[4096];
	bool in_header = true;
	size_t used = 0;
	FILE *f = fopen(path, "r");

	ol_sites_init(&sites);
	if (header_len)
		header[0] = '\0';
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (in_header && strncmp(line, "# ", 2) == 0) {
			if (header && used + strlen(line) < header_len) {
				memcpy(header + used, line, strlen(line) + 1);
				used += strlen(line);
			}
			continue;
		}
		in_header = false;
		line[strcspn(line, "\n")] = '\0';
		ol_sites_line(&sites, line);
	}
	fclose(f);
	ol_sites_done(&sites);
	return true;
}

static void feed(const char *const *lines)
{
	ol_sites_init(&sites);
	for (; *lines; lines++)
		ol_sites_line(&sites, *lines);
	ol_sites_done(&sites);
}

static void feed_file(const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", data_dir, name);
	ok_got(feed_path(path, NULL, 0), "read the fixture", path);
}

static const struct ol_site *site(const char *title)
{
	unsigned int i;

	for (i = 0; i < sites.n; i++)
		if (strcmp(sites.site[i].title, title) == 0)
			return &sites.site[i];
	return NULL;
}

static char titles[2048];

/* All titles, for the failure message. */
static const char *all_titles(void)
{
	size_t used = 0;
	unsigned int i;

	titles[0] = '\0';
	for (i = 0; i < sites.n && used < sizeof(titles); i++)
		used += (size_t)snprintf(titles + used, sizeof(titles) - used, "%s%s x%lu", i ? " | " : "",
					 sites.site[i].title, sites.site[i].count);
	return titles;
}

/* One site with this title, count, origin and counter. */
static const struct ol_site *expect(const char *what, const char *title, unsigned long count, const char *origin,
				    const char *counts)
{
	const struct ol_site *s = site(title);
	char name[256];

	snprintf(name, sizeof(name), "%s: a site '%s'", what, title);
	ok_got(s != NULL, name, all_titles());
	if (!s)
		return NULL;
	snprintf(name, sizeof(name), "%s: '%s' seen %lu times", what, title, count);
	ok(s->count == count, name);
	snprintf(name, sizeof(name), "%s: origin %s", what, origin);
	ok_got(strcmp(s->origin, origin) == 0, name, s->origin);
	snprintf(name, sizeof(name), "%s: counts in %s", what, counts ? counts : "neither counter");
	ok(counts ? s->counts && strcmp(s->counts, counts) == 0 : !s->counts, name);
	return s;
}

/* The site's file:line is want (s may be NULL: the site is missing, already counted). */
static void expect_where(const char *what, const struct ol_site *s, const char *want)
{
	char name[256];

	snprintf(name, sizeof(name), "%s: file:line %s", what, want[0] ? want : "none");
	ok_got(s && strcmp(s->where, want) == 0, name, s ? s->where : NULL);
}

static void expect_sig(const char *what, const char *reason, const char *origin, const char *want)
{
	char sig[256], name[256];

	ol_signature(sig, sizeof(sig), reason, ol_sites_deciding(&sites, reason, origin));
	snprintf(name, sizeof(name), "%s: signature '%s'", what, want);
	ok_got(strcmp(sig, want) == 0, name, sig);
}

static void test_warn(void)
{
	const struct ol_site *s;

	feed_file("warn-6.1-lkdtm.log");
	ok(sites.n == 1 && sites.events == 2, "6.1 WARN: two reports, one site");
	s = expect("6.1 WARN", "WARNING in lkdtm_WARNING", 2, "WARN", "warn_count");
	if (s) {
		expect_where("6.1 WARN", s, "../linux/drivers/misc/lkdtm/bugs.c:85");
		ok_got(strcmp(s->module, "lkdtm") == 0, "6.1 WARN: module", s->module);
		ok(s->have_time && s->first_us == 3401251 && s->last_us == 3701251, "6.1 WARN: first and last time");
	}
	expect_sig("6.1 WARN", "warn_limit", "kernel", "warn_limit: WARNING in lkdtm_WARNING");
	ok(sites.counted[0] == 2 && sites.counted[1] == 0, "6.1 WARN: two counted in warn_count");
}

static void test_warn_shapes(void)
{
	const struct ol_site *s;
	char sig[2][256];

	feed_file("warn-6.19-forms.log");
	s = expect("6.19 WARN", "WARNING in foo_sync", 1, "WARN", "warn_count");
	if (s) {
		expect_where("6.19 WARN", s, "kernel/workqueue.c:4289");
		ok_got(strcmp(s->module, "foo") == 0, "6.19 WARN: the caller's module", s->module);
	}
	expect("6.19 WARN with a condition", "WARNING in sched_init", 1, "WARN", "warn_count");

	feed_file("warn-5.10-interleaved.log");
	ok(sites.n == 2, "5.10 interleaved: two sites");
	s = expect("5.10 interleaved", "WARNING: refcount bug in foo_put", 1, "WARN", "warn_count");
	if (s) {
		expect_where("5.10 interleaved", s, "lib/refcount.c:28");
		ok_got(strcmp(s->module, "foo") == 0, "5.10 interleaved: module without its build id", s->module);
	}
	expect("5.10 interleaved", "WARNING in bar_xmit", 1, "WARN", "warn_count");
	ol_signature(sig[0], sizeof(sig[0]), "warn_limit", site("WARNING: refcount bug in foo_put"));
	feed_file("warn-5.10-other-host.log");
	ol_signature(sig[1], sizeof(sig[1]), "warn_limit", ol_sites_deciding(&sites, "warn_limit", "kernel"));
	ok_got(strcmp(sig[0], sig[1]) == 0, "the same bug on two hosts: one signature", sig[1]);

	feed_file("warn-no-stamps.log");
	s = expect("no stamps", "WARNING in vfs_unlink", 1, "WARN", "warn_count");
	ok(s && !s->have_time, "no stamps: no time");
}

static void test_sanitizers(void)
{
	const struct ol_site *s;

	feed_file("kasan-6.1.log");
	s = expect("6.1 KASAN", "KASAN: slab-use-after-free Read in foo_name_show", 1, "KASAN", "warn_count");
	ok(s && strcmp(s->module, "foo") == 0, "6.1 KASAN: the module of the frame past strlen");
	expect_sig("6.1 KASAN", "kasan_fault", "", "kasan_fault: KASAN: slab-use-after-free Read in foo_name_show");

	feed_file("ubsan-5.10.log");
	s = expect("5.10 UBSAN", "UBSAN: shift-out-of-bounds in bar_shift", 1, "UBSAN", "warn_count");
	expect_where("5.10 UBSAN", s, "drivers/foo/bar.c:20");
	ok(sites.n == 1, "5.10 UBSAN: the closing rule is no report");

	feed_file("ubsan-6.6.log");
	expect("6.6 UBSAN", "UBSAN: array-index-out-of-bounds in bar_index", 1, "UBSAN", "warn_count");

	feed_file("kfence-kcsan.log");
	expect("KFENCE", "KFENCE: out-of-bounds read in test_out_of_bounds_read", 1, "KFENCE", "warn_count");
	expect("KCSAN", "KCSAN: data-race in test_kernel_read", 1, "KCSAN", "warn_count");
	expect("scheduling while atomic", "BUG: scheduling while atomic in foo_wait_atomic", 1,
	       "scheduling while atomic", "warn_count");
}

static void test_not_counted(void)
{
	const struct ol_site *s;

	feed_file("might-sleep-6.1.log");
	s = expect("6.1 might_sleep", "BUG: sleeping function called from invalid context in foo_write", 1,
		   "might_sleep", NULL);
	expect_where("6.1 might_sleep", s, "kernel/locking/mutex.c:580");
	ok_got(s && strcmp(s->module, "foo") == 0, "6.1 might_sleep: the driver's module, past mutex_lock",
	       s ? s->module : NULL);
	ok(sites.n == 1 && sites.counted[0] == 0, "6.1 might_sleep: one site, counted in neither counter");
	feed_file("warn-7.2-no-file.log");
	s = expect("7.2 WARN without file:line", "WARNING in bar_reset", 1, "WARN", "warn_count");
	expect_where("7.2 WARN without file:line", s, "");
	expect_sig("7.2 WARN", "warn_limit", "kernel", "warn_limit: WARNING in bar_reset");
	feed_file("lockdep-6.1.log");
	expect("6.1 lockdep", "possible deadlock in foo_second", 1, "lockdep", NULL);
	ok(sites.counted[0] == 0, "6.1 lockdep: counts in neither counter");
	feed_file("rcu-self-6.1.log");
	expect("6.1 RCU self-detected stall", "INFO: rcu detected stall in foo_spin", 1, "RCU", NULL);
	expect_sig("6.1 RCU stall", "panic_on_rcu_stall", "", "panic_on_rcu_stall: INFO: rcu detected stall in foo_spin");
	feed_file("rcu-starved-6.1.log");
	expect("6.1 RCU stall, the kthread starved", "INFO: rcu detected stall in lkdtm_SOFTLOCKUP", 1, "RCU", NULL);
	feed_file("rcu-other-5.10.log");
	s = expect("5.10 RCU stall on another CPU", "INFO: rcu detected stall in spin_forever", 1, "RCU", NULL);
	ok(s && strcmp(s->module, "foo") == 0, "5.10 RCU stall: the other CPU's backtrace names it");
	feed_file("softlockup-6.1.log");
	expect("6.1 soft lockup", "BUG: soft lockup in lkdtm_SOFTLOCKUP", 1, "softlockup", NULL);
	expect_sig("6.1 soft lockup", "softlockup_panic", "", "softlockup_panic: BUG: soft lockup in lkdtm_SOFTLOCKUP");
	feed_file("hung-task-6.1.log");
	expect("6.1 hung task", "INFO: task hung in foo_flush_queue", 1, "hung_task", NULL);
	expect_sig("6.1 hung task", "hung_task_panic", "", "hung_task_panic: INFO: task hung in foo_flush_queue");
}

static void test_oopses(void)
{
	const struct ol_site *s;
	char budget[512];

	feed_file("bug-5.10.log");
	ok(sites.n == 1, "5.10 kernel BUG: the RIP after the end marker is no report");
	s = expect("5.10 kernel BUG", "kernel BUG in lkdtm_BUG", 1, "BUG", "oops_count");
	expect_where("5.10 kernel BUG", s, "drivers/misc/lkdtm/bugs.c:76");
	feed_file("bug-gpf-6.12.log");
	expect("6.12 kernel BUG (Oops: invalid opcode)", "kernel BUG in foo_check", 1, "BUG", "oops_count");
	expect("6.12 GPF (Oops: general protection fault)", "general protection fault in foo_probe", 1, "GPF",
	       "oops_count");
	ok(sites.n == 2, "6.12: KASAN's null-ptr-deref range line is no report");
	feed_file("page-fault-6.15.log");
	expect("6.15 NULL dereference", "BUG: unable to handle kernel NULL pointer dereference in foo_notify", 1, "page fault",
	       "oops_count");
	expect("6.15 page fault", "BUG: unable to handle kernel paging request in percpu_counter_destroy_many", 1, "page fault",
	       "oops_count");
	feed_file("oops-limit-6.1.log");
	expect("6.1 oops_limit", "BUG: unable to handle kernel NULL pointer dereference in lkdtm_WRITE_KERN", 2, "page fault",
	       "oops_count");
	expect("6.1 oops_limit", "kernel BUG in lkdtm_BUG", 1, "BUG", "oops_count");
	s = expect("6.1 oops after the panic", "general protection fault in other_cpu_fn", 0, "GPF", "oops_count");
	ok(s && s->after_panic == 1, "6.1 oops after the panic: counted apart");
	ok(sites.counted[1] == 3, "6.1 oops_limit: three counted before the panic");
	expect_sig("6.1 oops_limit", "oops_limit", "", "oops_limit: kernel BUG in lkdtm_BUG");
	ok(ol_sites_budget(&sites, "oops_count", budget, sizeof(budget)) == 3, "6.1 oops_limit: budget of 3");
	ok_got(strcmp(budget, "2x BUG: unable to handle kernel NULL pointer dereference in lkdtm_WRITE_KERN, "
		       "1x kernel BUG in lkdtm_BUG (drivers/misc/lkdtm/bugs.c:76)") == 0,
	       "6.1 oops_limit: how the budget was spent", budget);
}

static void test_budget(void)
{
	char budget[512];

	feed_file("two-sites-6.1.log");
	ok(ol_sites_budget(&sites, "warn_count", budget, sizeof(budget)) == 3, "two sites: 3 counted");
	ok_got(strcmp(budget, "2x WARNING in foo (drivers/x.c:10), "
		       "1x UBSAN: shift-out-of-bounds in bar (drivers/x.c:20)") == 0,
	       "two sites: how the budget was spent", budget);
	expect_sig("two sites", "warn_limit", "kernel", "warn_limit: WARNING in foo");
	/* had UBSAN's report reached the limit, the message would name it */
	expect_sig("two sites, UBSAN's", "warn_limit", "UBSAN", "warn_limit: UBSAN: shift-out-of-bounds in bar");
	expect_sig("two sites, a reason no report decides", "sysrq", "", "sysrq");
	expect_sig("two sites, oops_limit without an oops in the log", "oops_limit", "", "oops_limit");
}

static void test_normalise(void)
{
	static const char *const cases[][2] = {
		{ "foo+0x12/0x40", "foo" },
		{ "foo.isra.0+0x12/0x40", "foo" },
		{ "bar.constprop.0.cold+0x1/0x2", "bar" },
		{ "baz.part.3+0x5/0x9", "baz" },
		{ "copy_process+0x1a2/0x1c40()", "copy_process" },
		{ "thread_return()", "thread_return" },
		{ "qux.llvm.1234567890+0x1/0x2", "qux" },
	};
	char out[OL_SITE_NAME], name[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ol_site_function(cases[i][0], strlen(cases[i][0]), out, sizeof(out));
		snprintf(name, sizeof(name), "function of '%s' is '%s'", cases[i][0], cases[i][1]);
		ok_got(strcmp(out, cases[i][1]) == 0, name, out);
	}
	ok(ol_site_generic("__asan_load8_noabort") && ol_site_generic("dump_stack_lvl") &&
	   ol_site_generic("refcount_warn_saturate") && ol_site_generic("__ubsan_handle_add_overflow"),
	   "frames.def: prefixes and exact names are generic");
	ok(!ol_site_generic("dumpster_fire") && !ol_site_generic("foo_put") && !ol_site_generic("diehard"),
	   "frames.def: an exact row is no prefix, the culprit is not generic");
}

/* More distinct sites than the table holds: the rest are counted, not lost silently. */
static void test_overflow(void)
{
	char line[160];
	int i;

	ol_sites_init(&sites);
	for (i = 0; i < OL_SITES + 8; i++) {
		snprintf(line, sizeof(line), "WARNING: CPU: 0 PID: 1 at drivers/x.c:%d f%d+0x1/0x2", i, i);
		ol_sites_line(&sites, line);
		ol_sites_line(&sites, "---[ end trace 0000000000000000 ]---");
	}
	ol_sites_line(&sites, "Kernel panic - not syncing: kernel: system warned too often (kernel.warn_limit is 40)");
	ol_sites_done(&sites);
	ok(sites.n == OL_SITES && sites.dropped == 8 && sites.events == OL_SITES + 8, "overflow: kept and dropped");
	expect_sig("overflow: the deciding report was not kept", "warn_limit", "kernel", "warn_limit");
	/* a garbled line: nothing, and no read past it */
	feed((const char *const[]){ "[", "[ 1.2", "<4", "WARNING: ", "RIP: ", "Oops: [#", " [#1]", "kernel BUG at ",
				    "[  1.0][ T] Call Trace:", NULL });
	ok(sites.n <= 2, "garbled lines: no crash");
}

/* The recorder's parent takes the sites from its reading child only when they hold. */
static void test_valid(void)
{
	static const char forged_origin[] = "WARN";
	/* each a change to a real log's sites, in the order of the switch below */
	static const struct {
		const char *what;
		bool holds;
	} cases[] = {
		{ "valid: more sites than the list holds", false },
		{ "valid: a title without its terminator", false },
		{ "valid: an origin that points elsewhere, though it says WARN", false },
		{ "valid: a site that counts in neither counter", true },
		{ "valid: a last site past the list", false },
		{ "valid: a last site of an origin below -1", false },
		{ "valid: an open report's shape past reports.def", false },
		{ "valid: a class out of range", false },
		{ "valid: more frames kept than a site holds", false },
		{ "valid: a first site past the list", false },
	};
	struct ol_sites copy;
	const char *why;
	size_t i;

	feed_file("warn-5.10-interleaved.log");
	why = ol_sites_valid(&sites);
	ok_got(!why, "valid: the sites of a real log hold", why);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		copy = sites;
		switch (i) {
		case 0: copy.n = OL_SITES + 1; break;
		case 1: memset(copy.site[0].title, 'x', sizeof(copy.site[0].title)); break;
		case 2: copy.site[1].origin = forged_origin; break;
		case 3: copy.site[0].counts = NULL; break;
		case 4: copy.last[0] = (int)copy.n; break;
		case 5: copy.last_origin[0] = -2; break;
		case 6: copy.ev[3].shape = (int)ol_nshapes; break;
		case 7: copy.site[0].class = OL_NCLASSES; break;
		case 8: copy.site[0].nframes = OL_SITE_FRAMES + 1; break;
		case 9: copy.first[1] = (int)copy.n; break;
		}
		ok((ol_sites_valid(&copy) == NULL) == cases[i].holds, cases[i].what);
	}
}

/* "# SITE: COUNT | TITLE | ORIGIN | COUNTS | WHERE" for each site of the log fed: a fixture's header */
static void print_sites(FILE *out)
{
	unsigned int i;

	for (i = 0; i < sites.n; i++)
		fprintf(out, "# SITE: %lu | %s | %s | %s | %s\n", sites.site[i].count, sites.site[i].title,
			sites.site[i].origin, sites.site[i].counts ? sites.site[i].counts : "-",
			sites.site[i].where[0] ? sites.site[i].where : "-");
}

/*
 * Every file of tests/unit/reports: its header's SITE lines are the sites
 * the log must give, all of them, in order (print_sites()'s form); its
 * SIGNATURE lines, "REASON | ORIGIN | SIGNATURE", the signature a panic of
 * that reason (and warning origin, "-" for none) must get.
 */
static void test_fixtures(void)
{
	char path[4400], header[8192], want[8192], got[8192], name[4400], *line, *save;
	struct dirent **list;
	int n, i;
	FILE *mem;

	n = scandir(data_dir, &list, NULL, alphasort);
	ok_got(n > 2, "the fixtures of tests/unit/reports", data_dir);
	for (i = 0; i < n; i++) {
		const char *f = list[i]->d_name;
		size_t len = strlen(f);

		if (len < 5 || strcmp(f + len - 4, ".log") != 0) {
			free(list[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", data_dir, f);
		if (!feed_path(path, header, sizeof(header))) {
			ok_got(false, "read the fixture", path);
			free(list[i]);
			continue;
		}
		want[0] = '\0';
		for (line = strtok_r(header, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "# SITE: ", 8) == 0) {
				strncat(want, line, sizeof(want) - strlen(want) - 2);
				strcat(want, "\n");
			} else if (strncmp(line, "# SIGNATURE: ", 13) == 0) {
				char reason[64], origin[64], sig[256], expected[256];

				if (sscanf(line + 13, "%63[^ |] | %63[^|] | %255[^\n]", reason, origin, expected) != 3) {
					snprintf(name, sizeof(name), "%s: a SIGNATURE line of three fields", f);
					ok_got(false, name, line);
					continue;
				}
				origin[strcspn(origin, " ")] = '\0';
				ol_signature(sig, sizeof(sig), reason,
					     ol_sites_deciding(&sites, reason, strcmp(origin, "-") ? origin : ""));
				snprintf(name, sizeof(name), "%s: the signature of a %s panic", f, reason);
				ok_got(strcmp(sig, expected) == 0, name, sig);
			}
		}
		mem = fmemopen(got, sizeof(got), "w");
		if (mem) {
			print_sites(mem);
			fclose(mem);
		}
		snprintf(name, sizeof(name), "%s: its sites are the header's", f);
		ok_got(mem && want[0] && strcmp(got, want) == 0, name, got);
		free(list[i]);
	}
	free(list);
}

int main(int argc, char **argv)
{
	find_data_dir();
	/* --sites FILE: the SITE lines of a new fixture's header, to review */
	if (argc == 3 && strcmp(argv[1], "--sites") == 0) {
		if (!feed_path(argv[2], NULL, 0)) {
			fprintf(stderr, "sites-test: cannot read %s\n", argv[2]);
			return EXIT_FAILURE;
		}
		print_sites(stdout);
		return EXIT_SUCCESS;
	}
	test_fixtures();
	test_warn();
	test_warn_shapes();
	test_sanitizers();
	test_not_counted();
	test_oopses();
	test_budget();
	test_normalise();
	test_overflow();
	test_valid();
	return tap_done();
}
