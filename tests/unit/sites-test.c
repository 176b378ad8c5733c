// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for common/sites.c, sites-frames.c and sites-decide.c: the
 * warning and oops sites of a log, the guilty frame through
 * common/frames.def, and the signature.  Each log is
 * in the shape a kernel line prints (its comment names the kernel and the
 * function that prints it); the example values (functions, paths, PIDs)
 * are made up, the layout is the kernel's.  TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/sites.h"
#include "tap.h"

static struct ol_sites sites;

static void feed(const char *const *lines)
{
	ol_sites_init(&sites);
	for (; *lines; lines++)
		ol_sites_line(&sites, *lines);
	ol_sites_done(&sites);
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

/* Debian 6.1.192, kernel/panic.c __warn() from lkdtm; the project's warn_limit guest. */
static const char *const warn_61[] = {
	"[    3.401234] lkdtm: Performing direct entry WARNING",
	"[    3.401240] ------------[ cut here ]------------",
	"[    3.401251] WARNING: CPU: 0 PID: 61 at ../linux/drivers/misc/lkdtm/bugs.c:85 lkdtm_WARNING+0x15/0x20 [lkdtm]",
	"[    3.401300] Modules linked in: lkdtm",
	"[    3.401310] CPU: 0 PID: 61 Comm: sh Not tainted 6.1.192 #1",
	"[    3.401320] RIP: 0010:lkdtm_WARNING+0x15/0x20 [lkdtm]",
	"[    3.401330] Call Trace:",
	"[    3.401331]  <TASK>",
	"[    3.401332]  lkdtm_do_action+0x19/0x30 [lkdtm]",
	"[    3.401333]  direct_entry+0xd6/0x110 [lkdtm]",
	"[    3.401334]  full_proxy_write+0x54/0x80",
	"[    3.401335]  </TASK>",
	"[    3.401340] ---[ end trace 0000000000000000 ]---",
	"[    3.701240] ------------[ cut here ]------------",
	"[    3.701251] WARNING: CPU: 1 PID: 62 at ../linux/drivers/misc/lkdtm/bugs.c:85 lkdtm_WARNING+0x15/0x20 [lkdtm]",
	"[    3.701330] Call Trace:",
	"[    3.701331]  <TASK>",
	"[    3.701332]  lkdtm_do_action+0x19/0x30 [lkdtm]",
	"[    3.704610] Kernel panic - not syncing: kernel: system warned too often (kernel.warn_limit is 2)",
	NULL,
};

static void test_warn(void)
{
	const struct ol_site *s;

	feed(warn_61);
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

/*
 * v6.19 __warn(): "WARNING: FILE:LINE at FUNC, CPU#N: comm/pid", no "CPU: N
 * PID: N"; the function is __flush_work (frames.def), so the caller is
 * guilty; "? " frames are stale words on the stack.
 */
static const char *const warn_619[] = {
	"[    9.271297] WARNING: kernel/workqueue.c:4289 at __flush_work+0x4f9/0x550, CPU#3: kworker/3:2/136",
	"[    9.271300] Modules linked in: foo(O)",
	"[    9.271310] CPU: 3 UID: 0 PID: 136 Comm: kworker/3:2 Tainted: G           O       6.19.0 #1 PREEMPT(voluntary)",
	"[    9.271320] RIP: 0010:__flush_work+0x4f9/0x550",
	"[    9.271330] Call Trace:",
	"[    9.271331]  <TASK>",
	"[    9.271332]  ? __warn+0x7d/0x130",
	"[    9.271333]  ? __flush_work+0x4f9/0x550",
	"[    9.271334]  ? report_bug+0x18e/0x1a0",
	"[    9.271335]  ? handle_bug+0x3c/0x70",
	"[    9.271336]  ? exc_invalid_op+0x14/0x70",
	"[    9.271337]  ? asm_exc_invalid_op+0x16/0x20",
	"[    9.271338]  flush_work+0x10/0x20",
	"[    9.271339]  foo_sync.constprop.0+0x2a/0x60 [foo]",
	"[    9.271340]  process_one_work+0x1d3/0x3c0",
	"[    9.271341]  </TASK>",
	"[    9.271350] ---[ end trace 0000000000000000 ]---",
	"[    9.300000] WARNING: [ptr == 0 && 1] kernel/sched/core.c:8511 at sched_init+0x20/0x410, CPU#0: swapper/0/0",
	"[    9.300010] ---[ end trace 0000000000000000 ]---",
	NULL,
};

/*
 * 5.10 with CONFIG_PRINTK_CALLER (kernel/printk/printk.c info_print_prefix(),
 * "[%5lu.%06lu][%6s]"): refcount_warn_saturate() warns for its caller
 * (lib/refcount.c); two tasks' reports interleave line by line, and the
 * module build id (5.14+ CONFIG_STACKTRACE_BUILD_ID) follows the module.
 */
static const char *const interleaved_510[] = {
	"[  100.100000][  T345] ------------[ cut here ]------------",
	"[  100.100001][  T346] ------------[ cut here ]------------",
	"[  100.100002][  T345] refcount_t: underflow; use-after-free.",
	"[  100.100003][  T345] WARNING: CPU: 1 PID: 345 at lib/refcount.c:28 refcount_warn_saturate+0xba/0x110",
	"[  100.100004][  T346] WARNING: CPU: 0 PID: 346 at drivers/net/bar.c:77 bar_xmit.isra.0+0x44/0x90 [bar]",
	"[  100.100005][  T345] RIP: 0010:refcount_warn_saturate+0xba/0x110",
	"[  100.100006][  T346] RIP: 0010:bar_xmit.isra.0+0x44/0x90 [bar]",
	"[  100.100007][  T345] Call Trace:",
	"[  100.100008][  T346] Call Trace:",
	"[  100.100009][  T345]  foo_put.part.0+0x3c/0x50 [foo 0123456789abcdef0123456789abcdef01234567]",
	"[  100.100010][  T346]  dev_hard_start_xmit+0x8f/0x1f0",
	"[  100.100011][  T345]  foo_release+0x20/0x40 [foo 0123456789abcdef0123456789abcdef01234567]",
	"[  100.100012][  T345] ---[ end trace 2d5f4b0d3e1a9c77 ]---",
	"[  100.100013][  T346] ---[ end trace 2d5f4b0d3e1a9c78 ]---",
	NULL,
};

/* The same two bugs on another host: other CPUs, PIDs, offsets, stamps, no caller id. */
static const char *const interleaved_other_host[] = {
	"[ 7000.000001] refcount_t: underflow; use-after-free.",
	"[ 7000.000002] WARNING: CPU: 7 PID: 9911 at lib/refcount.c:28 refcount_warn_saturate+0xaa/0x100",
	"[ 7000.000003] Call Trace:",
	"[ 7000.000004]  foo_put.part.0+0x30/0x48 [foo fedcba9876543210fedcba9876543210fedcba98]",
	"[ 7000.000005] ---[ end trace 0000000000000000 ]---",
	"[ 7000.100001] Kernel panic - not syncing: kernel: system warned too often (kernel.warn_limit is 1)",
	NULL,
};

/* pstore, journal or dmesg -t: no time stamps at all. */
static const char *const no_stamps[] = {
	"------------[ cut here ]------------",
	"WARNING: CPU: 0 PID: 1 at fs/inode.c:417 drop_nlink+0xc4/0x110",
	"Call Trace:",
	" vfs_unlink+0x1a0/0x2a0",
	"---[ end trace 0000000000000000 ]---",
	NULL,
};

static void test_warn_shapes(void)
{
	const struct ol_site *s;
	char sig[2][256];

	feed(warn_619);
	s = expect("6.19 WARN", "WARNING in foo_sync", 1, "WARN", "warn_count");
	if (s) {
		expect_where("6.19 WARN", s, "kernel/workqueue.c:4289");
		ok_got(strcmp(s->module, "foo") == 0, "6.19 WARN: the caller's module", s->module);
	}
	expect("6.19 WARN with a condition", "WARNING in sched_init", 1, "WARN", "warn_count");

	feed(interleaved_510);
	ok(sites.n == 2, "5.10 interleaved: two sites");
	s = expect("5.10 interleaved", "WARNING in foo_put", 1, "WARN", "warn_count");
	if (s) {
		expect_where("5.10 interleaved", s, "lib/refcount.c:28");
		ok_got(strcmp(s->module, "foo") == 0, "5.10 interleaved: module without its build id", s->module);
	}
	expect("5.10 interleaved", "WARNING in bar_xmit", 1, "WARN", "warn_count");
	ol_signature(sig[0], sizeof(sig[0]), "warn_limit", site("WARNING in foo_put"));
	feed(interleaved_other_host);
	ol_signature(sig[1], sizeof(sig[1]), "warn_limit", ol_sites_deciding(&sites, "warn_limit", "kernel"));
	ok_got(strcmp(sig[0], sig[1]) == 0, "the same bug on two hosts: one signature", sig[1]);

	feed(no_stamps);
	s = expect("no stamps", "WARNING in drop_nlink", 1, "WARN", "warn_count");
	ok(s && !s->have_time, "no stamps: no time");
}

/*
 * 6.1 mm/kasan/report.c: between two rules, "BUG: KASAN: <kind> in
 * <func>", "Read of size N at addr ... by task ...", the trace from
 * dump_stack_lvl; here the access is in strlen(), a helper.
 */
static const char *const kasan_61[] = {
	"[   20.000000] ==================================================================",
	"[   20.000001] BUG: KASAN: slab-use-after-free in strlen+0x1e/0x30",
	"[   20.000002] Read of size 1 at addr ffff888003a4c010 by task cat/120",
	"[   20.000003] ",
	"[   20.000004] CPU: 0 PID: 120 Comm: cat Not tainted 6.1.192 #1",
	"[   20.000005] Call Trace:",
	"[   20.000006]  <TASK>",
	"[   20.000007]  dump_stack_lvl+0x34/0x48",
	"[   20.000008]  print_report+0x171/0x472",
	"[   20.000009]  kasan_report+0xad/0x130",
	"[   20.000010]  strlen+0x1e/0x30",
	"[   20.000011]  foo_name_show+0x2b/0x60 [foo]",
	"[   20.000012]  dev_attr_show+0x1e/0x50",
	"[   20.000013]  </TASK>",
	"[   20.000014] ==================================================================",
	NULL,
};

/* 5.10 lib/ubsan.c: the report between two rules, dump_stack() and the .cold handler. */
static const char *const ubsan_510[] = {
	"[   30.000000] ================================================================================",
	"[   30.000001] UBSAN: shift-out-of-bounds in drivers/foo/bar.c:20:9",
	"[   30.000002] shift exponent 40 is too large for 32-bit type 'int'",
	"[   30.000003] CPU: 1 PID: 130 Comm: provoke Not tainted 5.10.0-33-amd64 #1 Debian 5.10.226-1",
	"[   30.000004] Call Trace:",
	"[   30.000005]  dump_stack+0x6b/0x83",
	"[   30.000006]  ubsan_epilogue+0x5/0x40",
	"[   30.000007]  __ubsan_handle_shift_out_of_bounds.cold+0x61/0x10e",
	"[   30.000008]  bar_shift+0x52/0x60 [foo]",
	"[   30.000009]  bar_ioctl+0x20/0x40 [foo]",
	"[   30.000010] ================================================================================",
	NULL,
};

/* 6.5+ lib/ubsan.c: no rules, "---[ end trace ]---" (ubsan_epilogue()). */
static const char *const ubsan_66[] = {
	"[   31.000001] UBSAN: array-index-out-of-bounds in drivers/foo/bar.c:31:5",
	"[   31.000002] index 8 is out of range for type 'int [8]'",
	"[   31.000003] CPU: 0 PID: 131 Comm: provoke Not tainted 6.6.0 #1",
	"[   31.000004] Call Trace:",
	"[   31.000005]  <TASK>",
	"[   31.000006]  dump_stack_lvl+0x48/0x70",
	"[   31.000007]  __ubsan_handle_out_of_bounds+0xc6/0x100",
	"[   31.000008]  bar_index+0x40/0x50 [foo]",
	"[   31.000009]  </TASK>",
	"[   31.000010] ---[ end trace ]---",
	NULL,
};

/* 6.1 mm/kfence/report.c kfence_report_error(); KCSAN (kernel/kcsan/report.c); __schedule_bug(). */
static const char *const kfence_kcsan[] = {
	"[   40.000000] ==================================================================",
	"[   40.000001] BUG: KFENCE: out-of-bounds read in test_out_of_bounds_read+0xa6/0x234",
	"[   40.000002] ",
	"[   40.000003] Out-of-bounds read at 0xffff8c3f2e291fff (1B left of kfence-#72):",
	"[   40.000004]  test_out_of_bounds_read+0xa6/0x234",
	"[   40.000005] ==================================================================",
	"[   41.000000] ==================================================================",
	"[   41.000001] BUG: KCSAN: data-race in test_kernel_read / test_kernel_write",
	"[   41.000002] ==================================================================",
	"[   42.000001] BUG: scheduling while atomic: provoke/140/0x00000002",
	"[   42.000002] CPU: 0 PID: 140 Comm: provoke Not tainted 6.1.192 #1",
	"[   42.000003] Call Trace:",
	"[   42.000004]  <TASK>",
	"[   42.000005]  dump_stack_lvl+0x44/0x5c",
	"[   42.000006]  __schedule_bug.cold+0x47/0x53",
	"[   42.000007]  __schedule+0x5bc/0x6c0",
	"[   42.000008]  schedule+0x5d/0xe0",
	"[   42.000009]  foo_wait_atomic+0x30/0x50 [foo]",
	"[   42.000010]  </TASK>",
	NULL,
};

static void test_sanitizers(void)
{
	const struct ol_site *s;

	feed(kasan_61);
	s = expect("6.1 KASAN", "KASAN: slab-use-after-free Read in foo_name_show", 1, "KASAN", "warn_count");
	ok(s && strcmp(s->module, "foo") == 0, "6.1 KASAN: the module of the frame past strlen");
	expect_sig("6.1 KASAN", "kasan_fault", "", "kasan_fault: KASAN: slab-use-after-free Read in foo_name_show");

	feed(ubsan_510);
	s = expect("5.10 UBSAN", "UBSAN: shift-out-of-bounds in bar_shift", 1, "UBSAN", "warn_count");
	expect_where("5.10 UBSAN", s, "drivers/foo/bar.c:20");
	ok(sites.n == 1, "5.10 UBSAN: the closing rule is no report");

	feed(ubsan_66);
	expect("6.6 UBSAN", "UBSAN: array-index-out-of-bounds in bar_index", 1, "UBSAN", "warn_count");

	feed(kfence_kcsan);
	expect("KFENCE", "KFENCE: out-of-bounds read in test_out_of_bounds_read", 1, "KFENCE", "warn_count");
	expect("KCSAN", "KCSAN: data-race in test_kernel_read", 1, "KCSAN", "warn_count");
	expect("scheduling while atomic", "BUG: scheduling while atomic in foo_wait_atomic", 1,
	       "scheduling while atomic", "warn_count");
}

/*
 * 6.1 kernel/locking/lockdep.c print_circular_bug_header() and
 * print_circular_bug(): the lock being taken ", at: <caller>"; the
 * backtrace runs through lockdep and the mutex code.
 */
static const char *const lockdep_61[] = {
	"[   50.000000] ======================================================",
	"[   50.000001] WARNING: possible circular locking dependency detected",
	"[   50.000002] 6.1.192 #1 Not tainted",
	"[   50.000003] ------------------------------------------------------",
	"[   50.000004] provoke/150 is trying to acquire lock:",
	"[   50.000005] ffff888004a1c0b8 (&b->lock){+.+.}-{3:3}, at: foo_second+0x1a/0x40 [foo]",
	"[   50.000006] ",
	"[   50.000007] but task is already holding lock:",
	"[   50.000008] ffff888004a1c078 (&a->lock){+.+.}-{3:3}, at: foo_first+0x12/0x40 [foo]",
	"[   50.000009] stack backtrace:",
	"[   50.000010] CPU: 0 PID: 150 Comm: provoke Not tainted 6.1.192 #1",
	"[   50.000011] Call Trace:",
	"[   50.000012]  <TASK>",
	"[   50.000013]  dump_stack_lvl+0x44/0x5c",
	"[   50.000014]  check_noncircular+0x11e/0x130",
	"[   50.000015]  __lock_acquire+0x1144/0x1f20",
	"[   50.000016]  lock_acquire+0xc2/0x2c0",
	"[   50.000017]  __mutex_lock+0x9a/0x9a0",
	"[   50.000018]  foo_second+0x1a/0x40 [foo]",
	"[   50.000019]  </TASK>",
	NULL,
};

/*
 * 6.1 kernel/rcu/tree_stall.h print_cpu_stall(): the stalled CPU's own
 * trace, the timer interrupt (<IRQ>) over the interrupted code (RIP).
 */
static const char *const rcu_self_61[] = {
	"[   60.000001] rcu: INFO: rcu_preempt self-detected stall on CPU",
	"[   60.000002] rcu: \t0-....: (21000 ticks this GP) idle=b8c/1/0x4000000000000000 softirq=300/300 fqs=5000",
	"[   60.000003] \t(t=21001 jiffies g=900 q=20 ncpus=2)",
	"[   60.000004] CPU: 0 PID: 160 Comm: provoke Not tainted 6.1.192 #1",
	"[   60.000005] RIP: 0010:foo_spin+0x10/0x20 [foo]",
	"[   60.000006] Call Trace:",
	"[   60.000007]  <IRQ>",
	"[   60.000008]  rcu_dump_cpu_stacks+0xd5/0x110",
	"[   60.000009]  rcu_sched_clock_irq+0x4b8/0xb90",
	"[   60.000010]  update_process_times+0x5c/0x90",
	"[   60.000011]  </IRQ>",
	"[   60.000012]  <TASK>",
	"[   60.000013]  foo_spin+0x10/0x20 [foo]",
	"[   60.000014]  </TASK>",
	"[   60.100000] Kernel panic - not syncing: RCU Stall",
	NULL,
};

/*
 * 5.10 print_other_cpu_stall() with caller ids: the report on CPU 1, the
 * stalled CPU 0's NMI backtrace (lib/nmi_backtrace.c) under its own id.
 */
static const char *const rcu_other_510[] = {
	"[   61.000001][    C1] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:",
	"[   61.000002][    C1] rcu: \t0-...!: (1 GPs behind) idle=7d2/1/0x4000000000000000 softirq=0/0 fqs=0",
	"[   61.000003][    C1] \t(detected by 1, t=21002 jiffies, g=1201, q=10)",
	"[   61.000004][    C1] Sending NMI from CPU 1 to CPUs 0:",
	"[   61.000005][    C0] NMI backtrace for cpu 0",
	"[   61.000006][    C0] CPU: 0 PID: 161 Comm: provoke Not tainted 5.10.0-33-amd64 #1 Debian 5.10.226-1",
	"[   61.000007][    C0] RIP: 0010:spin_forever.constprop.0+0x8/0x10 [foo]",
	NULL,
};

/* 6.1 kernel/watchdog.c watchdog_timer_fn(): RIP is the stuck code. */
static const char *const softlockup_61[] = {
	"[   70.000001] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [provoke:170]",
	"[   70.000002] Modules linked in: lkdtm",
	"[   70.000003] CPU: 0 PID: 170 Comm: provoke Not tainted 6.1.192 #1",
	"[   70.000004] RIP: 0010:lkdtm_SOFTLOCKUP+0x1a/0x30 [lkdtm]",
	"[   70.000005] Call Trace:",
	"[   70.000006]  <TASK>",
	"[   70.000007]  lkdtm_do_action+0x19/0x30 [lkdtm]",
	"[   70.000008]  </TASK>",
	"[   70.000009] Kernel panic - not syncing: softlockup: hung tasks",
	NULL,
};

/* 6.1 kernel/hung_task.c check_hung_task() and sched_show_task(). */
static const char *const hung_61[] = {
	"[  130.000001] INFO: task provoke:180 blocked for more than 120 seconds.",
	"[  130.000002]       Not tainted 6.1.192 #1",
	"[  130.000003] \"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables this message.",
	"[  130.000004] task:provoke         state:D stack:0     pid:180   ppid:1      flags:0x00004002",
	"[  130.000005] Call Trace:",
	"[  130.000006]  <TASK>",
	"[  130.000007]  __schedule+0x34d/0x9e0",
	"[  130.000008]  schedule+0x5a/0xd0",
	"[  130.000009]  schedule_timeout+0x118/0x150",
	"[  130.000010]  wait_for_completion+0x86/0x160",
	"[  130.000011]  foo_wait_done+0x2a/0x40 [foo]",
	"[  130.000012]  </TASK>",
	"[  130.000013] Kernel panic - not syncing: hung_task: blocked tasks",
	NULL,
};

/*
 * 6.1 kernel/sched/core.c __might_resched() (CONFIG_DEBUG_ATOMIC_SLEEP):
 * mutex_lock()'s might_sleep() under a spinlock.  The FILE:LINE is the
 * might_sleep() call's, in mutex_lock(); the stack goes through the checker
 * and mutex_lock() to the driver that held the lock.  It taints the kernel
 * W but does not count in warn_count.  print_preempt_disable_ip() prints
 * its "[<address>] symbol" line as a record of its own.
 */
static const char *const might_sleep_61[] = {
	"[   41.100000] BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580",
	"[   41.100010] in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 812, name: foo-write",
	"[   41.100020] preempt_count: 1, expected: 0",
	"[   41.100030] RCU nest depth: 0, expected: 0",
	"[   41.100040] Preemption disabled at:",
	"[   41.100041] [<ffffffffc0a2104b>] foo_write+0x2b/0x90 [foo]",
	"[   41.100050] CPU: 1 PID: 812 Comm: foo-write Tainted: G           O       6.1.0-57-amd64 #1  Debian 6.1.192-3",
	"[   41.100060] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014",
	"[   41.100070] Call Trace:",
	"[   41.100071]  <TASK>",
	"[   41.100072]  dump_stack_lvl+0x44/0x5c",
	"[   41.100073]  __might_resched.cold+0xcc/0xdf",
	"[   41.100074]  mutex_lock+0x1a/0x40",
	"[   41.100075]  foo_write+0x3e/0x90 [foo]",
	"[   41.100076]  vfs_write+0xc7/0x3c0",
	"[   41.100077]  ksys_write+0x5f/0xe0",
	"[   41.100078]  do_syscall_64+0x58/0xc0",
	"[   41.100079]  entry_SYSCALL_64_after_hwframe+0x64/0xce",
	"[   41.100080]  </TASK>",
	NULL,
};

/*
 * 7.2 (kernel/panic.c __warn(), the format since 6.19, read from the
 * strings of Debian's 7.2.13 vmlinux): "WARNING: at %pS, CPU#%d: %s/%d"
 * when the WARN has no file:line (CONFIG_DEBUG_BUGVERBOSE off), then the
 * usual body.
 */
static const char *const warn_72_nofile[] = {
	"[   12.500000] ------------[ cut here ]------------",
	"[   12.500010] WARNING: at bar_reset+0x31/0x80 [bar], CPU#0: kworker/0:1/57",
	"[   12.500020] Modules linked in: bar(O)",
	"[   12.500030] CPU: 0 UID: 0 PID: 57 Comm: kworker/0:1 Tainted: G           O        7.2.13+deb14-amd64 #1 PREEMPT(lazy)  Debian 7.2.13-1",
	"[   12.500040] RIP: 0010:bar_reset+0x31/0x80 [bar]",
	"[   12.500050] Call Trace:",
	"[   12.500051]  <TASK>",
	"[   12.500052]  bar_work+0x15/0x30 [bar]",
	"[   12.500053]  process_one_work+0x17b/0x330",
	"[   12.500054]  </TASK>",
	"[   12.500060] ---[ end trace 0000000000000000 ]---",
	NULL,
};

/*
 * 6.1 print_other_cpu_stall() on one CPU, from a real capture (the
 * kdump-panic-on-rcu-stall scenario): the grace-period kthread starved,
 * its own stack dumped first (it only waits), then "Stack dump where RCU GP
 * kthread last ran", whose RIP is the code that held the CPU.
 */
static const char *const rcu_starved_61[] = {
	"[    7.582600] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:",
	"[    7.582958] \t(detected by 0, t=752 jiffies, g=549, q=35 ncpus=1)",
	"[    7.583187] rcu: All QSes seen, last rcu_sched kthread activity 752 (4294894118-4294893366), jiffies_till_next_fqs=1, root ->qsmask 0x0",
	"[    7.583365] rcu: rcu_sched kthread starved for 752 jiffies! g549 f0x2 RCU_GP_WAIT_FQS(5) ->state=0x0 ->cpu=0",
	"[    7.583537] rcu: \tUnless rcu_sched kthread gets sufficient CPU time, OOM is now expected behavior.",
	"[    7.583598] rcu: RCU grace-period kthread stack dump:",
	"[    7.583701] task:rcu_sched       state:R  running task     stack:0     pid:11    ppid:2      flags:0x00004000",
	"[    7.584009] Call Trace:",
	"[    7.584104]  <TASK>",
	"[    7.584267]  __schedule+0x3a1/0x3e8",
	"[    7.584487]  schedule+0x7d/0xaa",
	"[    7.584519]  schedule_timeout+0xa2/0xc4",
	"[    7.584564]  ? enqueue_timer+0x4a/0x4a",
	"[    7.584604]  rcu_gp_fqs_loop+0x10e/0x326",
	"[    7.584674]  rcu_gp_kthread+0xb7/0xd3",
	"[    7.584705]  kthread+0xa5/0xad",
	"[    7.584815]  ret_from_fork+0x1f/0x30",
	"[    7.584887]  </TASK>",
	"[    7.584939] rcu: Stack dump where RCU GP kthread last ran:",
	"[    7.585079] CPU: 0 PID: 182 Comm: provoke Kdump: loaded Not tainted 6.1.192 #1 ",
	"[    7.585211] RIP: 0010:lkdtm_SOFTLOCKUP+0x2/0x4",
	"[    7.586033] Call Trace:",
	"[    7.586128]  <TASK>",
	"[    7.586146]  direct_entry+0xa5/0xbb",
	"[    7.586185]  full_proxy_write+0x3e/0x59",
	"[    7.586419]  </TASK>",
	NULL,
};

static void test_not_counted(void)
{
	const struct ol_site *s;

	feed(might_sleep_61);
	s = expect("6.1 might_sleep", "BUG: sleeping function called from invalid context in foo_write", 1,
		   "might_sleep", NULL);
	expect_where("6.1 might_sleep", s, "kernel/locking/mutex.c:580");
	ok_got(s && strcmp(s->module, "foo") == 0, "6.1 might_sleep: the driver's module, past mutex_lock",
	       s ? s->module : NULL);
	ok(sites.n == 1 && sites.counted[0] == 0, "6.1 might_sleep: one site, counted in neither counter");
	feed(warn_72_nofile);
	s = expect("7.2 WARN without file:line", "WARNING in bar_reset", 1, "WARN", "warn_count");
	expect_where("7.2 WARN without file:line", s, "");
	expect_sig("7.2 WARN", "warn_limit", "kernel", "warn_limit: WARNING in bar_reset");
	feed(lockdep_61);
	expect("6.1 lockdep", "possible deadlock in foo_second", 1, "lockdep", NULL);
	ok(sites.counted[0] == 0, "6.1 lockdep: counts in neither counter");
	feed(rcu_self_61);
	expect("6.1 RCU self-detected stall", "INFO: rcu detected stall in foo_spin", 1, "RCU", NULL);
	expect_sig("6.1 RCU stall", "panic_on_rcu_stall", "", "panic_on_rcu_stall: INFO: rcu detected stall in foo_spin");
	feed(rcu_starved_61);
	expect("6.1 RCU stall, the kthread starved", "INFO: rcu detected stall in lkdtm_SOFTLOCKUP", 1, "RCU", NULL);
	feed(rcu_other_510);
	s = expect("5.10 RCU stall on another CPU", "INFO: rcu detected stall in spin_forever", 1, "RCU", NULL);
	ok(s && strcmp(s->module, "foo") == 0, "5.10 RCU stall: the other CPU's backtrace names it");
	feed(softlockup_61);
	expect("6.1 soft lockup", "BUG: soft lockup in lkdtm_SOFTLOCKUP", 1, "softlockup", NULL);
	expect_sig("6.1 soft lockup", "softlockup_panic", "", "softlockup_panic: BUG: soft lockup in lkdtm_SOFTLOCKUP");
	feed(hung_61);
	expect("6.1 hung task", "INFO: task hung in foo_wait_done", 1, "hung_task", NULL);
	expect_sig("6.1 hung task", "hung_task_panic", "", "hung_task_panic: INFO: task hung in foo_wait_done");
}

/* 5.10 lib/bug.c report_bug() "kernel BUG at", then __die_header()'s "invalid opcode". */
static const char *const bug_510[] = {
	"[   80.000001] kernel BUG at drivers/misc/lkdtm/bugs.c:76!",
	"[   80.000002] invalid opcode: 0000 [#1] SMP NOPTI",
	"[   80.000003] CPU: 0 PID: 190 Comm: provoke Not tainted 5.10.0-33-amd64 #1 Debian 5.10.226-1",
	"[   80.000004] RIP: 0010:lkdtm_BUG+0x5/0x10 [lkdtm]",
	"[   80.000005] Call Trace:",
	"[   80.000006]  lkdtm_do_action+0x19/0x30 [lkdtm]",
	"[   80.000007] ---[ end trace 6a7f8e1b2c3d4e5f ]---",
	"[   80.000008] RIP: 0010:lkdtm_BUG+0x5/0x10 [lkdtm]",
	NULL,
};

/* 6.10+ __die_header() prefixes "Oops: ": "Oops: invalid opcode", "Oops: general protection fault". */
static const char *const bug_gpf_612[] = {
	"[   81.000001] kernel BUG at mm/foo.c:12!",
	"[   81.000002] Oops: invalid opcode: 0000 [#1] PREEMPT SMP NOPTI",
	"[   81.000003] CPU: 1 UID: 0 PID: 191 Comm: provoke Not tainted 6.12.57+deb13-amd64 #1 Debian 6.12.57-1",
	"[   81.000004] RIP: 0010:foo_check+0x5/0x10",
	"[   81.000005] ---[ end trace 0000000000000000 ]---",
	"[   82.000001] Oops: general protection fault, probably for non-canonical address 0xdffffc0000000001: 0000 [#2] PREEMPT SMP KASAN NOPTI",
	"[   82.000002] KASAN: null-ptr-deref in range [0x0000000000000008-0x000000000000000f]",
	"[   82.000003] CPU: 0 UID: 0 PID: 192 Comm: provoke Tainted: G      D            6.12.57+deb13-amd64 #1",
	"[   82.000004] Tainted: [D]=DIE",
	"[   82.000005] RIP: 0010:foo_probe.constprop.0+0x4c/0x90 [foo]",
	"[   82.000006] ---[ end trace 0000000000000000 ]---",
	NULL,
};

/*
 * 6.15 arch/x86/mm/fault.c page_fault_oops(): "BUG: kernel NULL pointer
 * dereference", "#PF:" lines, "Oops: Oops: 0010 [#1]"; a call through a
 * NULL pointer has RIP 0x0; a fault in kasan_check_range() names its
 * caller below the fault frames.  CONFIG_PRINTK_CALLER ids.
 */
static const char *const pf_615[] = {
	"[   90.000001][  T201] BUG: kernel NULL pointer dereference, address: 0000000000000000",
	"[   90.000002][  T201] #PF: supervisor instruction fetch in kernel mode",
	"[   90.000003][  T201] #PF: error_code(0x0010) - not-present page",
	"[   90.000004][  T201] PGD 0 P4D 0",
	"[   90.000005][  T201] Oops: Oops: 0010 [#1] SMP NOPTI",
	"[   90.000006][  T201] CPU: 0 UID: 0 PID: 201 Comm: provoke Not tainted 6.15.0 #1 PREEMPT(voluntary)",
	"[   90.000007][  T201] RIP: 0010:0x0",
	"[   90.000008][  T201] Code: Unable to access opcode bytes at 0xffffffffffffffd6.",
	"[   90.000009][  T201] Call Trace:",
	"[   90.000010][  T201]  <TASK>",
	"[   90.000011][  T201]  ? __die+0x1f/0x70",
	"[   90.000012][  T201]  ? page_fault_oops+0x15a/0x460",
	"[   90.000013][  T201]  ? exc_page_fault+0x6e/0x170",
	"[   90.000014][  T201]  ? asm_exc_page_fault+0x26/0x30",
	"[   90.000015][  T201]  foo_notify+0x21/0x40 [foo]",
	"[   90.000016][  T201]  </TASK>",
	"[   90.000017][  T201] ---[ end trace 0000000000000000 ]---",
	"[   91.000001][  T202] BUG: unable to handle page fault for address: ffe21c00131f5000",
	"[   91.000002][  T202] #PF: supervisor read access in kernel mode",
	"[   91.000003][  T202] Oops: Oops: 0000 [#2] SMP KASAN NOPTI",
	"[   91.000004][  T202] RIP: 0010:kasan_check_range+0x161/0x1c0",
	"[   91.000005][  T202] Call Trace:",
	"[   91.000006][  T202]  <TASK>",
	"[   91.000007][  T202]  __die+0x1f/0x70",
	"[   91.000008][  T202]  page_fault_oops+0x2cd/0x860",
	"[   91.000009][  T202]  exc_page_fault+0x128/0x150",
	"[   91.000010][  T202]  asm_exc_page_fault+0x26/0x30",
	"[   91.000011][  T202]  kasan_check_range+0x161/0x1c0",
	"[   91.000012][  T202]  percpu_counter_destroy_many+0xf7/0x2a0",
	"[   91.000013][  T202]  </TASK>",
	NULL,
};

/*
 * 6.1 kernel/exit.c make_task_dead(): the third oops reaches oops_limit 3;
 * the panic stops the other CPU, whose oops is already on its way (after
 * the panic line: it decided nothing).  5.10-style headers ("Oops: 0002").
 */
static const char *const oops_limit_61[] = {
	"[  100.000001] BUG: kernel NULL pointer dereference, address: 0000000000000000",
	"[  100.000002] Oops: 0002 [#1] PREEMPT SMP NOPTI",
	"[  100.000003] RIP: 0010:lkdtm_WRITE_KERN+0x2/0x10 [lkdtm]",
	"[  100.000004] ---[ end trace 0000000000000000 ]---",
	"[  101.000001] BUG: kernel NULL pointer dereference, address: 0000000000000000",
	"[  101.000002] Oops: 0002 [#2] PREEMPT SMP NOPTI",
	"[  101.000003] RIP: 0010:lkdtm_WRITE_KERN+0x2/0x10 [lkdtm]",
	"[  101.000004] ---[ end trace 0000000000000000 ]---",
	"[  102.000001] kernel BUG at drivers/misc/lkdtm/bugs.c:76!",
	"[  102.000002] invalid opcode: 0000 [#3] PREEMPT SMP NOPTI",
	"[  102.000003] RIP: 0010:lkdtm_BUG+0x5/0x10 [lkdtm]",
	"[  102.000004] ---[ end trace 0000000000000000 ]---",
	"[  102.000005] Kernel panic - not syncing: Oopsed too often (kernel.oops_limit is 3)",
	"[  102.000006] general protection fault: 0000 [#4] PREEMPT SMP NOPTI",
	"[  102.000007] RIP: 0010:other_cpu_fn+0x9/0x20",
	NULL,
};

static void test_oopses(void)
{
	const struct ol_site *s;
	char budget[512];

	feed(bug_510);
	ok(sites.n == 1, "5.10 kernel BUG: the RIP after the end marker is no report");
	s = expect("5.10 kernel BUG", "kernel BUG in lkdtm_BUG", 1, "BUG", "oops_count");
	expect_where("5.10 kernel BUG", s, "drivers/misc/lkdtm/bugs.c:76");
	feed(bug_gpf_612);
	expect("6.12 kernel BUG (Oops: invalid opcode)", "kernel BUG in foo_check", 1, "BUG", "oops_count");
	expect("6.12 GPF (Oops: general protection fault)", "general protection fault in foo_probe", 1, "GPF",
	       "oops_count");
	ok(sites.n == 2, "6.12: KASAN's null-ptr-deref range line is no report");
	feed(pf_615);
	expect("6.15 NULL dereference", "BUG: kernel NULL pointer dereference in foo_notify", 1, "page fault",
	       "oops_count");
	expect("6.15 page fault", "BUG: unable to handle page fault in percpu_counter_destroy_many", 1, "page fault",
	       "oops_count");
	feed(oops_limit_61);
	expect("6.1 oops_limit", "BUG: kernel NULL pointer dereference in lkdtm_WRITE_KERN", 2, "page fault",
	       "oops_count");
	expect("6.1 oops_limit", "kernel BUG in lkdtm_BUG", 1, "BUG", "oops_count");
	s = expect("6.1 oops after the panic", "general protection fault in other_cpu_fn", 0, "GPF", "oops_count");
	ok(s && s->after_panic == 1, "6.1 oops after the panic: counted apart");
	ok(sites.counted[1] == 3, "6.1 oops_limit: three counted before the panic");
	expect_sig("6.1 oops_limit", "oops_limit", "", "oops_limit: kernel BUG in lkdtm_BUG");
	ok(ol_sites_budget(&sites, "oops_count", budget, sizeof(budget)) == 3, "6.1 oops_limit: budget of 3");
	ok_got(strcmp(budget, "2x BUG: kernel NULL pointer dereference in lkdtm_WRITE_KERN, "
		       "1x kernel BUG in lkdtm_BUG (drivers/misc/lkdtm/bugs.c:76)") == 0,
	       "6.1 oops_limit: how the budget was spent", budget);
}

/* Two warning sites reach warn_limit 3: the last one decides. */
static const char *const two_sites[] = {
	"[    5.000001] WARNING: CPU: 0 PID: 90 at drivers/x.c:10 foo+0x8/0xb [oopslimit_test]",
	"[    5.000002] ---[ end trace 0000000000000000 ]---",
	"[    5.100001] UBSAN: shift-out-of-bounds in drivers/x.c:20:7",
	"[    5.100002] Call Trace:",
	"[    5.100003]  dump_stack_lvl+0x34/0x48",
	"[    5.100004]  __ubsan_handle_shift_out_of_bounds+0x12/0x40",
	"[    5.100005]  bar+0x10/0x20 [oopslimit_test]",
	"[    5.100006] ---[ end trace ]---",
	"[    5.200001] WARNING: CPU: 1 PID: 91 at drivers/x.c:10 foo+0x8/0xb [oopslimit_test]",
	"[    5.200002] Kernel panic - not syncing: kernel: system warned too often (kernel.warn_limit is 3)",
	NULL,
};

static void test_budget(void)
{
	char budget[512];

	feed(two_sites);
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
	ok(!ol_site_generic("dumpster_fire") && !ol_site_generic("foo_put") && !ol_site_generic("panicky"),
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
		{ "valid: an open report's label that points elsewhere", false },
		{ "valid: a class out of range", false },
	};
	struct ol_sites copy;
	const char *why;
	size_t i;

	feed(interleaved_510);
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
		case 6: copy.ev[3].label = forged_origin; break;
		case 7: copy.site[0].class = OL_NCLASSES; break;
		}
		ok((ol_sites_valid(&copy) == NULL) == cases[i].holds, cases[i].what);
	}
}

int main(void)
{
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
