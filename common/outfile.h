/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile: writing a report to a path the user named, without replacing,
 * following or truncating what it should not.
 *
 * A regular file (or a name not there yet) is written whole through a
 * temporary with a unique name in the same directory, created with O_EXCL
 * (so never through a symbolic link), synced and renamed over the name: a
 * reader sees the old report or the new one, never half of one.  A
 * character device, a FIFO or a terminal is written directly and left what
 * it is.  A symbolic link or a directory at the name is refused, unless the
 * caller allows following links; a block device is always refused.  When
 * the temporary cannot be written (a full file system) and a regular file
 * at least as long as the report is already there, the report is written
 * over it in place, padded with blanks: the capture's reserved-file
 * fallback.
 */
#ifndef OOPSLIMIT_OUTFILE_H
#define OOPSLIMIT_OUTFILE_H

#include <stddef.h>

enum {
	/* a symbolic link at the name: write the regular file it leads to */
	OL_OUT_FOLLOW = 1 << 0,
};

enum ol_out_how {
	OL_OUT_FAILED = -1,
	OL_OUT_RENAMED,		/* a new file renamed into place */
	OL_OUT_DIRECT,		/* a device, FIFO or standard output, written as it is */
	OL_OUT_IN_PLACE,	/* over a reserved file, the temporary failing */
};

/*
 * Writes len bytes of buf to path ("-" and /dev/stdout: standard output).
 * On failure, err (errlen bytes) holds one line naming the path and why,
 * and errno is set.  A report shorter than an existing file it is written
 * over in place is padded with blanks up to that file's length, ending
 * with a newline.
 */
enum ol_out_how ol_write_file(const char *path, const char *buf, size_t len, unsigned int flags,
			      char *err, size_t errlen);

#endif
