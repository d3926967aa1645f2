/* user/lib/pthread_key.c - thread-specific data: pthread_key_create,
 * pthread_key_delete, pthread_getspecific, pthread_setspecific, and the
 * destructors run when a thread exits.
 *
 * A key is an index into keys[] and into a thread's block of values
 * (struct pthread_specific, which its TCB points at: pthread_impl.h).
 * Each key has a sequence number, odd while the key is in use, bumped by
 * create and by delete; a thread's value counts only while the seq
 * stored next to it matches the key's. So deleting a key forgets every
 * thread's value at once without visiting any thread, and a key created
 * again in the same slot starts out NULL everywhere (glibc's scheme).
 *
 * A thread gets its block at its first pthread_setspecific (calloc: all
 * NULL, seq 0, which no key in use has) and gives it back when it exits,
 * after the destructors. A thread that sets no value has none, and
 * pthread_create does not zero 1 KiB for it; glibc likewise allocates
 * the blocks for keys past its first 32 on demand. */
#include "pthread_impl.h"
#include "atfork.h"
#include "errno.h"
#include "stdlib.h"

struct pthread_specific {
	unsigned seq[PTHREAD_KEYS_MAX];         /* the key's seq at the set */
	const void *value[PTHREAD_KEYS_MAX];
};

static struct {
	volatile int seq;               /* odd: in use */
	void (*destructor)(void *);
} keys[PTHREAD_KEYS_MAX];
static volatile int keys_lock;

/* fork (atfork.h): a key being created or deleted at the fork must not
 * leave keys_lock held in the child. */
static void keys_prepare(void) { futex_lock(&keys_lock); }
static void keys_parent(void) { futex_unlock(&keys_lock); }
static void keys_child(void) { keys_lock = 0; }
const struct __atfork_handlers __pthread_key_atfork = { keys_prepare, keys_parent, keys_child };

static bool key_in_use(pthread_key_t key)
{
	return key < PTHREAD_KEYS_MAX && (atomic_load(&keys[key].seq) & 1);
}

/* At thread exit (pthread_exit), for a thread with a block: while any
 * value with a destructor is non-NULL, set it to NULL and call the
 * destructor with the old value - destructors may set values again, so
 * up to PTHREAD_DESTRUCTOR_ITERATIONS rounds (POSIX). Then the block
 * goes. */
static void run_destructors(struct pthread *self)
{
	struct pthread_specific *s = self->specific;

	for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
		bool again = false;
		for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++) {
			int seq = atomic_load(&keys[k].seq);
			void (*fn)(void *) = keys[k].destructor;
			void *v = (void *)s->value[k];

			if (!(seq & 1) || s->seq[k] != (unsigned)seq || !v || !fn)
				continue;
			s->value[k] = NULL;
			fn(v);
			again = true;
		}
		if (!again)
			break;
	}
	self->specific = NULL;
	free(s);
}

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *))
{
	int err = EAGAIN;

	__pthread_run_destructors = run_destructors;
	futex_lock(&keys_lock);
	for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++) {
		if (keys[k].seq & 1)
			continue;
		keys[k].destructor = destructor;
		atomic_add(&keys[k].seq, 1);
		*key = k;
		err = 0;
		break;
	}
	futex_unlock(&keys_lock);
	return err;
}

/* No destructors run (POSIX): the values are simply forgotten. */
int pthread_key_delete(pthread_key_t key)
{
	int err = EINVAL;

	futex_lock(&keys_lock);
	if (key_in_use(key)) {
		atomic_add(&keys[key].seq, 1);
		keys[key].destructor = NULL;
		err = 0;
	}
	futex_unlock(&keys_lock);
	return err;
}

void *pthread_getspecific(pthread_key_t key)
{
	struct pthread_specific *s = pthread_self()->specific;

	if (!key_in_use(key) || !s || s->seq[key] != (unsigned)atomic_load(&keys[key].seq))
		return NULL;
	return (void *)s->value[key];
}

int pthread_setspecific(pthread_key_t key, const void *value)
{
	struct pthread *self = pthread_self();
	struct pthread_specific *s = self->specific;

	if (!key_in_use(key))
		return EINVAL;
	/* POSIX: ENOMEM, "insufficient memory to associate the value". */
	if (!s && !(s = self->specific = calloc(1, sizeof(*s))))
		return ENOMEM;
	s->value[key] = value;
	s->seq[key] = (unsigned)atomic_load(&keys[key].seq);
	return 0;
}
