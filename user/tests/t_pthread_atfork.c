/* user/tests/t_pthread_atfork.c - pthread_atfork (user/lib/fork.c): the
 * handlers' order (POSIX: prepare in the reverse order of registration,
 * parent and child in that order; NULL handlers skipped), a handler
 * registered by a handler (it takes part from the next fork on), the
 * table's limit (ENOMEM), and handlers that use malloc, stdio and (in the
 * child) pthread_create while two other threads are busy in the library:
 * the library's own locks are taken after the last prepare handler and
 * free again before the first parent or child handler.
 *
 * Each case runs in a process of its own, forked by fork() and waited for
 * with a deadline: a handler, once registered, stays for the life of the
 * process. Children report only through their exit status. Booted as
 * init. */
#define T_PROG "t_pthread_atfork"
#include "t.h"
#include "thr.h"
#include "pthread.h"
#include "futex.h"            /* atomic_load, atomic_store */
#include "unistd.h"

#define CHILD_DEADLINE_MS 10000

/* Waits for pid, polling wait4 with WNOHANG, for up to ms: its wait
 * status, or -ETIMEDOUT once it has been killed (it hung), or -errno. */
static long wait_deadline(pid_t pid, long ms)
{
	long long end = thr_now_ns() + ms * 1000000ll;
	int st = -1;
	long r;

	while ((r = raw_wait4(pid, &st, WNOHANG, NULL)) == 0) {
		if (thr_now_ns() > end) {
			printf("t_pthread_atfork: child %d hung (state %c); killed\n", pid,
			       thr_task_state(pid));
			raw_kill(pid, SIGKILL);
			raw_wait4(pid, &st, 0, NULL);
			return -ETIMEDOUT;
		}
		thr_sleep_ms(1);
	}
	return r == pid ? st : (r < 0 ? r : -EINVAL);
}

/* Runs fn in a child process of its own (handlers, once registered, stay
 * for the life of the process) and waits for it, with a deadline; its
 * wait status. */
#define PROC_DEADLINE_MS 60000

static long proc_status(int (*fn)(long), long arg)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg));
	return pid < 0 ? -errno : wait_deadline(pid, PROC_DEADLINE_MS);
}

static char trace[64];
static volatile int ntrace;

static void note(char c)
{
	if (ntrace < (int)sizeof(trace) - 1)
		trace[ntrace++] = c;
	trace[ntrace] = '\0';
}

static void prep_a(void) { note('a'); }
static void prep_b(void) { note('b'); }
static void prep_c(void) { note('c'); }
static void par_a(void) { note('A'); }
static void par_c(void) { note('C'); }
static void chi_a(void) { note('1'); }
static void chi_b(void) { note('2'); }
static void chi_c(void) { note('3'); }

/* In a process of its own (the handlers stay registered): a, b, c
 * registered in that order; B's parent handler and c's prepare are
 * NULL. Exit status: 0, or which check failed. */
static int order_proc(long arg)
{
	pid_t pid;
	long st;

	(void)arg;
	CHECK(pthread_atfork(prep_a, par_a, chi_a) == 0 &&
	      pthread_atfork(prep_b, NULL, chi_b) == 0 && pthread_atfork(NULL, par_c, chi_c) == 0);
	ntrace = 0;
	pid = fork();
	if (pid == 0) {
		CHECK(strcmp(trace, "ba123") == 0);     /* prepare in reverse, child in order */
		_exit(0);
	}
	CHECK(strcmp(trace, "baAC") == 0);      /* prepare in reverse, parent in order */
	st = wait_deadline(pid, CHILD_DEADLINE_MS);
	CHECK(st == EXITED(0));
	return 0;
}

TEST(atfork_handler_order)
{
	EXPECT_STATUS(proc_status(order_proc, 0), EXITED(0));
}

/* A handler registered by a prepare handler takes part from the next
 * fork on, not in the fork that ran it. */
static int late_registered;

static void prep_registers(void)
{
	if (!late_registered++)
		pthread_atfork(prep_c, par_c, chi_c);
	note('r');
}

static int late_proc(long arg)
{
	pid_t pid;

	(void)arg;
	CHECK(pthread_atfork(prep_registers, par_a, chi_a) == 0);
	for (int round = 0; round < 2; round++) {
		ntrace = 0;
		pid = fork();
		if (pid == 0) {
			CHECK(strcmp(trace, round ? "cr13" : "r1") == 0);
			_exit(0);
		}
		CHECK(strcmp(trace, round ? "crAC" : "rA") == 0);
		CHECK(wait_deadline(pid, CHILD_DEADLINE_MS) == EXITED(0));
	}
	return 0;
}

TEST(atfork_registered_by_a_handler_runs_from_the_next_fork)
{
	EXPECT_STATUS(proc_status(late_proc, 0), EXITED(0));
}

/* Up to PTHREAD_ATFORK_MAX handlers; then ENOMEM. */
static int counted;

static void count(void) { counted++; }

static int limit_proc(long arg)
{
	pid_t pid;
	int i;

	(void)arg;
	for (i = 0; i < PTHREAD_ATFORK_MAX; i++)
		CHECK(pthread_atfork(count, count, NULL) == 0);
	CHECK(pthread_atfork(count, count, count) == ENOMEM);
	pid = fork();
	if (pid == 0) {
		CHECK(counted == PTHREAD_ATFORK_MAX);
		_exit(0);
	}
	CHECK(counted == 2 * PTHREAD_ATFORK_MAX);
	CHECK(wait_deadline(pid, CHILD_DEADLINE_MS) == EXITED(0));
	return 0;
}

TEST(atfork_table_limit)
{
	EXPECT_STATUS(proc_status(limit_proc, 0), EXITED(0));
}

static void *child_thread(void *arg)
{
	return (char *)arg + 1;
}

/* Handlers that use the library while two threads are busy in it: the
 * prepare handler runs before fork takes the library's locks, the
 * parent and child handlers after they are free again, so malloc, stdio
 * and (in the child) pthread_create work in all three. */
static char *prep_mem;
static int child_handler_ok;

static void prep_uses_lib(void)
{
	size_t len;
	FILE *f = open_memstream(&prep_mem, &len);

	if (f) {
		fprintf(f, "prepare %d", getpid());
		fclose(f);
	}
}

static void parent_uses_lib(void)
{
	free(prep_mem);
	prep_mem = malloc(8);
	free(prep_mem);
	prep_mem = NULL;
}

static void child_uses_lib(void)
{
	pthread_t t;
	void *r = NULL;
	char want[32];

	snprintf(want, sizeof(want), "prepare %d", getppid());
	child_handler_ok = prep_mem && !strcmp(prep_mem, want) &&
		!pthread_create(&t, NULL, child_thread, (void *)5) &&
		!pthread_join(t, &r) && r == (void *)6;
}

/* Two threads busy in the library: malloc and free, and fprintf to a
 * memory stream of their own, replaced every 64 lines. Where a stream
 * tells its buffer is static, not on the thread's stack: a child's exit()
 * flushes the stream, and the thread's stack may be gone in the child. */
static volatile int busy_stop;
static char *busy_buf[2];
static size_t busy_len[2];

static void *busy(void *arg)
{
	int k = arg == &busy_buf[0] ? 0 : 1;
	char **buf = &busy_buf[k];
	size_t *len = &busy_len[k];
	FILE *f = open_memstream(buf, len);
	unsigned long n = 0;

	while (f && !atomic_load(&busy_stop)) {
		void *p = malloc(1 + n % 2000);
		if (!p || fprintf(f, "busy %p round %lu\n", arg, n) < 0)
			break;
		free(p);
		if (++n % 64 == 0) {
			fclose(f);
			free(*buf);
			f = open_memstream(buf, len);
		}
	}
	if (f) {
		fclose(f);
		free(*buf);
	}
	return (void *)n;
}

static int parent_handler_ran;

static void parent_counts(void)
{
	parent_handler_ran++;
}

#define LIB_FORKS 20

static int lib_proc(long arg)
{
	pthread_t t[2];
	void *n[2] = { 0, 0 };

	(void)arg;
	CHECK(pthread_atfork(prep_uses_lib, parent_uses_lib, child_uses_lib) == 0 &&
	      pthread_atfork(NULL, parent_counts, NULL) == 0);
	for (int k = 0; k < 2; k++)
		CHECK(pthread_create(&t[k], NULL, busy, &busy_buf[k]) == 0);
	for (int i = 0; i < LIB_FORKS; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			CHECK(child_handler_ok);
			exit(0);
		}
		CHECK(pid > 0);
		CHECK(!prep_mem);               /* parent_uses_lib ran */
		CHECK(wait_deadline(pid, CHILD_DEADLINE_MS) == EXITED(0));
		thr_sleep_ms(1);        /* the busy threads back at work */
	}
	atomic_store(&busy_stop, 1);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], &n[k]);
	CHECK(n[0] && n[1]);                    /* no busy thread failed at once */
	CHECK(parent_handler_ran == LIB_FORKS);
	return 0;
}

TEST(atfork_handlers_may_use_the_library)
{
	EXPECT_STATUS(proc_status(lib_proc, 0), EXITED(0));
}

int main(void)
{
	RUN(atfork_handler_order);
	RUN(atfork_registered_by_a_handler_runs_from_the_next_fork);
	RUN(atfork_table_limit);
	RUN(atfork_handlers_may_use_the_library);
	return t_exit_code();
}
