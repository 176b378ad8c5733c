// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: what the recorder decodes from a dump (VMCOREINFO, the
 * kallsyms tables, the printk ring buffer), from an image in
 * tests/unit/memimg.h's file form: VMCOREINFO text and segments of kernel
 * memory.  Besides the sanitizers, it traps when a decoder breaks its
 * contract: a log line that does not end in its one newline, a record
 * count that does not add up, a picked address that was not a match.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/kallsyms.h"
#include "../../common/printk.h"
#include "../unit/memimg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {
#define OL_VAR(id, key, symbol, file, size, sysctl, range) symbol,
#include "../../common/vars.def"
#undef OL_VAR
	"_stext", "prb",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static void line(void *arg, const char *s, size_t len)
{
	unsigned long *lines = arg;

	if (len == 0 || s[len - 1] != '\n' || s[len] != '\0' || memchr(s, '\n', len - 1))
		__builtin_trap();
	(*lines)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct memimg img;
	struct ol_mem mem;
	struct ol_ksym syms[NNAMES];
	struct ol_printk res;
	char err[256];
	unsigned long lines = 0;
	uint64_t v;
	size_t i;
	unsigned int k;

	if (memimg_parse(&img, data, size))
		return 0;
	mem = memimg_mem(&img);
	for (i = 0; i < NNAMES; i++)
		syms[i].name = names[i];
	if (ol_kallsyms_find(&mem, syms, NNAMES, NULL, err, sizeof(err)) == 0) {
		for (i = 0; i < NNAMES; i++) {
			uint64_t addr;
			char type;
			bool found = false;

			if (syms[i].kept > OL_KSYM_KEEP || syms[i].kept > syms[i].found ||
			    syms[i].data > syms[i].found)
				__builtin_trap();
			if (ol_ksym_pick(&syms[i], &addr, &type, err, sizeof(err)) != 0)
				continue;
			for (k = 0; k < syms[i].kept; k++)
				found |= syms[i].match[k].addr == addr && syms[i].match[k].type == type;
			if (!found)
				__builtin_trap();
		}
	} else if (!err[0]) {
		__builtin_trap();	/* an error must say why */
	}
	if (ol_printk_read(&mem, line, &lines, &res) == 0) {
		if (res.records > lines || (res.reliable && res.why[0]) ||
		    (!res.reliable && !res.why[0]))
			__builtin_trap();
	} else if (!res.why[0] || lines) {
		__builtin_trap();
	}
	ol_vmci_number(&mem, "KERNELOFFSET", 16, &v);
	ol_vmci_number(&mem, "PAGESIZE", 10, &v);
	return 0;
}
