// SPDX-License-Identifier: GPL-2.0
/*
 * outfile: a report written to a path without replacing a device, following
 * a planted link or leaving half a file behind.  See outfile.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The names that mean this process's standard output or error. */
static int std_fd(const char *path)
{
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/fd/1") ||
	    !strcmp(path, "/proc/self/fd/1"))
		return 1;
	if (!strcmp(path, "/dev/stderr") || !strcmp(path, "/dev/fd/2") || !strcmp(path, "/proc/self/fd/2"))
		return 2;
	return -1;
}

/*
 * A device, FIFO or terminal: opened without O_CREAT or O_TRUNC, so that
 * nothing at the name is created or replaced, and checked again once open
 * (the name may have changed since it was looked at).
 */
static enum ol_out_how write_direct(const char *path, const char *buf, size_t len, char *err,
				    size_t errlen)
{
	struct stat st;
	int fd, e;

	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		say(err, errlen, "cannot write %s: %s", path, strerror(e));
		errno = e;
		return OL_OUT_FAILED;
	}
	if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode)) {
		close(fd);
		say(err, errlen, "cannot write %s: it changed into a file or a block device while being opened",
		    path);
		errno = EAGAIN;
		return OL_OUT_FAILED;
	}
	if (write_all(fd, buf, len) != 0) {
		e = errno;
		close(fd);
		say(err, errlen, "cannot write %s: %s", path, strerror(e));
		errno = e;
		return OL_OUT_FAILED;
	}
	if (close(fd) != 0 && errno != EINTR) {
		e = errno;
		say(err, errlen, "cannot write %s: %s", path, strerror(e));
		errno = e;
		return OL_OUT_FAILED;
	}
	return OL_OUT_DIRECT;
}

/*
 * The new file: a unique temporary beside the name (mkostemp's O_EXCL
 * never opens an existing name, a symbolic link included), with the mode
 * of the file it replaces, synced, then renamed over the name.  0 or -1
 * with errno set; the temporary never stays behind.
 */
static int write_renamed(const char *path, const struct stat *old, const char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	char *tmp = NULL, *dir = NULL;
	mode_t mode, mask;
	int fd, e, dfd;

	if (asprintf(&tmp, "%.*s.%s.XXXXXX", dirlen, path, path + dirlen) < 0)
		return -1;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	if (old) {
		mode = old->st_mode & 07777;
	} else {
		mask = umask(022);
		umask(mask);
		mode = 0644 & ~mask;
	}
	if (fchmod(fd, mode) != 0 || write_all(fd, buf, len) != 0 || fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	/* the rename itself outlives a crash once the directory is synced */
	if (asprintf(&dir, "%.*s", dirlen ? dirlen : 1, dirlen ? path : ".") >= 0) {
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		free(dir);
	}
	return 0;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = e;
	return -1;
}

/*
 * The reserved-file fallback: a full file system has no room for the
 * temporary, but a regular file as long as the report (or longer) is
 * already at the name.  Written over from its start, the rest blanks and a
 * final newline.  0, or -1 with *have (the file's length, or -1 when there
 * is none to use) for the message.
 */
static int write_in_place(const char *path, const char *buf, size_t len, long long *have)
{
	static const char blanks[512] = { [0 ... 511] = ' ' };
	struct stat st;
	size_t off, n;
	int fd;

	*have = -1;
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	*have = (long long)st.st_size;
	if ((unsigned long long)st.st_size < len) {
		close(fd);
		return -1;
	}
	if (pwrite(fd, buf, len, 0) != (ssize_t)len)
		goto fail;
	for (off = len; off + 1 < (size_t)st.st_size; off += n) {
		n = (size_t)st.st_size - 1 - off;
		if (n > sizeof(blanks))
			n = sizeof(blanks);
		if (pwrite(fd, blanks, n, (off_t)off) != (ssize_t)n)
			goto fail;
	}
	if ((size_t)st.st_size > len && pwrite(fd, "\n", 1, st.st_size - 1) != 1)
		goto fail;
	if (fsync(fd) != 0)
		goto fail;
	return close(fd);
fail:
	close(fd);
	return -1;
}

static enum ol_out_how write_regular(const char *path, const struct stat *old, const char *buf,
				     size_t len, char *err, size_t errlen)
{
	long long have;
	int e;

	if (write_renamed(path, old, buf, len) == 0)
		return OL_OUT_RENAMED;
	e = errno;
	if ((e == ENOSPC || e == EDQUOT) && old) {
		if (write_in_place(path, buf, len, &have) == 0)
			return OL_OUT_IN_PLACE;
		if (have >= 0) {
			say(err, errlen, "cannot write %s: %s (the %lld bytes already there are too few for the report's %zu)",
			    path, strerror(e), have, len);
			errno = e;
			return OL_OUT_FAILED;
		}
	}
	say(err, errlen, "cannot write %s: %s", path, strerror(e));
	errno = e;
	return OL_OUT_FAILED;
}

enum ol_out_how ol_write_file(const char *path, const char *buf, size_t len, unsigned int flags,
			      char *err, size_t errlen)
{
	struct stat st, to;
	char *real;
	enum ol_out_how how;
	int fd;

	if (err && errlen)
		err[0] = '\0';
	if (!path || !*path) {
		say(err, errlen, "cannot write a report to an empty file name");
		errno = EINVAL;
		return OL_OUT_FAILED;
	}
	fd = std_fd(path);
	if (fd >= 0) {
		if (write_all(fd, buf, len) != 0) {
			int e = errno;

			say(err, errlen, "cannot write to standard %s: %s", fd == 1 ? "output" : "error",
			    strerror(e));
			errno = e;
			return OL_OUT_FAILED;
		}
		return OL_OUT_DIRECT;
	}
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT) {
			int e = errno;

			say(err, errlen, "cannot write %s: %s", path, strerror(e));
			errno = e;
			return OL_OUT_FAILED;
		}
		return write_regular(path, NULL, buf, len, err, errlen);
	}
	if (S_ISREG(st.st_mode))
		return write_regular(path, &st, buf, len, err, errlen);
	if (S_ISDIR(st.st_mode)) {
		say(err, errlen, "cannot write %s: it is a directory (name a file in it)", path);
		errno = EISDIR;
		return OL_OUT_FAILED;
	}
	if (S_ISLNK(st.st_mode)) {
		/* a link to a device or FIFO (/dev/stdout's kind) replaces nothing */
		if (stat(path, &to) == 0 && (S_ISCHR(to.st_mode) || S_ISFIFO(to.st_mode)))
			return write_direct(path, buf, len, err, errlen);
		if (!(flags & OL_OUT_FOLLOW)) {
			say(err, errlen,
			    "cannot write %s: it is a symbolic link, and a report is not written through one unless asked to",
			    path);
			errno = ELOOP;
			return OL_OUT_FAILED;
		}
		real = realpath(path, NULL);
		if (!real) {
			int e = errno;

			say(err, errlen, "cannot write %s: the symbolic link leads nowhere usable (%s)", path,
			    strerror(e));
			errno = e;
			return OL_OUT_FAILED;
		}
		how = ol_write_file(real, buf, len, flags & ~(unsigned int)OL_OUT_FOLLOW, err, errlen);
		free(real);
		return how;
	}
	if (S_ISBLK(st.st_mode)) {
		say(err, errlen, "cannot write %s: it is a block device, which a report never overwrites", path);
		errno = EPERM;
		return OL_OUT_FAILED;
	}
	/* a character device, a FIFO, a terminal, a socket: as it is */
	return write_direct(path, buf, len, err, errlen);
}
