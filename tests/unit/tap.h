/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few lines of TAP the unit tests share: ok() records one check,
 * ok_got() also shows what was found when it fails, tap_done() prints the
 * plan and the summary line and gives the exit status.
 */
#ifndef OOPSLIMIT_TAP_H
#define OOPSLIMIT_TAP_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed;

static inline void ok_got(bool cond, const char *what, const char *got)
{
	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - %s", cond ? "" : "not ", tap_n, what);
	if (!cond && got)
		printf(" (got '%s')", got);
	putchar('\n');
}

static inline void ok(bool cond, const char *what)
{
	ok_got(cond, what, NULL);
}

static inline int tap_done(void)
{
	printf("1..%d\n%d passed, %d failed\n", tap_n, tap_n - tap_failed, tap_failed);
	return tap_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
