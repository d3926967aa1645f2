/* user/lib/pthread_create.c - creating, ending, joining and detaching
 * threads, and recycling their stacks.
 *
 * Every thread is one clone(2) with the flags of the seed patches:
 *
 *   CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD
 *                        a thread of this process
 *   CLONE_SETTLS         its TLS descriptor: base = its TCB, in the GDT slot
 *                        the main thread got (pthread_tls.c)
 *   CLONE_SETTID         its TID lands in pd->tid before clone returns,
 *                        so neither side races to learn it
 *   CLONE_DETACHED       for every thread, joinable or not, as NPTL did
 *                        in 2002: no SIGCHLD, never a zombie, no wait4.
 *                        Joining is done entirely in user space: the
 *                        exiting thread publishes its result and sets
 *                        pd->done (a futex) for pthread_join.
 *   CLONE_RELEASE_VM     the kernel zeroes the last word of the stack once
 *                        the thread has let go of the address space. A
 *                        thread that set pd->done is still running on its
 *                        stack (it has yet to call exit), so its mapping is
 *                        reused or unmapped only after that zero.
 *
 * A finished thread's mapping (pthread_impl.h draws one) goes on the
 * "exited" queue - by itself if it was detached, by pthread_join or
 * pthread_detach otherwise - and reclaim() moves each one whose word is 0
 * into the cache (default-sized stacks, up to PTHREAD_STACK_CACHE) or
 * unmaps it. reclaim() runs at every create, join and detach. */
#include "pthread_impl.h"
#include "raw.h"
#include "stdlib.h"
#include "sys/mman.h"

#define GUARD_SIZE PAGE_SIZE
#define THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
		      CLONE_THREAD | CLONE_SETTLS | CLONE_SETTID | \
		      CLONE_DETACHED | CLONE_RELEASE_VM)

volatile int __pthread_nthreads = 1;            /* the main thread */
void (*__pthread_run_destructors)(struct pthread *self);

/* lists_lock (a futex lock) guards everything below it. */
static volatile int lists_lock;
static struct pthread *live_head, *live_tail;   /* created, not yet reclaimed */
static struct pthread *exited;                  /* finished; kernel may not have let go */
static struct pthread *cache;                   /* free mappings, default stack size */
static int nexited, ncached;

/* clone with the registers of abi.md section 4 (erratum 9: %ebx flags,
 * %ecx newsp, %edx ptid, %esi tls, %edi ctid - reserved, 0). The parent
 * returns the TID or -errno. The child starts with %esp = newsp - 4, on
 * the RELEASE_VM word, and only ever pushes below it: it clears %ebp (the
 * outermost frame, for backtraces), aligns %esp down for gcc, and calls
 * __pthread_start, which finds everything it needs through %gs:0. */
long __pthread_clone(unsigned long flags, void *newsp, pid_t *ptid, struct user_desc *tls);
void __pthread_start(void) __attribute__((noreturn, used));

#define PT_STR_(x) #x
#define PT_STR(x) PT_STR_(x)
__asm__(
	"	.text\n"
	"	.globl __pthread_clone\n"
	"	.type __pthread_clone, @function\n"
	"__pthread_clone:\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	pushl %ebp\n"
	"	movl 20(%esp), %ebx\n"          /* flags */
	"	movl 24(%esp), %ecx\n"          /* newsp */
	"	movl 28(%esp), %edx\n"          /* ptid */
	"	movl 32(%esp), %esi\n"          /* tls */
	"	xorl %edi, %edi\n"              /* ctid */
	"	movl $" PT_STR(SYS_clone) ", %eax\n"
	"	int $0x80\n"
	"	testl %eax, %eax\n"
	"	jz 1f\n"
	"	popl %ebp\n"                    /* the parent, or an error */
	"	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	ret\n"
	"1:	xorl %ebp, %ebp\n"              /* the child, on its own stack */
	"	andl $-16, %esp\n"
	"	call __pthread_start\n"
	"	ud2\n"
	"	.size __pthread_clone, . - __pthread_clone\n");

void __pthread_start(void)
{
	struct pthread *self = __pthread_self();

	pthread_exit(self->start(self->arg));
}

/* ---- the lists (lists_lock held) ---- */

static void live_add(struct pthread *pd)
{
	pd->next = NULL;
	pd->prev = live_tail;
	if (live_tail)
		live_tail->next = pd;
	else
		live_head = pd;
	live_tail = pd;
}

static void live_del(struct pthread *pd)
{
	if (pd->prev)
		pd->prev->next = pd->next;
	else
		live_head = pd->next;
	if (pd->next)
		pd->next->prev = pd->prev;
	else
		live_tail = pd->prev;
}

/* Is pd a thread the library still knows? (A detached thread that has
 * been reclaimed is not: its memory may be gone.) */
static bool is_live(struct pthread *pd)
{
	if (pd && pd == __pthread_main)
		return true;
	for (struct pthread *p = live_head; p; p = p->next)
		if (p == pd)
			return true;
	return false;
}

static void queue_exited(struct pthread *pd)
{
	if (!pd->map)
		return;                 /* the main thread: nothing to free */
	pd->next_free = exited;
	exited = pd;
	nexited++;
}

/* Moves every exited thread whose RELEASE_VM word the kernel has zeroed
 * to the cache, or unmaps it. Returns how many it unmapped. */
static int reclaim(void)
{
	struct pthread *pd, **pp, *unmap = NULL;
	int n = 0;

	futex_lock(&lists_lock);
	for (pp = &exited; (pd = *pp) != NULL; ) {
		if (atomic_load(pd->release_word) != 0) {
			pp = &pd->next_free;    /* still on its way out */
			continue;
		}
		*pp = pd->next_free;
		nexited--;
		live_del(pd);
		if (pd->stack_size == PTHREAD_STACK_DEFAULT && ncached < PTHREAD_STACK_CACHE) {
			pd->next_free = cache;
			cache = pd;
			ncached++;
		} else {
			pd->next_free = unmap;
			unmap = pd;
		}
	}
	futex_unlock(&lists_lock);
	while ((pd = unmap) != NULL) {          /* nobody else can see these */
		unmap = pd->next_free;
		raw_munmap(pd->map, pd->map_size);
		n++;
	}
	return n;
}

/* ---- a new thread's memory ---- */

static size_t page_up(size_t x)
{
	return (x + PAGE_SIZE - 1) & ~(size_t)(PAGE_SIZE - 1);
}

/* A mapping with a guard page, a stack of stack_size bytes and a fresh
 * TLS block and TCB on top; returns the TCB, or NULL. */
static struct pthread *thread_alloc(size_t stack_size)
{
	size_t size = GUARD_SIZE + page_up(stack_size) + page_up(__pthread_tls_area_size());
	struct pthread *pd = NULL;
	char *map;
	long r;

	reclaim();
	if (stack_size == PTHREAD_STACK_DEFAULT) {
		futex_lock(&lists_lock);
		if ((pd = cache) != NULL) {
			cache = pd->next_free;
			ncached--;
		}
		futex_unlock(&lists_lock);
	}
	if (pd) {
		map = pd->map;          /* the guard page is still PROT_NONE */
	} else {
		r = raw_mmap2(NULL, size, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (RAW_IS_ERR(r))
			return NULL;
		map = (char *)r;
		if (raw_mprotect(map, GUARD_SIZE, PROT_NONE) < 0) {
			raw_munmap(map, size);
			return NULL;
		}
	}
	pd = __pthread_tls_setup(map + size);
	pd->map = map;
	pd->map_size = size;
	pd->stack_size = stack_size;
	/* newsp: 16-aligned, below the TLS block. The word under it is armed
	 * (non-zero) until the kernel zeroes it. */
	uintptr_t newsp = ((uintptr_t)pd - __pthread_tls.offset) & ~(uintptr_t)15;
	pd->release_word = (volatile int *)(newsp - 4);
	*pd->release_word = 1;
	return pd;
}

/* ---- the calls ---- */

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*start)(void *), void *arg)
{
	size_t stack_size = attr ? attr->stacksize : PTHREAD_STACK_DEFAULT;
	struct pthread *pd;
	struct user_desc tls;
	long tid;

	if (!__pthread_main)
		return EAGAIN;          /* no TLS (cannot happen: see pthread_tls.c) */
	if (!(pd = thread_alloc(stack_size)))
		return EAGAIN;
	pd->start = start;
	pd->arg = arg;
	pd->detach_state = attr && attr->detachstate == PTHREAD_CREATE_DETACHED ?
		PT_DETACHED : PT_JOINABLE;
	__pthread_tls_desc(&tls, pd);

	futex_lock(&lists_lock);
	live_add(pd);
	futex_unlock(&lists_lock);
	atomic_add(&__pthread_nthreads, 1);
	*thread = pd;           /* before it runs: it may look itself up */

	tid = __pthread_clone(THREAD_FLAGS, (void *)(pd->release_word + 1), &pd->tid, &tls);
	if (tid < 0) {
		atomic_add(&__pthread_nthreads, -1);
		*pd->release_word = 0;          /* no thread ever ran on it */
		futex_lock(&lists_lock);
		queue_exited(pd);
		futex_unlock(&lists_lock);
		reclaim();
		return EAGAIN;
	}
	return 0;
}

void pthread_exit(void *result)
{
	struct pthread *self = pthread_self();

	self->result = result;
	if (__pthread_run_destructors && self->specific_used)
		__pthread_run_destructors(self);

	if (atomic_cmpxchg(&self->detach_state, PT_JOINABLE, PT_EXITED) == PT_JOINABLE) {
		/* Joinable: publish. The joiner sets done to -1 before it
		 * sleeps; only then is a wake-up (a system call) needed. */
		if (atomic_xchg(&self->done, 1) == -1)
			futex_wake(&self->done, FUTEX_WAKE_ALL);
	} else {
		/* Detached: nobody will join; queue the mapping ourselves. It
		 * is not touched until the kernel zeroes our word at exit. */
		futex_lock(&lists_lock);
		queue_exited(self);
		futex_unlock(&lists_lock);
	}
	/* The last thread out ends the process, as on Linux. */
	if (atomic_add(&__pthread_nthreads, -1) == 0)
		exit(0);
	for (;;)
		raw_exit(0);            /* SYS_exit: this thread only */
}

int pthread_join(pthread_t pd, void **result)
{
	struct pthread *self = pthread_self();
	int d, err = 0;

	if (pd == self)
		return EDEADLK;
	futex_lock(&lists_lock);
	if (!is_live(pd))
		err = ESRCH;
	else if (pd->detach_state == PT_DETACHED)
		err = EINVAL;
	else if (self->joiner == pd)
		err = EDEADLK;          /* it is joining us */
	else if (!__atomic_compare_exchange_n(&pd->joiner, &(struct pthread *){ NULL }, self,
					      false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		err = EINVAL;           /* someone else joins it */
	futex_unlock(&lists_lock);
	if (err)
		return err;

	while ((d = atomic_load(&pd->done)) != 1) {
		if (d == 0 && atomic_cmpxchg(&pd->done, 0, -1) != 0)
			continue;       /* it just finished */
		futex_wait(&pd->done, -1, NULL);
	}
	if (result)
		*result = pd->result;
	futex_lock(&lists_lock);
	queue_exited(pd);
	futex_unlock(&lists_lock);
	reclaim();
	return 0;
}

int pthread_detach(pthread_t pd)
{
	int err = 0;

	futex_lock(&lists_lock);
	if (!is_live(pd)) {
		err = ESRCH;
	} else {
		switch (atomic_cmpxchg(&pd->detach_state, PT_JOINABLE, PT_DETACHED)) {
		case PT_JOINABLE:
			break;          /* it will queue itself when it exits */
		case PT_DETACHED:
			err = EINVAL;
			break;
		case PT_EXITED:         /* finished, never joined: ours to free */
			if (pd->joiner) {
				err = EINVAL;
			} else {
				pd->detach_state = PT_DETACHED;
				queue_exited(pd);
			}
			break;
		}
	}
	futex_unlock(&lists_lock);
	reclaim();
	return err;
}

/* ---- Spindle's own ---- */

void pthread_stats_np(struct pthread_stats_np *s)
{
	futex_lock(&lists_lock);
	s->running = atomic_load(&__pthread_nthreads);
	s->exited = nexited;
	s->cached = ncached;
	s->cached_bytes = 0;
	for (struct pthread *pd = cache; pd; pd = pd->next_free)
		s->cached_bytes += pd->map_size;
	futex_unlock(&lists_lock);
}

int pthread_reclaim_np(void)
{
	struct pthread *pd, *all;
	int n = 0, left;

	for (;;) {
		n += reclaim();
		futex_lock(&lists_lock);
		left = nexited;
		futex_unlock(&lists_lock);
		if (!left)
			break;
		raw_sched_yield();      /* they are between done and exit */
	}
	futex_lock(&lists_lock);
	all = cache;
	cache = NULL;
	ncached = 0;
	futex_unlock(&lists_lock);
	while ((pd = all) != NULL) {
		all = pd->next_free;
		raw_munmap(pd->map, pd->map_size);
		n++;
	}
	return n;
}

/* fork() in a program with threads (syscalls.c calls this in the child):
 * only the forking thread exists in the child. Its TID is new; the other
 * threads' mappings were copied, but nobody runs on them and the kernel
 * will never zero their RELEASE_VM words here, so, as glibc does, they
 * are dropped from the books and stay mapped (a leak, as on Linux).
 * Cached mappings stay usable. A lock another thread held at the fork
 * stays held in the child except lists_lock, reset here; POSIX allows
 * only async-signal-safe calls in such a child anyway. */
void __pthread_fork_child(void)
{
	struct pthread *self;

	if (!__pthread_main)
		return;
	self = __pthread_self();
	self->tid = (pid_t)raw_gettid();
	lists_lock = 0;
	__pthread_nthreads = 1;
	live_head = live_tail = NULL;
	exited = NULL;
	nexited = 0;
	if (self != __pthread_main)
		live_add(self);
}
