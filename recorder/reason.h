// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's reading of a dump (reason-dump.c), for its main program
 * (oopslimit-reason.c) and the fuzzer that feeds it VMCOREINFO notes.
 */
#ifndef OOPSLIMIT_REASON_H
#define OOPSLIMIT_REASON_H

#include <stdbool.h>

#include "../common/report.h"
#include "dump.h"

/*
 * Opens the dump at path and fills r's variables, release and crash time
 * from it: the dump, or NULL with r->dump_error saying why.
 */
struct ol_dump *reason_read_dump(const char *path, struct ol_report *r);
/* Feeds the dump's printk ring buffer to r as its log, when it has one. */
void reason_read_ring(struct ol_dump *d, struct ol_report *r);
/*
 * The two above in a child process (with the ring when ring is set), so
 * that a dump that kills its reader, or stalls it past
 * OOPSLIMIT_READ_SECONDS (300 s), costs its facts, not the report: true
 * when the dump was opened; r->dump_error says what went wrong.
 */
bool reason_read_dump_apart(const char *path, struct ol_report *r, bool ring);

#endif
