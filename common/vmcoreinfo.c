// SPDX-License-Identifier: GPL-2.0
/*
 * VMCOREINFO text and numbers; see vmcoreinfo.h.  Bounded by the length
 * given: the note comes from a dump and may be cut anywhere.
 */
#include <stdio.h>
#include <string.h>

#include "vmcoreinfo.h"

int ol_vmcoreinfo_find(const char *text, size_t len, const char *key, char *buf,
		       size_t buflen)
{
	size_t klen = strlen(key), pos = 0;
	const char *nul;

	if (!text || !buflen || !klen)
		return -1;
	nul = memchr(text, '\0', len);
	if (nul)
		len = (size_t)(nul - text);
	while (pos < len) {
		const char *line = text + pos, *end = memchr(line, '\n', len - pos);
		size_t llen = end ? (size_t)(end - line) : len - pos;

		if (llen > klen && line[klen] == '=' && memcmp(line, key, klen) == 0) {
			size_t vlen = llen - klen - 1;

			if (vlen >= buflen)
				return -1;
			memcpy(buf, line + klen + 1, vlen);
			buf[vlen] = '\0';
			return 0;
		}
		pos += llen + 1;
	}
	return -1;
}

int ol_parse_u64(const char *s, int base, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - d) / (unsigned int)base)
			return -1;
		v = v * (unsigned int)base + d;
	}
	*out = v;
	return 0;
}

int ol_vmci_number(const struct ol_mem *mem, const char *key, int base, uint64_t *out)
{
	char val[64];

	if (!mem->vmcoreinfo || mem->vmcoreinfo(mem->ctx, key, val, sizeof(val)) != 0)
		return OL_VMCI_ABSENT;
	val[sizeof(val) - 1] = '\0';
	return ol_parse_u64(val, base, out) == 0 ? 0 : OL_VMCI_BAD;
}

int ol_vmci_symbol(const struct ol_mem *mem, const char *name, uint64_t *addr)
{
	char key[160];

	if ((size_t)snprintf(key, sizeof(key), "SYMBOL(%s)", name) >= sizeof(key))
		return OL_VMCI_ABSENT;
	return ol_vmci_number(mem, key, 16, addr);
}
