/* user/lib/fork.c - fork() and pthread_atfork() (POSIX).
 *
 * fork(2) gives the child a copy of every byte of the parent but only the
 * thread that called it. Whatever another thread was doing at that
 * instant is frozen half done in the child, with its locks held. fork()
 * therefore runs three sets of handlers around the system call, as glibc
 * does: prepare (before; it takes locks, so that nobody is half way
 * through the state they guard), then in the parent parent (releases
 * them), in the child child (makes them fresh: the caller is the child's
 * only thread).
 *
 * Two kinds of handlers, run as one list:
 *
 *   the program's   pthread_atfork(prepare, parent, child), for its own
 *                   mutexes. POSIX order: prepare handlers in the reverse
 *                   order of registration, parent and child handlers in
 *                   the order of registration - so a handler registered
 *                   first is the outermost: its prepare runs last, its
 *                   parent and child first.
 *   the library's   one triple per module that has a lock (atfork.h):
 *                   malloc's heap, stdio's streams, the thread library's
 *                   lists and keys, the atexit table, and this file's
 *                   table of the program's handlers. They behave as if
 *                   registered before main, so they are outermost of all:
 *                   their prepare runs after every handler of the program
 *                   (which may well call malloc or printf), their parent
 *                   and child before any (which may call them too, or
 *                   create a thread in the child).
 *
 * The library's own list is ordered the same way: malloc is "registered"
 * first, so its lock is taken last. That is the one order in which fork
 * cannot deadlock with a thread that takes two of these locks: across
 * modules, the only nesting in the library is a stream's lock held while
 * malloc is called (a memory stream growing its buffer, stdio.c), so
 * stdio's locks must come before the heap's (glibc takes malloc's lock
 * last for the same reason); within stdio, fork takes the list's before
 * any stream's, as fflush(NULL) does. The modules are weak references: a
 * program that never calls malloc does not link malloc.c because it
 * forks. */
#include "unistd.h"
#include "errno.h"
#include "pthread.h"
#include "atfork.h"
#include "lock.h"
#include "raw.h"

extern const struct __atfork_handlers __malloc_atfork __attribute__((weak));
extern const struct __atfork_handlers __stdio_atfork __attribute__((weak));
extern const struct __atfork_handlers __pthread_stack_atfork __attribute__((weak));
extern const struct __atfork_handlers __pthread_key_atfork __attribute__((weak));
extern const struct __atfork_handlers __exit_atfork __attribute__((weak));

/* The program's handlers. Entries are only ever added: an entry below
 * nhandlers is complete and never changes, so fork reads the table
 * without the lock - and a handler may itself call pthread_atfork (the
 * new entry takes part from the next fork on). */
static struct __atfork_handlers handlers[PTHREAD_ATFORK_MAX];
static volatile int nhandlers;
static libc_lock_t handlers_lock = LIBC_LOCK_INIT;

/* handlers_lock is a library lock like the others: a thread inside
 * pthread_atfork at the fork would otherwise leave it held in the child. */
static void table_prepare(void) { libc_lock(&handlers_lock); }
static void table_parent(void) { libc_unlock(&handlers_lock); }
static void table_child(void) { handlers_lock = LIBC_LOCK_INIT; }
static const struct __atfork_handlers table_atfork = {
	table_prepare, table_parent, table_child,
};

/* The library's, in "registration" order (outermost first). A module the
 * program does not link is NULL here. */
static const struct __atfork_handlers *const libc_handlers[] = {
	&__malloc_atfork,
	&__stdio_atfork,
	&__pthread_stack_atfork,
	&__pthread_key_atfork,
	&__exit_atfork,
	&table_atfork,
};
#define NLIBC ((int)(sizeof(libc_handlers) / sizeof(libc_handlers[0])))

int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
	int err = ENOMEM, n;

	libc_lock(&handlers_lock);
	n = nhandlers;
	if (n < PTHREAD_ATFORK_MAX) {
		handlers[n] = (struct __atfork_handlers){ prepare, parent, child };
		/* The entry before the count: fork reads them without a lock. */
		__atomic_store_n(&nhandlers, n + 1, __ATOMIC_RELEASE);
		err = 0;
	}
	libc_unlock(&handlers_lock);
	return err;
}

static void run_prepare(const struct __atfork_handlers *h)
{
	if (h && h->prepare)
		h->prepare();
}

/* After the system call: the child's handler in the child (r == 0), the
 * parent's in the parent, whether the fork worked or not (the locks must
 * be released either way; glibc runs them on failure too). */
static void run_after(const struct __atfork_handlers *h, long r)
{
	void (*fn)(void) = h ? (r == 0 ? h->child : h->parent) : NULL;

	if (fn)
		fn();
}

pid_t fork(void)
{
	/* One snapshot for the three phases: whichever handlers prepared
	 * are the ones that get their parent or child call. */
	int n = __atomic_load_n(&nhandlers, __ATOMIC_ACQUIRE), i;
	long r;

	for (i = n; i-- > 0; )
		run_prepare(&handlers[i]);
	for (i = NLIBC; i-- > 0; )
		run_prepare(libc_handlers[i]);
	r = raw_fork();
	for (i = 0; i < NLIBC; i++)
		run_after(libc_handlers[i], r);
	for (i = 0; i < n; i++)
		run_after(&handlers[i], r);
	return __syscall_ret(r);
}
