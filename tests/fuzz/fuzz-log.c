// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the kernel log scanner (common/verdict.c).  The input
 * is a log, split at newlines into the lines ol_log_line() takes; the
 * first byte also picks the panic_on_oops that ol_log_crashed() is told.
 * Each line is also classified as a panic message and stripped of its time
 * stamp, the other two entry points that take text from a dump.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/verdict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ol_log log;
	char *text = malloc(size + 1), *line, *next;
	char origin[OL_SHORT], detail[OL_SHORT];
	enum ol_var_id setting;
	size_t len;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ol_log_init(&log);
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ol_log_line(&log, line);
		ol_classify_panic(line, NULL, &setting, origin, sizeof(origin), detail, sizeof(detail));
		ol_log_text(line, &len);
	}
	ol_log_done(&log);
	ol_log_crashed(&log, size ? data[0] % 3 - 1 : -1);
	free(text);
	return 0;
}
