// SPDX-License-Identifier: GPL-2.0
/*
 * The variables of common/vars.def in a dump, through crash's API, for the
 * oopslimit command (oopslimit.c): where each one is, and its value.
 *
 * Lookups (where is each variable of common/vars.def?), in this order:
 *   the vmlinux symbol table, each file-static tied to its file through the
 *   STT_FILE entries (symfile.c: crash keeps no STT_FILE entries, so its
 *   own table cannot tell two statics of one name apart), relocated by
 *   crash's kt->relocate; else crash's symbol table when the name is unique;
 *   checked against VMCOREINFO's SYMBOL() line (crash's reader, else the
 *   kernel's own copy in its memory for dumps without the note), which wins
 *   when they differ or when the vmlinux has no such symbol; a
 *   function-local static "name.N" of the right file is the last resort.
 * Reading: readmem with RETURN_ON_ERROR|QUIET, so that a page not in the
 * dump is a note, never the end of the user's crash session.
 */
#include "defs.h"

#include "../common/kallsyms.h"
#include "../common/report.h"
#include "../common/vmcoreinfo.h"
#include "symfile.h"
#include "variables.h"

/* ---- lookups ------------------------------------------------------------- */

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The symbol table of the vmlinux, read once per namelist. */
static struct olx_symtab symtab;
static char symtab_path[PATH_MAX];
static char symtab_err[160];
static bool symtab_ok;

static void load_symtab(void)
{
	const char *names[OL_NVARS];
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
	for (i = 0; i < OL_NVARS; i++)
		names[i] = ol_vars[i].symbol;
	olx_symtab_free(&symtab);
	symtab_ok = olx_symtab_read(path, names, OL_NVARS, &symtab, symtab_err, sizeof(symtab_err));
	if (!symtab_ok && pc->namelist_debug && path != pc->namelist_debug)
		symtab_ok = olx_symtab_read(pc->namelist_debug, names, OL_NVARS, &symtab,
					    symtab_err, sizeof(symtab_err));
	snprintf(symtab_path, sizeof(symtab_path), "%s", path);
}

/*
 * VMCOREINFO as the kernel wrote it into its own memory (vmcoreinfo_data),
 * for dumps that carry no note (a QEMU memory dump): at most
 * VMCOREINFO_BYTES, a page, up to 64 KiB on some architectures.
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
 * crash's reader, else from the kernel's own copy in memory.  *src says
 * which.
 */
static bool vmcoreinfo(const char *key, char *value, size_t len, enum ol_source *src)
{
	char *v = pc->read_vmcoreinfo ? pc->read_vmcoreinfo(key) : NULL;

	if (v) {
		snprintf(value, len, "%s", v);
		free(v);
		*src = OL_SRC_VMCOREINFO;
		return true;
	}
	if (vmci_mem_len && ol_vmcoreinfo_find(vmci_mem, vmci_mem_len, key, value, len) == 0) {
		*src = OL_SRC_VMCOREINFO_MEM;
		return true;
	}
	return false;
}

static const char *vmci_name(enum ol_source src)
{
	return src == OL_SRC_VMCOREINFO_MEM ? "VMCOREINFO in kernel memory" : "VMCOREINFO";
}

static bool vmcoreinfo_symbol(const char *name, ulong *addr, enum ol_source *src)
{
	char key[OLX_NAME + 16], value[64];
	uint64_t a;

	snprintf(key, sizeof(key), "SYMBOL(%s)", name);
	if (!vmcoreinfo(key, value, sizeof(value), src) || ol_parse_u64(value, 16, &a) != 0)
		return false;
	*addr = (ulong)a;
	return true;
}

/* The dump's memory and VMCOREINFO for the decoders of common/. */
static int mem_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	return readmem((ulonglong)addr, KVADDR, buf, (long)len, "oopslimit", RETURN_ON_ERROR | QUIET) ? 0 : -1;
}

static int mem_vmcoreinfo(void *ctx, const char *key, char *buf, size_t len)
{
	enum ol_source src;

	(void)ctx;
	return vmcoreinfo(key, buf, len, &src) ? 0 : -1;
}

const struct ol_mem ol_crash_mem = { mem_read, mem_vmcoreinfo, NULL };

/*
 * A vmlinux of another build loads and may even look fine; its symbols
 * then disagree with what the running kernel wrote into VMCOREINFO.
 */
static void check_vmlinux(struct ol_report *r)
{
	static const char *const probes[] = { "_stext", "init_uts_ns", "prb", "swapper_pg_dir" };
	enum ol_source src;
	char release[65];
	unsigned int i;
	ulong addr;

	/* (crash --minimal reads no utsname) */
	if (kt->utsname.release[0] && vmcoreinfo("OSRELEASE", release, sizeof(release), &src) &&
	    strcmp(release, kt->utsname.release) != 0) {
		ol_note(r, "vmlinux does not match the dump: %s has OSRELEASE=%s, the dump's kernel says %s",
			vmci_name(src), release, kt->utsname.release);
		r->symbols_mismatch = true;
	}
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		if (!vmcoreinfo_symbol(probes[i], &addr, &src) || !symbol_exists((char *)probes[i]))
			continue;
		if (symbol_value((char *)probes[i]) != addr) {
			/* (crash --minimal without --kaslr auto: every symbol is off) */
			ol_note(r, "vmlinux does not match the dump: %s says %s is at %lx, the vmlinux %lx: "
				"nothing is read through its symbols", vmci_name(src), probes[i], addr,
				symbol_value((char *)probes[i]));
			r->symbols_mismatch = true;
			return;
		}
	}
}

/* The kernel's identity: release and, for a kdump capture, CRASHTIME. */
static void find_identity(struct ol_report *r)
{
	enum ol_source src;
	char value[65], *end;

	if (vmcoreinfo("OSRELEASE", value, sizeof(value), &src))
		snprintf(r->release, sizeof(r->release), "%s", value);
	else
		snprintf(r->release, sizeof(r->release), "%s", kt->utsname.release);
	/* crash_save_vmcoreinfo() appends it when the kernel enters kdump */
	if (r->live || !vmcoreinfo("CRASHTIME", value, sizeof(value), &src))
		return;
	r->crash_time = strtoull(value, &end, 10);
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

/*
 * The ways to one variable: the vmlinux (the entry tied to its file, else
 * crash's own table when the name is unique, else a function-local static
 * of its file) and VMCOREINFO's SYMBOL() line.  *size is the vmlinux's
 * symbol size when it gives one.
 */
static size_t lookups(struct ol_report *r, enum ol_var_id id, ulong offset, struct ol_lookup *l,
		      unsigned int *size)
{
	const struct ol_var_info *info = &ol_vars[id];
	const char *file = base_of(info->file);
	const struct olx_elfsym *e = NULL;
	enum olx_tie tie = OLX_TIE_NONE;
	enum ol_source src;
	ulong vaddr;
	size_t n = 0;
	bool local = false;

	*size = info->size;
	if (symtab_ok) {
		e = olx_symtab_pick(&symtab, info->symbol, file, false, &tie);
		if (!e) {
			e = olx_symtab_pick(&symtab, info->symbol, file, true, &tie);
			local = e != NULL;
		}
	} else if (unique_crash_symbol(info->symbol, &vaddr)) {
		l[n] = (struct ol_lookup){ OL_SRC_DEBUGINFO, vaddr, "" };
		snprintf(l[n++].how, sizeof(l->how), "crash symbol table, only %s", info->symbol);
	}
	if (e && !local) {
		/* unsigned: wraps, never overflows */
		l[n] = (struct ol_lookup){ OL_SRC_DEBUGINFO, e->value + offset, "" };
		snprintf(l[n++].how, sizeof(l->how), "%s", tie == OLX_TIE_FILE ? file :
			 tie == OLX_TIE_GLOBAL ? "global symbol" : "only symbol of that name");
		if (e->size == 4 || e->size == 8)
			*size = (unsigned int)e->size;
	}
	if (vmcoreinfo_symbol(info->symbol, &vaddr, &src)) {
		if (n && l[0].addr != vaddr && !r->symbols_mismatch)
			ol_note(r, "vmlinux does not match the dump: it has %s at %llx, %s says %lx",
				info->symbol, (unsigned long long)l[0].addr, vmci_name(src), vaddr);
		l[n] = (struct ol_lookup){ src, vaddr, "" };
		snprintf(l[n++].how, sizeof(l->how), "%s", vmci_name(src));
	} else if (e && local && n == 0) {
		l[n] = (struct ol_lookup){ OL_SRC_DEBUGINFO, e->value + offset, "" };
		snprintf(l[n++].how, sizeof(l->how), "%.16s, function-local %.24s", file, e->name);
		if (e->size == 4 || e->size == 8)
			*size = (unsigned int)e->size;
	}
	return n;
}

/* ---- reading ------------------------------------------------------------- */

static void read_var(struct ol_report *r, enum ol_var_id id, unsigned int size)
{
	struct ol_var *v = &r->var[id];
	uint32_t u32;
	uint64_t u64;

	if (!v->found)
		return;
	if (size == 8) {
		v->read = readmem(v->addr, KVADDR, &u64, 8, (char *)ol_vars[id].symbol,
				  RETURN_ON_ERROR | QUIET);
		v->value = u64;
	} else {
		v->read = readmem(v->addr, KVADDR, &u32, 4, (char *)ol_vars[id].symbol,
				  RETURN_ON_ERROR | QUIET);
		v->value = u32;
	}
	if (!v->read) {
		v->value = 0;
		ol_note(r, "cannot read %s at %llx (%s): not in the dump", ol_vars[id].symbol,
			(unsigned long long)v->addr, v->how);
	}
}

/*
 * The dump's own kallsyms tables, read through crash: the only way to a
 * variable neither the vmlinux nor VMCOREINFO locates (a vmlinux without
 * that symbol, a kernel without our patches), and the third voice when
 * those two disagree.  Only for the variables in need[].
 */
static void kallsyms_lookups(struct ol_report *r, const bool *need, struct ol_lookup look[][3],
			     size_t *nlook)
{
	struct ol_ksym syms[OL_NVARS];
	enum ol_var_id ids[OL_NVARS];
	char err[OL_TEXT], why[OL_TEXT], type;
	size_t n = 0, i;
	uint64_t addr;

	for (i = 0; i < OL_NVARS; i++) {
		if (!need[i] || r->live)
			continue;
		memset(&syms[n], 0, sizeof(syms[n]));
		syms[n].name = ol_vars[i].symbol;
		ids[n++] = (enum ol_var_id)i;
	}
	if (n == 0 || !vmcoreinfo_symbol("kallsyms_names", &addr, &(enum ol_source){ OL_SRC_NONE }))
		return;
	if (ol_kallsyms_find(&ol_crash_mem, syms, n, NULL, err, sizeof(err)) != 0) {
		ol_note(r, "kallsyms: %s", err);
		return;
	}
	for (i = 0; i < n; i++) {
		struct ol_lookup *l = &look[ids[i]][nlook[ids[i]]];

		if (ol_ksym_pick(&syms[i], &addr, &type, why, sizeof(why)) != 0) {
			if (syms[i].found)
				ol_note(r, "kallsyms: %s", why);
			continue;
		}
		*l = (struct ol_lookup){ OL_SRC_KALLSYMS, addr, "" };
		snprintf(l->how, sizeof(l->how), "kallsyms in the dump, type %c", type);
		nlook[ids[i]]++;
	}
}

void ol_find_and_read(struct ol_report *r)
{
	/* crash's relocation: running address = link-time address - kt->relocate */
	ulong offset = 0UL - kt->relocate;
	struct ol_lookup look[OL_NVARS][3];
	size_t nlook[OL_NVARS], i, k;
	unsigned int size[OL_NVARS];
	bool need[OL_NVARS];

	load_symtab();
	if (!symtab_ok)
		ol_note(r, "symbol table: %s; using crash's symbols and VMCOREINFO", symtab_err);
	read_vmcoreinfo_memory();
	check_vmlinux(r);
	find_identity(r);
	for (i = 0; i < OL_NVARS; i++) {
		size_t usable = 0;

		nlook[i] = lookups(r, (enum ol_var_id)i, offset, look[i], &size[i]);
		for (k = 0; k < nlook[i]; k++)
			usable += !(r->symbols_mismatch && look[i][k].source == OL_SRC_DEBUGINFO);
		/* fewer than two ways, or two that disagree: the dump's kallsyms too */
		need[i] = usable < 2 || look[i][0].addr != look[i][1].addr;
	}
	kallsyms_lookups(r, need, look, nlook);
	for (i = 0; i < OL_NVARS; i++) {
		ol_var_locate(r, (enum ol_var_id)i, look[i], nlook[i]);
		/* the vmlinux's size only for the address it gave */
		for (k = 0; k < nlook[i] && r->var[i].found; k++)
			if (look[i][k].source == OL_SRC_DEBUGINFO && look[i][k].addr != r->var[i].addr)
				size[i] = ol_vars[i].size;
		read_var(r, (enum ol_var_id)i, size[i]);
	}
}
