// SPDX-License-Identifier: GPL-2.0
/*
 * The table of the variables every reader looks for (vars.def), and the
 * lookup of one by its key.  Both the model and the log scanner
 * (verdict.c) take names from here, and this file takes none back.
 */
#include <string.h>

#include "vars.h"

const struct ol_var_info ol_vars[OL_NVARS] = {
#define OL_VAR(id, key, symbol, file, size, sysctl, range) \
	[OL_V_##id] = { key, symbol, file, size, sysctl, range },
#include "vars.def"
#undef OL_VAR
};

enum ol_var_id ol_var_id_of(const char *key)
{
	int i;

	for (i = 0; i < OL_NVARS; i++)
		if (strcmp(ol_vars[i].key, key) == 0)
			return (enum ol_var_id)i;
	return OL_V_NONE;
}
