/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel variables of vars.def as an enum and a table. */
#ifndef OOPSLIMIT_VARS_H
#define OOPSLIMIT_VARS_H

enum ol_var_id {
	OL_V_NONE = -1,
#define OL_VAR(id, key, symbol, file, size, sysctl, range) OL_V_##id,
#include "vars.def"
#undef OL_VAR
	OL_NVARS,
};

/*
 * The values a variable can hold (vars.def's range column): up to max, or,
 * for a taint mask, only the bits the kernel knows (TAINT_FLAGS_COUNT: 19
 * in 6.1, 20 since TAINT_FWCTL in 6.15).
 */
enum ol_range_kind { OL_R_MAX, OL_R_TAINTS };
struct ol_range {
	enum ol_range_kind kind;
	unsigned long long max;
};
#define OL_TAINT_BITS 20
/*
 * Their letters, bit 0 first: the kernel's taint_flags table (kernel/panic.c;
 * 'J', TAINT_FWCTL, in 6.15), for when the dump's own cannot be read and for
 * reading "Tainted:" columns.  Its length is held to OL_TAINT_BITS.
 */
#define OL_TAINT_LETTERS "PFSRMBUDAWCIOELKXTNJ"
_Static_assert(sizeof(OL_TAINT_LETTERS) == OL_TAINT_BITS + 1, "one taint letter a bit");
#define OL_BOOL { OL_R_MAX, 1 }
#define OL_COUNT { OL_R_MAX, 0x7fffffffULL }
#define OL_UINT { OL_R_MAX, 0xffffffffULL }
#define OL_UPTO(n) { OL_R_MAX, (n) }
#define OL_TAINTS { OL_R_TAINTS, (1ULL << OL_TAINT_BITS) - 1 }

/* What vars.def says of one variable. */
struct ol_var_info {
	const char *key, *symbol, *file;
	unsigned int size;
	const char *sysctl;
	struct ol_range range;
};
extern const struct ol_var_info ol_vars[OL_NVARS];

/* The variable whose vars.def key is key, or OL_V_NONE. */
enum ol_var_id ol_var_id_of(const char *key);

#endif
