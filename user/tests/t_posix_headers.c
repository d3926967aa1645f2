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

int main(void)
{
	RUN(pthread_h_makes_sched_h_visible);
	return t_exit_code();
}
