/* user/linux/lx_sysfiles.c - the system-wide /proc files and statfs as
 * glibc programs read them (abi.md section 9, compat/linux/kinfo_linux.c,
 * compat/linux/fs/statfs.c): /proc/meminfo's fields and MemFree going down as
 * memory is touched; /proc/uptime going up; /proc/loadavg's five
 * fields; /proc/stat's cpu lines (glibc's sysconf counts CPUs from them
 * when /sys is missing); /proc/mounts through getmntent; statfs, fstatfs
 * and statvfs with each file system's magic number, and their errors;
 * /tmp, for tmpfile() and mkstemp(). Each expectation holds on Linux booted from an initramfs too (whose
 * root is ramfs or tmpfs). */
#define _GNU_SOURCE
#define LX_PROG "lx_sysfiles"
#include "lx.h"
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RAMFS_MAGIC      0x858458f6
#define TMPFS_MAGIC      0x01021994
#define PROC_SUPER_MAGIC 0x9fa0
#define PIPEFS_MAGIC     0x50495045

static char buf[8192];

static long slurp(const char *path)
{
	int fd = open(path, O_RDONLY);
	long n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return n;
}

/* meminfo's value of name (kB), or -1. */
static long meminfo(const char *name)
{
	size_t len = strlen(name);

	if (slurp("/proc/meminfo") <= 0)
		return -1;
	for (char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, name, len) == 0 && p[len] == ':')
			return strtol(p + len + 1, NULL, 10);
	return -1;
}

TEST(meminfo)
{
	static const char *const names[] = { "MemTotal", "MemFree", "MemAvailable", "Buffers",
					     "Cached", "SwapTotal", "SwapFree", "Slab" };
	long total = meminfo("MemTotal"), before, after;
	size_t size = 8 << 20;
	char *p;

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		EXPECT(meminfo(names[i]) >= 0, "no %s in /proc/meminfo", names[i]);
	EXPECT(strstr(buf, " kB\n") != NULL, "no \" kB\" units");
	EXPECT(total > 0, "MemTotal %ld", total);
	before = meminfo("MemFree");
	EXPECT(before > 0 && before <= total, "MemFree %ld of %ld", before, total);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT(p != MAP_FAILED, "mmap: %s", strerror(errno));
	memset(p, 1, size);             /* 2048 pages, each touched */
	after = meminfo("MemFree");
	munmap(p, size);
	EXPECT(before - after >= 6 * 1024, "MemFree %ld kB, then %ld kB with 8 MiB touched", before,
	       after);
}

TEST(uptime)
{
	double up1, idle1, up2, idle2;
	struct timespec d = { 0, 50000000 };

	EXPECT(slurp("/proc/uptime") > 0, "read /proc/uptime");
	EXPECT_EQ(sscanf(buf, "%lf %lf", &up1, &idle1), 2);
	nanosleep(&d, NULL);
	EXPECT(slurp("/proc/uptime") > 0, "read /proc/uptime");
	EXPECT_EQ(sscanf(buf, "%lf %lf", &up2, &idle2), 2);
	EXPECT(up1 > 0 && up2 > up1, "uptime %f then %f", up1, up2);
	EXPECT(idle2 >= idle1, "idle %f then %f", idle1, idle2);
}

TEST(loadavg)
{
	double a1, a5, a15;
	int running, total, last;

	EXPECT(slurp("/proc/loadavg") > 0, "read /proc/loadavg");
	EXPECT_EQ(sscanf(buf, "%lf %lf %lf %d/%d %d", &a1, &a5, &a15, &running, &total, &last), 6);
	EXPECT(a1 >= 0 && a5 >= 0 && a15 >= 0, "averages %s", buf);
	EXPECT(running >= 1 && running <= total, "running %d of %d", running, total);
	EXPECT(last >= getpid(), "newest id %d, we are %d", last, getpid());
	double la[3];
	EXPECT_EQ(getloadavg(la, 3), 3);
}

TEST(stat_counts_the_cpus)
{
	unsigned long long v[10];
	cpu_set_t set;
	int cpus = 0;
	long btime = 0;

	EXPECT(slurp("/proc/stat") > 0, "read /proc/stat");
	EXPECT_EQ(sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
			 &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]), 10);
	EXPECT(v[0] + v[2] + v[3] > 0, "no time counted at all");
	for (char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "cpu", 3) == 0 && p[3] >= '0' && p[3] <= '9')
			cpus++;
		if (strncmp(p, "btime ", 6) == 0)
			btime = atol(p + 6);
	}
	EXPECT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
	EXPECT_EQ(cpus, CPU_COUNT(&set));
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN), cpus);
	EXPECT(btime > 0 && btime <= time(NULL), "btime %ld", btime);
	EXPECT(strstr(buf, "\nctxt ") && strstr(buf, "\nprocs_running "), "ctxt or procs_running");
}

TEST(mounts)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *m;
	int root = 0, proc = 0;

	EXPECT(f != NULL, "setmntent: %s", strerror(errno));
	while ((m = getmntent(f))) {
		if (strcmp(m->mnt_dir, "/") == 0)
			root++;
		if (strcmp(m->mnt_dir, "/proc") == 0 && strcmp(m->mnt_type, "proc") == 0)
			proc++;
	}
	endmntent(f);
	EXPECT(root >= 1 && proc == 1, "/ %d times, /proc %d times", root, proc);
}

TEST(statfs_and_statvfs)
{
	struct statfs s, p;
	struct statvfs v;
	int fds[2];

	EXPECT_EQ(statfs("/", &s), 0);
	EXPECT((unsigned)s.f_type == RAMFS_MAGIC || (unsigned)s.f_type == TMPFS_MAGIC, "/ is %#x", (unsigned)s.f_type);
	EXPECT_EQ(s.f_bsize, 4096);
	EXPECT_EQ(s.f_namelen, 255);
	EXPECT_EQ(statfs("/proc", &p), 0);
	EXPECT_EQ(p.f_type, PROC_SUPER_MAGIC);
	EXPECT_EQ(statfs("/proc/self/stat", &p), 0);
	EXPECT_EQ(p.f_type, PROC_SUPER_MAGIC);
	EXPECT_EQ(statvfs("/", &v), 0);
	EXPECT_EQ(v.f_bsize, 4096);
	EXPECT_EQ(v.f_namemax, 255);
	EXPECT_EQ(pipe(fds), 0);
	EXPECT_EQ(fstatfs(fds[0], &p), 0);
	close(fds[0]);
	close(fds[1]);
	EXPECT_EQ(p.f_type, PIPEFS_MAGIC);
	/* The old calls (glibc uses the 64-bit ones). */
	EXPECT_EQ(syscall(SYS_statfs, "/proc", buf), 0);
	EXPECT_EQ(*(unsigned *)buf, PROC_SUPER_MAGIC);
	EXPECT_EQ(syscall(SYS_fstatfs, 0, buf), 0);
}

/* /tmp, as on Linux (FHS): a directory anyone may write to, sticky, where
 * glibc's tmpfile() and mkstemp() make their files. */
TEST(tmp_is_there_for_tmpfile_and_mkstemp)
{
	struct stat st;
	char line[16] = "", name[] = "/tmp/lx-XXXXXX";
	FILE *f;
	int fd;

	EXPECT_EQ(stat("/tmp", &st), 0);
	EXPECT(S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 01777, "/tmp's mode %o", st.st_mode);
	f = tmpfile();
	EXPECT(f != NULL, "tmpfile: %s", strerror(errno));
	if (f) {
		fputs("spindle\n", f);
		rewind(f);
		EXPECT(fgets(line, sizeof(line), f) && strcmp(line, "spindle\n") == 0,
		       "read back '%s'", line);
		fclose(f);
	}
	fd = mkstemp(name);
	EXPECT(fd >= 0, "mkstemp: %s", strerror(errno));
	EXPECT_EQ(write(fd, "x", 1), 1);
	EXPECT_EQ(unlink(name), 0);
	close(fd);
}

TEST(errors)
{
	struct statfs s;

	errno = 0;
	EXPECT_EQ(statfs("/no/such/thing", &s), -1);
	EXPECT_EQ(errno, ENOENT);
	/* By number: glibc's statfs copies from a struct of its own. */
	EXPECT_EQ(syscall(SYS_statfs64, "/", 84, (void *)8), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(syscall(SYS_statfs64, (const char *)8, 84, buf), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(fstatfs(99, &s), -1);
	EXPECT_EQ(errno, EBADF);
	EXPECT_EQ(syscall(SYS_statfs64, "/", 80, buf), -1);     /* not i386's 84 */
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS_fstatfs64, 0, 88, buf), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS_statfs64, "/", 84, buf), 0);
}

int main(void)
{
	RUN(meminfo);
	RUN(uptime);
	RUN(loadavg);
	RUN(stat_counts_the_cpus);
	RUN(mounts);
	RUN(statfs_and_statvfs);
	RUN(tmp_is_there_for_tmpfile_and_mkstemp);
	RUN(errors);
	return lx_exit_code();
}
