// SPDX-License-Identifier: GPL-2.0
/*
 * The frames of a report's trace, for sites.c: a trace line read as a
 * frame, its function name without offset and compiler suffixes, and the
 * generic helpers of common/frames.def that the search for the guilty frame
 * walks past.  See sites.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <string.h>

#include "sites.h"
#include "sites-int.h"
#include "verdict.h"

/* ---- the generic frames ------------------------------------------------- */

enum ol_frame_match { OL_FRAME_EXACT, OL_FRAME_PREFIX };

static const struct {
	const char *name;
	enum ol_frame_match how;
} frames[] = {
#define OL_EXACT OL_FRAME_EXACT
#define OL_PREFIX OL_FRAME_PREFIX
#define OL_FRAME(name, how) { name, how },
#include "frames.def"
#undef OL_FRAME
#undef OL_PREFIX
#undef OL_EXACT
};

bool ol_site_generic(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
		if (frames[i].how == OL_FRAME_EXACT ? strcmp(name, frames[i].name) == 0 :
		    strncmp(name, frames[i].name, strlen(frames[i].name)) == 0)
			return true;
	}
	return false;
}

/* ---- normalising --------------------------------------------------------- */

/* Bytes a title may not carry (it goes into text, JSON and CSV): '?'. */
void site_clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f || *s == '"' || *s == '\\')
			*s = '?';
}

void ol_site_function(const char *s, size_t n, char *out, size_t out_len)
{
	/* what GCC and Clang append to a function they cloned or split */
	static const char *const suffixes[] = { ".isra.", ".constprop.", ".part.", ".cold", ".llvm.",
						".lto_priv", ".specialized." };
	const char *cut;
	size_t i;

	if ((cut = memmem(s, n, "+0x", 3)))
		n = (size_t)(cut - s);
	if (n >= 2 && s[n - 2] == '(' && s[n - 1] == ')')
		n -= 2;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if ((cut = memmem(s, n, suffixes[i], strlen(suffixes[i]))))
			n = (size_t)(cut - s);
	ol_copy(out, out_len, s, n);
	site_clean(out);
}

/*
 * A frame as traces print it: "foo+0x12/0x40 [mod buildid]", "? foo+..."
 * (a stale word on the stack: not a frame), "[<ffffffff81234567>] foo+..."
 * (before 4.15), "foo+0x12/0x40 drivers/x.c:10" or "foo drivers/x.c:10
 * [inline]" (symbolised by syzkaller's tools).  plain: a bare name counts
 * too (a RIP line symbolised by a script).  False when it is no frame.
 */
bool site_frame(const char *t, bool plain, char *name, size_t name_len, char *mod, size_t mod_len)
{
	const char *e, *b;
	size_t n;

	mod[0] = '\0';
	if (t[0] == '[' && t[1] == '<' && (e = strstr(t, ">] ")))
		t = e + 3;
	if (t[0] == '?' && t[1] == ' ')
		return false;
	if (!isalpha((unsigned char)t[0]) && t[0] != '_' && t[0] != '.')
		return false;
	n = strcspn(t, " \t");
	if (!memmem(t, n, "+0x", 3) && !plain && !strstr(t + n, "[inline]"))
		return false;
	ol_site_function(t, n, name, name_len);
	if (!name[0])
		return false;
	for (b = t + n; *b == ' '; b++)
		;
	if (*b == '[' && strncmp(b, "[inline]", 8) != 0) {
		b++;
		ol_copy(mod, mod_len, b, strcspn(b, " ]"));
		site_clean(mod);
	}
	return true;
}
