// SPDX-License-Identifier: GPL-2.0
/*
 * The vmlinux symbol table as a map from a static variable to its source
 * file.  The linker keeps each object file's local symbols together, after
 * one STT_FILE entry naming the file ("exit.c"), so a static is tied to its
 * file by the STT_FILE entry in force where it appears.  Everything read from
 * the file is bounds-checked: a truncated or foreign file is an error line,
 * never a crash.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symfile.h"

/* No vmlinux has a symbol table this large; a bigger one is a broken header. */
#define MAX_TABLE (512UL << 20)
#define MAX_KEPT 4096

static void copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Reads len bytes at off; false on a short read or an out-of-file range. */
static bool read_at(int fd, uint64_t size, uint64_t off, uint64_t len, void *buf)
{
	size_t done = 0;

	if (off > size || len > size - off)
		return false;
	while (done < len) {
		ssize_t r = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		done += (size_t)r;
	}
	return true;
}

/* "name" or "name.<digits>" for one of names[]; sets *exact. */
static bool wanted(const char *sym, const char *const *names, size_t n, bool *exact)
{
	size_t i, len;
	const char *p;

	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		if (strncmp(sym, names[i], len) != 0)
			continue;
		if (sym[len] == '\0') {
			*exact = true;
			return true;
		}
		if (sym[len] != '.' || !isdigit((unsigned char)sym[len + 1]))
			continue;
		for (p = sym + len + 1; isdigit((unsigned char)*p); p++)
			;
		if (*p == '\0') {
			*exact = false;
			return true;
		}
	}
	return false;
}

static bool keep(struct olx_symtab *tab, size_t *cap, const char *name, const char *file,
		 const Elf64_Sym *s)
{
	struct olx_elfsym *e;

	if (tab->count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct olx_elfsym *n;

		if (ncap > MAX_KEPT)
			return false;
		n = realloc(tab->syms, ncap * sizeof(*n));
		if (!n)
			return false;
		tab->syms = n;
		*cap = ncap;
	}
	e = &tab->syms[tab->count++];
	copy(e->name, sizeof(e->name), name);
	copy(e->file, sizeof(e->file), file);
	e->value = (unsigned long)s->st_value;
	e->size = (unsigned long)s->st_size;
	e->global = ELF64_ST_BIND(s->st_info) != STB_LOCAL;
	return true;
}

bool olx_symtab_read(const char *path, const char *const *names, size_t n_names,
		     struct olx_symtab *tab, char *err, size_t err_len)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL, *symsh = NULL, *strsh;
	Elf64_Sym *syms = NULL;
	char *strs = NULL;
	const char *file = "";
	struct stat st;
	uint64_t shnum, i, nsyms;
	size_t cap = 0;
	bool ok = false;
	int fd;

	memset(tab, 0, sizeof(*tab));
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, err_len, "cannot open %s: %s", path, strerror(errno));
		return false;
	}
	if (fstat(fd, &st) < 0 || st.st_size < 0) {
		snprintf(err, err_len, "cannot stat %s: %s", path, strerror(errno));
		goto out;
	}
	if (!read_at(fd, (uint64_t)st.st_size, 0, sizeof(eh), &eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
		snprintf(err, err_len, "%s is not an ELF file", path);
		goto out;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
		snprintf(err, err_len, "%s is not a 64-bit little-endian ELF file", path);
		goto out;
	}
	if (eh.e_shoff == 0 || eh.e_shentsize != sizeof(Elf64_Shdr)) {
		snprintf(err, err_len, "%s has no section headers", path);
		goto out;
	}
	shnum = eh.e_shnum;
	if (shnum == 0) {
		/* extended numbering: the count is in section 0's sh_size */
		Elf64_Shdr first;

		if (!read_at(fd, (uint64_t)st.st_size, eh.e_shoff, sizeof(first), &first)) {
			snprintf(err, err_len, "%s: section headers beyond the end of the file", path);
			goto out;
		}
		shnum = first.sh_size;
	}
	if (shnum == 0 || shnum > (uint64_t)st.st_size / sizeof(Elf64_Shdr)) {
		snprintf(err, err_len, "%s: implausible section count %llu", path,
			 (unsigned long long)shnum);
		goto out;
	}
	sh = malloc(shnum * sizeof(*sh));
	if (!sh || !read_at(fd, (uint64_t)st.st_size, eh.e_shoff, shnum * sizeof(*sh), sh)) {
		snprintf(err, err_len, "%s: cannot read the section headers", path);
		goto out;
	}
	for (i = 0; i < shnum; i++) {
		if (sh[i].sh_type == SHT_SYMTAB) {
			symsh = &sh[i];
			break;
		}
	}
	if (!symsh) {
		snprintf(err, err_len, "%s has no symbol table (stripped?)", path);
		goto out;
	}
	if (symsh->sh_link >= shnum || sh[symsh->sh_link].sh_type != SHT_STRTAB ||
	    symsh->sh_entsize != sizeof(Elf64_Sym)) {
		snprintf(err, err_len, "%s: malformed symbol table", path);
		goto out;
	}
	strsh = &sh[symsh->sh_link];
	if (symsh->sh_size > MAX_TABLE || strsh->sh_size > MAX_TABLE || strsh->sh_size == 0) {
		snprintf(err, err_len, "%s: implausible symbol table size", path);
		goto out;
	}
	nsyms = symsh->sh_size / sizeof(Elf64_Sym);
	syms = malloc(nsyms ? nsyms * sizeof(*syms) : 1);
	strs = malloc(strsh->sh_size);
	if (!syms || !strs ||
	    !read_at(fd, (uint64_t)st.st_size, symsh->sh_offset, nsyms * sizeof(*syms), syms) ||
	    !read_at(fd, (uint64_t)st.st_size, strsh->sh_offset, strsh->sh_size, strs)) {
		snprintf(err, err_len, "%s: cannot read the symbol table (truncated file?)", path);
		goto out;
	}
	for (i = 0; i < nsyms; i++) {
		const Elf64_Sym *s = &syms[i];
		const char *name;
		bool exact;

		if (s->st_name >= strsh->sh_size ||
		    !memchr(strs + s->st_name, '\0', strsh->sh_size - s->st_name))
			continue;
		name = strs + s->st_name;
		if (ELF64_ST_TYPE(s->st_info) == STT_FILE) {
			file = name;
			tab->have_files = true;
			continue;
		}
		if (strcmp(name, "_stext") == 0) {
			if (!keep(tab, &cap, name, "", s))
				break;
			continue;
		}
		if (ELF64_ST_TYPE(s->st_info) != STT_OBJECT || !wanted(name, names, n_names, &exact))
			continue;
		if (!keep(tab, &cap, name, ELF64_ST_BIND(s->st_info) == STB_LOCAL ? file : "", s))
			break;
	}
	ok = true;
out:
	free(sh);
	free(syms);
	free(strs);
	close(fd);
	if (!ok)
		olx_symtab_free(tab);
	return ok;
}

void olx_symtab_free(struct olx_symtab *tab)
{
	free(tab->syms);
	tab->syms = NULL;
	tab->count = 0;
}

/* "name.<digits>" for name */
static bool func_local_of(const char *sym, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	if (strncmp(sym, name, len) != 0 || sym[len] != '.' || !isdigit((unsigned char)sym[len + 1]))
		return false;
	for (p = sym + len + 1; isdigit((unsigned char)*p); p++)
		;
	return *p == '\0';
}

const struct olx_elfsym *olx_symtab_pick(const struct olx_symtab *tab, const char *name,
					 const char *file, bool allow_func_local,
					 enum olx_tie *tie)
{
	const struct olx_elfsym *found = NULL;
	size_t i, n;

	*tie = OLX_TIE_NONE;
	for (i = 0; i < tab->count; i++) {
		const struct olx_elfsym *e = &tab->syms[i];

		if (!e->global && strcmp(e->name, name) == 0 && strcmp(e->file, file) == 0) {
			*tie = OLX_TIE_FILE;
			return e;
		}
	}
	for (i = 0; i < tab->count; i++) {
		const struct olx_elfsym *e = &tab->syms[i];

		if (e->global && strcmp(e->name, name) == 0) {
			*tie = OLX_TIE_GLOBAL;
			return e;
		}
	}
	if (!tab->have_files) {
		for (i = 0, n = 0; i < tab->count; i++) {
			if (strcmp(tab->syms[i].name, name) == 0) {
				found = &tab->syms[i];
				n++;
			}
		}
		if (n == 1) {
			*tie = OLX_TIE_UNIQUE;
			return found;
		}
		return NULL;
	}
	if (!allow_func_local)
		return NULL;
	/* two function-local statics of that name in one file: ambiguous */
	for (i = 0, n = 0; i < tab->count; i++) {
		const struct olx_elfsym *e = &tab->syms[i];

		if (!e->global && strcmp(e->file, file) == 0 && func_local_of(e->name, name)) {
			found = e;
			n++;
		}
	}
	if (n != 1)
		return NULL;
	*tie = OLX_TIE_FUNC_LOCAL;
	return found;
}

bool olx_symtab_value(const struct olx_symtab *tab, const char *name, unsigned long *value)
{
	size_t i;

	for (i = 0; i < tab->count; i++) {
		if (strcmp(tab->syms[i].name, name) == 0) {
			*value = tab->syms[i].value;
			return true;
		}
	}
	return false;
}
