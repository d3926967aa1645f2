/* user/tests/t_posix_headers.c - POSIX visibility: an ordinary threaded
 * program includes only <pthread.h> and calls sched_yield, as it may
 * against glibc (whose <pthread.h> includes <sched.h>). This file
 * includes nothing else that declares it: without the visibility it
 * does not compile (-Werror=implicit-function-declaration). */
#include "pthread.h"
#define T_PROG "t_posix_headers"
#include "t.h"

static void *yielder(void *arg)
{
	for (int i = 0; i < 10; i++)
		sched_yield();
	return arg;
}

TEST(pthread_h_makes_sched_h_visible)
{
	pthread_t th;
	void *ret = NULL;

	EXPECT_EQ(pthread_create(&th, NULL, yielder, (void *)42), 0);
	EXPECT_EQ(sched_yield(), 0);
	EXPECT_EQ(pthread_join(th, &ret), 0);
	EXPECT(ret == (void *)42, "join gave %p", ret);
}

static volatile int got_usr1;
static volatile pid_t usr1_tid;
static void on_usr1(int sig) { (void)sig; got_usr1++; usr1_tid = raw_gettid(); }
static volatile int stop;
static void *spinner(void *arg) { while (!stop) sched_yield(); return arg; }

/* <signal.h> declares pthread_kill and pthread_sigmask (POSIX puts them
 * there); pthread_kill reaches the one thread named. */
#include "signal.h"
TEST(pthread_kill_one_thread)
{
	pthread_t th;
	sigset_t none;

	sigemptyset(&none);
	EXPECT_EQ(pthread_sigmask(SIG_SETMASK, &none, NULL), 0);
	EXPECT(signal(SIGUSR1, on_usr1) != SIG_ERR, "signal");
	EXPECT_EQ(pthread_create(&th, NULL, spinner, NULL), 0);
	EXPECT_EQ(pthread_kill(th, SIGUSR1), 0);
	while (!got_usr1)
		sched_yield();
	EXPECT(usr1_tid != raw_gettid(), "the main thread took it");
	EXPECT_EQ(pthread_kill(th, 99), EINVAL);
	stop = 1;
	EXPECT_EQ(pthread_join(th, NULL), 0);
	EXPECT_EQ(pthread_sigmask(7, &none, NULL), EINVAL);
}

int main(void)
{
	RUN(pthread_h_makes_sched_h_visible);
	RUN(pthread_kill_one_thread);
	return t_exit_code();
}
