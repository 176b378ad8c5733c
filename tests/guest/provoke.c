// SPDX-License-Identifier: GPL-2.0
/*
 * provoke - trigger an LKDTM crash type COUNT times, each time from a fresh
 * child process, so that an oops kills the child and not the caller.
 *
 * Usage: provoke TYPE COUNT
 *
 * Prints one line: "TYPE COUNT survived=S killed=K ms=T us_each=U", where a
 * child that returned from its write survived (a WARN does not kill) and one
 * ended by a signal was killed by an oops.  T is the wall time of the whole
 * loop.  Exits 0 when every child ran, 1 on a usage or system error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DIRECT "/sys/kernel/debug/provoke-crash/DIRECT"

/* The child: one write to LKDTM, then exit 0 if the kernel let us return. */
static void child(const char *type)
{
	size_t len = strlen(type);
	int fd = open(DIRECT, O_WRONLY);

	if (fd < 0)
		_exit(2);
	if (write(fd, type, len) != (ssize_t)len)
		_exit(3);
	_exit(0);
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	unsigned long count, i, survived = 0, killed = 0;
	long long start, took;
	char *end;

	if (argc != 3) {
		fprintf(stderr, "usage: provoke TYPE COUNT\n");
		return 1;
	}
	errno = 0;
	count = strtoul(argv[2], &end, 10);
	if (errno || *end || end == argv[2] || count == 0) {
		fprintf(stderr, "provoke: bad count '%s'\n", argv[2]);
		return 1;
	}

	start = now_us();
	for (i = 0; i < count; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			perror("provoke: fork");
			return 1;
		}
		if (pid == 0)
			child(argv[1]);
		if (waitpid(pid, &status, 0) != pid) {
			perror("provoke: waitpid");
			return 1;
		}
		if (WIFSIGNALED(status)) {
			killed++;
		} else if (WEXITSTATUS(status) == 0) {
			survived++;
		} else {
			fprintf(stderr, "provoke: child could not write %s (status %d)\n",
				DIRECT, WEXITSTATUS(status));
			return 1;
		}
	}
	took = now_us() - start;
	printf("%s %lu survived=%lu killed=%lu ms=%lld us_each=%lld\n", argv[1], count,
	       survived, killed, took / 1000, took / (long long)count);
	return 0;
}
