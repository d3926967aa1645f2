/* user/tests/t_efault.c - the system call boundary (abi.md section 3):
 * every call that takes a pointer, given NULL, an unmapped page, a kernel
 * address, and an object that starts in user space and runs into the
 * kernel at 0xC0000000, returns -EFAULT and the program carries on;
 * unknown numbers return -ENOSYS; bad descriptors -EBADF; and a system
 * call preserves every register but %eax, on its error paths too.
 * Booted as init. */
#define T_PROG "t_efault"
#include "t.h"
#include "signal.h"
#include "sys/mman.h"
#include "sys/uio.h"

#define UNMAPPED 0x10000000u    /* unmapped by main() to be sure */
#define KERNEL   0xC0100000u    /* the kernel image */

/* The bad addresses for an object of n bytes: NULL, unmapped, kernel, and
 * one that straddles USER_TOP (n/2 bytes on each side, the low half in the
 * mapped top page of the stack). */
#define CROSS(n) (USER_TOP - ((n) + 1) / 2)
static const char *const bad_name[] = { "NULL", "unmapped", "kernel", "crossing" };

static uint32_t bad_addr(int i, size_t n)
{
	static const uint32_t fixed[] = { 0, UNMAPPED, KERNEL };
	return i < 3 ? fixed[i] : CROSS(n);
}

/* for each bad address of an n-byte object: p = the address */
#define FOR_BAD(i, p, n, first) \
	for (int i = (first); i < 4; i++) \
		for (void *p = (void *)bad_addr(i, (n)), *p##_once_ = (void *)1; \
		     p##_once_; p##_once_ = NULL)

#define EXPECT_EFAULT(call, i) do { \
	long r_ = (call); \
	EXPECT(r_ == -EFAULT, "%s with a %s pointer returned %s, want -EFAULT", \
	       #call, bad_name[i], t_val(r_, t_b1_)); \
} while (0)

#define ALL 0           /* FOR_BAD from NULL */
#define NOT_NULL 1      /* ... where NULL is a valid argument */

static int motd_fd(void)
{
	return (int)raw_open("/etc/motd", 0);
}

TEST(write_buffer)
{
	FOR_BAD(i, p, 64, ALL)
		EXPECT_EFAULT(raw_write(1, p, 64), i);
	EXPECT_EQ(raw_write(1, NULL, 0), 0);            /* nothing to read */
}

TEST(read_buffer)
{
	int fd = motd_fd();
	char c;

	EXPECT(fd >= 0, "open(/etc/motd): %s", t_val(fd, t_b1_));
	FOR_BAD(i, p, 64, ALL)
		EXPECT_EFAULT(raw_read(fd, p, 64), i);
	EXPECT_EQ(raw_read(fd, &c, 1), 1);
	EXPECT_EQ(c, 'W');                      /* the failed reads consumed nothing */
	raw_close(fd);
}

/* The last 16 bytes below USER_TOP, filled with 'a' and no NUL: a string
 * that runs into the kernel. They hold strings from the initial stack,
 * which are put back. */
static char saved_top[16];
static void unterminated_string_at_top(bool set)
{
	char *top = (char *)(USER_TOP - 16);
	if (set) {
		memcpy(saved_top, top, 16);
		memset(top, 'a', 16);
	} else {
		memcpy(top, saved_top, 16);
	}
}

TEST(open_path)
{
	unterminated_string_at_top(true);
	FOR_BAD(i, p, 32, ALL) {
		long r = raw_open(p, 0);
		if (r != -EFAULT) {
			unterminated_string_at_top(false);
			FAIL("open with a %s path returned %s, want -EFAULT", bad_name[i],
			     t_val(r, t_b1_));
		}
	}
	unterminated_string_at_top(false);
}

static char *const good_argv[] = { "t_exec_child", "exit", "3", NULL };
static char *const no_env[] = { NULL };

TEST(execve_path)
{
	unterminated_string_at_top(true);
	FOR_BAD(i, p, 32, ALL) {
		long r = raw_execve(p, good_argv, no_env);
		if (r != -EFAULT) {
			unterminated_string_at_top(false);
			FAIL("execve with a %s path returned %s, want -EFAULT", bad_name[i],
			     t_val(r, t_b1_));
		}
	}
	unterminated_string_at_top(false);
}

/* argv (which = 0) or envp (1) at bad address i, in a child in case the
 * execve wrongly succeeds; the child exits 100 + errno. */
static int execve_bad_vector(long arg)
{
	int which = arg & 1, i = (int)(arg >> 1);
	char **p = (char **)bad_addr(i, 8);

	if (i == 3)             /* argv[0] valid, argv[1] at 0xC0000000 */
		*(char **)(USER_TOP - 4) = "x";
	long r = which ? raw_execve("/tests/t_exec_child", good_argv, p)
		       : raw_execve("/tests/t_exec_child", p, no_env);
	return 100 + (int)-r;
}

TEST(execve_argv_and_envp)
{
	/* NULL argv or envp is allowed (Linux), so from unmapped on. */
	for (long which = 0; which < 2; which++)
		for (long i = 1; i < 4; i++) {
			long st = child_status(execve_bad_vector, which | i << 1);
			EXPECT(st == EXITED(100 + EFAULT),
			       "execve with a %s %s: child status %s, want exit %d (-EFAULT)",
			       bad_name[i], which ? "envp" : "argv", t_status_str(st, t_b1_),
			       100 + EFAULT);
		}
}

/* A child that exits at once, so the waits below have a zombie to report. */
static long zombie(void)
{
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(0);
	return pid;
}

/* Whether a wait that failed with -EFAULT reaped the child is not the
 * contract's business (Linux changed its mind): reap it if it did not. */
static void reap(long pid)
{
	raw_wait4(pid, NULL, 0, NULL);
}

TEST(wait4_status)
{
	FOR_BAD(i, p, 4, NOT_NULL) {
		long pid = zombie();
		long r = raw_wait4(pid, p, 0, NULL);
		reap(pid);
		EXPECT(r == -EFAULT, "wait4 with a %s status pointer returned %s, want -EFAULT",
		       bad_name[i], t_val(r, t_b1_));
	}
	long pid = zombie();
	EXPECT_EQ(raw_wait4(pid, NULL, 0, NULL), pid);  /* NULL: no status wanted */
}

TEST(waitpid_status)
{
	FOR_BAD(i, p, 4, NOT_NULL) {
		long pid = zombie();
		long r = raw_waitpid(pid, p, 0);
		reap(pid);
		EXPECT(r == -EFAULT, "waitpid with a %s status pointer returned %s, want -EFAULT",
		       bad_name[i], t_val(r, t_b1_));
	}
	long pid = zombie();
	EXPECT_EQ(raw_waitpid(pid, NULL, 0), pid);
}

TEST(rt_sigaction_act_and_oact)
{
	struct k_sigaction old;

	FOR_BAD(i, p, sizeof(struct k_sigaction), NOT_NULL) {
		EXPECT_EFAULT(raw_rt_sigaction(SIGUSR1, p, NULL, SIGSET_SIZE), i);
		EXPECT_EFAULT(raw_rt_sigaction(SIGUSR1, NULL, p, SIGSET_SIZE), i);
	}
	/* A failed act must not have changed the action. */
	EXPECT_EQ(raw_rt_sigaction(SIGUSR1, NULL, &old, SIGSET_SIZE), 0);
	EXPECT(old.handler == SIG_DFL, "SIGUSR1's action changed: handler %p", old.handler);
}

TEST(rt_sigprocmask_set_and_oset)
{
	unsigned long long mask = ~0ull;

	FOR_BAD(i, p, 8, NOT_NULL) {
		EXPECT_EFAULT(raw_rt_sigprocmask(SIG_BLOCK, p, NULL, SIGSET_SIZE), i);
		EXPECT_EFAULT(raw_rt_sigprocmask(SIG_BLOCK, NULL, p, SIGSET_SIZE), i);
	}
	EXPECT_EQ(raw_rt_sigprocmask(SIG_BLOCK, NULL, &mask, SIGSET_SIZE), 0);
	EXPECT(mask == 0, "the mask changed: %#llx", mask);
}

TEST(nanosleep_req)
{
	FOR_BAD(i, p, sizeof(struct timespec), ALL)
		EXPECT_EFAULT(raw_nanosleep(p, NULL), i);
}

/* rem is written only when a signal cuts the sleep short (Linux), so a bad
 * rem on an uninterrupted sleep may go unnoticed: 0 or -EFAULT. */
TEST(nanosleep_rem)
{
	struct timespec req = { 0, 1000 };

	FOR_BAD(i, p, sizeof(struct timespec), NOT_NULL) {
		long r = raw_nanosleep(&req, p);
		EXPECT(r == 0 || r == -EFAULT, "nanosleep with a %s rem returned %s",
		       bad_name[i], t_val(r, t_b1_));
	}
}

TEST(clock_gettime_ts)
{
	FOR_BAD(i, p, sizeof(struct timespec), ALL) {
		EXPECT_EFAULT(raw_clock_gettime(CLOCK_REALTIME, p), i);
		EXPECT_EFAULT(raw_clock_gettime(CLOCK_MONOTONIC, p), i);
	}
}

TEST(set_thread_area_u_info)
{
	FOR_BAD(i, p, sizeof(struct user_desc), ALL)
		EXPECT_EFAULT(raw_set_thread_area(p), i);
}

/* The kernel reads entry_number before it writes the rest back: the
 * crossing descriptor's first word is a valid entry (6), so that the
 * failure is the copy out, not -EINVAL. */
TEST(get_thread_area_u_info)
{
	uint32_t *entry = (uint32_t *)CROSS(sizeof(struct user_desc));
	uint32_t saved = *entry;

	*entry = 6;
	FOR_BAD(i, p, sizeof(struct user_desc), ALL) {
		long r = raw_get_thread_area(p);
		if (r != -EFAULT) {
			*entry = saved;
			FAIL("get_thread_area with a %s pointer returned %s, want -EFAULT",
			     bad_name[i], t_val(r, t_b1_));
		}
	}
	*entry = saved;
}

TEST(modify_ldt_write)
{
	FOR_BAD(i, p, sizeof(struct user_desc), ALL) {
		EXPECT_EFAULT(raw_modify_ldt(MODIFY_LDT_WRITE, p, sizeof(struct user_desc)), i);
		EXPECT_EFAULT(raw_modify_ldt(MODIFY_LDT_WRITE_OLD, p,
					     sizeof(struct user_desc)), i);
	}
}

static int ldt_word = 42;

TEST(modify_ldt_read)
{
	/* An LDT with one entry, so that there is something to copy out. */
	struct user_desc d = { .entry_number = 0, .base_addr = (unsigned)&ldt_word,
			       .limit = 0xfff, .seg_32bit = 1, .useable = 1 };

	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE, &d, sizeof(d)), 0);
	FOR_BAD(i, p, 64, ALL)
		EXPECT_EFAULT(raw_modify_ldt(MODIFY_LDT_READ, p, 64), i);
}

TEST(writev_iov)
{
	FOR_BAD(i, p, sizeof(struct iovec), ALL)
		EXPECT_EFAULT(raw_writev(1, p, 1), i);
}

TEST(writev_iov_base)
{
	FOR_BAD(i, p, 64, ALL) {
		struct iovec iov[2] = { { "", 0 }, { p, 64 } };
		EXPECT_EFAULT(raw_writev(1, iov, 2), i);
	}
}

TEST(futex_uaddr)
{
	/* A word cannot straddle USER_TOP aligned: the crossing case is the
	 * first kernel word instead. */
	static const uint32_t addr[] = { 0, UNMAPPED, KERNEL, USER_TOP };
	struct timespec ts = { 0, 1000 };

	for (int i = 0; i < 4; i++) {
		int *p = (int *)addr[i];
		EXPECT_EFAULT(raw_futex(p, FUTEX_WAKE, 1, NULL), i);
		EXPECT_EFAULT(raw_futex(p, FUTEX_WAIT, 0, &ts), i);
		EXPECT_EFAULT(raw_futex(p, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, &ts), i);
	}
}

TEST(futex_timeout)
{
	static int word;

	FOR_BAD(i, p, sizeof(struct timespec), NOT_NULL)
		EXPECT_EFAULT(raw_futex(&word, FUTEX_WAIT, 0, p), i);
}

/* The TID write of CLONE_SETTID and the descriptor of CLONE_SETTLS
 * (abi.md section 4): a bad pointer fails the clone, and no child exists. */
TEST(clone_settid_and_settls)
{
	int st;

	FOR_BAD(i, p, 4, ALL) {
		long r = raw_clone(CLONE_SETTID | SIGCHLD, NULL, p, NULL, NULL);
		if (r == 0)
			raw_exit_group(0);
		EXPECT_EFAULT(r, i);
	}
	FOR_BAD(i, p, sizeof(struct user_desc), ALL) {
		long r = raw_clone(CLONE_SETTLS | SIGCHLD, NULL, NULL, p, NULL);
		if (r == 0)
			raw_exit_group(0);
		EXPECT_EFAULT(r, i);
	}
	EXPECT_EQ(raw_wait4(-1, &st, WNOHANG, NULL), -ECHILD);
}

TEST(unknown_numbers_are_enosys)
{
	static const unsigned long nrs[] = {
		0, 222, 285, 384, 385, 1000, 0x7fffffff, 0x80000000, 0xffffffff,
	};
	for (unsigned i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		long r = raw_syscall6((long)nrs[i], 1, 2, 3, 4, 5, 6);
		EXPECT(r == -ENOSYS, "system call %#lx returned %s, want -ENOSYS", nrs[i],
		       t_val(r, t_b1_));
	}
}

TEST(bad_descriptors_are_ebadf)
{
	static const int fds[] = { -1, 5, 63, 64, 1000, 0x7fffffff, (int)0x80000000 };
	char buf[4];
	struct iovec iov = { buf, 1 };

	for (unsigned i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		int fd = fds[i];
		EXPECT(raw_write(fd, "x", 1) == -EBADF, "write(%d) is not -EBADF", fd);
		EXPECT(raw_read(fd, buf, 1) == -EBADF, "read(%d) is not -EBADF", fd);
		EXPECT(raw_close(fd) == -EBADF, "close(%d) is not -EBADF", fd);
		EXPECT(raw_writev(fd, &iov, 1) == -EBADF, "writev(%d) is not -EBADF", fd);
	}
	/* Bad descriptor and bad buffer: the descriptor is checked first. */
	EXPECT_EQ(raw_write(1000, (void *)KERNEL, 1), -EBADF);
}

/* ---- registers across int $0x80 ----
 * sc_in[0] is the number, sc_in[1..6] %ebx %ecx %edx %esi %edi %ebp;
 * sc_out the same registers after the call, sc_out[0] the result. */
long sc_in[7], sc_out[7];
void syscall_regs(void);
__asm__(
	"	.text\n"
	"	.type syscall_regs, @function\n"
	"syscall_regs:\n"
	"	pushl %ebp\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	movl sc_in+4, %ebx\n"
	"	movl sc_in+8, %ecx\n"
	"	movl sc_in+12, %edx\n"
	"	movl sc_in+16, %esi\n"
	"	movl sc_in+20, %edi\n"
	"	movl sc_in+24, %ebp\n"
	"	movl sc_in+0, %eax\n"
	"	int $0x80\n"
	"	movl %eax, sc_out+0\n"
	"	movl %ebx, sc_out+4\n"
	"	movl %ecx, sc_out+8\n"
	"	movl %edx, sc_out+12\n"
	"	movl %esi, sc_out+16\n"
	"	movl %edi, sc_out+20\n"
	"	movl %ebp, sc_out+24\n"
	"	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n"
	"	.size syscall_regs, . - syscall_regs\n");

static const char *const reg_name[] = { "eax", "ebx", "ecx", "edx", "esi", "edi", "ebp" };

TEST(registers_preserved)
{
	/* Calls through the normal, -ENOSYS, -EBADF and -EFAULT paths. */
	static const long calls[][7] = {
		{ SYS_getpid, 0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x55555555, 0x66666666 },
		{ SYS_sched_yield, -1, -2, -3, -4, -5, -6 },
		{ 1000, 0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x55555555, 0x66666666 },
		{ SYS_write, 1000, 0x22222222, 1, 0x44444444, 0x55555555, 0x66666666 },
		{ SYS_write, 1, KERNEL, 16, 0x44444444, 0x55555555, 0x66666666 },
		{ SYS_clock_gettime, CLOCK_MONOTONIC, UNMAPPED, 0x33333333, 0x44444444,
		  0x55555555, 0x66666666 },
	};
	for (unsigned c = 0; c < sizeof(calls) / sizeof(calls[0]); c++) {
		memcpy(sc_in, calls[c], sizeof(sc_in));
		syscall_regs();
		for (int r = 1; r < 7; r++)
			EXPECT(sc_out[r] == sc_in[r],
			       "system call %ld (returned %s) changed %%%s from %#lx to %#lx",
			       sc_in[0], t_val(sc_out[0], t_b1_), reg_name[r], sc_in[r],
			       sc_out[r]);
	}
}

int main(void)
{
	raw_munmap((void *)UNMAPPED, PAGE_SIZE);

	RUN(write_buffer);
	RUN(read_buffer);
	RUN(open_path);
	RUN(execve_path);
	RUN(execve_argv_and_envp);
	RUN(wait4_status);
	RUN(waitpid_status);
	RUN(rt_sigaction_act_and_oact);
	RUN(rt_sigprocmask_set_and_oset);
	RUN(nanosleep_req);
	RUN(nanosleep_rem);
	RUN(clock_gettime_ts);
	RUN(set_thread_area_u_info);
	RUN(get_thread_area_u_info);
	RUN(modify_ldt_write);
	RUN(modify_ldt_read);
	RUN(writev_iov);
	RUN(writev_iov_base);
	RUN(futex_uaddr);
	RUN(futex_timeout);
	RUN(clone_settid_and_settls);
	RUN(unknown_numbers_are_enosys);
	RUN(bad_descriptors_are_ebadf);
	RUN(registers_preserved);
	return t_exit_code();
}
