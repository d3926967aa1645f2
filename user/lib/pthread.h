/* user/lib/pthread.h - POSIX threads, Spindle's small version.
 *
 * "The other half of all this work is a new pthreads library that
 * actually uses all of these new features" (LWN, 2002-08-14, the seed
 * article). This is that half, in miniature (pthread_impl.h draws the
 * memory and TLS layout):
 *
 *   pthread_create    one clone(2) with CLONE_SETTLS (the new thread's
 *                     TLS descriptor), CLONE_SETTID (its TID, written
 *                     before clone returns), CLONE_DETACHED (no exit
 *                     signal, no zombie: every thread, joinable or not)
 *                     and CLONE_RELEASE_VM (the kernel zeroes a word when
 *                     the thread has let go of its stack)
 *   __thread, errno   a static TLS block per thread from the program's
 *                     PT_TLS, reached through %gs (pthread_tls.c)
 *   mutexes, condition variables, barriers, pthread_once
 *                     futexes: no system call unless there is contention
 *   pthread_atfork    fork() in a threaded program: the child inherits no
 *                     lock held by a thread it does not have (fork.c)
 *
 * Stacks: PTHREAD_STACK_DEFAULT (64 KiB) unless pthread_attr_setstacksize
 * says otherwise, at least PTHREAD_STACK_MIN, with a PROT_NONE guard page
 * below; the TLS block and the thread's descriptor sit above the stack in
 * the same mapping (pthread_impl.h draws it).
 *
 * Not here: cancellation, scheduling attributes, process-shared objects
 * as such (the futexes would work across fork, keyed by physical page),
 * rwlocks, spinlocks, signals per thread. */
#ifndef USER_PTHREAD_H
#define USER_PTHREAD_H

#include "sys/types.h"
#include "time.h"
#include "sched.h"      /* visible through <pthread.h>, as glibc's */

/* Linux's number; lib/errno.h has no use for it in the kernel. */
#ifndef EDEADLK
#define EDEADLK 35
#endif

#define PTHREAD_STACK_MIN       16384           /* as glibc i386 */
#define PTHREAD_STACK_DEFAULT   (64 * 1024)
#define PTHREAD_KEYS_MAX        128
#define PTHREAD_DESTRUCTOR_ITERATIONS 4

#define PTHREAD_CREATE_JOINABLE 0
#define PTHREAD_CREATE_DETACHED 1

#define PTHREAD_MUTEX_NORMAL     0
#define PTHREAD_MUTEX_RECURSIVE  1
#define PTHREAD_MUTEX_ERRORCHECK 2
#define PTHREAD_MUTEX_DEFAULT    PTHREAD_MUTEX_NORMAL

#define PTHREAD_BARRIER_SERIAL_THREAD (-1)

typedef struct pthread *pthread_t;      /* the thread's descriptor (its TCB) */

typedef struct {
	int detachstate;
	size_t stacksize;
} pthread_attr_t;

/* lock is Drepper's three-state futex word (futex.h): 0 unlocked,
 * 1 locked, 2 locked and perhaps someone waits. owner and count are
 * only kept for the RECURSIVE and ERRORCHECK types. */
typedef struct {
	volatile int lock;
	int type;
	pid_t owner;
	unsigned count;
} pthread_mutex_t;
#define PTHREAD_MUTEX_INITIALIZER { 0, PTHREAD_MUTEX_NORMAL, 0, 0 }

typedef struct {
	int type;
} pthread_mutexattr_t;

/* seq is the futex: every signal or broadcast bumps it. waiters lets a
 * signal with nobody waiting skip the system call. */
typedef struct {
	volatile int seq;
	volatile int waiters;
	clockid_t clock;        /* of pthread_cond_timedwait's abstime */
} pthread_cond_t;
#define PTHREAD_COND_INITIALIZER { 0, 0, CLOCK_REALTIME }

typedef struct {
	clockid_t clock;
} pthread_condattr_t;

typedef struct {
	unsigned count;         /* threads per round */
	volatile int left;      /* still to arrive in this round */
	volatile int seq;       /* the futex: bumped when a round completes */
} pthread_barrier_t;

typedef int pthread_barrierattr_t;

typedef int pthread_once_t;
#define PTHREAD_ONCE_INIT 0

typedef unsigned pthread_key_t;

/* ---- threads (pthread_create.c, pthread_misc.c) ---- */
int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*start)(void *), void *arg);
void pthread_exit(void *result) __attribute__((noreturn));
int pthread_join(pthread_t thread, void **result);
int pthread_detach(pthread_t thread);
pthread_t pthread_self(void);
int pthread_equal(pthread_t a, pthread_t b);
int pthread_once(pthread_once_t *once, void (*init)(void));

/* ---- fork (fork.c) ----
 * Handlers that fork() runs: prepare before the system call, in the
 * reverse order of registration; then parent in the parent or child in
 * the child, in the order of registration (POSIX). Any may be NULL. The
 * library's own locks (malloc, stdio, these lists) are handled without
 * them: fork() takes them after the last prepare handler, and releases
 * or resets them before the first parent or child handler, so handlers
 * may call malloc and printf, and a child handler may create threads. In
 * the child the caller is the only thread. 0, or ENOMEM when
 * PTHREAD_ATFORK_MAX handlers are registered already. */
#define PTHREAD_ATFORK_MAX 32
int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void));

int pthread_attr_init(pthread_attr_t *attr);
int pthread_attr_destroy(pthread_attr_t *attr);
int pthread_attr_setdetachstate(pthread_attr_t *attr, int state);
int pthread_attr_getdetachstate(const pthread_attr_t *attr, int *state);
int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size);
int pthread_attr_getstacksize(const pthread_attr_t *attr, size_t *size);

/* ---- thread-specific data (pthread_key.c) ---- */
int pthread_key_create(pthread_key_t *key, void (*destructor)(void *));
int pthread_key_delete(pthread_key_t key);
void *pthread_getspecific(pthread_key_t key);
int pthread_setspecific(pthread_key_t key, const void *value);

/* ---- mutexes (pthread_mutex.c) ---- */
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *m);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_trylock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);
int pthread_mutexattr_init(pthread_mutexattr_t *attr);
int pthread_mutexattr_destroy(pthread_mutexattr_t *attr);
int pthread_mutexattr_settype(pthread_mutexattr_t *attr, int type);
int pthread_mutexattr_gettype(const pthread_mutexattr_t *attr, int *type);

/* ---- condition variables (pthread_cond.c) ---- */
int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr);
int pthread_cond_destroy(pthread_cond_t *c);
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
			   const struct timespec *abstime);
int pthread_cond_signal(pthread_cond_t *c);
int pthread_cond_broadcast(pthread_cond_t *c);
int pthread_condattr_init(pthread_condattr_t *attr);
int pthread_condattr_destroy(pthread_condattr_t *attr);
int pthread_condattr_setclock(pthread_condattr_t *attr, clockid_t clock);

/* ---- barriers (pthread_barrier.c) ---- */
int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr,
			 unsigned count);
int pthread_barrier_destroy(pthread_barrier_t *b);
int pthread_barrier_wait(pthread_barrier_t *b);

/* ---- Spindle's own (non-portable, hence _np) ---- */

/* Where the library's thread stacks are. A finished thread's mapping is
 * "exited" until the kernel has zeroed its CLONE_RELEASE_VM word, then it
 * is cached for the next pthread_create (default-sized stacks, up to
 * PTHREAD_STACK_CACHE of them) or unmapped. */
#define PTHREAD_STACK_CACHE 16
struct pthread_stats_np {
	int running;            /* threads that have not yet begun to exit, main included */
	int exited;             /* mappings waiting for the kernel's RELEASE_VM zero */
	int cached;             /* mappings kept for reuse */
	size_t cached_bytes;    /* their size in bytes, guard pages included */
};
void pthread_stats_np(struct pthread_stats_np *s);

/* Waits until the kernel has released every exited thread's stack, then
 * unmaps all of them and every cached stack: afterwards the library holds
 * no memory for threads that are gone. Returns how many mappings it
 * unmapped. */
int pthread_reclaim_np(void);

#endif
