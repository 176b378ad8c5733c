/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a file-scoped static lives, from the vmlinux ELF symbol table: the
 * one thing crash's API cannot say, since crash keeps no STT_FILE entries.
 * Plain C, no crash calls, so tests/unit/symfile-test.c can test it against
 * a small ELF it links.
 */
#ifndef OOPSLIMIT_SYMFILE_H
#define OOPSLIMIT_SYMFILE_H

#include <stdbool.h>
#include <stddef.h>

#define OLX_NAME 64

/* One symbol table entry that matched a wanted name. */
struct olx_elfsym {
	char name[OLX_NAME];	/* as in the table: "oops_count" or "oops_count.3" */
	char file[OLX_NAME];	/* the STT_FILE before it, for local symbols; "" else */
	unsigned long value;	/* link-time address */
	unsigned long size;
	bool global;
};

struct olx_symtab {
	struct olx_elfsym *syms;
	size_t count;
	bool have_files;	/* the table has STT_FILE entries at all */
};

/*
 * Reads the .symtab of the ELF file at path and keeps the object symbols
 * named exactly one of names[], or one of them followed by ".<digits>"
 * (gcc's name for a function-local static), with the STT_FILE name in force
 * for each.  Symbols named exactly "_stext" are kept too, of any type, to
 * relate link-time addresses to the running ones.  Returns false with a
 * one-line reason in err on any malformed or unreadable input.
 */
bool olx_symtab_read(const char *path, const char *const *names, size_t n_names,
		     struct olx_symtab *tab, char *err, size_t err_len);
void olx_symtab_free(struct olx_symtab *tab);

/* How a variable was tied to its source file. */
enum olx_tie {
	OLX_TIE_NONE,
	OLX_TIE_FILE,		/* a file-scoped static of that file */
	OLX_TIE_GLOBAL,		/* a global symbol of that name */
	OLX_TIE_UNIQUE,		/* no STT_FILE entries; the only symbol of that name */
	OLX_TIE_FUNC_LOCAL,	/* a function-local static "name.N" of that file */
};

/*
 * Picks the symbol for variable name defined in file (a basename such as
 * "exit.c"): a static of that file, else a global of that name, else (when
 * the table has no file entries) the only local of that name.  Function-local
 * statics are returned only when allow_func_local is set and nothing else
 * matched.  Returns NULL when none fits.
 */
const struct olx_elfsym *olx_symtab_pick(const struct olx_symtab *tab, const char *name,
					 const char *file, bool allow_func_local,
					 enum olx_tie *tie);

/* The link-time address of a symbol kept by name ("_stext"); false if absent. */
bool olx_symtab_value(const struct olx_symtab *tab, const char *name, unsigned long *value);

#endif
