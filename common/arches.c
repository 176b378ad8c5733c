// SPDX-License-Identifier: GPL-2.0
/*
 * The machines the readers read dumps of: common/arches.def as a table.
 * See arches.h.
 */
#include <stdio.h>
#include <string.h>

#include "arches.h"
#include "vmcoreinfo.h"

static const struct ol_arch arches[] = {
#define OL_ARCH(id, name, elf, uts, sizes, prstatus, kstart, ksym, kalign, ksize, first, key) \
	{ name, elf, uts, sizes, prstatus, kstart, ksym, kalign, ksize, first, key },
#include "arches.def"
#undef OL_ARCH
};

#define N_ARCHES (sizeof(arches) / sizeof(arches[0]))

const struct ol_arch *ol_arch_by_elf(uint16_t machine)
{
	size_t i;

	for (i = 0; i < N_ARCHES; i++)
		if (arches[i].elf_machine == machine)
			return &arches[i];
	return NULL;
}

const struct ol_arch *ol_arch_by_uts(const char *machine, size_t len)
{
	size_t i, n = strnlen(machine, len);

	for (i = 0; i < N_ARCHES; i++)
		if (strlen(arches[i].uts_machine) == n && !memcmp(arches[i].uts_machine, machine, n))
			return &arches[i];
	return NULL;
}

const struct ol_arch *ol_arch_by_vmcoreinfo(const char *text, size_t len)
{
	char val[32];
	size_t i;

	for (i = 0; i < N_ARCHES; i++)
		if (ol_vmcoreinfo_find(text, len, arches[i].vmci_key, val, sizeof(val)) == 0)
			return &arches[i];
	return NULL;
}

int ol_arch_page_size_ok(const struct ol_arch *a, uint64_t size)
{
	/* page_sizes is the sizes or'ed together: each a power of two */
	return size && !(size & (size - 1)) && size <= UINT32_MAX && (a->page_sizes & (uint32_t)size);
}

uint64_t ol_arch_page_size(const struct ol_arch *a)
{
	return UINT64_C(1) << __builtin_ctz(a->page_sizes);
}

int ol_arch_log_first(const char *line)
{
	size_t i;

	for (i = 0; i < N_ARCHES; i++)
		if (!strncmp(line, arches[i].log_first, strlen(arches[i].log_first)))
			return 1;
	return 0;
}

const char *ol_arch_names(void)
{
	static char names[64];
	size_t i, n = 0;

	if (names[0])
		return names;
	for (i = 0; i < N_ARCHES && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
				      i == 0 ? "" : i + 1 == N_ARCHES ? " or " : ", ", arches[i].name);
	return names;
}
