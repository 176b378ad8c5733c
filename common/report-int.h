/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the report (report.c, checks.c, judge.c, report-text.c,
 * report-json.c) share and no reader needs: not part of report.h.
 */
#ifndef OOPSLIMIT_REPORT_INT_H
#define OOPSLIMIT_REPORT_INT_H

#include "report.h"

/* The variable was read, or implied by the log: its value is known. */
bool ol_have(const struct ol_report *r, enum ol_var_id id);

/* Where the counters of a report came from, for the writers. */
enum ol_source ol_counters_source(const struct ol_report *r);

/* Seconds since the epoch as ISO 8601 UTC ("2026-01-02T03:04:05Z"). */
void ol_iso_time(uint64_t t, char *buf, size_t len);

#endif
