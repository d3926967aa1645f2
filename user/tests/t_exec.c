/* user/tests/t_exec.c - execve (abi.md section 2): the new program's start
 * state (checked by t_exec_child itself), exit statuses through exec, what
 * survives exec and what does not, and every way execve can fail: -ENOENT,
 * -ENOEXEC for files that are not static ELF32 i386 executables (the
 * bad_* files the build makes), -EFAULT. A failed execve must leave the
 * caller running as it was. Booted as init. */
#define T_PROG "t_exec"
#include "t.h"
#include "t_exec.h"
#include "segs.h"
#include "signal.h"
#include "sys/mman.h"

/* Runs argv[0] = path with argv in a forked child; returns the wait
 * status. If execve fails the child exits 100 + errno. */
static long exec_status(const char *path, char *const argv[], char *const envp[])
{
	int st = -1;
	long pid = raw_fork();

	if (pid < 0)
		return pid;
	if (pid == 0)
		raw_exit_group(100 + (int)-raw_execve(path, argv, envp));
	long r = raw_wait4(pid, &st, 0, NULL);
	return r == pid ? st : (r < 0 ? r : -EINVAL);
}

#define EXEC_FAILED(e) EXITED(100 + (e))

static char *const no_env[] = { NULL };

TEST(args_environment_and_start_state)
{
	/* t_exec_child prints its own t_exec_child.* lines. */
	EXPECT_STATUS(exec_status(EXEC_CHILD, exec_args_argv, exec_args_envp), EXITED(0));
}

TEST(exit_status_propagates)
{
	char *argv42[] = { "t_exec_child", "exit", "42", NULL };
	char *argv0[] = { "t_exec_child", "exit", "0", NULL };
	char *argv255[] = { "t_exec_child", "exit", "255", NULL };

	EXPECT_STATUS(exec_status(EXEC_CHILD, argv42, no_env), EXITED(42));
	EXPECT_STATUS(exec_status(EXEC_CHILD, argv0, no_env), EXITED(0));
	EXPECT_STATUS(exec_status(EXEC_CHILD, argv255, no_env), EXITED(255));
}

/* NULL, or an argv with no strings: the program gets argc 1 and
 * argv[0] "" (Linux since 5.18; abi.md section 2). */
TEST(an_empty_argv_becomes_one_empty_string)
{
	char *none[] = { NULL };

	EXPECT_STATUS(exec_status(EXEC_CHILD, none, no_env), EXITED(CHILD_EMPTY_ARGV));
	EXPECT_STATUS(exec_status(EXEC_CHILD, NULL, no_env), EXITED(CHILD_EMPTY_ARGV));
}

TEST(empty_environment)
{
	char *argv[] = { "t_exec_child", "exit", "7", NULL };

	EXPECT_STATUS(exec_status(EXEC_CHILD, argv, no_env), EXITED(7));
}

static int exec_keeping_pid(long unused)
{
	char pid[16], ppid[16];
	(void)unused;
	snprintf(pid, sizeof(pid), "%ld", raw_getpid());
	snprintf(ppid, sizeof(ppid), "%ld", raw_getppid());
	char *argv[] = { "t_exec_child", "pid", pid, ppid, NULL };
	return 100 + (int)-raw_execve(EXEC_CHILD, argv, no_env);
}

TEST(pid_and_parent_survive_exec)
{
	EXPECT_STATUS(child_status(exec_keeping_pid, 0), EXITED(0));
}

static void handler(int sig)
{
	(void)sig;
}

/* Caught signals go back to SIG_DFL, ignored ones stay ignored (Linux). */
static int exec_after_sigaction(long unused)
{
	struct k_sigaction catch = { .handler = (void *)handler,
				     .flags = SA_RESTORER, .restorer = (void *)__restore_rt };
	struct k_sigaction ignore = { .handler = SIG_IGN };
	char *argv[] = { "t_exec_child", "sigdfl", NULL };
	(void)unused;
	CHECK(raw_rt_sigaction(SIGUSR1, &catch, NULL, SIGSET_SIZE) == 0);
	CHECK(raw_rt_sigaction(SIGUSR2, &ignore, NULL, SIGSET_SIZE) == 0);
	return 100 + (int)-raw_execve(EXEC_CHILD, argv, no_env);
}

TEST(exec_resets_caught_signals)
{
	long st = child_status(exec_after_sigaction, 0);

	EXPECT(st != EXITED(1), "SIGUSR1's handler survived execve");
	EXPECT(st != EXITED(2), "SIGUSR2 is no longer ignored after execve");
	EXPECT_STATUS(st, EXITED(0));
}

static int exec_blocked(long unused)
{
	unsigned long long set = SIGBIT(SIGUSR1);
	char *argv[] = { "t_exec_child", "mask", NULL };
	(void)unused;
	CHECK(raw_rt_sigprocmask(SIG_BLOCK, &set, NULL, SIGSET_SIZE) == 0);
	return 100 + (int)-raw_execve(EXEC_CHILD, argv, no_env);
}

TEST(exec_keeps_the_signal_mask)
{
	EXPECT_STATUS(child_status(exec_blocked, 0), EXITED(0));
}

static int tls_word = 0x1234;

static int exec_with_tls(long unused)
{
	struct user_desc d = { .entry_number = -1, .base_addr = (unsigned)&tls_word,
			       .limit = 0xfffff, .seg_32bit = 1, .limit_in_pages = 1,
			       .useable = 1 };
	char *argv[] = { "t_exec_child", "tls", NULL };
	(void)unused;
	CHECK(raw_set_thread_area(&d) == 0);
	set_gs(GDT_SEL(d.entry_number));
	return 100 + (int)-raw_execve(EXEC_CHILD, argv, no_env);
}

TEST(exec_clears_tls)
{
	long st = child_status(exec_with_tls, 0);

	EXPECT(st != EXITED(1), "%%fs or %%gs was not 0 at the new program's start");
	EXPECT(st != EXITED(2), "a TLS slot survived execve");
	EXPECT_STATUS(st, EXITED(0));
}

#define OLD_MAPPING 0x40000000

static int exec_after_mmap(long unused)
{
	char *argv[] = { "t_exec_child", "unmapped", "0x40000000", NULL };
	(void)unused;
	long p = raw_mmap2((void *)OLD_MAPPING, 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	CHECK(p == OLD_MAPPING);
	*(volatile int *)OLD_MAPPING = 1;
	return 100 + (int)-raw_execve(EXEC_CHILD, argv, no_env);
}

TEST(exec_replaces_the_address_space)
{
	long st = child_status(exec_after_mmap, 0);

	EXPECT(st != EXITED(1), "a mapping made before execve is still there after it");
	EXPECT_STATUS(st, EXITED(0));
}

/* 200 arguments of 100 bytes: 20 KiB, well inside Linux 2.6's 128 KiB. */
#define MANY_N 200
static char many_buf[MANY_N][MANY_ARG_LEN + 1];

TEST(many_arguments)
{
	char *argv[MANY_N + 4] = { "t_exec_child", "many", "200" };

	for (int i = 0; i < MANY_N; i++) {
		for (int j = 0; j < MANY_ARG_LEN; j++)
			many_buf[i][j] = 'a' + (i + j) % 26;
		argv[3 + i] = many_buf[i];
	}
	argv[3 + MANY_N] = NULL;
	EXPECT_STATUS(exec_status(EXEC_CHILD, argv, no_env), EXITED(0));
}

/* ---- failures: the caller keeps running, untouched ---- */
static volatile int marker = 0x5151;

/* execve(path) must fail; exit 100 + errno (CHECK: the caller's memory
 * did not change under the failed call). */
static int failed_exec(long path)
{
	volatile int on_stack = 0x6161;
	char *argv[] = { "x", NULL };
	long r = raw_execve((const char *)path, argv, no_env);
	CHECK(marker == 0x5151 && on_stack == 0x6161);  /* memory untouched */
	return 100 + (int)-r;
}

#define EXPECT_EXEC_ERROR(path, err) do { \
	long s_ = child_status(failed_exec, (long)(path)); \
	EXPECT(s_ != EXITED(CHILD_USAGE), "%s: execve succeeded", (path)); \
	EXPECT(s_ == EXEC_FAILED(err), "execve(\"%s\"): child status %s, want exit %d " \
	       "(execve returned -%s)", (path), t_status_str(s_, t_b1_), 100 + (err), \
	       t_errname(err)); \
} while (0)

TEST(missing_file_is_enoent)
{
	EXPECT_EXEC_ERROR("/bin/no_such_program", ENOENT);
	EXPECT_EXEC_ERROR("/no/such/dir/prog", ENOENT);
	EXPECT_EXEC_ERROR("", ENOENT);
}

/* As Linux: a file without an x bit is -EACCES before it is read, a
 * directory too; an executable text file is -ENOEXEC. */
TEST(not_executable_is_eacces)
{
	EXPECT_EXEC_ERROR("/etc/motd", EACCES);
	EXPECT_EXEC_ERROR("/etc", EACCES);
}

TEST(text_file_is_enoexec)
{
	EXPECT_EQ(raw_chmod("/etc/motd", 0755), 0);
	EXPECT_EXEC_ERROR("/etc/motd", ENOEXEC);
	EXPECT_EQ(raw_chmod("/etc/motd", 0644), 0);
}

TEST(elf64_is_enoexec)          { EXPECT_EXEC_ERROR("/tests/bad_elf64", ENOEXEC); }
TEST(wrong_machine_is_enoexec)  { EXPECT_EXEC_ERROR("/tests/bad_machine", ENOEXEC); }
TEST(not_et_exec_is_enoexec)    { EXPECT_EXEC_ERROR("/tests/bad_type", ENOEXEC); }
TEST(bad_magic_is_enoexec)      { EXPECT_EXEC_ERROR("/tests/bad_magic", ENOEXEC); }
TEST(bad_phentsize_is_enoexec)  { EXPECT_EXEC_ERROR("/tests/bad_phentsize", ENOEXEC); }
TEST(no_phdrs_is_enoexec)       { EXPECT_EXEC_ERROR("/tests/bad_phnum", ENOEXEC); }
TEST(wrapping_phoff_is_enoexec) { EXPECT_EXEC_ERROR("/tests/bad_phoff", ENOEXEC); }
TEST(truncated_is_enoexec)      { EXPECT_EXEC_ERROR("/tests/bad_trunc", ENOEXEC); }
/* Static only: a program with a PT_INTERP (dynamic loader) header is
 * refused. user/Makefile.inc patches t_exec_child's 4th program header
 * into one at a fixed offset; the file is checked first, so that a
 * toolchain laying the headers out otherwise fails here, not silently. */
TEST(dynamic_pt_interp_is_enoexec)
{
	static unsigned char h[52 + 4 * 32];
	long fd = raw_open("/tests/bad_interp", 0), n = 0, r;

	EXPECT(fd >= 0, "open /tests/bad_interp: %ld", fd);
	while (n < (long)sizeof(h) && (r = raw_read((int)fd, h + n, sizeof(h) - n)) > 0)
		n += r;
	raw_close((int)fd);
	EXPECT(n == (long)sizeof(h) && h[28] == 52 && h[44] >= 4 && h[52 + 3 * 32] == 3,
	       "/tests/bad_interp has no PT_INTERP as its 4th program header (phoff %u, phnum %u): "
	       "fix USER_BAD_bad_interp in user/Makefile.inc", h[28], h[44]);
	EXPECT_EXEC_ERROR("/tests/bad_interp", ENOEXEC);
}

/* A PT_LOAD at 0xc0000000: the kernel must not load it over itself. It
 * may refuse (any error) or, past the point of no return, kill the
 * process; the kernel keeps running either way. */
TEST(segment_in_kernel_space_is_refused)
{
	long st = child_status(failed_exec, (long)"/tests/bad_kaddr");

	EXPECT(st >= 0, "fork/wait: %s", t_val(st, t_b1_));
	EXPECT(st != EXITED(T_CHILD_FAILED), "memory changed under the failed execve");
	EXPECT((WIFEXITED(st) && WEXITSTATUS(st) > 100) ||
	       st == KILLED(SIGSEGV) || st == KILLED(SIGKILL),
	       "child status %s: want an execve error or death by SIGSEGV/SIGKILL",
	       t_status_str(st, t_b1_));
}

static int exec_bad_vectors(long which)
{
	char *bad_arg[] = { "t_exec_child", (char *)0xC0100000, NULL };
	char *unmapped_arg[] = { "t_exec_child", (char *)0x10000000, NULL };
	char *good[] = { "t_exec_child", "exit", "3", NULL };
	long r;

	raw_munmap((void *)0x10000000, 4096);
	switch (which) {
	case 0: r = raw_execve(EXEC_CHILD, (char **)0xC0100000, no_env); break;
	case 1: r = raw_execve(EXEC_CHILD, (char **)0x10000000, no_env); break;
	case 2: r = raw_execve(EXEC_CHILD, bad_arg, no_env); break;
	case 3: r = raw_execve(EXEC_CHILD, unmapped_arg, no_env); break;
	case 4: r = raw_execve(EXEC_CHILD, good, (char **)0xC0100000); break;
	case 5: r = raw_execve(EXEC_CHILD, good, bad_arg); break;
	case 6: r = raw_execve(NULL, good, no_env); break;
	default: r = raw_execve((char *)0xC0100000, good, no_env); break;
	}
	CHECK(marker == 0x5151);                        /* memory untouched */
	return 100 + (int)-r;
}

TEST(bad_pointers_are_efault)
{
	static const char *const what[] = {
		"argv in the kernel", "argv unmapped", "argv[1] in the kernel",
		"argv[1] unmapped", "envp in the kernel", "envp[1] in the kernel",
		"path NULL", "path in the kernel",
	};
	for (long i = 0; i < 8; i++) {
		long st = child_status(exec_bad_vectors, i);
		EXPECT(st == EXEC_FAILED(EFAULT), "%s: child status %s, want exit %d (-EFAULT)",
		       what[i], t_status_str(st, t_b1_), 100 + EFAULT);
	}
}

int main(void)
{
	RUN(args_environment_and_start_state);
	RUN(exit_status_propagates);
	RUN(an_empty_argv_becomes_one_empty_string);
	RUN(empty_environment);
	RUN(pid_and_parent_survive_exec);
	RUN(exec_resets_caught_signals);
	RUN(exec_keeps_the_signal_mask);
	RUN(exec_clears_tls);
	RUN(exec_replaces_the_address_space);
	RUN(many_arguments);
	RUN(missing_file_is_enoent);
	RUN(not_executable_is_eacces);
	RUN(text_file_is_enoexec);
	RUN(elf64_is_enoexec);
	RUN(wrong_machine_is_enoexec);
	RUN(not_et_exec_is_enoexec);
	RUN(bad_magic_is_enoexec);
	RUN(bad_phentsize_is_enoexec);
	RUN(no_phdrs_is_enoexec);
	RUN(wrapping_phoff_is_enoexec);
	RUN(dynamic_pt_interp_is_enoexec);
	RUN(truncated_is_enoexec);
	RUN(segment_in_kernel_space_is_refused);
	RUN(bad_pointers_are_efault);
	return t_exit_code();
}
