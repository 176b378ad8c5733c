// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for crash-ext/symfile.c: tying a static variable to its source
 * file through the ELF symbol table, on a small program this test compiles
 * and links (gcc on PATH), and reading VMCOREINFO text.  No dump, no crash.
 * TAP output; exit status 1 on any failure.
 *
 * tests/check.sh builds it with crash-ext/symfile.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/vmcoreinfo.h"
#include "../../crash-ext/symfile.h"
#include "tap.h"


static char dir[] = "/tmp/crash-ext-symfile.XXXXXX";

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static int sh(const char *fmt, const char *arg)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, dir, arg, dir, dir);
	return system(cmd);
}

/* A program with the kernel's situation in miniature. */
static void build(void)
{
	/* exit.c: the real oops_count (file static) and a global oops_limit */
	put("exit.c", "static int oops_count = 1;\n"
		      "unsigned int oops_limit = 10000;\n"
		      "int *exit_count(void) { return &oops_count; }\n");
	/* other.c: another static oops_count, and percpu.c's function-local warn_limit */
	put("other.c", "static int oops_count = 2;\n"
		       "int *other_count(void) { return &oops_count; }\n"
		       "int pcpu(void) { static int warn_limit = 10; return --warn_limit; }\n");
	/* panic.c: a partial backport's function-local warn_count, a file static warn_limit */
	put("panic.c", "static unsigned int warn_limit;\n"
		       "int check(void) { static int warn_count; return ++warn_count + (int)warn_limit; }\n"
		       "char _stext[16];\n");
	put("main.c", "int *exit_count(void); int *other_count(void); int pcpu(void); int check(void);\n"
		      "int main(void) { return *exit_count() + *other_count() + pcpu() + check(); }\n");
	if (sh("cd %s && gcc -O0 -o prog exit.c other.c panic.c main.c%.0s", "") != 0) {
		printf("Bail out! cannot build the test program with gcc\n");
		exit(1);
	}
}

static const char *const names[] = { "oops_count", "oops_limit", "warn_count", "warn_limit" };

static void test_pick(void)
{
	struct olx_symtab tab;
	const struct olx_elfsym *e;
	enum olx_tie tie;
	char err[200], path[256];
	unsigned long v;
	size_t i, counts = 0;

	snprintf(path, sizeof(path), "%s/prog", dir);
	ok(olx_symtab_read(path, names, 4, &tab, err, sizeof(err)), "reads the test program's symbol table");
	ok(tab.have_files, "it has STT_FILE entries");
	for (i = 0; i < tab.count; i++)
		counts += strcmp(tab.syms[i].name, "oops_count") == 0;
	ok(counts == 2, "both statics named oops_count are kept");

	e = olx_symtab_pick(&tab, "oops_count", "exit.c", false, &tie);
	ok(e && tie == OLX_TIE_FILE && strcmp(e->file, "exit.c") == 0,
	   "oops_count: the static of exit.c, not other.c's");
	e = olx_symtab_pick(&tab, "oops_count", "panic.c", true, &tie);
	ok(!e && tie == OLX_TIE_NONE, "oops_count of panic.c: none (the others are other files')");

	e = olx_symtab_pick(&tab, "oops_limit", "exit.c", false, &tie);
	ok(e && tie == OLX_TIE_GLOBAL && e->global, "oops_limit: a global symbol");

	e = olx_symtab_pick(&tab, "warn_limit", "panic.c", true, &tie);
	ok(e && tie == OLX_TIE_FILE && strcmp(e->name, "warn_limit") == 0,
	   "warn_limit: panic.c's file static, not other.c's function-local warn_limit.N");

	e = olx_symtab_pick(&tab, "warn_count", "panic.c", false, &tie);
	ok(!e, "warn_count: no file static, and function-local ones not asked for");
	e = olx_symtab_pick(&tab, "warn_count", "panic.c", true, &tie);
	ok(e && tie == OLX_TIE_FUNC_LOCAL && strncmp(e->name, "warn_count.", 11) == 0,
	   "warn_count: panic.c's function-local warn_count.N when asked for");

	e = olx_symtab_pick(&tab, "warn_limit", "exit.c", true, &tie);
	ok(!e, "warn_limit of exit.c: other.c's warn_limit.N is not taken");

	ok(olx_symtab_value(&tab, "_stext", &v) && v != 0, "_stext is kept with its value");
	olx_symtab_free(&tab);
	ok(tab.count == 0 && tab.syms == NULL, "free empties the table");
}

static void test_bad_files(void)
{
	struct olx_symtab tab;
	char err[200], path[256];

	ok(!olx_symtab_read("/nonexistent/vmlinux", names, 4, &tab, err, sizeof(err)) &&
	   strstr(err, "cannot open"), "a missing file: 'cannot open'");

	snprintf(path, sizeof(path), "%s/exit.c", dir);
	ok(!olx_symtab_read(path, names, 4, &tab, err, sizeof(err)) && strstr(err, "not an ELF"),
	   "a text file: 'not an ELF file'");

	sh("cd %s && head -c 100 prog > cut100%.0s", "");
	snprintf(path, sizeof(path), "%s/cut100", dir);
	ok(!olx_symtab_read(path, names, 4, &tab, err, sizeof(err)), "an ELF cut at 100 bytes: refused");

	sh("cd %s && head -c $(( $(stat -c %%s prog) - 200 )) prog > cut%.0s", "");
	snprintf(path, sizeof(path), "%s/cut", dir);
	ok(!olx_symtab_read(path, names, 4, &tab, err, sizeof(err)) && err[0],
	   "an ELF cut short of its section headers: refused with a reason");

	sh("cd %s && strip -o stripped prog%.0s", "");
	snprintf(path, sizeof(path), "%s/stripped", dir);
	ok(!olx_symtab_read(path, names, 4, &tab, err, sizeof(err)) && strstr(err, "no symbol table"),
	   "a stripped program: 'no symbol table'");

	/* every byte after the ELF header garbled: must fail or succeed, never crash */
	sh("cd %s && { head -c 64 prog; head -c 20000 /dev/urandom; } > garbage%.0s", "");
	snprintf(path, sizeof(path), "%s/garbage", dir);
	if (olx_symtab_read(path, names, 4, &tab, err, sizeof(err)))
		olx_symtab_free(&tab);
	ok(true, "an ELF header followed by random bytes: no crash");
}

/* common/vmcoreinfo.c, which the extension uses for the kernel's own copy */
static void test_vmcoreinfo(void)
{
	static const char text[] = "OSRELEASE=6.1.192\n"
				   "SYMBOL(oops_count_x)=1\n"
				   "SYMBOL(oops_count)=ffffffff81cc00b4\n"
				   "NUMBER(phys_base)=186646528\n"
				   "KERNELOFFSET=11c00000";
	char v[32], tiny[4];
	uint64_t a;

	ok(ol_vmcoreinfo_find(text, strlen(text), "OSRELEASE", v, sizeof(v)) == 0 && strcmp(v, "6.1.192") == 0,
	   "vmcoreinfo: first line");
	ok(ol_vmcoreinfo_find(text, strlen(text), "SYMBOL(oops_count)", v, sizeof(v)) == 0 &&
	   strcmp(v, "ffffffff81cc00b4") == 0, "vmcoreinfo: a key that another key begins with");
	ok(ol_vmcoreinfo_find(text, strlen(text), "KERNELOFFSET", v, sizeof(v)) == 0 && strcmp(v, "11c00000") == 0,
	   "vmcoreinfo: last line without a newline");
	ok(ol_vmcoreinfo_find(text, strlen(text), "SYMBOL(warn_count)", v, sizeof(v)) != 0, "vmcoreinfo: absent key");
	ok(ol_vmcoreinfo_find(text, strlen(text), "OSRELEASE", tiny, sizeof(tiny)) != 0,
	   "vmcoreinfo: a value longer than the buffer is refused, not cut");
	ok(ol_vmcoreinfo_find("A=1\0B=2\n", 8, "B", v, sizeof(v)) != 0,
	   "vmcoreinfo: a NUL ends the text");
	ok(ol_vmcoreinfo_find(text, 10, "SYMBOL(oops_count)", v, sizeof(v)) != 0, "vmcoreinfo: length is respected");

	ok(ol_parse_u64("ffffffff81cc00b4", 16, &a) == 0 && a == 0xffffffff81cc00b4ULL, "hex: an address");
	ok(ol_parse_u64("", 16, &a) != 0 && ol_parse_u64("12g", 16, &a) != 0 &&
	   ol_parse_u64("1ffffffff81cc00b4", 16, &a) != 0 && ol_parse_u64("-1", 16, &a) != 0,
	   "hex: empty, trailing junk, 17 digits, sign: refused");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	build();
	test_pick();
	test_bad_files();
	test_vmcoreinfo();
	sh("rm -rf %s%.0s", "");
	return tap_done();
}
