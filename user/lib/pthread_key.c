/* user/lib/pthread_key.c - thread-specific data: pthread_key_create,
 * pthread_key_delete, pthread_getspecific, pthread_setspecific, and the
 * destructors run when a thread exits.
 *
 * A key is an index into keys[] and into every thread's specific[] (in
 * its TCB, pthread_impl.h). Each key has a sequence number, odd while the
 * key is in use, bumped by create and by delete; a thread's value counts
 * only while the seq stored next to it matches the key's. So deleting a
 * key forgets every thread's value at once without visiting any thread,
 * and a key created again in the same slot starts out NULL everywhere
 * (glibc's scheme). */
#include "pthread_impl.h"
#include "atfork.h"
#include "errno.h"

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

/* At thread exit (pthread_exit): while any value with a destructor is
 * non-NULL, set it to NULL and call the destructor with the old value -
 * destructors may set values again, so up to
 * PTHREAD_DESTRUCTOR_ITERATIONS rounds (POSIX). */
static void run_destructors(struct pthread *self)
{
	for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
		bool again = false;
		for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++) {
			int seq = atomic_load(&keys[k].seq);
			void (*fn)(void *) = keys[k].destructor;
			void *v = (void *)self->specific[k];

			if (!(seq & 1) || self->specific_seq[k] != (unsigned)seq || !v || !fn)
				continue;
			self->specific[k] = NULL;
			fn(v);
			again = true;
		}
		if (!again)
			break;
	}
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
	struct pthread *self = pthread_self();

	if (!key_in_use(key) || self->specific_seq[key] != (unsigned)atomic_load(&keys[key].seq))
		return NULL;
	return (void *)self->specific[key];
}

int pthread_setspecific(pthread_key_t key, const void *value)
{
	struct pthread *self = pthread_self();

	if (!key_in_use(key))
		return EINVAL;
	self->specific[key] = value;
	self->specific_seq[key] = (unsigned)atomic_load(&keys[key].seq);
	self->specific_used = true;
	return 0;
}
