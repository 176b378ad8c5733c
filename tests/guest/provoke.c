// SPDX-License-Identifier: GPL-2.0
/*
 * provoke - make the test guest's kernel misbehave on demand, always from a
 * child process, so that an oops kills the child and not the caller.
 *
 * Usage:
 *   provoke TYPE COUNT
 *       Write the LKDTM crash type TYPE to DIRECT COUNT times, each time from
 *       a fresh child; on a kernel without LKDTM (Debian's, in the busybox
 *       guest of another machine), to the test module's /proc/oopslimit-test
 *       (tests/module: WARNING, WARNING_MESSAGE and EXCEPTION).  Prints "TYPE COUNT survived=S killed=K ms=T
 *       us_each=U": a child that returned from its write survived (a WARN
 *       does not kill), one ended by a signal was killed by an oops; T is the
 *       wall time of the whole loop.
 *   provoke -c POINT TYPE FILE
 *       Arm the LKDTM crash point POINT (a kprobe: INT_HW_IRQ_EN sits on
 *       handle_irq_event(), so TYPE then runs inside a hardware interrupt
 *       handler) with TYPE; LKDTM fires at the tenth hit.  Sleeps a second,
 *       then rewrites FILE for up to LOAD_SECONDS: on the virtio 9p file
 *       system every write completes with an interrupt.  Prints
 *       "crashpoint POINT TYPE load_ms=T" if the kernel is still there.
 *   provoke -m killable|unkillable
 *       A child allocates and touches memory a MiB at a time until the
 *       kernel stops it.  "unkillable" first sets this process's
 *       oom_score_adj to -1000 (the child inherits it), so the OOM killer
 *       finds no process it may kill.  Prints "hog HOW mib=N signal=S".
 *   provoke -s
 *       An RCU CPU stall, on one CPU as on many: a child writes SOFTLOCKUP,
 *       which spins in the kernel with preemption off, while a grace period
 *       is in progress; it can then never end, and the stall detector
 *       reports it.  On one CPU a grace period must already be running when
 *       the spin starts (the grace-period kthread cannot start one on a CPU
 *       that never schedules), so the child first queues RCU callbacks
 *       (every close() frees a file through call_rcu()) until the kthread
 *       waits in rcu_gp_fqs_loop(), as its /proc wchan shows, then writes.
 *       Never returns while the kernel lives; gives up after LOAD_SECONDS.
 *
 * Exits 0 when the run went as described, 1 on a usage or system error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LKDTM "/sys/kernel/debug/provoke-crash/"
#define DIRECT LKDTM "DIRECT"
#define TEST_MODULE "/proc/oopslimit-test"
#define LOAD_SECONDS 20
#define MIB (1024 * 1024)

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Writes all of s to the open fd; false on a short or failed write. */
static int write_str(int fd, const char *s)
{
	size_t len = strlen(s);

	return write(fd, s, len) == (ssize_t)len;
}

/* LKDTM's DIRECT, else the test module's file. */
static const char *direct_file(void)
{
	return access(DIRECT, F_OK) == 0 || access(TEST_MODULE, F_OK) != 0 ? DIRECT : TEST_MODULE;
}

/* A child: one write of TYPE to DIRECT, then exit 0 if the kernel let us return. */
static void direct_child(const char *type)
{
	int fd = open(direct_file(), O_WRONLY);

	if (fd < 0)
		_exit(2);
	if (!write_str(fd, type))
		_exit(3);
	_exit(0);
}

/* Waits for pid; returns its wait status, or -1 after printing why. */
static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) != pid) {
		if (errno != EINTR) {
			perror("provoke: waitpid");
			return -1;
		}
	}
	return status;
}

/* Runs child(arg) in a child process; its wait status, or -1 after printing why. */
static int run_child(void (*child)(const char *), const char *arg)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("provoke: fork");
		return -1;
	}
	if (pid == 0)
		child(arg);
	return reap(pid);
}

static int repeat(const char *type, const char *count_arg)
{
	unsigned long count, i, survived = 0, killed = 0;
	long long start, took;
	char *end;

	errno = 0;
	count = strtoul(count_arg, &end, 10);
	if (errno || *end || end == count_arg || count == 0 || count_arg[0] == '-') {
		fprintf(stderr, "provoke: bad count '%s'\n", count_arg);
		return 1;
	}

	start = now_us();
	for (i = 0; i < count; i++) {
		int status = run_child(direct_child, type);

		if (status < 0)
			return 1;
		if (WIFSIGNALED(status)) {
			killed++;
		} else if (WEXITSTATUS(status) == 0) {
			survived++;
		} else {
			fprintf(stderr, "provoke: child could not write %s to %s (status %d)\n",
				type, direct_file(), WEXITSTATUS(status));
			return 1;
		}
	}
	took = now_us() - start;
	printf("%s %lu survived=%lu killed=%lu ms=%lld us_each=%lld\n", type, count,
	       survived, killed, took / 1000, took / (long long)count);
	return 0;
}

static int crashpoint(const char *point, const char *type, const char *file)
{
	char path[256];
	long long start, until;
	int fd, n;

	n = snprintf(path, sizeof(path), LKDTM "%s", point);
	if (n < 0 || (size_t)n >= sizeof(path) || strchr(point, '/')) {
		fprintf(stderr, "provoke: bad crash point '%s'\n", point);
		return 1;
	}
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "provoke: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!write_str(fd, type)) {
		fprintf(stderr, "provoke: cannot arm %s with %s: %s\n", point, type,
			strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	/*
	 * A kprobe starts as an int3, whose handler runs as an NMI: an oops
	 * there has its console output deferred, and kdump may start before
	 * it is printed.  Five ticks after registering it the kprobe optimizer
	 * turns it into a jump, and the handler runs in plain interrupt
	 * context.  So no interrupts of our own at first: where the timer
	 * interrupts through handle_irq_event() (this guest's does, every
	 * tick), the tenth hit comes in this second, after the optimizer.
	 */
	sleep(1);

	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "provoke: cannot open %s: %s\n", file, strerror(errno));
		return 1;
	}
	start = now_us();
	until = start + LOAD_SECONDS * 1000000LL;
	while (now_us() < until) {
		if (pwrite(fd, "x", 1, 0) != 1) {
			fprintf(stderr, "provoke: cannot write %s: %s\n", file, strerror(errno));
			close(fd);
			return 1;
		}
	}
	close(fd);
	unlink(file);
	printf("crashpoint %s %s load_ms=%lld\n", point, type, (now_us() - start) / 1000);
	return 0;
}

/* The hog: one byte down the pipe for every MiB it has touched. */
static void hog_child(int out)
{
	for (;;) {
		char *p = mmap(NULL, MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);

		if (p == MAP_FAILED)
			_exit(4);
		memset(p, 0x5a, MIB);
		if (write(out, "m", 1) != 1)
			_exit(5);
	}
}

static int hog(const char *how)
{
	unsigned long mib = 0;
	int fds[2], status;
	char buf[256];
	ssize_t got;
	pid_t pid;

	if (strcmp(how, "unkillable") == 0) {
		int fd = open("/proc/self/oom_score_adj", O_WRONLY);

		if (fd < 0 || !write_str(fd, "-1000")) {
			fprintf(stderr, "provoke: cannot set oom_score_adj: %s\n", strerror(errno));
			return 1;
		}
		close(fd);
	} else if (strcmp(how, "killable") != 0) {
		fprintf(stderr, "provoke: -m takes killable or unkillable, not '%s'\n", how);
		return 1;
	}
	if (pipe(fds) < 0) {
		perror("provoke: pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("provoke: fork");
		return 1;
	}
	if (pid == 0) {
		close(fds[0]);
		hog_child(fds[1]);
	}
	close(fds[1]);
	while ((got = read(fds[0], buf, sizeof(buf))) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			perror("provoke: read");
			return 1;
		}
		mib += (unsigned long)got;
	}
	close(fds[0]);
	status = reap(pid);
	if (status < 0)
		return 1;
	if (!WIFSIGNALED(status)) {
		fprintf(stderr, "provoke: the hog stopped by itself after %lu MiB (status %d)\n",
			mib, WEXITSTATUS(status));
		return 1;
	}
	printf("hog %s mib=%lu signal=%d\n", how, mib, WTERMSIG(status));
	return 0;
}

/* Reads up to size - 1 bytes of path into buf; false if it cannot. */
static int read_small(const char *path, char *buf, size_t size)
{
	ssize_t got;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	got = read(fd, buf, size - 1);
	close(fd);
	if (got < 0)
		return 0;
	buf[got] = '\0';
	return 1;
}

/* /proc/PID/wchan of RCU's grace-period kthread, or 0 if there is none. */
static int gp_kthread_wchan(char *path, size_t size)
{
	char comm[32], name[300];
	struct dirent *e;
	int found = 0;
	DIR *proc = opendir("/proc");

	if (!proc)
		return 0;
	while (!found && (e = readdir(proc)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(name, sizeof(name), "/proc/%.20s/comm", e->d_name);
		if (read_small(name, comm, sizeof(comm)) &&
		    (strcmp(comm, "rcu_sched\n") == 0 || strcmp(comm, "rcu_preempt\n") == 0)) {
			snprintf(path, size, "/proc/%.20s/wchan", e->d_name);
			found = 1;
		}
	}
	closedir(proc);
	return found;
}

static void stall_child(const char *unused)
{
	char wchan[300], where[64];
	long long until;
	int fd = open(DIRECT, O_WRONLY);

	(void)unused;
	if (fd < 0)
		_exit(2);
	if (!gp_kthread_wchan(wchan, sizeof(wchan)))
		_exit(8);
	until = now_us() + LOAD_SECONDS * 1000000LL;
	while (now_us() < until) {
		int null = open("/dev/null", O_RDONLY);

		if (null < 0)
			_exit(6);
		close(null);
		if (read_small(wchan, where, sizeof(where)) &&
		    strcmp(where, "rcu_gp_fqs_loop") == 0) {
			if (!write_str(fd, "SOFTLOCKUP"))
				_exit(3);
			_exit(0);
		}
	}
	_exit(7);
}

static int stall(void)
{
	int status = run_child(stall_child, NULL);

	if (status < 0)
		return 1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 7)
		fprintf(stderr, "provoke: no grace period in progress within %d s\n", LOAD_SECONDS);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 8)
		fprintf(stderr, "provoke: no rcu_sched or rcu_preempt kthread in /proc\n");
	else
		fprintf(stderr, "provoke: the stalling child ended (status 0x%x)\n", status);
	return 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: provoke TYPE COUNT | -c POINT TYPE FILE | "
			"-m killable|unkillable | -s\n");
	return 1;
}

int main(int argc, char **argv)
{
	/* Output goes to a pipe: flush each line before a child can crash us. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && strcmp(argv[1], "-c") == 0)
		return crashpoint(argv[2], argv[3], argv[4]);
	if (argc == 3 && strcmp(argv[1], "-m") == 0)
		return hog(argv[2]);
	if (argc == 2 && strcmp(argv[1], "-s") == 0)
		return stall();
	if (argc == 3 && argv[1][0] != '-')
		return repeat(argv[1], argv[2]);
	return usage();
}
