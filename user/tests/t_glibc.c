/* user/tests/t_glibc.c - a static glibc program runs (abi.md section
 * 10): /bin/glibc-hello (user/linux/glibc-hello.c, the host's gcc -m32
 * -static) uses SSE2 in glibc's string functions from its first steps
 * and prints a double; it exits 0 when its own formatting of sqrt(2) is
 * right. Before the kernel set CR4.OSFXSR it died of SIGILL at its first
 * SSE instruction. Three at once, beside a Spindle thread keeping its own
 * FPU values, show that their SSE state is switched too. Booted as init
 * on QEMU's default CPU (qemu32: SSE2). */
#define T_PROG "t_glibc"
#include "t.h"
#include "fpregs.h"

static long spawn(void)
{
	char *argv[] = { "glibc-hello", NULL };
	char *envp[] = { "PATH=/bin", NULL };
	long pid = raw_fork();

	if (pid == 0) {
		raw_execve("/bin/glibc-hello", argv, envp);
		raw_exit_group(127);
	}
	return pid;
}

TEST(hello_prints_a_double)
{
	int st;
	long pid = spawn();

	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
}

TEST(three_at_once_beside_an_fpu_user)
{
	long pid[3];
	char why[128];
	int st;

	fp_fill(2024);
	for (int i = 0; i < 3; i++) {
		pid[i] = spawn();
		EXPECT(pid[i] > 0, "fork: %ld", pid[i]);
	}
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(raw_wait4(pid[i], &st, 0, NULL), pid[i]);
		EXPECT_STATUS(st, EXITED(0));
	}
	if (fp_check(2024, why, sizeof(why)))
		FAIL("this process's registers after three glibc programs ran: %s", why);
}

int main(void)
{
	RUN(hello_prints_a_double);
	RUN(three_at_once_beside_an_fpu_user);
	return t_exit_code();
}
