/* user/lib/pthread_stack.c - the threads' memory: one mapping per
 * thread (guard page, stack, TLS block, TCB: pthread_impl.h draws it),
 * the list of threads the library knows, and the recycling of finished
 * threads' mappings.
 *
 * A thread that has finished is still running on its stack: it has yet
 * to make its exit system call. Its mapping may be reused only once the
 * kernel has zeroed its CLONE_RELEASE_VM word (user-vm-unlock-2.5.31-A2,
 * abi.md section 4), which happens as the thread lets go of the address
 * space. So a finished thread's mapping goes on the "exited" queue - put
 * there by the thread itself if it was detached, by pthread_join or
 * pthread_detach otherwise - and __pthread_reclaim moves each one whose
 * word is 0 into the cache (default-sized stacks, up to
 * PTHREAD_STACK_CACHE) or unmaps it. It runs at every create, join and
 * detach: nobody ever waits for the kernel except pthread_reclaim_np. */
#include "pthread_impl.h"
#include "atfork.h"
#include "raw.h"
#include "sys/mman.h"

#define GUARD_SIZE PAGE_SIZE

volatile int __pthread_lists_lock;              /* a futex lock for all below */
static struct pthread *live_head, *live_tail;   /* created, not yet reclaimed */
static struct pthread *exited;                  /* finished; kernel may not have let go */
static struct pthread *cache;                   /* free mappings, default stack size */
static int nexited, ncached;
static bool main_gone;          /* a child forked by another thread: no main thread */

/* ---- the lists (__pthread_lists_lock held) ---- */

void __pthread_live_add(struct pthread *pd)
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
bool __pthread_is_live(struct pthread *pd)
{
	if (pd && pd == __pthread_main)
		return !main_gone;
	for (struct pthread *p = live_head; p; p = p->next)
		if (p == pd)
			return true;
	return false;
}

void __pthread_queue_exited(struct pthread *pd)
{
	if (!pd->map)
		return;                 /* the main thread: nothing to free */
	pd->next_free = exited;
	exited = pd;
	nexited++;
}

/* Moves every exited thread whose RELEASE_VM word the kernel has zeroed
 * to the cache, or unmaps it. Returns how many it unmapped. */
int __pthread_reclaim(void)
{
	struct pthread *pd, **pp, *unmap = NULL;
	int n = 0;

	futex_lock(&__pthread_lists_lock);
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
	futex_unlock(&__pthread_lists_lock);
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
struct pthread *__pthread_alloc(size_t stack_size)
{
	size_t size = GUARD_SIZE + page_up(stack_size) + page_up(__pthread_tls_area_size());
	struct pthread *pd = NULL;
	char *map;
	long r;

	__pthread_reclaim();
	if (stack_size == PTHREAD_STACK_DEFAULT) {
		futex_lock(&__pthread_lists_lock);
		if ((pd = cache) != NULL) {
			cache = pd->next_free;
			ncached--;
		}
		futex_unlock(&__pthread_lists_lock);
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

/* ---- Spindle's own ---- */

void pthread_stats_np(struct pthread_stats_np *s)
{
	futex_lock(&__pthread_lists_lock);
	s->running = atomic_load(&__pthread_nthreads);
	s->exited = nexited;
	s->cached = ncached;
	s->cached_bytes = 0;
	for (struct pthread *pd = cache; pd; pd = pd->next_free)
		s->cached_bytes += pd->map_size;
	futex_unlock(&__pthread_lists_lock);
}

int pthread_reclaim_np(void)
{
	struct pthread *pd, *all;
	int n = 0, left;

	for (;;) {
		n += __pthread_reclaim();
		futex_lock(&__pthread_lists_lock);
		left = nexited;
		futex_unlock(&__pthread_lists_lock);
		if (!left)
			break;
		raw_sched_yield();      /* they are between done and exit */
	}
	futex_lock(&__pthread_lists_lock);
	all = cache;
	cache = NULL;
	ncached = 0;
	futex_unlock(&__pthread_lists_lock);
	while ((pd = all) != NULL) {
		all = pd->next_free;
		raw_munmap(pd->map, pd->map_size);
		n++;
	}
	return n;
}

/* ---- fork (fork.c, atfork.h) ----
 *
 * fork waits for the lists to be whole. In the child only the forking
 * thread exists: it gets its new TID, and is the only thread the lists
 * know (it stays on the live list unless it is the main thread, which
 * never is on it; if it is not the main thread, the main thread is gone
 * and pthread_join on it says ESRCH). Every other thread's mapping was
 * copied into the child, and nobody runs on the copy: as glibc's
 * reclaim_stacks does, each is treated as the mapping of a thread that
 * has let go of it - its RELEASE_VM word zeroed here, since the child's
 * kernel will never do it - and so is cached or unmapped at once. The
 * cache is kept. Only a mapping that a pthread_create in the parent had
 * taken from the cache but not yet put on the live list is lost (it stays
 * mapped, unused).
 *
 * The caller's own record is cleaned of the parent's other threads: a
 * joiner that was waiting for it does not exist here. */
static void lists_prepare(void)
{
	futex_lock(&__pthread_lists_lock);
}

static void lists_parent(void)
{
	futex_unlock(&__pthread_lists_lock);
}

static void lists_child(void)
{
	struct pthread *self, *pd, *next;

	__pthread_lists_lock = 0;
	if (!__pthread_main)
		return;                 /* no TLS: no thread was ever created */
	self = __pthread_self();
	self->tid = (pid_t)raw_gettid();
	self->joiner = NULL;
	self->done = 0;
	__pthread_nthreads = 1;
	if (self != __pthread_main)
		main_gone = true;

	exited = NULL;
	nexited = 0;
	for (pd = live_head; pd; pd = next) {
		next = pd->next;
		if (pd == self)
			continue;
		*pd->release_word = 0;
		pd->next_free = exited;
		exited = pd;
		nexited++;
	}
	__pthread_reclaim();            /* takes them all off the live list */
}

const struct __atfork_handlers __pthread_stack_atfork = {
	lists_prepare, lists_parent, lists_child,
};
