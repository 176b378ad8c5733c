// SPDX-License-Identifier: GPL-2.0
/*
 * A strict JSON reader, and the one JSON string writer; see json.h.
 * Recursive descent over a buffer with its end known: every read checks the
 * end first, so a cut or garbled document is an error, never a read past it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

struct jr {
	const char *s, *end, *start;
	ol_json_member_fn fn;
	void *arg;
	char *err;
	size_t err_len;
	bool failed;
};

static bool fail(struct jr *j, const char *why)
{
	if (!j->failed)
		snprintf(j->err, j->err_len, "offset %zu: %s", (size_t)(j->s - j->start), why);
	j->failed = true;
	return false;
}

static void blanks(struct jr *j)
{
	while (j->s < j->end && (*j->s == ' ' || *j->s == '\t' || *j->s == '\n' || *j->s == '\r'))
		j->s++;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool u4(struct jr *j, unsigned int *v)
{
	int i, d;

	*v = 0;
	if (j->end - j->s < 4)
		return fail(j, "a \\u escape cut short");
	for (i = 0; i < 4; i++) {
		if ((d = hex(j->s[i])) < 0)
			return fail(j, "a \\u escape with a non-hex digit");
		*v = *v << 4 | (unsigned int)d;
	}
	j->s += 4;
	return true;
}

/* Appends code point cp as UTF-8 to out (room for n bytes, cut silently). */
static void put_cp(char *out, size_t *o, size_t n, unsigned int cp)
{
	char b[4];
	size_t k, i;

	if (cp < 0x80) {
		b[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		k = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		k = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		k = 4;
	}
	if (*o + k < n)
		for (i = 0; i < k; i++)
			out[(*o)++] = b[i];
}

/* One UTF-8 sequence at j->s (not ASCII): its code point, shortest form only. */
static bool utf8(struct jr *j, unsigned int *cp)
{
	const unsigned char *p = (const unsigned char *)j->s;
	size_t need, i, left = (size_t)(j->end - j->s);
	unsigned int min;

	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		need = 1, *cp = p[0] & 0x1f, min = 0x80;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		need = 2, *cp = p[0] & 0x0f, min = 0x800;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		need = 3, *cp = p[0] & 0x07, min = 0x10000;
	} else {
		return fail(j, "invalid UTF-8");
	}
	if (left <= need)
		return fail(j, "UTF-8 cut short");
	for (i = 1; i <= need; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return fail(j, "invalid UTF-8");
		*cp = *cp << 6 | (p[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return fail(j, "invalid UTF-8");
	j->s += need + 1;
	return true;
}

/* A string at j->s (its quote); decoded into out (n bytes, cut to fit). */
static bool string(struct jr *j, char *out, size_t n)
{
	size_t o = 0;
	unsigned int cp, lo;
	char c;

	j->s++;
	for (;;) {
		if (j->s >= j->end)
			return fail(j, "a string without its closing quote");
		c = *j->s;
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20)
			return fail(j, "a control character in a string");
		if ((unsigned char)c >= 0x80) {
			if (!utf8(j, &cp))
				return false;
			put_cp(out, &o, n, cp);
			continue;
		}
		j->s++;
		if (c != '\\') {
			put_cp(out, &o, n, (unsigned char)c);
			continue;
		}
		if (j->s >= j->end)
			return fail(j, "a string without its closing quote");
		c = *j->s++;
		switch (c) {
		case '"': case '\\': case '/':
			cp = (unsigned char)c;
			break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case 'u':
			if (!u4(j, &cp))
				return false;
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return fail(j, "a lone low surrogate");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (j->end - j->s < 2 || j->s[0] != '\\' || j->s[1] != 'u')
					return fail(j, "a lone high surrogate");
				j->s += 2;
				if (!u4(j, &lo))
					return false;
				if (lo < 0xdc00 || lo > 0xdfff)
					return fail(j, "a high surrogate without its low one");
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			break;
		default:
			return fail(j, "an unknown escape");
		}
		put_cp(out, &o, n, cp);
	}
	j->s++;
	if (n)
		out[o < n ? o : n - 1] = '\0';
	return true;
}

static bool digits(struct jr *j)
{
	const char *p = j->s;

	while (j->s < j->end && *j->s >= '0' && *j->s <= '9')
		j->s++;
	return j->s > p;
}

/* A number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; its text into out. */
static bool number(struct jr *j, char *out, size_t n)
{
	const char *p = j->s;
	size_t len;

	if (*j->s == '-')
		j->s++;
	if (j->s < j->end && *j->s == '0') {
		j->s++;
	} else if (j->s >= j->end || *j->s < '1' || *j->s > '9' || !digits(j)) {
		return fail(j, "not a value");
	}
	if (j->s < j->end && *j->s == '.') {
		j->s++;
		if (!digits(j))
			return fail(j, "a number without digits after its point");
	}
	if (j->s < j->end && (*j->s == 'e' || *j->s == 'E')) {
		j->s++;
		if (j->s < j->end && (*j->s == '+' || *j->s == '-'))
			j->s++;
		if (!digits(j))
			return fail(j, "a number without digits in its exponent");
	}
	len = (size_t)(j->s - p);
	if (len >= n)
		len = n - 1;
	memcpy(out, p, len);
	out[len] = '\0';
	return true;
}

static bool word(struct jr *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->s) < n || memcmp(j->s, w, n) != 0)
		return fail(j, "not a value");
	j->s += n;
	return true;
}

static bool value(struct jr *j, int depth, const char *parent, const char *key);

/* After a member or an element: 1 a ',' (more follow), 0 the closing bracket, -1 neither. */
static int after(struct jr *j, char close)
{
	blanks(j);
	if (j->s < j->end && (*j->s == ',' || *j->s == close))
		return *j->s++ == ',';
	return -1;
}

/* An object; members of the top one (depth 0) and of those in it go to fn. */
static bool object(struct jr *j, int depth, const char *name)
{
	char key[128];

	j->s++;
	blanks(j);
	if (j->s < j->end && *j->s == '}') {
		j->s++;
		return true;
	}
	for (;;) {
		blanks(j);
		if (j->s >= j->end || *j->s != '"')
			return fail(j, "a member without a string key");
		if (!string(j, key, sizeof(key)))
			return false;
		blanks(j);
		if (j->s >= j->end || *j->s != ':')
			return fail(j, "a key without its colon");
		j->s++;
		blanks(j);
		if (!value(j, depth + 1, depth <= 1 ? name : NULL, key))
			return false;
		switch (after(j, '}')) {
		case 1:
			continue;
		case 0:
			return true;
		default:
			return fail(j, "a member followed by neither ',' nor '}'");
		}
	}
}

static bool array(struct jr *j, int depth)
{
	j->s++;
	blanks(j);
	if (j->s < j->end && *j->s == ']') {
		j->s++;
		return true;
	}
	for (;;) {
		blanks(j);
		if (!value(j, depth + 1, NULL, NULL))
			return false;
		switch (after(j, ']')) {
		case 1:
			continue;
		case 0:
			return true;
		default:
			return fail(j, "an element followed by neither ',' nor ']'");
		}
	}
}

/* A value; parent non-NULL: it is a member the caller is told of. */
static bool value(struct jr *j, int depth, const char *parent, const char *key)
{
	char buf[OL_JSON_VALUE];
	enum ol_json_type t;

	buf[0] = '\0';
	if (depth > OL_JSON_DEPTH)
		return fail(j, "nested too deep");
	if (j->s >= j->end)
		return fail(j, "a value missing");
	switch (*j->s) {
	case '{':
		if (parent && j->fn)
			j->fn(j->arg, parent, key, OL_JSON_OBJECT, "");
		return object(j, depth, parent && !parent[0] ? key : "");
	case '[':
		if (parent && j->fn)
			j->fn(j->arg, parent, key, OL_JSON_ARRAY, "");
		return array(j, depth);
	case '"':
		t = OL_JSON_STRING;
		if (!string(j, buf, sizeof(buf)))
			return false;
		break;
	case 't':
		t = OL_JSON_TRUE;
		if (!word(j, "true"))
			return false;
		break;
	case 'f':
		t = OL_JSON_FALSE;
		if (!word(j, "false"))
			return false;
		break;
	case 'n':
		t = OL_JSON_NULL;
		if (!word(j, "null"))
			return false;
		break;
	default:
		t = OL_JSON_NUMBER;
		if (!number(j, buf, sizeof(buf)))
			return false;
	}
	if (parent && j->fn)
		j->fn(j->arg, parent, key, t, buf);
	return true;
}

int ol_json_read(const char *buf, size_t len, ol_json_member_fn fn, void *arg, char *err, size_t err_len)
{
	struct jr j = { buf, buf + len, buf, fn, arg, err, err_len, false };

	if (err_len)
		err[0] = '\0';
	blanks(&j);
	if (j.s >= j.end || *j.s != '{') {
		fail(&j, "not a JSON object");
		return -1;
	}
	if (!object(&j, 0, ""))
		return -1;
	blanks(&j);
	if (j.s != j.end) {
		fail(&j, "more after the object");
		return -1;
	}
	return 0;
}

void ol_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		unsigned char c = *p;
		int n = 0, i;

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c == '\r') {
			fputs("\\r", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, f);
		} else {
			/* a well-formed UTF-8 sequence passes; anything else is U+FFFD */
			if (c >= 0xc2 && c <= 0xdf)
				n = 1;
			else if (c >= 0xe0 && c <= 0xef)
				n = 2;
			else if (c >= 0xf0 && c <= 0xf4)
				n = 3;
			for (i = 1; i <= n; i++)
				if ((p[i] & 0xc0) != 0x80)
					break;
			if (n == 0 || i <= n ||
			    (c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
			    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f)) {
				fputs("\\ufffd", f);
			} else {
				fwrite(p, 1, (size_t)n + 1, f);
				p += n;
			}
		}
		p++;
	}
	fputc('"', f);
}
