// SPDX-License-Identifier: GPL-2.0
/*
 * The report shapes: common/reports.def as a table.  See shapes.h.
 */
#define _GNU_SOURCE
#include <string.h>

#include "shapes.h"

const struct ol_shape ol_shapes[] = {
#define OL_SHAPE(text, at, cond, title, origin, warn, cls, guilty, skip, flags) \
	{ text, at, cond, title, origin, warn, cls, guilty, skip, flags },
#include "reports.def"
#undef OL_SHAPE
};
const size_t ol_nshapes = sizeof(ol_shapes) / sizeof(ol_shapes[0]);

bool ol_shape_any(const char *list, const char *s, size_t len)
{
	const char *w = list, *bar;
	size_t n;

	while (w && *w) {
		bar = strchr(w, '|');
		n = bar ? (size_t)(bar - w) : strlen(w);
		if (n && memmem(s, len, w, n))
			return true;
		w = bar ? bar + 1 : NULL;
	}
	return false;
}

int ol_shape_find(const char *s, size_t len, enum ol_shape_at at, size_t from)
{
	size_t i, n;

	for (i = from; i < ol_nshapes; i++) {
		const struct ol_shape *r = &ol_shapes[i];

		if ((r->at == OL_DIE) != (at == OL_DIE))
			continue;
		n = strlen(r->text);
		if (r->at == OL_ANYWHERE ? !memmem(s, len, r->text, n) : len < n || memcmp(s, r->text, n) != 0)
			continue;
		if (r->cond && !ol_shape_any(r->cond, s, len))
			continue;
		return (int)i;
	}
	return -1;
}
