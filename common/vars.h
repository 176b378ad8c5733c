/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel variables of vars.def as an enum and a table. */
#ifndef OOPSLIMIT_VARS_H
#define OOPSLIMIT_VARS_H

enum ol_var_id {
	OL_V_NONE = -1,
#define OL_VAR(id, key, symbol, file, size, sysctl) OL_V_##id,
#include "vars.def"
#undef OL_VAR
	OL_NVARS,
};

/* What vars.def says of one variable. */
struct ol_var_info {
	const char *key, *symbol, *file;
	unsigned int size;
	const char *sysctl;
};
extern const struct ol_var_info ol_vars[OL_NVARS];

/* The variable whose vars.def key is key, or OL_V_NONE. */
enum ol_var_id ol_var_id_of(const char *key);

#endif
