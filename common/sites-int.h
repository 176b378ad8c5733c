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

#include "sites.h"

/* sites-frames.c: the bytes a title may not carry made '?'. */
void site_clean(char *s);

/*
 * sites-frames.c: t as a trace prints a frame, its function into name and
 * its module into mod; plain: a bare name counts too.  False when it is no
 * frame.
 */
bool site_frame(const char *t, bool plain, char *name, size_t name_len, char *mod, size_t mod_len);

/*
 * sites-frames.c: the guilty frame of a complete report by its shape's rule
 * (reports.def's guilty column, entries.def, frames.def), into func and
 * mod; false when the report has no frame that may name it.
 */
bool site_guilty(const struct ol_site_event *ev, char *func, size_t func_len, char *mod, size_t mod_len);

/*
 * sites.c: the index, among reports.def's warn origins in the order they
 * first appear there, of the origin check_panic_on_warn() was called with
 * ("kernel", "UBSAN", ...), or -1.
 */
int site_warn_origin_of(const char *warn);

#endif
