/* user/tests/t_fs_dirs.c - the name space (abi.md section 9): mkdir,
 * rmdir, getdents64, rename (files, directories, over existing entries),
 * unlinkat, chdir/fchdir/getcwd with "." and "..", the cwd shared by
 * CLONE_FS and not by fork, symbolic links and readlink, access, umask,
 * chmod, /proc as directories with /proc/self/exe (and read while its
 * process exits), and the errors:
 * ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY, EINVAL, EBUSY, ELOOP,
 * ERANGE, EFAULT. Booted as init. */
#define T_PROG "t_fs_dirs"
#include "t_fs.h"
#include "dirent.h"
#include "sys/stat.h"

#define D "/tmp_dirs"

/* Whether name is in directory path (through getdents64). */
static int listed(const char *path, const char *name, unsigned *type)
{
	char buf[512] __attribute__((aligned(8)));
	long fd = raw_open(path, O_RDONLY | O_DIRECTORY), n;
	int found = 0;

	if (fd < 0)
		return (int)fd;
	while ((n = raw_getdents64(fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			if (!strcmp(d->d_name, name)) {
				found++;
				if (type)
					*type = d->d_type;
			}
			off += d->d_reclen;
		}
	raw_close(fd);
	return n < 0 ? (int)n : found;
}

TEST(mkdir_rmdir)
{
	struct stat64 st;

	EXPECT_EQ(raw_mkdir(D, 0777), 0);
	EXPECT_EQ(raw_stat64(D, &st), 0);
	EXPECT_EQ(st.st_mode, S_IFDIR | 0755);          /* umask 022 */
	EXPECT_EQ(st.st_nlink, 2);
	EXPECT_EQ(raw_mkdir(D, 0755), -EEXIST);
	EXPECT_EQ(raw_mkdir("/", 0755), -EEXIST);
	EXPECT_EQ(raw_mkdir(D "/.", 0755), -EEXIST);
	EXPECT_EQ(raw_mkdir("/no/such", 0755), -ENOENT);
	EXPECT_EQ(raw_mkdir("/etc/motd/x", 0755), -ENOTDIR);
	EXPECT_EQ(raw_mkdir(D "/sub", 0755), 0);
	EXPECT_EQ(raw_mkdir(D "/sub/deeper/", 0755), 0);        /* a trailing '/' */
	EXPECT_EQ(raw_stat64(D, &st), 0);
	EXPECT_EQ(st.st_nlink, 3);                      /* 2 + one subdirectory */
	EXPECT_EQ(raw_rmdir(D "/sub"), -ENOTEMPTY);
	EXPECT_EQ(raw_rmdir(D "/sub/deeper/."), -EINVAL);
	EXPECT_EQ(raw_rmdir(D "/sub/deeper/.."), -ENOTEMPTY);
	EXPECT_EQ(raw_rmdir("/"), -EBUSY);
	EXPECT_EQ(raw_rmdir("/proc"), -EBUSY);          /* a mount point */
	EXPECT_EQ(raw_rmdir("/etc/motd"), -ENOTDIR);
	EXPECT_EQ(raw_unlink(D "/sub"), -EISDIR);
	EXPECT_EQ(raw_unlinkat(AT_FDCWD, D "/sub/deeper", AT_REMOVEDIR), 0);
	EXPECT_EQ(raw_unlinkat(AT_FDCWD, D "/sub", 0x1), -EINVAL);
	EXPECT_EQ(raw_rmdir(D "/sub"), 0);
	EXPECT_EQ(raw_rmdir(D "/sub"), -ENOENT);
	EXPECT_EQ(raw_stat64(D, &st), 0);
	EXPECT_EQ(st.st_nlink, 2);
}

TEST(getdents_lists_entries)
{
	char buf[64] __attribute__((aligned(8)));
	unsigned type = 0;
	long fd;

	EXPECT_EQ(put_file(D "/file", "x"), 0);
	EXPECT_EQ(raw_mkdir(D "/dir", 0755), 0);
	EXPECT_EQ(listed(D, ".", &type), 1);
	EXPECT_EQ(type, DT_DIR);
	EXPECT_EQ(listed(D, "..", NULL), 1);
	EXPECT_EQ(listed(D, "file", &type), 1);
	EXPECT_EQ(type, DT_REG);
	EXPECT_EQ(listed(D, "dir", &type), 1);
	EXPECT_EQ(type, DT_DIR);
	EXPECT_EQ(listed("/", "etc", NULL), 1);
	EXPECT_EQ(listed("/dev", "console", &type), 1);
	EXPECT_EQ(type, DT_CHR);
	EXPECT_EQ(listed("/etc/motd", "x", NULL), -ENOTDIR);
	/* a buffer too small for one record; a bad buffer; a bad fd */
	fd = raw_open(D, O_RDONLY);
	EXPECT_EQ(raw_getdents64(fd, buf, 10), -EINVAL);
	EXPECT_EQ(raw_getdents64(fd, KPTR, 100), -EFAULT);
	EXPECT_EQ(raw_getdents64(fd, NOPTR, 100), -EFAULT);
	EXPECT_EQ(raw_read(fd, buf, 1), -EISDIR);
	raw_close(fd);
	EXPECT_EQ(raw_getdents64(77, buf, sizeof(buf)), -EBADF);
}

TEST(readdir_survives_unlinks)
{
	DIR *d;
	struct dirent *e;
	int seen = 0;
	char name[64];

	EXPECT_EQ(raw_mkdir(D "/many", 0755), 0);
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), D "/many/%d", i);
		EXPECT_EQ(put_file(name, "x"), 0);
	}
	d = opendir(D "/many");
	EXPECT(d != NULL, "opendir: %s", strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		seen++;
		/* remove one not yet seen: the listing goes on regardless */
		snprintf(name, sizeof(name), D "/many/%d", 39 - atoi(e->d_name));
		raw_unlink(name);
		snprintf(name, sizeof(name), D "/many/%s", e->d_name);
		raw_unlink(name);
	}
	closedir(d);
	EXPECT(seen >= 20 && seen <= 40, "saw %d entries", seen);
	EXPECT_EQ(raw_rmdir(D "/many"), 0);
	EXPECT(opendir("/etc/motd") == NULL && errno == ENOTDIR, "opendir of a file");
}

TEST(rename_files_and_dirs)
{
	char buf[16];
	struct stat64 a, b;

	EXPECT_EQ(put_file(D "/r1", "one"), 0);
	EXPECT_EQ(put_file(D "/r2", "two"), 0);
	EXPECT_EQ(raw_stat64(D "/r1", &a), 0);
	EXPECT_EQ(raw_rename(D "/r1", D "/r2"), 0);             /* over a file */
	EXPECT_EQ(raw_stat64(D "/r2", &b), 0);
	EXPECT_EQ(a.st_ino, b.st_ino);
	EXPECT_EQ(get_file(D "/r2", buf, sizeof(buf)), 3);
	EXPECT(!strcmp(buf, "one"), "r2 holds \"%s\"", buf);
	EXPECT_EQ(raw_stat64(D "/r1", &a), -ENOENT);
	EXPECT_EQ(raw_rename(D "/r2", D "/r2"), 0);             /* itself: nothing */
	EXPECT_EQ(raw_rename(D "/r2", D "/dir/r3"), 0);         /* another directory */
	EXPECT_EQ(raw_rename(D "/dir/r3", D "/r2"), 0);
	/* directories: into another, over an empty one, never into itself */
	EXPECT_EQ(raw_mkdir(D "/d1", 0755), 0);
	EXPECT_EQ(raw_mkdir(D "/d1/in", 0755), 0);
	EXPECT_EQ(raw_mkdir(D "/d2", 0755), 0);
	EXPECT_EQ(raw_rename(D "/d1", D "/d1/in/x"), -EINVAL);
	EXPECT_EQ(raw_rename(D "/d1", D "/d1"), 0);
	EXPECT_EQ(raw_rename(D "/d1", D "/d2"), 0);             /* over an empty one */
	EXPECT_EQ(raw_stat64(D "/d2/in", &a), 0);
	EXPECT_EQ(raw_rename(D "/d2/in", D "/dir/in"), 0);
	EXPECT_EQ(raw_stat64(D "/dir/in/..", &a), 0);
	EXPECT_EQ(raw_stat64(D "/dir", &b), 0);
	EXPECT_EQ(a.st_ino, b.st_ino);                  /* its ".." moved with it */
	EXPECT_EQ(b.st_nlink, 3);
	EXPECT_EQ(raw_rename(D "/d2", D "/dir"), -ENOTEMPTY);
	EXPECT_EQ(raw_rename(D "/d2", D "/r2"), -ENOTDIR);
	EXPECT_EQ(raw_rename(D "/r2", D "/d2"), -EISDIR);
	EXPECT_EQ(raw_rename(D "/r2/", D "/r4"), -ENOTDIR);
	EXPECT_EQ(raw_rename(D "/nothere", D "/r4"), -ENOENT);
	EXPECT_EQ(raw_rename(D "/.", D "/r4"), -EBUSY);
	EXPECT_EQ(raw_rename("/", D "/r4"), -EBUSY);
	EXPECT_EQ(raw_rename("/proc", D "/p"), -EBUSY);        /* a mount point */
	EXPECT_EQ(raw_rename(D "/r2", "/proc/r2"), -EXDEV);
	EXPECT_EQ(raw_rename(KPTR, D "/r4"), -EFAULT);
	EXPECT_EQ(raw_rename(D "/r2", KPTR), -EFAULT);
	EXPECT_EQ(raw_renameat(AT_FDCWD, D "/r2", AT_FDCWD, D "/r4"), 0);
	EXPECT_EQ(raw_rmdir(D "/d2"), 0);
	EXPECT_EQ(raw_rmdir(D "/dir/in"), 0);
	EXPECT_EQ(raw_unlink(D "/r4"), 0);
}

TEST(cwd_and_dotdot)
{
	char buf[64];
	long fd;

	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)), 2);
	EXPECT(!strcmp(buf, "/"), "cwd \"%s\"", buf);
	EXPECT_EQ(raw_chdir(D "/dir"), 0);
	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)), (long)sizeof(D "/dir"));
	EXPECT(!strcmp(buf, D "/dir"), "cwd \"%s\"", buf);
	EXPECT_EQ(put_file("rel", "r"), 0);                     /* relative to the cwd */
	EXPECT_EQ(get_file(D "/dir/rel", buf, sizeof(buf)), 1);
	EXPECT_EQ(raw_chdir(".."), 0);
	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)), (long)sizeof(D));
	EXPECT_EQ(raw_getcwd(buf, 3), -ERANGE);
	EXPECT_EQ(raw_getcwd(KPTR, sizeof(buf)), -EFAULT);
	EXPECT_EQ(raw_chdir("../../../.."), 0);                 /* stops at the root */
	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)), 2);
	EXPECT_EQ(raw_chdir("/etc/motd"), -ENOTDIR);
	EXPECT_EQ(raw_chdir("/nowhere"), -ENOENT);
	EXPECT_EQ(raw_chdir(KPTR), -EFAULT);
	fd = raw_open(D "/dir", O_RDONLY | O_DIRECTORY);
	EXPECT_EQ(raw_fchdir(fd), 0);
	EXPECT_EQ(raw_openat(fd, "rel", O_RDONLY, 0) >= 0, 1);
	raw_close(fd);
	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)), (long)sizeof(D "/dir"));
	fd = raw_open("/etc/motd", O_RDONLY);
	EXPECT_EQ(raw_fchdir(fd), -ENOTDIR);
	raw_close(fd);
	EXPECT_EQ(raw_fchdir(77), -EBADF);
	EXPECT_EQ(raw_unlink("rel"), 0);
	/* a removed cwd: getcwd fails, ".." still leads out */
	EXPECT_EQ(raw_mkdir(D "/gone", 0755), 0);
	EXPECT_EQ(raw_chdir(D "/gone"), 0);
	EXPECT_EQ(raw_rmdir(D "/gone"), 0);
	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)), -ENOENT);
	EXPECT_EQ(put_file("x", "x"), -ENOENT);
	EXPECT_EQ(raw_chdir(".."), 0);
	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)), (long)sizeof(D));
	EXPECT_EQ(raw_chdir("/"), 0);
}

/* fork copies the cwd; a CLONE_FS child shares it. */
static int chdir_child(long arg)
{
	(void)arg;
	return raw_chdir(D) == 0 ? 0 : 1;
}

TEST(cwd_per_process_and_clone_fs)
{
	char buf[64];
	long pid;
	int st;

	EXPECT_STATUS(child_status(chdir_child, 0), EXITED(0));
	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)), 2);             /* still "/" */
	/* A child sharing our fs (CLONE_FS; a copy of our memory, on our
	 * stack as fork) changes our cwd. */
	pid = raw_clone(CLONE_FS | SIGCHLD, NULL, NULL, NULL, NULL);
	if (pid == 0)
		for (;;)
			raw_exit_group(raw_chdir(D) == 0 ? 0 : 1);
	EXPECT(pid > 0, "clone: %s", t_val(pid, t_b1_));
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)), (long)sizeof(D));
	EXPECT_EQ(raw_chdir("/"), 0);
}

TEST(symlinks)
{
	char buf[64];
	struct stat64 st;

	EXPECT_EQ(raw_symlink("/etc/motd", D "/lnk"), 0);
	EXPECT_EQ(raw_symlink("dir", D "/rel"), 0);
	EXPECT_EQ(raw_symlink(D "/loop", D "/loop"), 0);
	EXPECT_EQ(raw_readlink(D "/lnk", buf, sizeof(buf)), 9);
	EXPECT(!memcmp(buf, "/etc/motd", 9), "readlink \"%.9s\"", buf);
	EXPECT_EQ(raw_readlink(D "/lnk", buf, 4), 4);           /* truncated */
	EXPECT_EQ(raw_readlink(D "/lnk", buf, 0), -EINVAL);
	EXPECT_EQ(raw_readlink("/etc/motd", buf, sizeof(buf)), -EINVAL);
	EXPECT_EQ(raw_readlink(D "/lnk", KPTR, sizeof(buf)), -EFAULT);
	EXPECT_EQ(raw_lstat64(D "/lnk", &st), 0);
	EXPECT(S_ISLNK(st.st_mode) && st.st_size == 9, "lstat: %#o %lld", st.st_mode, st.st_size);
	EXPECT_EQ(raw_stat64(D "/lnk", &st), 0);
	EXPECT(S_ISREG(st.st_mode), "stat follows: %#o", st.st_mode);
	EXPECT_EQ(get_file(D "/rel/../lnk", buf, sizeof(buf)) > 10, 1);
	EXPECT_EQ(raw_open(D "/loop", O_RDONLY), -ELOOP);
	EXPECT_EQ(raw_open(D "/lnk", O_RDONLY | O_NOFOLLOW), -ELOOP);
	EXPECT_EQ(raw_symlink("x", D "/lnk"), -EEXIST);
	EXPECT_EQ(raw_symlink("", D "/empty"), -ENOENT);
	EXPECT_EQ(raw_unlink(D "/lnk"), 0);             /* the link, not the file */
	EXPECT_EQ(raw_stat64("/etc/motd", &st), 0);
	EXPECT_EQ(raw_unlink(D "/rel"), 0);
	EXPECT_EQ(raw_unlink(D "/loop"), 0);
}

TEST(access_umask_chmod)
{
	struct stat64 st;

	EXPECT_EQ(raw_access("/etc/motd", R_OK | W_OK), 0);     /* root */
	EXPECT_EQ(raw_access("/etc/motd", X_OK), -EACCES);
	EXPECT_EQ(raw_access("/etc", X_OK), 0);
	EXPECT_EQ(raw_access("/nothere", F_OK), -ENOENT);
	EXPECT_EQ(raw_access("/etc/motd", 8), -EINVAL);
	EXPECT_EQ(raw_access(KPTR, F_OK), -EFAULT);
	EXPECT_EQ(raw_faccessat(AT_FDCWD, "etc/motd", R_OK), 0);
	EXPECT_EQ(raw_umask(077), 022);
	EXPECT_EQ(put_file(D "/m", "m"), 0);
	EXPECT_EQ(raw_umask(022), 077);
	EXPECT_EQ(raw_stat64(D "/m", &st), 0);
	EXPECT_EQ(st.st_mode, S_IFREG | 0600);
	EXPECT_EQ(raw_chmod(D "/m", 04755), 0);
	EXPECT_EQ(raw_stat64(D "/m", &st), 0);
	EXPECT_EQ(st.st_mode, S_IFREG | 04755);
	EXPECT_EQ(raw_chmod("/proc/kstat", 0777), -EPERM);
	EXPECT_EQ(raw_unlink(D "/m"), 0);
}

TEST(proc_as_directories)
{
	char buf[256], want[32];
	long n;
	struct stat64 st;

	snprintf(want, sizeof(want), "%ld", raw_getpid());
	n = raw_readlink("/proc/self", buf, sizeof(buf));
	EXPECT(n == (long)strlen(want) && !memcmp(buf, want, n), "/proc/self -> %.*s", (int)n, buf);
	EXPECT_EQ(listed("/proc", want, NULL), 1);
	EXPECT_EQ(listed("/proc", "self", NULL), 1);
	EXPECT_EQ(listed("/proc", "kstat", NULL), 1);
	EXPECT_EQ(listed("/proc/self", "exe", NULL), 1);
	n = raw_readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	EXPECT(n > 0, "readlink /proc/self/exe: %s", t_val(n, t_b1_));
	buf[n] = '\0';
	EXPECT(!strcmp(strrchr(buf, '/'), "/t_fs_dirs"), "exe is \"%s\"", buf);
	EXPECT_EQ(raw_stat64("/proc/self/exe", &st), 0);        /* the program itself */
	EXPECT(S_ISREG(st.st_mode), "exe: %#o", st.st_mode);
	EXPECT_EQ(raw_stat64("/proc/1/exe", &st), 0);
	EXPECT_EQ(raw_stat64("/proc/99999", &st), -ENOENT);
	EXPECT_EQ(raw_stat64("/proc/self/nothing", &st), -ENOENT);
	EXPECT_EQ(raw_mkdir("/proc/x", 0755), -EACCES);
	EXPECT_EQ(raw_unlink("/proc/kstat"), -EACCES);
	EXPECT_EQ(raw_open("/proc/tasks", O_WRONLY), -EACCES);
	EXPECT_EQ(raw_chdir("/proc/self"), 0);
	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)) > 0, 1);
	EXPECT(!strncmp(buf, "/proc/", 6) && !strcmp(buf + 6, want), "cwd \"%s\"", buf);
	EXPECT_EQ(raw_chdir("../.."), 0);
	EXPECT_EQ(raw_getcwd(buf, sizeof(buf)), 2);
}

/* execve through /proc/self/exe runs this very program again (busybox
 * re-executes itself that way). */
TEST(exec_through_proc_self_exe)
{
	static char *const argv[] = { "t_fs_dirs", "child", NULL };
	long pid = raw_fork();
	int st;

	if (pid == 0)
		for (;;)
			raw_exit_group(100 + (int)-raw_execve("/proc/self/exe", argv, NULL));
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(42));
}

/* /proc/PID/status and /proc/PID/exe of processes that exit meanwhile.
 * An exiting task lets go of its files, cwd and executable with one
 * store each, and the last put of each waits out the readers, who hold
 * tasklist_lock (kernel/task.h, tasklist_lock_grace): a read gets the
 * fields or ENOENT, never what was freed. A child forks 200 short-lived
 * processes and sends each pid down a pipe; this reader reads both files
 * of each, twenty times, while it exits. */
TEST(proc_of_exiting_processes)
{
	char path[32], buf[512];
	long churn, pid, fd, n;
	int p[2], st;

	EXPECT_EQ(raw_pipe(p), 0);
	churn = raw_fork();
	if (churn == 0) {
		raw_close(p[0]);
		for (int i = 0; i < 200; i++) {
			long c = raw_fork();
			if (c == 0)
				raw_exit(0);
			if (c < 0 || raw_write(p[1], &c, sizeof(c)) != sizeof(c))
				raw_exit(1);
			if (raw_wait4(c, NULL, 0, NULL) != c)
				raw_exit(2);
		}
		raw_exit(0);
	}
	raw_close(p[1]);
	while (raw_read(p[0], &pid, sizeof(pid)) == sizeof(pid)) {
		for (int i = 0; i < 20; i++) {
			snprintf(path, sizeof(path), "/proc/%ld/status", pid);
			if ((fd = raw_open(path, O_RDONLY)) >= 0) {
				const char *umask, *fdsize;
				n = raw_read(fd, buf, sizeof(buf) - 1);
				raw_close(fd);
				buf[n > 0 ? n : 0] = '\0';
				umask = strstr(buf, "Umask:\t");
				fdsize = strstr(buf, "FDSize:\t");
				/* Read from a freed (poisoned) fs_struct or fd
				 * table, these would be 0x6b6b6b6b's. */
				EXPECT(n > 5 && !memcmp(buf, "Name:", 5) && umask && fdsize &&
				       strtol(umask + 7, NULL, 8) <= 0777 && atoi(fdsize + 8) <= 4096,
				       "%s: read %s: %.80s", path, t_val(n, t_b1_), buf);
			} else {
				EXPECT_EQ(fd, -ENOENT);
			}
			snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
			n = raw_readlink(path, buf, sizeof(buf));
			EXPECT(n == -ENOENT || (n > 10 && !memcmp(buf + n - 10, "/t_fs_dirs", 10)),
			       "%s: readlink %s", path, t_val(n, t_b1_));
		}
	}
	raw_close(p[0]);
	EXPECT_EQ(raw_wait4(churn, &st, 0, NULL), churn);
	EXPECT_STATUS(st, EXITED(0));
}

/* Four processes at once in one directory (at -smp 4 and 8, on four
 * CPUs): create, write, rename over each other's names, list, unlink,
 * mkdir and rmdir. Afterwards the directory is empty and every frame the
 * files took is back. */
static int churn(long id)
{
	char a[48], b[48], d[48], buf[512] __attribute__((aligned(8)));

	for (int i = 0; i < 150; i++) {
		snprintf(a, sizeof(a), D "/churn/a%ld_%d", id, i % 5);
		snprintf(b, sizeof(b), D "/churn/b%d", i % 3);          /* shared names */
		snprintf(d, sizeof(d), D "/churn/d%ld", id);
		if (put_file(a, "some bytes for the page") != 0)
			return 1;
		long r = raw_rename(a, b);
		if (r != 0 && r != -ENOENT)
			return 2;
		long fd = raw_open(D "/churn", O_RDONLY | O_DIRECTORY);
		if (fd < 0 || raw_getdents64(fd, buf, sizeof(buf)) <= 0)
			return 3;
		raw_close(fd);
		r = raw_unlink(b);
		if (r != 0 && r != -ENOENT)
			return 4;
		if (raw_mkdir(d, 0755) != 0 || raw_rmdir(d) != 0)
			return 5;
	}
	return 0;
}

static int nothing(long arg)
{
	return (int)arg;
}

TEST(four_processes_in_one_directory)
{
	static struct thr_kstat k0, k1;
	static char why[160];
	long pids[4];
	int st;

	/* Four children first, so that the task cache and the slabs
	 * already hold what four more will take (only the files count). */
	for (long i = 0; i < 4; i++)
		pids[i] = raw_fork() == 0 ? (raw_exit_group(0), 0) : 0;
	for (int i = 0; i < 4; i++)
		raw_wait4(-1, &st, 0, NULL);
	EXPECT_STATUS(child_status(nothing, 0), EXITED(0));
	fs_books(&k0);
	EXPECT_EQ(raw_mkdir(D "/churn", 0755), 0);
	for (long i = 0; i < 4; i++) {
		pids[i] = raw_fork();
		if (pids[i] == 0)
			for (;;)
				raw_exit_group(churn(i));
	}
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(raw_wait4(pids[i], &st, 0, NULL), pids[i]);
		EXPECT_STATUS(st, EXITED(0));
	}
	for (int i = 0; i < 3; i++) {
		char b[48];
		snprintf(b, sizeof(b), D "/churn/b%d", i);
		raw_unlink(b);                  /* a last writer's file may stay */
	}
	EXPECT_EQ(raw_rmdir(D "/churn"), 0);            /* empty */
	/* Not free frames alone: which slab a name or an inode comes back
	 * in depends on what the initrd put in the caches before
	 * (thr_books_same). */
	fs_books(&k1);
	EXPECT(thr_books_same(&k0, &k1, why, sizeof(why)), "%s", why);
}

TEST(cleanup)
{
	EXPECT_EQ(raw_unlink(D "/file"), 0);
	EXPECT_EQ(raw_rmdir(D "/dir"), 0);
	EXPECT_EQ(raw_rmdir(D), 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child"))
		return 42;
	RUN(mkdir_rmdir);
	RUN(getdents_lists_entries);
	RUN(readdir_survives_unlinks);
	RUN(rename_files_and_dirs);
	RUN(cwd_and_dotdot);
	RUN(cwd_per_process_and_clone_fs);
	RUN(symlinks);
	RUN(access_umask_chmod);
	RUN(proc_as_directories);
	RUN(exec_through_proc_self_exe);
	RUN(proc_of_exiting_processes);
	RUN(four_processes_in_one_directory);
	RUN(cleanup);
	return t_exit_code();
}
