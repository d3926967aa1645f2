/* user/lib/pthread_impl.h - the thread library's insides: the thread
 * descriptor, the TLS layout, and what the pthread*.c files share.
 *
 * ---- One thread's memory (pthread_create.c) ----
 *
 * One anonymous mapping per thread, made by mmap2 (or taken from the
 * cache of finished threads' mappings):
 *
 *   map                                                          map + map_size
 *   |  guard  |             stack                |   |  TLS block  |  TCB   |  |
 *   |PROT_NONE|                   <- grows down  | w |.tdata .tbss |struct   |  |
 *   |  4 KiB  |      >= stacksize bytes          |   |             |pthread  |  |
 *                                                ^   ^             ^
 *                                  newsp - 4 = the   newsp        tp: %gs base,
 *                                  RELEASE_VM word   (16-aligned)  %gs:0 == tp
 *
 * The stack overflows into the guard page (SIGSEGV), not into another
 * thread. The TLS block and the TCB are the i386 "variant II" layout
 * below; the CLONE_RELEASE_VM word is the last word of the stack: the
 * kernel starts the thread at newsp - 4 and zeroes that word once the
 * thread has let go of the address space (abi.md section 4), which is
 * how the library knows the whole mapping may be reused.
 *
 * ---- TLS: i386 variant II (Drepper, "ELF Handling For Thread-Local
 * Storage", sections 3.4.2 and 4.4.6) ----
 *
 *          tp - tls_offset                  tp
 *          |                                |
 *   ... ---+-------------+-----------+------+---------------------------+
 *          | .tdata copy | .tbss (0) | pad  | struct pthread: self = tp |
 *   ... ---+-------------+-----------+------+---------------------------+
 *          |<------ tls_offset = round_up(memsz, align) --->|
 *
 * tp, the thread pointer, is the base of the %gs segment, and the word at
 * %gs:0 holds tp itself (the TCB's first word points at the TCB), so that
 * code can learn tp with one `movl %gs:0, %eax`. A __thread variable at
 * offset o in the PT_TLS image lives at tp - tls_offset + o: the linker
 * computes x@ntpoff = o - tls_offset, and gcc's local-exec code in a
 * static program reads `movl %gs:x@ntpoff, %eax`, a negative offset from
 * the segment base (the segment has base tp and a 4 GiB limit, so the
 * offset wraps around to just below tp). tp is aligned to the segment's
 * p_align (and to 16), and tls_offset is a multiple of p_align, so the
 * block's start, and every variable in it, is aligned as the linker
 * laid it out.
 *
 * Every thread's %gs is the same selector (slot __pthread_tls_entry of
 * its CPU's GDT, the one set_thread_area(-1) gave the main thread); what
 * differs is the descriptor in that slot, which the kernel copies in at
 * every context switch: clone's CLONE_SETTLS gives each new thread its own
 * base (tls-2.5.31-D9, docs/threads.md). */
#ifndef USER_PTHREAD_IMPL_H
#define USER_PTHREAD_IMPL_H

#include "pthread.h"
#include "futex.h"

/* The states of pthread.detach_state (changed only by cmpxchg). */
enum {
	PT_JOINABLE = 0,        /* running; someone may join it */
	PT_DETACHED = 1,        /* nobody will join: it queues itself as exited */
	PT_EXITED = 2,          /* joinable and finished: result and done are set */
};

/* The thread descriptor: the TCB that %gs points at. */
struct pthread {
	struct pthread *self;           /* %gs:0 - must stay first (offset 0) */
	pid_t tid;                      /* CLONE_SETTID writes it before clone returns */
	void *(*start)(void *);
	void *arg;
	void *result;                   /* pthread_exit's argument */
	volatile int detach_state;      /* PT_* */
	volatile int done;              /* futex: 0 running, -1 someone waits, 1 finished */
	struct pthread *joiner;         /* the one thread allowed to join */

	/* The mapping this thread lives in; map == NULL for the main thread,
	 * whose block pthread_tls.c made and which is never freed. */
	void *map;
	size_t map_size;
	size_t stack_size;
	volatile int *release_word;     /* CLONE_RELEASE_VM: 0 = the kernel let go */
	struct pthread *next, *prev;    /* on the live list (pthread_create.c) */
	struct pthread *next_free;      /* on the exited queue or in the cache */

	/* Thread-specific data (pthread_key.c): NULL until the thread's
	 * first pthread_setspecific, which allocates it; freed when the
	 * thread exits. Most threads use no key, and the block (a value and
	 * a seq for each of the PTHREAD_KEYS_MAX keys, 1 KiB) made every
	 * pthread_create zero 1 KiB more: about 270 instructions. */
	struct pthread_specific *specific;
};

_Static_assert(__builtin_offsetof(struct pthread, self) == 0,
	       "the i386 TLS ABI: %gs:0 is the TCB's pointer to itself");

/* The TCB of the calling thread: one load, %gs:0. Only valid once
 * pthread_tls.c has set the thread's TLS up (every program that uses
 * pthreads has a PT_TLS segment, so that is before main). */
static inline struct pthread *__pthread_self(void)
{
	struct pthread *self;

	__asm__("movl %%gs:0, %0" : "=r"(self));
	return self;
}

/* ---- pthread_tls.c ---- */

/* What the program's PT_TLS says, found once at start. */
struct pthread_tls_image {
	const void *init;               /* the .tdata image (p_vaddr) */
	size_t filesz;                  /* .tdata bytes, copied */
	size_t memsz;                   /* .tdata + .tbss bytes */
	size_t align;                   /* p_align (at least 1) */
	size_t offset;                  /* round_up(memsz, align): tp - block start */
};
extern struct pthread_tls_image __pthread_tls;
extern int __pthread_tls_entry;         /* the GDT slot (6..8) every thread uses */
extern struct pthread *__pthread_main;  /* NULL: the program has no TLS */

/* Sets the main thread's TLS up if the program has a PT_TLS segment
 * (start.c calls it before main). A program without one keeps the start
 * state of abi.md section 2: %gs = 0 and every TLS slot empty. */
void __pthread_init_main(const unsigned long *auxv);

/* Bytes above the stack that one thread's TLS block and TCB need. */
size_t __pthread_tls_area_size(void);

/* Lays a fresh TLS block and a zeroed TCB out at the top of
 * [area, area_end) (the picture above); returns the TCB (tp). */
struct pthread *__pthread_tls_setup(void *area_end);

/* The TLS descriptor for thread pointer tp, in slot __pthread_tls_entry. */
void __pthread_tls_desc(struct user_desc *d, struct pthread *tp);

/* ---- pthread_mutex.c, for pthread_cond.c ---- */

/* Unlocks m fully for a wait (EPERM if a typed mutex is not ours),
 * keeping a recursive count in *count; relocks it after the wait. */
int __pthread_mutex_release(pthread_mutex_t *m, unsigned *count);
void __pthread_mutex_reacquire(pthread_mutex_t *m, unsigned count);

/* ---- pthread_stack.c ---- */

/* A futex lock over the library's lists of threads and mappings. */
extern volatile int __pthread_lists_lock;

/* A mapping for a new thread: guard page, stack_size bytes of stack, a
 * fresh TLS block and TCB, the RELEASE_VM word armed (non-zero). Reuses
 * a cached mapping if it can. Returns the TCB, or NULL. */
struct pthread *__pthread_alloc(size_t stack_size);

/* With __pthread_lists_lock held: */
void __pthread_live_add(struct pthread *pd);    /* a thread being created */
bool __pthread_is_live(struct pthread *pd);     /* known, not yet reclaimed? */
void __pthread_queue_exited(struct pthread *pd); /* nobody will use pd again */

/* Caches or unmaps every exited thread's mapping that the kernel has
 * released (RELEASE_VM word 0); takes the lock. How many it unmapped. */
int __pthread_reclaim(void);

/* ---- pthread_create.c, pthread_key.c ---- */

/* Set by pthread_key_create: runs the calling thread's destructors and
 * frees its self->specific. A program that never creates a key does not
 * link pthread_key.c. */
extern void (*__pthread_run_destructors)(struct pthread *self);

/* Threads that have not begun to exit, the main thread included. */
extern volatile int __pthread_nthreads;

#endif
