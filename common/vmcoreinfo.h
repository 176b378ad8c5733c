/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VMCOREINFO text: "KEY=VALUE" lines, as the kernel writes them into its
 * vmcoreinfo note (kernel/crash_core.c).  One parser for the text, and the
 * number readers every decoder uses on top of struct ol_mem.
 */
#ifndef OOPSLIMIT_VMCOREINFO_H
#define OOPSLIMIT_VMCOREINFO_H

#include <stddef.h>
#include <stdint.h>

#include "dumpmem.h"

/* What the number readers return besides 0. */
#define OL_VMCI_ABSENT (-1)	/* no such line */
#define OL_VMCI_BAD (-2)	/* the line is there, its value is not a number */

/*
 * Finds KEY in the len bytes of text (no terminator needed; a NUL ends the
 * text early) and copies its value, terminated, into buf.  0 when found and
 * it fit, -1 otherwise.  The first line with the key wins.
 */
int ol_vmcoreinfo_find(const char *text, size_t len, const char *key, char *buf,
		       size_t buflen);

/*
 * KEY's value as a number: hexadecimal without a prefix for SYMBOL(...) and
 * KERNELOFFSET (base 16), decimal for SIZE, OFFSET, LENGTH, PAGESIZE
 * (base 10).  Only digits, no sign, no overflow.  0, OL_VMCI_ABSENT or
 * OL_VMCI_BAD.
 */
int ol_vmci_number(const struct ol_mem *mem, const char *key, int base, uint64_t *out);

/* SYMBOL(name): the address the running kernel had for name. */
int ol_vmci_symbol(const struct ol_mem *mem, const char *name, uint64_t *addr);

/* Parses a whole string as an unsigned number in base 10 or 16: 0 or -1. */
int ol_parse_u64(const char *s, int base, uint64_t *out);

#endif
