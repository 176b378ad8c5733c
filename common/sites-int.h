/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the three files of the sites share and no reader needs (not part of
 * sites.h): sites-frames.c reads a trace's frames, sites.c the reports of a
 * log, sites-decide.c which report decided the panic.  Each uses only the
 * ones before it.
 */
#ifndef OOPSLIMIT_SITES_INT_H
#define OOPSLIMIT_SITES_INT_H

#include <stdbool.h>
#include <stddef.h>

/* sites-frames.c: the bytes a title may not carry made '?'. */
void site_clean(char *s);

/*
 * sites-frames.c: t as a trace prints a frame, its function into name and
 * its module into mod; plain: a bare name counts too.  False when it is no
 * frame.
 */
bool site_frame(const char *t, bool plain, char *name, size_t name_len, char *mod, size_t mod_len);

/* sites.c: the index of the scanner's warning origin in its table of origins, or -1. */
int site_warn_origin_of(const char *scanner);

#endif
