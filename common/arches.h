/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machines the readers read dumps of: common/arches.def as a table.
 */
#ifndef OOPSLIMIT_ARCHES_H
#define OOPSLIMIT_ARCHES_H

#include <stddef.h>
#include <stdint.h>

struct ol_arch {
	const char *name;
	uint16_t elf_machine;
	const char *uts_machine;
	uint32_t page_sizes;	/* the page sizes, or'ed together */
	uint32_t prstatus_size;
	uint64_t ktext_start;	/* when ktext_symbol is NULL */
	const char *ktext_symbol;
	uint64_t ktext_align, ktext_size;
	const char *log_first;
	const char *vmci_key;
};

/* The row of an ELF e_machine, or NULL. */
const struct ol_arch *ol_arch_by_elf(uint16_t machine);
/* The row of a utsname machine (at most len bytes, NUL-terminated or not), or NULL. */
const struct ol_arch *ol_arch_by_uts(const char *machine, size_t len);
/* The row whose VMCOREINFO key the text (len bytes) has, or NULL. */
const struct ol_arch *ol_arch_by_vmcoreinfo(const char *text, size_t len);
/* Whether the machine's kernels run with pages of size bytes. */
int ol_arch_page_size_ok(const struct ol_arch *a, uint64_t size);
/* Its default page size: the smallest it runs with. */
uint64_t ol_arch_page_size(const struct ol_arch *a);
/* Whether a log line is how some machine's boot log begins (not wrapped). */
int ol_arch_log_first(const char *line);
/* The names of every row, "x86_64 or arm64", for messages. */
const char *ol_arch_names(void);

#endif
