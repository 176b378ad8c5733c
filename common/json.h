/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small, strict JSON reader for the reports a fleet tool reads back
 * (oopslimit-triage): RFC 8259 only (no comments, no trailing commas, no
 * NaN, no leading zeros, no lone surrogates, valid UTF-8), a bounded depth,
 * and the document in memory.  It hands the caller the members of the top
 * object and of the objects directly in it; it keeps nothing itself.
 * tests/unit/json-test.c; a pure function of its bytes, for fuzzing.  And
 * ol_json_string, the one string writer of every JSON the project writes.
 */
#ifndef OOPSLIMIT_JSON_H
#define OOPSLIMIT_JSON_H

#include <stddef.h>
#include <stdio.h>

#define OL_JSON_DEPTH 32
#define OL_JSON_VALUE 512	/* a string member's value is cut to this many bytes, less one */

enum ol_json_type { OL_JSON_NULL, OL_JSON_FALSE, OL_JSON_TRUE, OL_JSON_NUMBER, OL_JSON_STRING, OL_JSON_OBJECT,
		    OL_JSON_ARRAY };

/*
 * One member: parent is "" for the top object, else the key of the object
 * it is in; value is the decoded string (STRING) or the number's text
 * (NUMBER), "" otherwise.
 */
typedef void (*ol_json_member_fn)(void *arg, const char *parent, const char *key, enum ol_json_type type,
				  const char *value);

/*
 * Reads the document buf (len bytes; NULs are invalid); 0 when it is one
 * valid JSON object, else -1 with why ("offset N: ...") in err.  fn may be
 * called before an error is found.
 */
int ol_json_read(const char *buf, size_t len, ol_json_member_fn fn, void *arg, char *err, size_t err_len);

/* Writes s as a JSON string, quotes included; invalid UTF-8 becomes U+FFFD. */
void ol_json_string(FILE *f, const char *s);

#endif
