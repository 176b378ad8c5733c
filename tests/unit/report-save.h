/* SPDX-License-Identifier: GPL-2.0 */
/*
 * With --json DIR, a unit test also writes each report it made up to
 * DIR/PREFIX-NAME.json, where tests/check.sh validates it against the
 * schema. save_json() does nothing when no DIR was given.
 */
#ifndef OOPSLIMIT_REPORT_SAVE_H
#define OOPSLIMIT_REPORT_SAVE_H

#include <stdio.h>

#include "../../common/report.h"
#include "tap.h"

static const char *json_dir;

static inline void save_json(const struct ol_report *r, const char *prefix, const char *name)
{
	char path[4200];
	FILE *f;

	if (!json_dir)
		return;
	snprintf(path, sizeof(path), "%s/%s-%s.json", json_dir, prefix, name);
	f = fopen(path, "w");
	if (!f) {
		ok_got(false, "write a report for the schema check", path);
		return;
	}
	ol_report_json(f, r);
	if (fclose(f) != 0)
		ok_got(false, "write a report for the schema check", path);
}

#endif
