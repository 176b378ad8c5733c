/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the oopslimit command (oopslimit.c) takes from variables.c: the
 * variables of common/vars.def found and read through crash, and crash's
 * reads of the dump for the decoders of common/.  Private to crash-ext/.
 */
#ifndef OOPSLIMIT_CRASH_VARIABLES_H
#define OOPSLIMIT_CRASH_VARIABLES_H

#include "../common/dumpmem.h"
#include "../common/report.h"

/* The dump's memory and VMCOREINFO for the decoders of common/: crash's readmem and VMCOREINFO. */
extern const struct ol_mem ol_crash_mem;

/*
 * Every variable of r located each way there is and read, with the kernel's
 * identity (release, CRASHTIME) and a note when the vmlinux does not fit
 * the dump.
 */
void ol_find_and_read(struct ol_report *r);

#endif
