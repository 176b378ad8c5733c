// SPDX-License-Identifier: GPL-2.0
/*
 * The frames of a report's trace, for sites.c: a trace line read as a
 * frame, its function name without offset and compiler suffixes, and the
 * generic helpers of common/frames.def that the search for the guilty frame
 * walks past.  See sites.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "sites.h"
#include "sites-int.h"
#include "verdict.h"

/* ---- the generic frames ------------------------------------------------- */

enum ol_frame_match { OL_FRAME_EXACT, OL_FRAME_PREFIX, OL_FRAME_CONTAINS };

static const struct {
	const char *name;
	enum ol_frame_match how;
} frames[] = {
#define OL_EXACT OL_FRAME_EXACT
#define OL_PREFIX OL_FRAME_PREFIX
#define OL_CONTAINS OL_FRAME_CONTAINS
#define OL_FRAME(name, how) { name, how },
#include "frames.def"
#undef OL_FRAME
#undef OL_CONTAINS
#undef OL_PREFIX
#undef OL_EXACT
};

static bool frame_matches(const char *name, const char *pattern, enum ol_frame_match how)
{
	switch (how) {
	case OL_FRAME_EXACT:
		return strcmp(name, pattern) == 0;
	case OL_FRAME_PREFIX:
		return strncmp(name, pattern, strlen(pattern)) == 0;
	case OL_FRAME_CONTAINS:
		return strstr(name, pattern) != NULL;
	}
	return false;
}

bool ol_site_generic(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
		if (frame_matches(name, frames[i].name, frames[i].how))
			return true;
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
	/* addresses before the frame: x86's "[<ffffffff81234567>] ", powerpc's "[c000000049a87710] [c00000000028...] " */
	while (t[0] == '[' && (e = strchr(t, ']')) && e - t <= 24 && strspn(t + 1, "<>0123456789abcdefx") == (size_t)(e - t - 1))
		for (t = e + 1; *t == ' '; t++)
			;
	/* arm's "[<825afeb4>] (dump_backtrace) from [<825b0128>] (show_stack+0x18/0x1c)": the first is the frame */
	if (t[0] == '(' && (e = strchr(t, ')')) && strstr(e, ") from ")) {
		ol_site_function(t + 1, (size_t)(e - t - 1), name, name_len);
		return name[0] && (isalpha((unsigned char)name[0]) || name[0] == '_');
	}
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

/* ---- the guilty frame ---------------------------------------------------- */

enum ol_entry_kind { OL_E_ENTRY, OL_E_ANCHOR, OL_E_WAITS, OL_E_IRQ };

static const struct {
	enum ol_entry_kind kind;
	const char *name;
	enum ol_frame_match how;
	const char *as;
} entries[] = {
#define OL_EXACT OL_FRAME_EXACT
#define OL_PREFIX OL_FRAME_PREFIX
#define OL_CONTAINS OL_FRAME_CONTAINS
#define OL_ENTRY(kind, name, how, as) { kind, name, how, as },
#include "entries.def"
#undef OL_ENTRY
#undef OL_CONTAINS
#undef OL_PREFIX
#undef OL_EXACT
};

/*
 * The prefixes a syscall's frames carry (SYSC_ and SyS_ before 4.17, the
 * per-ABI wrappers after commit 1bd21c6c21e8 "syscalls/core: Introduce
 * CONFIG_ARCH_HAS_SYSCALL_WRAPPER"): one syscall is sys_NAME on every
 * kernel line and architecture.
 */
static const char *const syscall_prefixes[] = {
	"__x64_sys_", "__ia32_sys_", "__ia32_compat_sys_", "__arm64_sys_", "__arm64_compat_sys_", "__se_sys_",
	"__do_sys_", "__sys_", "___sys_", "____sys_", "__se_compat_sys_", "__do_compat_sys_", "compat_SyS_",
	"compat_SYSC_", "SyS_", "SYSC_", "ksys_", "sys_",
};

/* A frame's name, a syscall's as sys_NAME. */
static void syscall_name(const char *name, char *out, size_t len)
{
	size_t i, n;

	for (i = 0; i < sizeof(syscall_prefixes) / sizeof(syscall_prefixes[0]); i++) {
		n = strlen(syscall_prefixes[i]);
		if (strncmp(name, syscall_prefixes[i], n) == 0 && name[n]) {
			snprintf(out, len, "sys_%s", name + n);
			return;
		}
	}
	ol_copy(out, len, name, strlen(name));
}

static bool entry_is(const char *frame, enum ol_entry_kind kind, const char **as)
{
	char name[OL_SITE_NAME];
	size_t i;

	syscall_name(frame, name, sizeof(name));
	for (i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (entries[i].kind == kind && frame_matches(name, entries[i].name, entries[i].how)) {
			if (as)
				*as = entries[i].as;
			return true;
		}
	return false;
}

static void name_frame(const struct ol_event_frame *f, char *func, size_t func_len, char *mod, size_t mod_len)
{
	syscall_name(f->name, func, func_len);
	ol_copy(mod, mod_len, f->module, strlen(f->module));
}

/* Whether a frame may name a report of this shape: no generic helper, none of the checker's own. */
static bool may_name(const struct ol_shape *shape, const char *name)
{
	return !ol_site_generic(name) && !(shape->skip && ol_shape_any(shape->skip, name, strlen(name)));
}

/* The first frame of kind (OL_FK_AT, or the trace with its RIP lines) from i on that may name it. */
static int first_naming(const struct ol_site_event *ev, unsigned int i, bool at)
{
	const struct ol_shape *shape = &ol_shapes[ev->shape];

	for (; i < ev->nframes; i++)
		if ((ev->frames[i].kind == OL_FK_AT) == at && may_name(shape, ev->frames[i].name))
			return (int)i;
	return -1;
}

/*
 * A stall: from the interrupted instruction on (the frames before it are the
 * watchdog's interrupt), the last frame that may name it before the first
 * entry point.  An IPI's sender names itself: every CPU that waits for the
 * others in smp_call_function*() is the same stall.
 */
static int stall_frame(const struct ol_site_event *ev, const char **as)
{
	const struct ol_shape *shape = &ol_shapes[ev->shape];
	unsigned int i, start = 0;
	int last = -1;

	for (i = 0; i < ev->nframes; i++)
		if (ev->frames[i].kind == OL_FK_RIP)
			break;
	if (i < ev->nframes) {
		start = i;
	} else {
		/* no RIP line (4.x): below the interrupt it came in by */
		for (i = 0; i < ev->nframes; i++)
			if (entry_is(ev->frames[i].name, OL_E_IRQ, NULL))
				start = i + 1;
	}
	for (i = start; i < ev->nframes; i++) {
		const char *name = ev->frames[i].name;

		if (ev->frames[i].kind == OL_FK_AT)
			continue;
		if (entry_is(name, OL_E_ENTRY, NULL)) {
			if (strstr(name, "smp_call_function")) {
				*as = "smp_call_function";
				return (int)i;
			}
			return last >= 0 ? last : first_naming(ev, start, false);
		}
		if (may_name(shape, name))
			last = (int)i;
	}
	/* no entry point: the trace was cut, and its top is all there is */
	return first_naming(ev, start, false);
}

/* A hung task: a wait that names the hang, else the first frame that does more than wait. */
static int hung_frame(const struct ol_site_event *ev, const char **as)
{
	const struct ol_shape *shape = &ol_shapes[ev->shape];
	unsigned int i;

	for (i = 0; i < ev->nframes; i++)
		if (ev->frames[i].kind != OL_FK_AT && entry_is(ev->frames[i].name, OL_E_ANCHOR, as))
			return (int)i;
	for (i = 0; i < ev->nframes; i++) {
		const char *name = ev->frames[i].name;

		if (ev->frames[i].kind != OL_FK_AT && !entry_is(name, OL_E_WAITS, NULL) && may_name(shape, name))
			return (int)i;
	}
	return -1;
}

bool site_guilty(const struct ol_site_event *ev, char *func, size_t func_len, char *mod, size_t mod_len)
{
	const struct ol_shape *shape = &ol_shapes[ev->shape];
	const char *as = NULL;
	int i = -1;

	func[0] = mod[0] = '\0';
	switch (shape->guilty) {
	case OL_G_NONE:
		return true;
	case OL_G_HEADER:
		if (ev->header[0] && may_name(shape, ev->header)) {
			struct ol_event_frame f = { .kind = OL_FK_TRACE };

			ol_copy(f.name, sizeof(f.name), ev->header, strlen(ev->header));
			ol_copy(f.module, sizeof(f.module), ev->header_module, strlen(ev->header_module));
			name_frame(&f, func, func_len, mod, mod_len);
			return true;
		}
		i = first_naming(ev, 0, false);
		break;
	case OL_G_FRAMES:
		i = first_naming(ev, 0, false);
		break;
	case OL_G_STALL:
		i = stall_frame(ev, &as);
		break;
	case OL_G_HUNG:
		i = hung_frame(ev, &as);
		break;
	case OL_G_LOCK:
		i = first_naming(ev, 0, true);
		if (i < 0)
			i = first_naming(ev, 0, false);
		break;
	}
	if (as) {
		ol_copy(func, func_len, as, strlen(as));
		return true;
	}
	if (i < 0)
		return false;
	name_frame(&ev->frames[i], func, func_len, mod, mod_len);
	return true;
}
