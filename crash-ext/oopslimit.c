// SPDX-License-Identifier: GPL-2.0
/*
 * crash> oopslimit: the oops/warn counters, limits and panic settings of a
 * dump, and which panic policy brought the kernel down.
 *
 * A thin reader: it fills the report of common/report.h through crash's
 * API and leaves the judging and the writing to common/, which the
 * capture-side recorder (recorder/oopslimit-reason.c) shares, so that
 * "oopslimit -j" and the capture's reason.json are the same document.
 *
 * Lookups and reads of the variables of common/vars.def are variables.c's.
 * Reading: readmem with RETURN_ON_ERROR|QUIET; the log through crash's own
 * "log" into a temporary file, under guarded(), since that reader can fail
 * fatally.  Nothing here may end the user's crash session.
 */
#include <setjmp.h>

#include "defs.h"

#include "../common/printk.h"
#include "../common/report.h"
#include "variables.h"

static void cmd_oopslimit(void);
static char *help_oopslimit[];

static struct command_table_entry command_table[] = {
	/* MINIMAL: it needs no gdb, so it runs under crash --minimal too */
	{ "oopslimit", cmd_oopslimit, help_oopslimit, MINIMAL },
	{ NULL, NULL, NULL, 0 },
};

static void __attribute__((constructor)) oopslimit_init(void)
{
	register_extension(command_table);
}

/* ---- reading: the taint letters, the log, the ring buffer ---------------- */

/*
 * Runs fn(arg) with crash's fatal-error exit caught: error(FATAL) longjmps
 * to pc->main_loop_env, which would abandon this command half-way.  Returns
 * false when fn was cut short that way.
 */
static bool guarded(void (*fn)(void *), void *arg)
{
	jmp_buf saved;
	volatile bool ok = true;

	memcpy(saved, pc->main_loop_env, sizeof(saved));
	if (setjmp(pc->main_loop_env) == 0)
		fn(arg);
	else
		ok = false;
	memcpy(pc->main_loop_env, saved, sizeof(saved));
	return ok;
}

struct taint_read {
	struct ol_report *r;
	bool done;
};

/* The letters from the kernel's own taint_flags[] table. */
static void read_taint_table(void *arg)
{
	struct taint_read *t = arg;
	struct ol_report *r = t->r;
	uint64_t mask = r->var[OL_V_TAINTED_MASK].value;
	long tsize, off;
	int n, i, k = 0;
	char c;

	if (pc->flags & MINIMAL_MODE || r->symbols_mismatch || !symbol_exists("taint_flags"))
		return;
	tsize = STRUCT_SIZE("taint_flag");
	off = MEMBER_OFFSET("taint_flag", "c_true");
	n = get_array_length("taint_flags", NULL, 0);
	if (tsize <= 0 || off < 0 || n <= 0 || n >= 64)
		return;
	for (i = 0; i < n && k + 1 < (int)sizeof(r->taint); i++) {
		if (!(mask & ((uint64_t)1 << i)))
			continue;
		if (!readmem(symbol_value("taint_flags") + (ulong)(i * tsize + off), KVADDR, &c, 1,
			     "taint_flag", RETURN_ON_ERROR | QUIET) ||
		    c < 'A' || c > 'Z')
			return;
		r->taint[k++] = c;
	}
	if (mask >> n)
		return;	/* bits the table does not name: use the built-in one */
	r->taint[k] = '\0';
	t->done = true;
}

static void read_taint(struct ol_report *r)
{
	struct taint_read t = { r, false };

	if (!r->var[OL_V_TAINTED_MASK].read)
		return;
	if (!guarded(read_taint_table, &t) || !t.done)
		ol_taint_letters(r->var[OL_V_TAINTED_MASK].value, r->taint, sizeof(r->taint));
	r->have_taint = true;
}

static void dump_log_text(void *arg)
{
	(void)arg;
	dump_log(0);
}

/*
 * The kernel log, through crash's own reader into a temporary file, fed to
 * the report one line at a time.
 */
static void read_log(struct ol_report *r)
{
	char line[2048];
	bool whole;

	snprintf(r->log_from, sizeof(r->log_from), "crash log");
	if (pc->tmpfile) {
		snprintf(r->log_trouble, sizeof(r->log_trouble),
			 "the log cannot be read here: crash's temporary file is in use");
		return;
	}
	open_tmpfile();
	whole = guarded(dump_log_text, NULL);
	rewind(pc->tmpfile);
	while (fgets(line, sizeof(line), pc->tmpfile)) {
		size_t len = strlen(line);

		/* a line longer than the buffer: its rest is not a new line */
		if (len && line[len - 1] != '\n') {
			int c;

			while ((c = fgetc(pc->tmpfile)) != EOF && c != '\n')
				;
		}
		ol_report_log_line(r, line);
	}
	close_tmpfile();
	ol_log_done(&r->log);
	if (!whole) {
		r->log_unreliable = true;
		snprintf(r->log_trouble, sizeof(r->log_trouble),
			 "crash's log reader stopped after %lu lines (its message is above)", r->log.lines);
	} else if (!r->log_read) {
		snprintf(r->log_trouble, sizeof(r->log_trouble), "the log is empty, or not in the dump");
	}
}

static void no_line(void *arg, const char *line, size_t len)
{
	(void)arg;
	(void)line;
	(void)len;
}

/*
 * The ring buffer through the recorder's decoder too, which checks that its
 * records fit together: when they do not, the dump's pages are not what
 * they should be (crash reads a damaged page bitmap as it is), and no value
 * read from them is a fact, as in the recorder.  A ring it cannot read at
 * all (a page missing) says nothing of the others.
 */
static void check_memory(struct ol_report *r)
{
	struct ol_printk res;

	if (r->live)
		return;
	ol_printk_read(&ol_crash_mem, no_line, NULL, &res);
	if (!res.garbled)
		return;
	r->memory_damaged = true;
	ol_note(r, "the printk ring buffer does not decode reliably: %.150s", res.why);
}

/* ---- the command --------------------------------------------------------- */

static void cmd_oopslimit(void)
{
	struct ol_report *r;
	bool json = false, verbose = false, sites = false;
	int c;

	while ((c = getopt(argcnt, args, "jvs")) != EOF) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 's':
			sites = true;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || args[optind])
		cmd_usage(pc->curcmd, SYNOPSIS);

	r = (struct ol_report *)GETBUF(sizeof(*r));
	ol_report_init(r, "crash oopslimit");
	r->live = ACTIVE();
	ol_find_and_read(r);
	read_taint(r);
	read_log(r);
	check_memory(r);
	ol_report_judge(r);
	if (json)
		ol_report_json(fp, r);
	else if (sites)
		ol_report_sites_text(fp, r);
	else
		ol_report_text(fp, r, verbose);
	FREEBUF(r);
}

static char *help_oopslimit[] = {
	"oopslimit",
	"why the kernel panicked: the setting or path, with the counters and settings",
	"[-j] [-v] [-s]",
	"  This command names what brought the kernel down: the panic setting that",
	"  enabled the path it took (kernel.oops_limit, kernel.warn_limit,",
	"  panic_on_warn, panic_on_oops, panic_on_taint, softlockup_panic,",
	"  hung_task_panic, panic_on_rcu_stall, vm.panic_on_oom, the NMI settings,",
	"  ...), or the path that panics whatever the settings (sysrq, an oops in",
	"  interrupt context or in init, a machine check, ...).  It reads those",
	"  settings, the oops and warning counters and the taint flags from the",
	"  dump, checks the verdict against them, and compares them with the",
	"  policy oopslimit-kdump applied.  Unlike the PANIC line of \"sys\", which",
	"  shows the first \"Oops:\" of the log, the verdict comes from the",
	"  \"Kernel panic - not syncing:\" message, so it holds when many oopses",
	"  came first or wrapped the log.",
	"",
	"    -j  print the report as one JSON object instead: the same document,",
	"        schema 3, that oopslimit-reason writes into a capture's",
	"        reason.json (common/report.schema.json describes every member).",
	"    -v  also print the first oops of the log (what \"sys\" calls the panic)",
	"        and where each variable was found.",
	"    -s  print only the SITES lines: every warning and oops site of the",
	"        log.",
	"",
	"  The lines:",
	"         KERNEL  the release, and when the kernel entered kdump (CRASHTIME).",
	"     OOPS_COUNT  oopses since boot (/sys/kernel/oops_count).",
	"     OOPS_LIMIT  kernel.oops_limit: the oops that brings OOPS_COUNT to it",
	"                 panics; 0 means no limit.  \"headroom N\": the Nth oops",
	"                 from now panics; \"reached\": the count is at the limit.",
	"     WARN_COUNT  warnings since boot (WARN(), KASAN, UBSAN, KFENCE, KCSAN,",
	"     WARN_LIMIT  scheduling while atomic) and kernel.warn_limit, read the",
	"                 same way; warn_limit is 0 (no limit) unless set.",
	"         LIMITS  instead of the four above, on a kernel without them.",
	"  PANIC_ON_OOPS  the kernel.panic_on_oops and kernel.panic_on_warn",
	"  PANIC_ON_WARN  sysctls.  panic() clears panic_on_warn, so a dump taken",
	"                 through panic() shows 0: the message tells.",
	"       ALSO_SET  the other panic settings the dump has that are not 0.",
	"        TAINTED  the letters of the taint flags set, and the mask.",
	"            LOG  lines read; \"wrapped\" when the boot messages are",
	"                 overwritten; oopses (the last \"[#N]\" numbers them since",
	"                 boot) and warning reports in what is left.",
	"          PANIC  the \"Kernel panic - not syncing:\" message.  A kdump",
	"                 capture may have none: for an oops with panic_on_oops set,",
	"                 in interrupt context, in init or in the idle task,",
	"                 oops_end() enters kdump before panic() prints; the verdict",
	"                 then comes from the last oops and the setting.",
	"        VERDICT  the reason: the setting's name, the path's name, \"other\"",
	"                 for a message oopslimit does not know (never a guess),",
	"                 \"no panic\", or \"unknown\" when the log cannot be read",
	"                 or does not decode reliably.  For the warning policies,",
	"                 the origin: the reporter that warned (kernel, UBSAN, ...).",
	"        SETTING  the sysctl that enabled the path and its value in the dump.",
	"     CONSISTENT  yes when the dump confirms the verdict (oops_count reached",
	"                 oops_limit, the setting is on), no when it contradicts it,",
	"                 unknown when nothing can be checked; the reason follows.",
	"         POLICY  the panic policy oopslimit-kdump applied, from the line it",
	"                 wrote into the log; DRIFT, a setting the dump has with",
	"                 another value: it was changed after it was applied.",
	"      SIGNATURE  what a fleet buckets this panic by: the reason and the",
	"                 title of the warning or oops that decided it (the last of",
	"                 the kind the reason counts), the guilty function being the",
	"                 first frame that is no generic helper (common/frames.def);",
	"                 the same on every host for the same bug.",
	"         BUDGET  for oops_limit and warn_limit, how the count was spent,",
	"                 site by site; for a wrapped log, how many counted events",
	"                 are no longer in it.",
	"   LAST_WARNING  file:line and function of the last warning in the log.",
	"          SITES  each distinct warning and oops site of the log: count,",
	"                 title, file:line, origin, the counter it increments,",
	"                 module, printk time of the first and last.",
	"           NOTE  what could not be found or read, or does not fit: a value",
	"                 that failed its checks is null, and the note says why.",
	"",
	"  Each variable is taken from the vmlinux symbol table entry that belongs",
	"  to its source file (other files have statics of the same names:",
	"  mm/percpu.c has a warn_limit), checked against the SYMBOL() line the",
	"  kernel puts in VMCOREINFO and, when those two differ or one is",
	"  missing, against the dump's own kallsyms tables: two against one wins,",
	"  one against one neither.  A vmlinux that does not fit the dump gives no",
	"  value.  A value out of its range, at odds with the log or beside an",
	"  impossible one prints \"unknown (not trusted: see NOTE)\".  A read that",
	"  fails is reported, never fatal.  On a live system there is no verdict.",
	"  The command also runs under crash --minimal, in about a second.",
	"\nEXAMPLE",
	"  A kdump capture of a kernel with kernel.oops_limit=4 after its fourth",
	"  oops.  \"sys\" shows the first oops as the panic:",
	"",
	"    crash> sys | grep PANIC",
	"           PANIC: \"Oops: 0002 [#1] SMP\" (check log for details)",
	"    crash> oopslimit",
	"           KERNEL: 6.1.192, crashed 2026-12-07T19:13:42Z",
	"       OOPS_COUNT: 4",
	"       OOPS_LIMIT: 4 (reached)",
	"       WARN_COUNT: 0",
	"       WARN_LIMIT: 0 (0: no limit, warnings never panic by count)",
	"    PANIC_ON_OOPS: 0",
	"    PANIC_ON_WARN: 0 (panic() clears it; the panic message tells)",
	"          TAINTED: D (0x80)",
	"              LOG: 380 lines, 4 oopses (last [#4]), 0 warnings",
	"            PANIC: \"Oopsed too often (kernel.oops_limit is 4)\"",
	"          VERDICT: oops_limit",
	"          SETTING: kernel.oops_limit = 4",
	"       CONSISTENT: yes (oops_count 4 reached oops_limit 4)",
	"        SIGNATURE: oops_limit: BUG: unable to handle kernel NULL pointer",
	"                   dereference in lkdtm_EXCEPTION",
	"           BUDGET: 4 of 4: 4x BUG: unable to handle kernel NULL pointer",
	"                   dereference in lkdtm_EXCEPTION",
	"           POLICY: oops_limit 4, warn_limit 0, panic_on_oops 0, panic_on_warn 0",
	"                   (as oopslimit-kdump applied it)",
	"     LAST_WARNING: none in the log",
	"            SITES: 4x BUG: unable to handle kernel NULL pointer dereference in",
	"                   lkdtm_EXCEPTION [page fault, counts in oops_count,",
	"                   16.136948-16.164950 s]",
	"",
	"  The same as JSON (some of its members):",
	"",
	"    crash> oopslimit -j",
	"    {",
	"      \"schema\": 4,",
	"      ...",
	"      \"reason\": \"oops_limit\",",
	"      \"signature\": \"oops_limit: BUG: unable to handle kernel NULL pointer dereference in lkdtm_EXCEPTION\",",
	"      \"signature_version\": 2,",
	"      \"setting\": \"kernel.oops_limit\",",
	"      \"setting_value\": 4,",
	"      \"origin\": null,",
	"      \"consistent\": true,",
	"      \"evidence\": \"oops_count 4 reached oops_limit 4\",",
	"      \"counters_source\": \"debuginfo\",",
	"      ...",
	"      \"oops_count\": 4,",
	"      \"oops_limit\": 4,",
	"      \"oops_headroom\": 0,",
	"      ...",
	"    }",
	"",
	"  A kdump capture of an oops with panic_on_oops=1: no panic message",
	"  reached the log before the capture kernel took over:",
	"",
	"    crash> oopslimit",
	"           KERNEL: 6.1.192, crashed 2026-12-03T14:44:06Z",
	"       OOPS_COUNT: 0",
	"       OOPS_LIMIT: 10000 (headroom 10000: the 10000th oops from now panics)",
	"       WARN_COUNT: 0",
	"       WARN_LIMIT: 0 (0: no limit, warnings never panic by count)",
	"    PANIC_ON_OOPS: 1",
	"    PANIC_ON_WARN: 0",
	"          TAINTED: no (0x0)",
	"              LOG: 203 lines, 1 oops (last [#1]), 0 warnings",
	"            PANIC: none in the log: the kernel entered kdump before panic() printed",
	"          VERDICT: panic_on_oops",
	"          SETTING: kernel.panic_on_oops = 1",
	"       CONSISTENT: yes (panic_on_oops is 1)",
	"     LAST_WARNING: none in the log",
	"",
	"  A kernel without the limits, crashed with sysrq-c:",
	"",
	"    crash> oopslimit",
	"           KERNEL: 6.1.192, crashed 2026-12-03T14:41:43Z",
	"           LIMITS: none: this kernel has no oops_limit or warn_limit",
	"    PANIC_ON_OOPS: 0",
	"    PANIC_ON_WARN: 0 (panic() clears it; the panic message tells)",
	"          TAINTED: no (0x0)",
	"              LOG: 187 lines, 0 oopses, 0 warnings",
	"            PANIC: \"sysrq triggered crash\"",
	"          VERDICT: sysrq",
	"       CONSISTENT: unknown (no setting in the dump enables this path: nothing to check)",
	"     LAST_WARNING: none in the log",
	NULL,
};
