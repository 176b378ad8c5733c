// SPDX-License-Identifier: GPL-2.0
/* Reading a pstore record of the kernel log: see pstore.h. */
#include <stdio.h>
#include <string.h>

#include "pstore.h"

/* The reasons kmsg_dump_reason_str() names, in 6.1 and later. */
static const char *const reasons[] = {
	"Panic", "Oops", "Emergency", "Shutdown", "Restart", "Halt", "Poweroff", "Unknown",
};

static bool suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && strcmp(s + n - m, suf) == 0;
}

/* A decimal number of at most 9 digits at *p; advances *p past it. */
static bool number(const char **p, const char *end, unsigned int *out)
{
	unsigned int v = 0, digits = 0;

	while (*p < end && **p >= '0' && **p <= '9' && digits < 9) {
		v = v * 10 + (unsigned int)(**p - '0');
		(*p)++;
		digits++;
	}
	*out = v;
	return digits > 0 && (*p >= end || **p < '0' || **p > '9');
}

/*
 * A log is text: a control character other than tab, newline and carriage
 * return, or a NUL, means compressed or damaged bytes (the kernel log
 * escapes what it prints as \xNN).
 */
static bool is_text(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
			return false;
	}
	return true;
}

enum ol_pstore_kind ol_pstore_part(const char *name, const char *buf, size_t len,
				   struct ol_pstore_part *part, char *why, size_t whylen)
{
	const char *p = buf, *nl;
	size_t i, n;

	memset(part, 0, sizeof(*part));
	why[0] = '\0';
	if (suffix(name, ".enc.z")) {
		snprintf(why, whylen, "%s is compressed with an algorithm the kernel that read it could not "
			 "decompress: its log cannot be read", name);
		return OL_PSTORE_UNREADABLE;
	}
	if (strncmp(name, "dmesg-", 6) != 0) {
		snprintf(why, whylen, "%s is not a kernel log record (pstore names those dmesg-*)", name);
		return OL_PSTORE_NOT_PANIC;
	}
	if (len == 0) {
		snprintf(why, whylen, "%s is empty", name);
		return OL_PSTORE_UNREADABLE;
	}
	nl = memchr(buf, '\n', len);
	for (i = 0; nl && i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		n = strlen(reasons[i]);
		if ((size_t)(nl - p) > n && memcmp(p, reasons[i], n) == 0 && p[n] == '#')
			break;
	}
	if (!nl || i == sizeof(reasons) / sizeof(reasons[0])) {
		snprintf(why, whylen, "%s has no pstore header (\"Panic#N PartM\"): compressed, damaged or "
			 "not a kernel log", name);
		return OL_PSTORE_UNREADABLE;
	}
	snprintf(part->why, sizeof(part->why), "%s", reasons[i]);
	p += strlen(reasons[i]) + 1;
	if (!number(&p, nl, &part->count) || nl - p < 6 || memcmp(p, " Part", 5) != 0) {
		snprintf(why, whylen, "%s: its header line is not \"%s#N PartM\"", name, part->why);
		return OL_PSTORE_UNREADABLE;
	}
	p += 5;
	if (!number(&p, nl, &part->partno) || p != nl || part->partno == 0) {
		snprintf(why, whylen, "%s: its header line is not \"%s#N PartM\"", name, part->why);
		return OL_PSTORE_UNREADABLE;
	}
	part->body = (size_t)(nl + 1 - buf);
	if (!is_text(buf + part->body, len - part->body)) {
		snprintf(why, whylen, "%s: its log holds bytes no kernel log has (compressed or damaged)", name);
		return OL_PSTORE_UNREADABLE;
	}
	if (strcmp(part->why, "Panic") != 0) {
		snprintf(why, whylen, "%s was written at an event of kind %s, not at a panic", name, part->why);
		return OL_PSTORE_NOT_PANIC;
	}
	return OL_PSTORE_PANIC;
}

void ol_pstore_feed(struct ol_report *r, const char *buf, size_t len, const struct ol_pstore_part *part)
{
	char line[1024];
	size_t i = part->body, n;

	while (i < len) {
		const char *s = buf + i, *nl = memchr(s, '\n', len - i);
		size_t l = nl ? (size_t)(nl - s) : len - i;

		i += l + (nl ? 1 : 0);
		/* the syslog prefix: "<" facility * 8 + level ">" */
		if (l > 2 && s[0] == '<') {
			for (n = 1; n < l && n < 5 && s[n] >= '0' && s[n] <= '9'; n++)
				;
			if (n > 1 && n < l && s[n] == '>') {
				s += n + 1;
				l -= n + 1;
			}
		}
		if (l && s[l - 1] == '\r')
			l--;
		/* a longer line than any the kernel prints is cut, not split */
		n = l < sizeof(line) - 1 ? l : sizeof(line) - 1;
		memcpy(line, s, n);
		line[n] = '\0';
		ol_report_log_line(r, line);
	}
}

void ol_pstore_judge(struct ol_report *r)
{
	r->no_memory = true;
	ol_log_done(&r->log);
	ol_report_judge(r);
	if (r->log_read && !r->log_unreliable && !r->log.have_panic) {
		r->reason = "unknown";
		r->setting = OL_V_NONE;
		snprintf(r->detail, sizeof(r->detail), "%s", "the pstore record was written at a panic, yet "
			 "its log has no panic message: it was cut before it");
		snprintf(r->evidence, sizeof(r->evidence), "%s", "nothing says which path panicked");
		r->consistent = -1;
	}
}
