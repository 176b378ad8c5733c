// SPDX-License-Identifier: GPL-2.0
/*
 * A disk that stops answering, for tests/unit/reader-deadline.sh: loaded
 * with LD_PRELOAD into the recorder, it makes every pread() wait
 * OOPSLIMIT_TEST_STALL seconds before it reads, as a read from a stalled
 * NFS server or a failing disk does.  Only the recorder's child, which
 * reads the dump, calls pread().
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static void stall(void)
{
	const char *e = getenv("OOPSLIMIT_TEST_STALL");
	struct timespec t = { .tv_sec = e ? atoi(e) : 0 };

	while (t.tv_sec > 0 && nanosleep(&t, &t) != 0)
		;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	static ssize_t (*real)(int, void *, size_t, off_t);

	if (!real)
		real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	stall();
	return real ? real(fd, buf, len, off) : -1;
}

ssize_t pread64(int fd, void *buf, size_t len, off64_t off)
{
	static ssize_t (*real)(int, void *, size_t, off64_t);

	if (!real)
		real = (ssize_t (*)(int, void *, size_t, off64_t))dlsym(RTLD_NEXT, "pread64");
	stall();
	return real ? real(fd, buf, len, off) : -1;
}
