/* user/lib/pthread_misc.c - pthread_self, the per-thread errno,
 * pthread_equal, pthread_once and the thread attributes.
 *
 * errno lives here, as a __thread variable: this file is what gives every
 * program that uses pthreads its PT_TLS segment (pthread_create.c,
 * pthread_key.c and pthread_mutex.c all call pthread_self, which pulls
 * this file in), so such a program has TLS from before main
 * (pthread_tls.c). Programs without threads keep errno.c's single errno,
 * which is weak: the definition here replaces it at link time. */
#include "pthread_impl.h"
#include "errno.h"

static __thread int thread_errno;

int *__errno_location(void)
{
	return &thread_errno;
}

pthread_t pthread_self(void)
{
	return __pthread_self();
}

int pthread_equal(pthread_t a, pthread_t b)
{
	return a == b;
}

/* ---- pthread_once ----
 *
 * The word goes 0 (not yet) -> 1 (running init) -> 2 (done) once. The
 * thread that wins the cmpxchg from 0 runs init; the others sleep on the
 * word while it is 1. (No cancellation here, so init always finishes.) */
int pthread_once(pthread_once_t *once, void (*init)(void))
{
	volatile int *w = once;
	int v;

	if (atomic_load(w) == 2)
		return 0;               /* the fast path: no atomic, no call */
	if (atomic_cmpxchg(w, 0, 1) == 0) {
		init();
		atomic_store(w, 2);
		futex_wake(w, FUTEX_WAKE_ALL);
		return 0;
	}
	while ((v = atomic_load(w)) == 1)
		futex_wait(w, 1, NULL);
	return 0;
}

/* ---- attributes ---- */

int pthread_attr_init(pthread_attr_t *attr)
{
	attr->detachstate = PTHREAD_CREATE_JOINABLE;
	attr->stacksize = PTHREAD_STACK_DEFAULT;
	return 0;
}

int pthread_attr_destroy(pthread_attr_t *attr)
{
	(void)attr;
	return 0;
}

int pthread_attr_setdetachstate(pthread_attr_t *attr, int state)
{
	if (state != PTHREAD_CREATE_JOINABLE && state != PTHREAD_CREATE_DETACHED)
		return EINVAL;
	attr->detachstate = state;
	return 0;
}

int pthread_attr_getdetachstate(const pthread_attr_t *attr, int *state)
{
	*state = attr->detachstate;
	return 0;
}

/* The usable stack; the guard page, TLS block and TCB come on top. */
int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size)
{
	if (size < PTHREAD_STACK_MIN || size > 256u * 1024 * 1024)
		return EINVAL;
	attr->stacksize = size;
	return 0;
}

int pthread_attr_getstacksize(const pthread_attr_t *attr, size_t *size)
{
	*size = attr->stacksize;
	return 0;
}
