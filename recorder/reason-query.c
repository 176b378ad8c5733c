// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit-reason's questions that read no dump: --settings (the panic
 * settings of common/vars.def, which the live metrics read) and --get
 * (members of a report, read with common/json.c: the one reader the shell
 * side uses, so that no script parses JSON with sed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/json.h"
#include "../common/vars.h"
#include "reason.h"

int reason_settings(void)
{
	int i;

	/* vars.def is the one list: the shell side asks for it */
	for (i = 0; i < OL_NVARS; i++)
		if (ol_vars[i].sysctl)
			printf("%s %s\n", ol_vars[i].key, ol_vars[i].sysctl);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* A report is kilobytes; padded (--reserve) at most 1 MiB more. */
#define REPORT_MAX (4 << 20)

struct wanted {
	const char *const *member;
	int n;
	char (*value)[OL_JSON_VALUE];
	bool *seen;
};

/* MEMBER is KEY (a member of the top object) or OBJECT.KEY (one level in). */
static bool member_is(const char *member, const char *parent, const char *key)
{
	const char *dot = strchr(member, '.');

	if (!dot)
		return parent[0] == '\0' && strcmp(member, key) == 0;
	return strlen(parent) == (size_t)(dot - member) && strncmp(member, parent, (size_t)(dot - member)) == 0 &&
	       strcmp(dot + 1, key) == 0;
}

static void take(void *arg, const char *parent, const char *key, enum ol_json_type type, const char *value)
{
	struct wanted *w = arg;
	int i;

	for (i = 0; i < w->n; i++) {
		if (w->seen[i] || !member_is(w->member[i], parent, key))
			continue;
		w->seen[i] = true;
		switch (type) {
		case OL_JSON_STRING:
		case OL_JSON_NUMBER:
			snprintf(w->value[i], OL_JSON_VALUE, "%s", value);
			break;
		case OL_JSON_TRUE:
		case OL_JSON_FALSE:
			snprintf(w->value[i], OL_JSON_VALUE, "%s", type == OL_JSON_TRUE ? "true" : "false");
			break;
		default:
			/* null, an object or an array: nothing to print */
			w->value[i][0] = '\0';
			break;
		}
	}
}

/* Reads all of f, up to REPORT_MAX bytes: the buffer, or NULL with why. */
static char *slurp(FILE *f, size_t *len, const char **why)
{
	char *buf = malloc(REPORT_MAX + 1);

	*why = "out of memory";
	if (!buf)
		return NULL;
	*len = fread(buf, 1, REPORT_MAX + 1, f);
	if (ferror(f) || *len > REPORT_MAX) {
		*why = ferror(f) ? strerror(errno) : "larger than any report";
		free(buf);
		return NULL;
	}
	return buf;
}

int reason_get(const char *const *member, int n, const char *path)
{
	char err[128], (*value)[OL_JSON_VALUE] = calloc((size_t)n, sizeof(*value));
	bool *seen = calloc((size_t)n, sizeof(*seen));
	struct wanted w = { member, n, value, seen };
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	const char *why = NULL;
	size_t len = 0;
	char *buf = NULL, *c;
	int i, rc = 1;

	if (!value || !seen) {
		reason_warnx("out of memory");
		goto out;
	}
	if (!f) {
		reason_warnx("cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	buf = slurp(f, &len, &why);
	if (f != stdin)
		fclose(f);
	if (!buf) {
		reason_warnx("cannot read %s: %s", path, why);
		goto out;
	}
	if (ol_json_read(buf, len, take, &w, err, sizeof(err)) != 0) {
		reason_warnx("%s is not a report: %s", path, err);
		goto out;
	}
	/* one line a member: its control characters (a newline) as blanks */
	for (i = 0; i < n; i++) {
		for (c = value[i]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = ' ';
		printf("%s\n", value[i]);
	}
	rc = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
out:
	free(buf);
	free(value);
	free(seen);
	return rc;
}

/* A member's name: KEY or OBJECT.KEY, of the characters report keys use. */
bool reason_member_name(const char *member)
{
	const char *dot = strchr(member, '.');

	return member[0] && member[0] != '.' && strspn(member, "abcdefghijklmnopqrstuvwxyz0123456789_.") ==
	       strlen(member) && (!dot || (dot[1] && !strchr(dot + 1, '.')));
}
