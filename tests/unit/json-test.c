// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for common/json.c, the strict reader oopslimit-triage reads
 * reports with: documents of the report's shape, and malformed input that
 * must be refused (RFC 8259's grammar, UTF-8, surrogates, depth), every
 * cut of a valid document included.  TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/json.h"
#include "tap.h"

struct seen {
	char reason[OL_JSON_VALUE], time[OL_JSON_VALUE], sig[OL_JSON_VALUE], schema[32];
	int members, nested;
};

static void member(void *arg, const char *parent, const char *key, enum ol_json_type type, const char *value)
{
	struct seen *s = arg;

	if (parent[0]) {
		s->nested++;
		if (strcmp(parent, "capture") == 0 && strcmp(key, "time") == 0)
			snprintf(s->time, sizeof(s->time), "%s", value);
		return;
	}
	s->members++;
	if (strcmp(key, "reason") == 0 && type == OL_JSON_STRING)
		snprintf(s->reason, sizeof(s->reason), "%s", value);
	if (strcmp(key, "signature") == 0 && type == OL_JSON_STRING)
		snprintf(s->sig, sizeof(s->sig), "%s", value);
	if (strcmp(key, "schema") == 0 && type == OL_JSON_NUMBER)
		snprintf(s->schema, sizeof(s->schema), "%s", value);
}

/* A report's shape: nested objects, arrays of objects, escapes, numbers of every form. */
static const char report[] =
	"{\"schema\":3,\"reason\":\"warn_limit\",\"signature\":\"warn_limit: WARNING in f\\u00e9\\ud83d\\ude00\","
	"\"log\":{\"sites\":[{\"title\":\"WARNING in f\",\"count\":2,\"first_time\":4.527146e0},{}],"
	"\"deep\":{\"a\":[1,-0.5,1E+3,true,false,null]}},"
	"\"capture\":{\"time\":\"2026-12-06T12:00:00Z\",\"seconds\":0.41},"
	"\"notes\":[\"a \\\"quoted\\\" \\\\ \\/ \\b\\f\\n\\r\\t note\"],\"taint\":\"\xc3\x97\"}\n";

static void test_valid(void)
{
	struct seen s;
	char err[128];

	memset(&s, 0, sizeof(s));
	ok_got(ol_json_read(report, strlen(report), member, &s, err, sizeof(err)) == 0, "a report reads", err);
	ok(strcmp(s.reason, "warn_limit") == 0 && strcmp(s.schema, "3") == 0, "top members and numbers");
	ok_got(strcmp(s.sig, "warn_limit: WARNING in f\xc3\xa9\xf0\x9f\x98\x80") == 0,
	       "\\u escapes and a surrogate pair decode to UTF-8", s.sig);
	ok(strcmp(s.time, "2026-12-06T12:00:00Z") == 0, "a member of a nested object");
	ok(s.members == 7, "every top member is told of, once");
	ok(ol_json_read("{}", 2, member, &s, err, sizeof(err)) == 0, "an empty object");
	ok(ol_json_read(" \t\r\n{ \"a\" : [ ] }\n", 17, NULL, NULL, err, sizeof(err)) == 0, "blanks everywhere");
}

static void test_invalid(void)
{
	static const char *const bad[] = {
		"", " ", "[]", "\"x\"", "1", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":[1,]}",
		"{,}", "{\"a\":01}", "{\"a\":-}", "{\"a\":1.}", "{\"a\":1e}", "{\"a\":.5}", "{\"a\":+1}",
		"{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":tru}", "{\"a\":nul}", "{a:1}", "{'a':1}",
		"{\"a\":\"x}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12g4\"}",
		"{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}",
		"{\"a\":\"\x01\"}", "{\"a\":\"\xc0\xaf\"}", "{\"a\":\"\xe0\x80\xaf\"}", "{\"a\":\"\xed\xa0\x80\"}",
		"{\"a\":\"\xf4\x90\x80\x80\"}", "{\"a\":\"\xff\"}", "{\"a\":\"\xc3\"}", "{\"a\":1} x", "{\"a\":1}{}",
		"{\"a\":1 \"b\":2}", "{\"a\":[1 2]}", "{\"a\":/*c*/1}",
	};
	char err[128], deep[200], name[160];
	size_t i, n;
	int k;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(name, sizeof(name), "refused: '%s'", bad[i]);
		ok_got(ol_json_read(bad[i], strlen(bad[i]), NULL, NULL, err, sizeof(err)) != 0 && err[0], name, err);
	}
	ok(ol_json_read("{\"a\":1}\0", 8, NULL, NULL, err, sizeof(err)) != 0, "refused: a NUL after the object");
	/* nested past OL_JSON_DEPTH */
	n = (size_t)snprintf(deep, sizeof(deep), "{\"a\":");
	for (k = 0; k < OL_JSON_DEPTH + 2; k++)
		deep[n++] = '[';
	for (k = 0; k < OL_JSON_DEPTH + 2; k++)
		deep[n++] = ']';
	deep[n++] = '}';
	ok(ol_json_read(deep, n, NULL, NULL, err, sizeof(err)) != 0 && strstr(err, "deep"), "refused: too deep");
	/* every cut of a valid document: refused, and nothing read past the cut (ASan) */
	for (i = 0, k = 0; i + 1 < strlen(report); i++) {
		char *cut = malloc(i ? i : 1);

		memcpy(cut, report, i);
		k += ol_json_read(cut, i, member, &(struct seen){ 0 }, err, sizeof(err)) != 0;
		free(cut);
	}
	ok((size_t)k == strlen(report) - 1, "every cut of a report is refused");
}

int main(void)
{
	test_valid();
	test_invalid();
	return tap_done();
}
