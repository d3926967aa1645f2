/* user/lib/pthread_barrier.c - barriers: count threads meet, then all go
 * on; one of them (the last to arrive) gets PTHREAD_BARRIER_SERIAL_THREAD.
 *
 * b->seq is the futex, bumped once per completed round. A thread reads
 * seq, then takes itself off b->left: the one that brings left to 0 is
 * the last of the round; it refills left for the next round, bumps seq and
 * wakes everyone. The others sleep until seq differs from the value they
 * read. Reading seq before the decrement matters: seq can only move after
 * the round's last decrement, so each waiter holds the value of its own
 * round. A released thread may race into the next round at once; left
 * was refilled before seq moved, so it counts there correctly. */
#include "pthread_impl.h"
#include "errno.h"

int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr,
			 unsigned count)
{
	(void)attr;
	if (count == 0 || count > 0x7fffffff)
		return EINVAL;
	b->count = count;
	b->left = (int)count;
	b->seq = 0;
	return 0;
}

int pthread_barrier_destroy(pthread_barrier_t *b)
{
	return atomic_load(&b->left) != (int)b->count ? EBUSY : 0;
}

int pthread_barrier_wait(pthread_barrier_t *b)
{
	int seq = atomic_load(&b->seq);

	if (atomic_add(&b->left, -1) == 0) {
		atomic_store(&b->left, (int)b->count);
		atomic_add(&b->seq, 1);
		if (b->count > 1)
			futex_wake(&b->seq, FUTEX_WAKE_ALL);
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	while (atomic_load(&b->seq) == seq)
		futex_wait(&b->seq, seq, NULL);
	return 0;
}
