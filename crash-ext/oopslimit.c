// SPDX-License-Identifier: GPL-2.0
/*
 * crash> oopslimit: the oops/warn counters and limits of a dump, and which
 * panic policy brought the kernel down.
 *
 * Three steps, kept apart:
 *   lookups  where each variable is: a file-scoped static tied to its file
 *            by the vmlinux symbol table, else VMCOREINFO's SYMBOL() line,
 *            else a function-local static "name.N" of that file;
 *   reading  its value, and the kernel log, with reads that fail quietly;
 *   judging  common/verdict.c (the log and the counters), printed by
 *            report.c.
 * Nothing here may end the user's crash session: every read uses
 * RETURN_ON_ERROR|QUIET, and the one crash call that can still fail fatally
 * (the log dump) runs under guarded().
 */
#include <setjmp.h>

#include "defs.h"

#include "report.h"
#include "symfile.h"

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

/* ---- lookups ------------------------------------------------------------- */

/* The variables, the file that defines each, and how many bytes it has. */
static const struct {
	const char *file;
	long size;
	bool in_vmcoreinfo;
} var_info[OLX_NVARS] = {
	[OLX_OOPS_COUNT] = { "exit.c", 4, true },	/* atomic_t */
	[OLX_OOPS_LIMIT] = { "exit.c", 4, true },	/* unsigned int */
	[OLX_WARN_COUNT] = { "panic.c", 4, true },	/* atomic_t */
	[OLX_WARN_LIMIT] = { "panic.c", 4, true },	/* unsigned int */
	[OLX_PANIC_ON_OOPS] = { "panic.c", 4, true },	/* int */
	[OLX_PANIC_ON_WARN] = { "panic.c", 4, true },	/* int */
	[OLX_TAINTED_MASK] = { "panic.c", 8, false },	/* unsigned long */
};

/* The symbol table of the vmlinux, read once per namelist. */
static struct olx_symtab symtab;
static char symtab_path[PATH_MAX];
static char symtab_err[160];
static bool symtab_ok;

static void load_symtab(void)
{
	const char *names[OLX_NVARS];
	const char *path = pc->namelist;
	unsigned int i;

	if (!path)
		path = pc->namelist_debug;
	if (!path) {
		symtab_ok = false;
		snprintf(symtab_err, sizeof(symtab_err), "crash has no vmlinux file name");
		return;
	}
	if (symtab_path[0] && strcmp(symtab_path, path) == 0)
		return;
	for (i = 0; i < OLX_NVARS; i++)
		names[i] = olx_var_name(i);
	olx_symtab_free(&symtab);
	symtab_ok = olx_symtab_read(path, names, OLX_NVARS, &symtab, symtab_err, sizeof(symtab_err));
	if (!symtab_ok && pc->namelist_debug && path != pc->namelist_debug)
		symtab_ok = olx_symtab_read(pc->namelist_debug, names, OLX_NVARS, &symtab,
					    symtab_err, sizeof(symtab_err));
	snprintf(symtab_path, sizeof(symtab_path), "%s", path);
}

/*
 * VMCOREINFO as the kernel wrote it into its own memory (vmcoreinfo_data):
 * at most VMCOREINFO_BYTES, a page, up to 64 KiB on some architectures.
 */
static char vmci_mem[65536 + 1];
static size_t vmci_mem_len;

static void read_vmcoreinfo_memory(void)
{
	ulong data = 0, size = 0;

	vmci_mem_len = 0;
	if (!symbol_exists("vmcoreinfo_data") || !symbol_exists("vmcoreinfo_size"))
		return;
	if (!readmem(symbol_value("vmcoreinfo_data"), KVADDR, &data, sizeof(data),
		     "vmcoreinfo_data", RETURN_ON_ERROR | QUIET) ||
	    !readmem(symbol_value("vmcoreinfo_size"), KVADDR, &size, sizeof(size),
		     "vmcoreinfo_size", RETURN_ON_ERROR | QUIET))
		return;
	if (!data || size == 0 || size > sizeof(vmci_mem) - 1)
		return;
	if (!readmem(data, KVADDR, vmci_mem, (long)size, "vmcoreinfo text",
		     RETURN_ON_ERROR | QUIET))
		return;
	vmci_mem[size] = '\0';
	/* anything else is a wrong address (a vmlinux of another build) */
	if (strncmp(vmci_mem, "OSRELEASE=", 10) == 0)
		vmci_mem_len = size;
}

/*
 * A VMCOREINFO value: from the dump's note (kdump, makedumpfile) through
 * crash's reader, else from the kernel's own copy in memory.  *where says
 * which, for the report.
 */
static bool vmcoreinfo(const char *key, char *value, size_t len, const char **where)
{
	char *v = pc->read_vmcoreinfo ? pc->read_vmcoreinfo(key) : NULL;

	if (v) {
		snprintf(value, len, "%s", v);
		free(v);
		*where = "VMCOREINFO";
		return true;
	}
	if (vmci_mem_len && olx_vmcoreinfo_find(vmci_mem, vmci_mem_len, key, value, len)) {
		*where = "VMCOREINFO in kernel memory";
		return true;
	}
	return false;
}

static bool vmcoreinfo_symbol(const char *name, ulong *addr, const char **where)
{
	char key[OLX_NAME + 16], value[64];

	snprintf(key, sizeof(key), "SYMBOL(%s)", name);
	return vmcoreinfo(key, value, sizeof(value), where) && olx_parse_hex(value, addr);
}

/*
 * A vmlinux of another build loads and may even look fine; its symbols
 * then disagree with what the running kernel wrote into VMCOREINFO.
 */
static void check_vmlinux(struct olx_report *r)
{
	static const char *const probes[] = { "_stext", "init_uts_ns", "prb", "swapper_pg_dir" };
	const char *where;
	char release[65];
	unsigned int i;
	ulong addr;

	/* (crash --minimal reads no utsname) */
	if (kt->utsname.release[0] && vmcoreinfo("OSRELEASE", release, sizeof(release), &where) &&
	    strcmp(release, kt->utsname.release) != 0)
		olx_note(r, "vmlinux does not match the dump: %s has OSRELEASE=%s, the dump's kernel says %s",
			 where, release, kt->utsname.release);
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		if (!vmcoreinfo_symbol(probes[i], &addr, &where) || !symbol_exists((char *)probes[i]))
			continue;
		if (symbol_value((char *)probes[i]) != addr) {
			olx_note(r, "vmlinux does not match the dump: %s says %s is at %lx, the vmlinux %lx",
				 where, probes[i], addr, symbol_value((char *)probes[i]));
			return;
		}
	}
}

/*
 * crash_save_vmcoreinfo() appends CRASHTIME when the kernel enters a loaded
 * capture kernel: the dump is a kdump capture, taken at a crash.
 */
static void find_crash_time(struct olx_report *r)
{
	char value[32], *end;
	const char *where;

	if (r->live || !vmcoreinfo("CRASHTIME", value, sizeof(value), &where))
		return;
	r->crash_time = strtoul(value, &end, 10);
	r->crashed = end != value && *end == '\0';
}

/* Without the ELF table: crash's own table, if it has exactly one such name. */
static bool unique_crash_symbol(const char *name, ulong *addr)
{
	struct syment *sp = symbol_search((char *)name);

	if (!sp || symbol_search_next((char *)name, sp))
		return false;
	*addr = sp->value;
	return true;
}

static void find_var(struct olx_report *r, enum olx_var_id id, ulong offset, long *size)
{
	struct olx_var *v = &r->var[id];
	const char *name = olx_var_name(id), *file = var_info[id].file, *where = NULL;
	const struct olx_elfsym *e = NULL, *local = NULL;
	enum olx_tie tie = OLX_TIE_NONE;
	ulong vaddr;
	bool have_vmci;

	*size = var_info[id].size;
	if (symtab_ok) {
		e = olx_symtab_pick(&symtab, name, file, false, &tie);
		if (!e)
			local = olx_symtab_pick(&symtab, name, file, true, &tie);
	} else if (unique_crash_symbol(name, &vaddr)) {
		v->found = true;
		v->addr = vaddr;
		snprintf(v->source, sizeof(v->source), "crash symbol table, only %s", name);
	}
	if (e) {
		v->found = true;
		v->addr = e->value + offset;	/* unsigned: wraps, never overflows */
		if (e->size == 4 || e->size == 8)
			*size = (long)e->size;
		snprintf(v->source, sizeof(v->source), "%s", tie == OLX_TIE_FILE ? file :
			 tie == OLX_TIE_GLOBAL ? "global symbol" : "only symbol of that name");
	}
	have_vmci = var_info[id].in_vmcoreinfo && vmcoreinfo_symbol(name, &vaddr, &where);
	if (have_vmci && v->found && v->addr != vaddr) {
		olx_note(r, "vmlinux does not match the dump: it has %s at %lx, %s says %lx (used)",
			 name, v->addr, where, vaddr);
		v->addr = vaddr;
		snprintf(v->source, sizeof(v->source), "%s", where);
	} else if (have_vmci && v->found) {
		size_t n = strlen(v->source);

		snprintf(v->source + n, sizeof(v->source) - n, ", %s agrees", where);
	} else if (have_vmci) {
		v->found = true;
		v->addr = vaddr;
		snprintf(v->source, sizeof(v->source), "%s", where);
	} else if (local) {
		v->found = true;
		v->addr = local->value + offset;
		if (local->size == 4 || local->size == 8)
			*size = (long)local->size;
		snprintf(v->source, sizeof(v->source), "%s, function-local %s", file, local->name);
	}
}

/* ---- reading ------------------------------------------------------------- */

static void read_var(struct olx_report *r, enum olx_var_id id, long size)
{
	struct olx_var *v = &r->var[id];
	uint32_t u32;
	uint64_t u64;

	if (!v->found)
		return;
	if (size == 8) {
		v->read = readmem(v->addr, KVADDR, &u64, 8, (char *)olx_var_name(id),
				  RETURN_ON_ERROR | QUIET);
		v->value = (unsigned long)u64;
	} else {
		v->read = readmem(v->addr, KVADDR, &u32, 4, (char *)olx_var_name(id),
				  RETURN_ON_ERROR | QUIET);
		v->value = u32;
	}
	if (!v->read) {
		v->value = 0;
		olx_note(r, "cannot read %s at %lx (%s): not in the dump", olx_var_name(id),
			 v->addr, v->source);
	}
}

static void find_and_read(struct olx_report *r)
{
	unsigned long stext = 0;
	ulong offset = 0;	/* running minus link-time address (KASLR) */
	long size;
	unsigned int i;

	load_symtab();
	if (!symtab_ok)
		olx_note(r, "symbol table: %s; using crash's symbols and VMCOREINFO", symtab_err);
	else if (!olx_symtab_value(&symtab, "_stext", &stext) || !symbol_exists("_stext"))
		olx_note(r, "no _stext in the vmlinux: link-time addresses used as they are");
	else
		offset = symbol_value("_stext") - stext;
	read_vmcoreinfo_memory();
	check_vmlinux(r);
	find_crash_time(r);
	for (i = 0; i < OLX_NVARS; i++) {
		find_var(r, i, offset, &size);
		read_var(r, i, size);
	}
}

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
	struct olx_report *r;
	bool done;
};

/* The letters from the kernel's own taint_flags[] table. */
static void read_taint_table(void *arg)
{
	struct taint_read *t = arg;
	struct olx_report *r = t->r;
	unsigned long mask = r->var[OLX_TAINTED_MASK].value;
	long tsize, off;
	int n, i, k = 0;
	char c;

	if (pc->flags & MINIMAL_MODE || !symbol_exists("taint_flags"))
		return;
	tsize = STRUCT_SIZE("taint_flag");
	off = MEMBER_OFFSET("taint_flag", "c_true");
	n = get_array_length("taint_flags", NULL, 0);
	if (tsize <= 0 || off < 0 || n <= 0 || n >= 64)
		return;
	for (i = 0; i < n && k + 1 < (int)sizeof(r->taint); i++) {
		if (!(mask & (1UL << i)))
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

static void read_taint(struct olx_report *r)
{
	struct taint_read t = { r, false };

	if (!r->var[OLX_TAINTED_MASK].read)
		return;
	if (!guarded(read_taint_table, &t) || !t.done)
		olx_taint_letters(r->var[OLX_TAINTED_MASK].value, r->taint, sizeof(r->taint));
	r->have_taint = true;
}

static void dump_log_text(void *arg)
{
	(void)arg;
	dump_log(0);
}

/*
 * The kernel log, through crash's own reader into a temporary file, fed to
 * the verdict code one line at a time.
 */
static void read_log(struct olx_report *r)
{
	char line[2048], stamp[sizeof(r->log_start)];
	bool first = true, whole;
	size_t indent = 0;
	const char *text;

	if (pc->tmpfile) {
		olx_note(r, "the log cannot be read here: crash's temporary file is in use");
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
		text = olx_log_split(line, stamp, sizeof(stamp), &indent);
		if (first) {
			r->log_wrapped = strncmp(text, "Linux version ", 14) != 0;
			memcpy(r->log_start, stamp, sizeof(stamp));
			first = false;
		}
		ol_log_line(&r->log, text);
	}
	close_tmpfile();
	ol_log_done(&r->log);
	/*
	 * With panic_on_oops (or an oops in interrupt, init or idle) and a
	 * capture kernel loaded, oops_end() goes to kdump before panic()
	 * prints: judge from the last oops and the setting.
	 */
	if (r->crashed && !r->log.have_panic)
		ol_log_crashed(&r->log, r->var[OLX_PANIC_ON_OOPS].read ?
				(int)r->var[OLX_PANIC_ON_OOPS].value : -1);
	r->log_read = r->log.lines > 0;
	if (!whole && r->log_read)
		olx_note(r, "crash's log reader stopped after %lu lines (its message is above)",
			 r->log.lines);
	else if (!whole)
		olx_note(r, "the log could not be read: crash's log reader stopped (its message is above)");
	else if (!r->log_read)
		olx_note(r, "the log could not be read (empty, or not in the dump)");
}

/* ---- the command --------------------------------------------------------- */

static void cmd_oopslimit(void)
{
	struct olx_report *r;
	bool json = false, verbose = false;
	int c;

	while ((c = getopt(argcnt, args, "jv")) != EOF) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || args[optind])
		cmd_usage(pc->curcmd, SYNOPSIS);

	r = (struct olx_report *)GETBUF(sizeof(*r));
	olx_report_init(r);
	r->live = ACTIVE();
	find_and_read(r);
	read_taint(r);
	read_log(r);
	olx_judge(r);
	if (json)
		olx_print_json(fp, r);
	else
		olx_print_text(fp, r, verbose);
	FREEBUF(r);
}

static char *help_oopslimit[] = {
	"oopslimit",
	"oops and warning counts, limits and why the kernel panicked",
	"[-j] [-v]",
	"  This command shows the oops and warning counters and limits of the",
	"  kernel (kernel.oops_limit and kernel.warn_limit: Linux 6.2, and 6.1.y",
	"  and other stable kernels by backport), panic_on_oops, panic_on_warn and",
	"  the taint flags, reads the kernel log as \"log\" does, and names the",
	"  panic policy that brought the kernel down.  Unlike the PANIC line of",
	"  \"sys\", which shows the first \"Oops:\" in the log, the verdict comes from",
	"  the \"Kernel panic - not syncing:\" message at the end of the log, so it",
	"  holds when many oopses came first or have wrapped the log.",
	"",
	"    -j  print one JSON object instead (keys below).",
	"    -v  also print the first oops in the log (what \"sys\" calls the panic)",
	"        and where each variable was found.",
	"",
	"  The lines:",
	"     OOPS_COUNT  oopses since boot (/sys/kernel/oops_count).",
	"     OOPS_LIMIT  kernel.oops_limit: the oops that brings OOPS_COUNT to it",
	"                 panics; 0 means no limit.  \"headroom N\": the Nth oops",
	"                 from now panics; \"reached\": the count is at the limit.",
	"     WARN_COUNT  warnings since boot (WARN(), KASAN, UBSAN, KFENCE, KCSAN,",
	"     WARN_LIMIT  scheduling while atomic) and kernel.warn_limit, read the",
	"                 same way; warn_limit is 0 (no limit) unless set.",
	"         LIMITS  instead of the four above, on a kernel without them.",
	"  PANIC_ON_OOPS  the kernel.panic_on_oops and kernel.panic_on_warn",
	"  PANIC_ON_WARN  sysctls.  panic() clears panic_on_warn, so the dump of a",
	"                 panic_on_warn panic shows 0: the message tells.",
	"        TAINTED  the letters of the taint flags set, and the mask.",
	"            LOG  lines read; \"wrapped\" when the boot messages are",
	"                 overwritten; oopses (the last \"[#N]\" numbers them since",
	"                 boot) and warning reports in what is left.",
	"          PANIC  the \"Kernel panic - not syncing:\" message.  A kdump",
	"                 capture (VMCOREINFO has CRASHTIME) may have none: with",
	"                 panic_on_oops, or for an oops in interrupt, init or the",
	"                 idle task, oops_end() enters kdump before panic() prints;",
	"                 the verdict then comes from the last oops and the setting.",
	"        VERDICT  oops_limit, warn_limit (origin), panic_on_warn (origin),",
	"                 panic_on_oops, other (what), no panic, or unknown when",
	"                 the log cannot be read; the origin is the reporter that",
	"                 warned: kernel (WARN), UBSAN, KASAN, ...",
	"     CONSISTENT  whether the counters agree with the verdict: an oops_limit",
	"                 panic needs OOPS_COUNT at OOPS_LIMIT, and so on.",
	"   LAST_WARNING  file:line and function of the last warning in the log.",
	"           NOTE  what could not be found or read, or does not fit.",
	"",
	"  The four counters and limits are static variables of kernel/exit.c and",
	"  kernel/panic.c, and other files may have statics of the same names",
	"  (mm/percpu.c has a warn_limit).  Each is taken from the vmlinux symbol",
	"  table entry that belongs to its file, checked against the SYMBOL() line",
	"  the kernel puts in VMCOREINFO (from the dump, else the kernel's copy in",
	"  its memory), which wins when they differ or when the vmlinux has no",
	"  such symbol; a function-local static (\"oops_count.1\") of the right file",
	"  is the last resort.  A read that fails is reported, never fatal.  On a",
	"  live system there is no verdict.",
	"",
	"  JSON keys (stable; new keys may be added): format (1), live,",
	"  has_limits, oops_count, oops_limit, oops_headroom, warn_count,",
	"  warn_limit, warn_headroom, panic_on_oops, panic_on_warn, tainted_mask,",
	"  taint, crash_time, log_read, log_lines, log_wrapped, log_oopses,",
	"  log_warnings,",
	"  last_die, first_oops, panic, verdict, origin, detail, panic_limit,",
	"  consistent, inconsistency, last_warning {origin, where, function},",
	"  symbols {NAME: {address, source, read}}, notes [].  A value that is",
	"  unknown or does not apply is null.",
	"\nEXAMPLE",
	"  A kernel with kernel.oops_limit=5 after its fifth oops.  \"sys\" shows the",
	"  first oops as the panic:",
	"",
	"    crash> sys | grep PANIC",
	"           PANIC: \"Oops: 0002 [#1] SMP\" (check log for details)",
	"    crash> oopslimit",
	"       OOPS_COUNT: 5",
	"       OOPS_LIMIT: 5 (reached)",
	"       WARN_COUNT: 0",
	"       WARN_LIMIT: 0 (0: no limit, warnings never panic by count)",
	"    PANIC_ON_OOPS: 0",
	"    PANIC_ON_WARN: 0",
	"          TAINTED: D (0x80)",
	"              LOG: 422 lines, 5 oopses (last [#5]), 0 warnings",
	"            PANIC: \"Oopsed too often (kernel.oops_limit is 5)\"",
	"          VERDICT: oops_limit",
	"       CONSISTENT: yes",
	"     LAST_WARNING: none in the log",
	"",
	"  A kernel with kernel.warn_limit=5 after its fifth WARN(), as JSON:",
	"",
	"    crash> oopslimit -j",
	"    {",
	"      \"format\": 1,",
	"      \"live\": false,",
	"      \"has_limits\": true,",
	"      \"oops_count\": 0,",
	"      \"oops_limit\": 10000,",
	"      \"oops_headroom\": 10000,",
	"      \"warn_count\": 5,",
	"      \"warn_limit\": 5,",
	"      \"warn_headroom\": 0,",
	"      \"panic_on_oops\": 0,",
	"      \"panic_on_warn\": 0,",
	"      \"tainted_mask\": 512,",
	"      \"taint\": \"W\",",
	"      \"crash_time\": null,",
	"      \"log_read\": true,",
	"      \"log_lines\": 387,",
	"      \"log_wrapped\": false,",
	"      \"log_oopses\": 0,",
	"      \"log_warnings\": 5,",
	"      \"last_die\": null,",
	"      \"first_oops\": null,",
	"      \"panic\": \"kernel: system warned too often (kernel.warn_limit is 5)\",",
	"      \"verdict\": \"warn_limit\",",
	"      \"origin\": \"kernel\",",
	"      \"detail\": null,",
	"      \"panic_limit\": 5,",
	"      \"consistent\": true,",
	"      \"inconsistency\": null,",
	"      \"last_warning\": {\"origin\": \"kernel\", \"where\": \"../linux/drivers/misc/lkdtm/bugs.c:85\", \"function\": \"lkdtm_WARNING\"},",
	"      \"symbols\": {",
	"        \"oops_count\": {\"address\": \"0xffffffffbf0f20b4\", \"source\": \"exit.c, VMCOREINFO in kernel memory agrees\", \"read\": true},",
	"        \"oops_limit\": {\"address\": \"0xffffffffbee3dbc0\", \"source\": \"exit.c, VMCOREINFO in kernel memory agrees\", \"read\": true},",
	"        \"warn_count\": {\"address\": \"0xffffffffbf0f2084\", \"source\": \"panic.c, VMCOREINFO in kernel memory agrees\", \"read\": true},",
	"        \"warn_limit\": {\"address\": \"0xffffffffbeefae50\", \"source\": \"panic.c, VMCOREINFO in kernel memory agrees\", \"read\": true},",
	"        \"panic_on_oops\": {\"address\": \"0xffffffffbf0f1c3c\", \"source\": \"global symbol, VMCOREINFO in kernel memory agrees\", \"read\": true},",
	"        \"panic_on_warn\": {\"address\": \"0xffffffffbeefae54\", \"source\": \"global symbol, VMCOREINFO in kernel memory agrees\", \"read\": true},",
	"        \"tainted_mask\": {\"address\": \"0xffffffffbf0f2098\", \"source\": \"panic.c\", \"read\": true}",
	"      },",
	"      \"notes\": []",
	"    }",
	"",
	"  A kdump capture of an oops with panic_on_oops=1: no panic message",
	"  reached the log before the capture kernel took over:",
	"",
	"    crash> oopslimit",
	"       OOPS_COUNT: 0",
	"       OOPS_LIMIT: 10000 (headroom 10000: the 10000th oops from now panics)",
	"       WARN_COUNT: 0",
	"       WARN_LIMIT: 0 (0: no limit, warnings never panic by count)",
	"    PANIC_ON_OOPS: 1",
	"    PANIC_ON_WARN: 0",
	"          TAINTED: no (0x0)",
	"              LOG: 204 lines, 1 oops (last [#1]), 0 warnings",
	"            PANIC: none in the log: the kernel entered kdump before panic() printed",
	"          VERDICT: panic_on_oops",
	"       CONSISTENT: yes",
	"     LAST_WARNING: none in the log",
	"",
	"  A kernel without the limits, crashed with sysrq-c after three WARN()s",
	"  and three oopses:",
	"",
	"    crash> oopslimit",
	"           LIMITS: none: this kernel has no oops_limit or warn_limit",
	"    PANIC_ON_OOPS: 0",
	"    PANIC_ON_WARN: 0",
	"          TAINTED: DW (0x280)",
	"              LOG: 431 lines, 3 oopses (last [#3]), 3 warnings",
	"            PANIC: \"sysrq triggered crash\"",
	"          VERDICT: other (sysrq)",
	"       CONSISTENT: yes",
	"     LAST_WARNING: ../linux/drivers/misc/lkdtm/bugs.c:85 in lkdtm_WARNING (kernel)",
	NULL,
};
