/* user/tests/t_abi_sysnr.c - abi.md section 3's table of system call
 * numbers, each number written out as the table has it (never lib/abi.h's
 * SYS_* names, which the kernel shares: a wrong number there would be
 * wrong on both sides and pass every other test), and each checked by an
 * effect only that call has. Every int $0x80 here goes through
 * raw_syscallN with a literal number; the values the calls take (flags,
 * signal numbers) are literal too. Booted as init: getpid is 1, getppid 0. */
#define T_PROG "t_abi_sysnr"
#include "t.h"
#include "sys/uio.h"

#define S0(nr)                  raw_syscall0(nr)
#define S1(nr, a)               raw_syscall1(nr, (long)(a))
#define S2(nr, a, b)            raw_syscall2(nr, (long)(a), (long)(b))
#define S3(nr, a, b, c)         raw_syscall3(nr, (long)(a), (long)(b), (long)(c))
#define S4(nr, a, b, c, d)      raw_syscall4(nr, (long)(a), (long)(b), (long)(c), (long)(d))
#define S5(nr, a, b, c, d, e)   raw_syscall5(nr, (long)(a), (long)(b), (long)(c), (long)(d), \
					     (long)(e))
#define S6(nr, a, b, c, d, e, f) raw_syscall6(nr, (long)(a), (long)(b), (long)(c), (long)(d), \
					      (long)(e), (long)(f))

#define EXITED_(c) (((c) & 0xff) << 8)

/* A child by fork (2) that ends with exit_group (252) of fn's result;
 * waited for with wait4 (114). The wait status, or -errno. */
static long run_child(int (*fn)(void))
{
	int st = -1;
	long pid = S0(2);

	if (pid == 0)
		for (;;)
			S1(252, fn());
	if (pid < 0)
		return pid;
	long r = S4(114, pid, &st, 0, 0);
	return r == pid ? st : (r < 0 ? r : -1000);
}

static long ts_ns(const long ts[2])
{
	return ts[0] * 1000000000l + ts[1];
}

/* ---- ids, time, scheduling ---- */

static int ids_in_child(void)
{
	/* a child of init: getppid 1; one task: gettid == getpid != 1 */
	long pid = S0(20), tid = S0(224), ppid = S0(64);
	return ppid == 1 && tid == pid && pid > 1 ? 0 : 1;
}

TEST(nr_20_getpid_224_gettid_64_getppid)
{
	EXPECT_EQ(S0(20), 1);
	EXPECT_EQ(S0(224), 1);
	EXPECT_EQ(S0(64), 0);
	EXPECT_STATUS(run_child(ids_in_child), EXITED_(0));
}

TEST(nr_265_clock_gettime_162_nanosleep_158_sched_yield)
{
	long a[2] = { -1, -1 }, b[2] = { -1, -1 }, rt[2] = { -1, -1 };
	long req[2] = { 0, 20 * 1000 * 1000 };

	EXPECT_EQ(S2(265, 1, a), 0);                    /* CLOCK_MONOTONIC */
	EXPECT(a[1] >= 0 && a[1] < 1000000000, "monotonic tv_nsec %ld", a[1]);
	EXPECT_EQ(S2(265, 0, rt), 0);                   /* CLOCK_REALTIME */
	EXPECT(rt[0] > 1000000000l, "realtime %ld s is not after 2001", rt[0]);
	EXPECT_EQ(S2(162, req, 0), 0);
	EXPECT_EQ(S2(265, 1, b), 0);
	EXPECT(ts_ns(b) - ts_ns(a) >= 20 * 1000 * 1000,
	       "nanosleep(20 ms) returned after %ld ns", ts_ns(b) - ts_ns(a));
	EXPECT_EQ(S0(158), 0);
}

/* ---- files ---- */

TEST(nr_5_open_3_read_6_close_4_write_146_writev)
{
	char buf[8] = { 0 };
	static const char line[] = "t_abi_sysnr: written by 4 and 146\n";
	struct iovec iov[2] = { { (void *)line, 12 }, { (void *)(line + 12), sizeof(line) - 13 } };

	long fd = S2(5, "/etc/motd", 0);
	EXPECT(fd >= 3, "open(/etc/motd) = %ld", fd);
	EXPECT_EQ(S3(3, fd, buf, 7), 7);
	EXPECT(memcmp(buf, "Welcome", 7) == 0, "read gave \"%.7s\"", buf);
	EXPECT_EQ(S1(6, fd), 0);
	EXPECT_EQ(S3(3, fd, buf, 1), -9);               /* closed: EBADF */
	EXPECT_EQ(S3(4, 1, line, 12), 12);
	EXPECT_EQ(S3(146, 2, iov + 1, 1), (long)sizeof(line) - 13);
	EXPECT_EQ(S3(146, 1, iov, 0), 0);
}

/* ---- processes ---- */

static int exit_7_by_nr_1(void)
{
	S1(1, 7);                               /* exit: this task, the only one */
	return 99;
}

TEST(nr_2_fork_1_exit_252_exit_group_114_wait4_7_waitpid)
{
	int st = -1;

	EXPECT_STATUS(run_child(exit_7_by_nr_1), EXITED_(7));
	long pid = S0(2);
	if (pid == 0)
		S1(252, 0x42);
	EXPECT(pid > 1, "fork = %ld", pid);
	EXPECT_EQ(S3(7, pid, &st, 0), pid);             /* waitpid */
	EXPECT_STATUS(st, EXITED_(0x42));
	EXPECT_EQ(S3(7, -1, &st, 0), -10);              /* ECHILD */
}

static int exec_exit_5(void)
{
	static char *const argv[] = { "t_exec_child", "exit", "5", NULL };
	static char *const envp[] = { NULL };

	return 100 + (int)-S3(11, "/tests/t_exec_child", argv, envp);
}

TEST(nr_11_execve)
{
	EXPECT_STATUS(run_child(exec_exit_5), EXITED_(5));
}

TEST(nr_120_clone)
{
	int st = -1;
	/* flags SIGCHLD (17), newsp 0: a fork. */
	long pid = S5(120, 17, 0, 0, 0, 0);

	if (pid == 0)
		S1(252, S0(64) == 1 ? 3 : 4);
	EXPECT(pid > 1, "clone = %ld", pid);
	EXPECT_EQ(S4(114, pid, &st, 0, 0), pid);
	EXPECT_STATUS(st, EXITED_(3));
}

/* ---- signals ---- */

static volatile int hits;
static volatile unsigned long mask_in_handler[2];

static void on_sig(int sig)
{
	unsigned long m[2] = { 0, 0 };

	S4(175, 0, 0, m, 8);                    /* rt_sigprocmask: read only */
	mask_in_handler[0] = m[0];
	mask_in_handler[1] = m[1];
	hits = sig;
}

/* Returns through rt_sigreturn by its number. */
void abi_restorer_173(void);
__asm__(
	"	.text\n"
	"	.type abi_restorer_173, @function\n"
	"abi_restorer_173:\n"
	"	movl $173, %eax\n"
	"	int $0x80\n"
	"	ud2\n"
	"	.size abi_restorer_173, . - abi_restorer_173\n");

/* handler, flags (SA_RESTORER 0x04000000), restorer, mask[2]: rt_sigaction
 * (174), with sigsetsize 8. */
static long install(int sig, void (*h)(int), unsigned long mask0)
{
	unsigned long act[5] = { (unsigned long)h, 0x04000000, (unsigned long)abi_restorer_173,
				 mask0, 0 };
	return S4(174, sig, act, 0, 8);
}

TEST(nr_174_rt_sigaction_37_kill_173_rt_sigreturn)
{
	unsigned long old[5];

	hits = 0;
	EXPECT_EQ(install(10, on_sig, 0), 0);           /* SIGUSR1 */
	memset(old, 0x5a, sizeof(old));
	EXPECT_EQ(S4(174, 10, 0, old, 8), 0);
	EXPECT(old[0] == (unsigned long)on_sig && old[1] == 0x04000000 &&
	       old[2] == (unsigned long)abi_restorer_173 && old[3] == 0 && old[4] == 0,
	       "oact words %#lx %#lx %#lx %#lx %#lx", old[0], old[1], old[2], old[3], old[4]);
	EXPECT_EQ(S2(37, 1, 10), 0);                    /* kill(1, SIGUSR1) */
	/* delivered on the way out of kill, and back here by 173 */
	EXPECT_EQ(hits, 10);
	unsigned long dfl[5] = { 0, 0, 0, 0, 0 };
	EXPECT_EQ(S4(174, 10, dfl, 0, 8), 0);
}

TEST(nr_175_rt_sigprocmask_and_its_hows)
{
	unsigned long set[2] = { 1ul << 9, 0 }, old[2] = { 7, 7 };   /* SIGUSR1's bit */

	hits = 0;
	EXPECT_EQ(install(10, on_sig, 0), 0);
	EXPECT_EQ(S4(175, 0, set, old, 8), 0);          /* SIG_BLOCK 0 */
	EXPECT(old[0] == 0 && old[1] == 0, "old mask %#lx %#lx", old[0], old[1]);
	EXPECT_EQ(S2(37, 1, 10), 0);
	EXPECT_EQ(hits, 0);                             /* blocked: pending */
	EXPECT_EQ(S4(175, 1, set, 0, 8), 0);            /* SIG_UNBLOCK 1 */
	EXPECT_EQ(hits, 10);
	hits = 0;
	EXPECT_EQ(S4(175, 2, set, 0, 8), 0);            /* SIG_SETMASK 2 */
	EXPECT_EQ(S4(175, 0, 0, old, 8), 0);
	EXPECT(old[0] == 1ul << 9 && old[1] == 0, "mask after SETMASK %#lx %#lx", old[0], old[1]);
	unsigned long none[2] = { 0, 0 };
	EXPECT_EQ(S4(175, 2, none, 0, 8), 0);
	EXPECT_EQ(hits, 0);
	unsigned long dfl[5] = { 0, 0, 0, 0, 0 };
	EXPECT_EQ(S4(174, 10, dfl, 0, 8), 0);
}

TEST(nr_270_tgkill)
{
	hits = 0;
	EXPECT_EQ(install(12, on_sig, 1ul << 14), 0);   /* SIGUSR2; sa_mask SIGTERM */
	EXPECT_EQ(S3(270, 1, 1, 12), 0);
	EXPECT_EQ(hits, 12);
	/* sa_mask (words 3-4) and the signal itself blocked in the handler */
	EXPECT_EQ(mask_in_handler[0], (1ul << 14) | (1ul << 11));
	EXPECT_EQ(mask_in_handler[1], 0);
	unsigned long dfl[5] = { 0, 0, 0, 0, 0 };
	EXPECT_EQ(S4(174, 12, dfl, 0, 8), 0);
}

/* ---- memory ---- */

static long mem_page;

static int write_mem_page(void)
{
	*(volatile int *)mem_page = 1;
	return 0;
}

TEST(nr_192_mmap2_125_mprotect_91_munmap_45_brk)
{
	/* PROT_READ|PROT_WRITE 3, MAP_PRIVATE|MAP_ANONYMOUS 0x22 */
	mem_page = S6(192, 0, 4096, 3, 0x22, -1, 0);
	EXPECT(!RAW_IS_ERR(mem_page) && (unsigned long)mem_page >= 0x1000 &&
	       (unsigned long)mem_page < 0xC0000000ul && (mem_page & 0xfff) == 0,
	       "mmap2 = %#lx", mem_page);
	*(volatile int *)mem_page = 5;
	EXPECT_STATUS(run_child(write_mem_page), EXITED_(0));
	EXPECT_EQ(S3(125, mem_page, 4096, 1), 0);       /* PROT_READ */
	EXPECT_STATUS(run_child(write_mem_page), 11);   /* SIGSEGV */
	EXPECT_EQ(*(volatile int *)mem_page, 5);
	EXPECT_EQ(S2(91, mem_page, 4096), 0);
	EXPECT_STATUS(run_child(write_mem_page), 11);

	long b = S1(45, 0);
	EXPECT(b > 0x08048000 && (unsigned long)b < 0xC0000000ul, "brk(0) = %#lx", b);
	EXPECT_EQ(S1(45, b + 8192), b + 8192);
	((volatile char *)b)[8191] = 1;
	EXPECT_EQ(S1(45, b), b);
}

/* ---- TLS, LDT, futex ---- */

TEST(nr_243_set_thread_area_244_get_thread_area)
{
	/* entry -1, base 0x1234000, limit 0xfffff, seg_32bit | limit_in_pages */
	unsigned d[4] = { 0xffffffffu, 0x1234000, 0xfffff, 1 | 1 << 4 };
	unsigned g[4] = { 0, 0, 0, 0 };

	EXPECT_EQ(S1(243, d), 0);
	EXPECT(d[0] >= 6 && d[0] <= 8, "entry written back: %u", d[0]);
	g[0] = d[0];
	EXPECT_EQ(S1(244, g), 0);
	EXPECT(g[1] == 0x1234000 && g[2] == 0xfffff && g[3] == (1 | 1 << 4),
	       "get_thread_area: %#x %#x %#x", g[1], g[2], g[3]);
	unsigned empty[4] = { d[0], 0, 0, 1 << 3 | 1 << 5 };
	EXPECT_EQ(S1(243, empty), 0);
}

TEST(nr_123_modify_ldt)
{
	unsigned d[4] = { 2, 0x00abc000, 0xfff, 1 };    /* entry 2, 32-bit data */
	unsigned raw[6];

	EXPECT_EQ(S3(123, 0x11, d, 16), 0);
	memset(raw, 0x5a, sizeof(raw));
	EXPECT_EQ(S3(123, 0, raw, 24), 24);
	/* base 0xabc000 in bits 16-31 of the low word, 0-7 of the high */
	EXPECT_EQ(raw[4], 0xc0000fffu);
	EXPECT_EQ(raw[5] & 0xff0000ffu, 0xabu);
	EXPECT_EQ(raw[5] & (1u << 22), 1u << 22);      /* seg_32bit: D/B */
	unsigned z[4] = { 2, 0, 0, 0 };
	EXPECT_EQ(S3(123, 1, z, 16), 0);                /* old mode, all zero: clear */
	EXPECT_EQ(S3(123, 0, raw, 24), 24);
	EXPECT_EQ(raw[4] | raw[5], 0);
}

TEST(nr_240_futex)
{
	static int word;
	long ts[2] = { 0, 1000000 };

	word = 0;
	EXPECT_EQ(S4(240, &word, 0, 1, ts), -11);       /* WAIT, mismatch: EAGAIN */
	EXPECT_EQ(S4(240, &word, 0, 0, ts), -110);      /* WAIT, 1 ms: ETIMEDOUT */
	EXPECT_EQ(S4(240, &word, 1, 1, 0), 0);          /* WAKE: nobody */
	EXPECT_EQ(S4(240, &word, 128 | 1, 1, 0), 0);    /* FUTEX_PRIVATE_FLAG */
}

TEST(numbers_outside_the_table_are_enosys)
{
	/* Linux/i386 numbers Spindle does not list, and beyond the table */
	static const long nrs[] = { 0, 16, 18, 17, 31, 35, 44, 90, 222, 223, 225, 253, 264,
				    272, 271, 1000 };

	for (unsigned i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		long r = S6(nrs[i], 0, 0, 0, 0, 0, 0);
		EXPECT(r == -38, "system call %ld returned %ld, want -38 (ENOSYS)", nrs[i], r);
	}
}

int main(void)
{
	RUN(nr_20_getpid_224_gettid_64_getppid);
	RUN(nr_265_clock_gettime_162_nanosleep_158_sched_yield);
	RUN(nr_5_open_3_read_6_close_4_write_146_writev);
	RUN(nr_2_fork_1_exit_252_exit_group_114_wait4_7_waitpid);
	RUN(nr_11_execve);
	RUN(nr_120_clone);
	RUN(nr_174_rt_sigaction_37_kill_173_rt_sigreturn);
	RUN(nr_175_rt_sigprocmask_and_its_hows);
	RUN(nr_270_tgkill);
	RUN(nr_192_mmap2_125_mprotect_91_munmap_45_brk);
	RUN(nr_243_set_thread_area_244_get_thread_area);
	RUN(nr_123_modify_ldt);
	RUN(nr_240_futex);
	RUN(numbers_outside_the_table_are_enosys);
	return t_exit_code();
}
