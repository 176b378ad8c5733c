// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for common/outfile.c, the writer behind the recorder's -j and
 * -t: a new file and a replaced one (renamed, never truncated in place),
 * /dev/null and a device node of the same kind (still devices afterwards),
 * a FIFO with a reader, a symbolic link at the name and one planted where
 * a fixed temporary would go (what they lead to untouched), a directory, a
 * block device, a read-only file system and a full one (with and without
 * the reserved file).  The mounts are made in a mount namespace of the
 * test's own, as root; without root those checks are skipped.  TAP output.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/outfile.h"
#include "tap.h"

static char top[] = "/tmp/oopslimit-outfile-test.XXXXXX";
static char err[512];
static const char report[] = "{\"reason\": \"warn_limit\"}\n";
static bool can_mount;

static char *at(const char *name)
{
	static char buf[16][512];
	static int i;

	i = (i + 1) % 16;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", top, name);
	return buf[i];
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

/* The file's contents, at most 64 KiB, "" when it cannot be read. */
static const char *get(const char *path)
{
	static char buf[65536];
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_NOFOLLOW);

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* Entries in dir other than . and .., to find temporaries left behind. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static bool mentions(const char *text)
{
	return strstr(err, text) != NULL;
}

static void skip(const char *what, const char *why)
{
	char line[512];

	snprintf(line, sizeof(line), "%s # SKIP %s", what, why);
	ok(true, line);
}

static void test_regular(void)
{
	char *d = at("plain"), *p = at("plain/reason.json"), *link2 = at("plain/second-name");
	struct stat st;

	mkdir(d, 0755);
	ok(ol_write_file(p, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_RENAMED,
	   "a new file: written through a temporary and renamed");
	ok(!strcmp(get(p), report) && lstat(p, &st) == 0 && S_ISREG(st.st_mode),
	   "a new file: a regular file holding the report");
	ok_got(entries(d) == 1, "a new file: no temporary left beside it", err);

	/* an existing file with a second name: a rename leaves that one alone */
	put(p, "the old report\n");
	chmod(p, 0600);
	link(p, link2);
	ok(ol_write_file(p, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_RENAMED &&
	   !strcmp(get(p), report), "an existing file: replaced by the report");
	ok(!strcmp(get(link2), "the old report\n"),
	   "an existing file: replaced by a rename, not truncated in place (its other name keeps the old text)");
	ok(stat(p, &st) == 0 && (st.st_mode & 07777) == 0600, "an existing file: its mode kept");
	ok(entries(d) == 2, "an existing file: no temporary left beside it");

	ok(ol_write_file("", report, strlen(report), 0, err, sizeof(err)) == OL_OUT_FAILED && err[0],
	   "an empty name: refused with a message");
}

static bool is_null_device(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
	       minor(st.st_rdev) == 3;
}

static void test_devices(void)
{
	char *n = at("null"), *b = at("loop");
	struct stat st;
	int before = entries(top);

	/* a device node of our own first: if the writer were wrong, it is that
	 * node, not the machine's /dev/null, that becomes a file */
	if (mknod(n, S_IFCHR | 0666, makedev(1, 3)) == 0) {
		ok(ol_write_file(n, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_DIRECT,
		   "a character device (a null device node): written as it is");
		ok(is_null_device(n), "a character device: still that device afterwards");
		ok(entries(top) == before + 1, "a character device: no temporary made beside it");
		if (!is_null_device(n)) {
			ok(false, "/dev/null: not tried, since a device node of the same kind was replaced");
			return;
		}
	} else {
		skip("a character device node of the test's own", "mknod needs root");
	}
	ok(ol_write_file("/dev/null", report, strlen(report), 0, err, sizeof(err)) == OL_OUT_DIRECT,
	   "/dev/null: written as it is");
	ok(is_null_device("/dev/null"), "/dev/null: still the null device afterwards");

	if (mknod(b, S_IFBLK | 0600, makedev(7, 250)) == 0) {
		ok(ol_write_file(b, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_FAILED &&
		   mentions("block device"), "a block device: refused, never written");
		ok(lstat(b, &st) == 0 && S_ISBLK(st.st_mode), "a block device: still there, untouched");
	} else {
		skip("a block device", "mknod needs root");
	}
}

static void test_fifo(void)
{
	char *f = at("fifo");
	int pipefd[2], status;
	char got[256] = "";
	struct stat st;
	ssize_t n, have = 0;
	pid_t pid;

	mkfifo(f, 0600);
	if (pipe(pipefd) != 0) {
		ok(false, "a FIFO: pipe()");
		return;
	}
	pid = fork();
	if (pid == 0) {
		/* the reader: what comes through the FIFO, back through the pipe */
		int fd = open(f, O_RDONLY);
		char buf[256];

		close(pipefd[0]);
		while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
			if (write(pipefd[1], buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	ok(ol_write_file(f, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_DIRECT,
	   "a FIFO with a reader: written as it is");
	while ((n = read(pipefd[0], got + have, sizeof(got) - 1 - (size_t)have)) > 0)
		have += n;
	got[have] = '\0';
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	ok_got(!strcmp(got, report), "a FIFO: the reader got the report", got);
	ok(lstat(f, &st) == 0 && S_ISFIFO(st.st_mode), "a FIFO: still a FIFO afterwards");
}

static void test_links(void)
{
	char *d = at("links"), *victim = at("links/victim"), *p = at("links/reason.json");
	char *planted = at("links/reason.json.tmp"), *dir = at("links/dir");
	char *dangling = at("links/dangling.json");
	struct stat st;

	mkdir(d, 0755);
	put(victim, "not a report\n");
	symlink(victim, p);
	ok_got(ol_write_file(p, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_FAILED &&
	       errno == ELOOP && mentions("symbolic link"),
	       "a symbolic link at the name: refused with one line", err);
	ok(!strcmp(get(victim), "not a report\n") && lstat(p, &st) == 0 && S_ISLNK(st.st_mode),
	   "a symbolic link at the name: the link and the file it leads to untouched");
	ok(ol_write_file(p, report, strlen(report), OL_OUT_FOLLOW, err, sizeof(err)) == OL_OUT_RENAMED &&
	   !strcmp(get(victim), report) && lstat(p, &st) == 0 && S_ISLNK(st.st_mode),
	   "a symbolic link, following asked for: the file it leads to replaced, the link kept");
	symlink(at("links/nothing-here"), dangling);
	ok(ol_write_file(dangling, report, strlen(report), OL_OUT_FOLLOW, err, sizeof(err)) == OL_OUT_FAILED &&
	   mentions("leads nowhere") && access(at("links/nothing-here"), F_OK) != 0,
	   "a dangling symbolic link, following asked for: refused, nothing created");

	/* the old writer's fixed temporary name, planted by someone else */
	unlink(p);
	put(victim, "not a report\n");
	symlink(victim, planted);
	ok(ol_write_file(p, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_RENAMED &&
	   !strcmp(get(p), report), "a link planted at NAME.tmp: the report written all the same");
	ok(!strcmp(get(victim), "not a report\n") && lstat(planted, &st) == 0 && S_ISLNK(st.st_mode),
	   "a link planted at NAME.tmp: neither the link nor what it leads to touched");

	mkdir(dir, 0755);
	ok_got(ol_write_file(dir, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_FAILED &&
	       mentions("is a directory") && entries(dir) == 0,
	       "a directory at the name: refused with one line, nothing written in it", err);
}

/* The first line of output a failed write gives, in the TAP line. */
static void test_read_only(void)
{
	char *d = at("ro"), *p = at("ro/reason.json");

	mkdir(d, 0755);
	if (can_mount) {
		if (mount("tmpfs", d, "tmpfs", MS_RDONLY, "size=64k") != 0) {
			ok(false, "a read-only file system: mount");
			return;
		}
		ok_got(ol_write_file(p, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_FAILED &&
		       mentions("cannot write ") && mentions("Read-only file system"),
		       "a read-only file system: the write fails, naming why", err);
		ok(entries(d) == 0, "a read-only file system: nothing left in it");
		umount(d);
	} else if (geteuid() != 0) {
		chmod(d, 0555);
		ok_got(ol_write_file(p, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_FAILED &&
		       mentions("Permission denied"), "a read-only directory: the write fails, naming why", err);
		ok(entries(d) == 0, "a read-only directory: nothing left in it");
	} else {
		skip("a read-only file system", "no mount namespace here");
	}
}

/* Fills the file system at dir with one file until it has no room left. */
static void fill(const char *dir)
{
	static char block[4096];
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/filler", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	while (fd >= 0 && write(fd, block, sizeof(block)) > 0)
		;
	/* a last partial block's worth, byte by byte */
	while (fd >= 0 && write(fd, block, 1) == 1)
		;
	if (fd >= 0)
		close(fd);
}

static void test_full(void)
{
	char *d = at("full"), *p = at("full/reason.json"), *small = at("full/small.json");
	static char reserved[16384];
	const char *got;
	size_t i;
	bool blanks = true;

	if (!can_mount) {
		skip("a full file system", "mounting a small tmpfs needs root and a mount namespace");
		return;
	}
	mkdir(d, 0755);
	if (mount("tmpfs", d, "tmpfs", 0, "size=64k,nr_inodes=16") != 0) {
		ok(false, "a full file system: mount");
		return;
	}
	/* the capture's first report: padded to 16 KiB before the dump is written */
	memset(reserved, ' ', sizeof(reserved));
	reserved[sizeof(reserved) - 1] = '\n';
	memcpy(reserved, "{\"capture\": \"in progress\"}", 26);
	ok(ol_write_file(p, reserved, sizeof(reserved), 0, err, sizeof(err)) == OL_OUT_RENAMED,
	   "a full file system: the reserved report written while there is room");
	put(small, "{}\n");
	fill(d);

	ok_got(ol_write_file(at("full/new.json"), report, strlen(report), 0, err, sizeof(err)) ==
		       OL_OUT_FAILED && mentions("No space left on device"),
	       "a full file system, a new file: fails, naming why", err);
	ok(access(at("full/new.json"), F_OK) != 0, "a full file system, a new file: nothing half-written left");
	ok_got(ol_write_file(small, reserved, sizeof(reserved), 0, err, sizeof(err)) == OL_OUT_FAILED &&
	       mentions("too few") && !strcmp(get(small), "{}\n"),
	       "a full file system, a reserved file too small: fails, naming why, the old file intact", err);
	ok_got(ol_write_file(p, report, strlen(report), 0, err, sizeof(err)) == OL_OUT_IN_PLACE,
	       "a full file system, the reserved file: the report written over it in place", err);
	got = get(p);
	for (i = strlen(report); i < sizeof(reserved) - 1; i++)
		blanks &= got[i] == ' ';
	ok(!strncmp(got, report, strlen(report)) && blanks && got[sizeof(reserved) - 1] == '\n' &&
	   strlen(got) == sizeof(reserved), "a full file system: the report, then blanks to the reserved length");
	umount(d);
}

int main(void)
{
	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 2;
	}
	/* mounts of the test's own, gone with it */
	can_mount = geteuid() == 0 && unshare(CLONE_NEWNS) == 0 &&
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0;
	signal(SIGPIPE, SIG_IGN);
	test_regular();
	test_devices();
	test_fifo();
	test_links();
	test_read_only();
	test_full();
	if (fork() == 0)
		execlp("rm", "rm", "-rf", top, (char *)NULL);
	wait(NULL);
	return tap_done();
}
