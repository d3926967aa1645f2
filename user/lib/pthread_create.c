/* user/lib/pthread_create.c - creating, ending, joining and detaching
 * threads.
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
 * The mappings, and when a finished thread's may be reused, are
 * pthread_stack.c's. */
#include "pthread_impl.h"
#include "raw.h"
#include "stdlib.h"

#define THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
		      CLONE_THREAD | CLONE_SETTLS | CLONE_SETTID | \
		      CLONE_DETACHED | CLONE_RELEASE_VM)

volatile int __pthread_nthreads = 1;            /* the main thread */
void (*__pthread_run_destructors)(struct pthread *self);

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

/* ---- the calls ---- */

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*start)(void *), void *arg)
{
	/* LAB 7: BEGIN SOLUTION */
	size_t stack_size = attr ? attr->stacksize : PTHREAD_STACK_DEFAULT;
	struct pthread *pd;
	struct user_desc tls;
	long tid;

	if (!__pthread_main)
		return EAGAIN;          /* no TLS (cannot happen: see pthread_tls.c) */
	if (!(pd = __pthread_alloc(stack_size)))
		return EAGAIN;
	pd->start = start;
	pd->arg = arg;
	pd->detach_state = attr && attr->detachstate == PTHREAD_CREATE_DETACHED ?
		PT_DETACHED : PT_JOINABLE;
	__pthread_tls_desc(&tls, pd);

	futex_lock(&__pthread_lists_lock);
	__pthread_live_add(pd);
	futex_unlock(&__pthread_lists_lock);
	atomic_add(&__pthread_nthreads, 1);
	*thread = pd;           /* before it runs: it may look itself up */

	tid = __pthread_clone(THREAD_FLAGS, (void *)(pd->release_word + 1), &pd->tid, &tls);
	if (tid < 0) {
		atomic_add(&__pthread_nthreads, -1);
		*pd->release_word = 0;          /* no thread ever ran on it */
		futex_lock(&__pthread_lists_lock);
		__pthread_queue_exited(pd);
		futex_unlock(&__pthread_lists_lock);
		__pthread_reclaim();
		/* POSIX names EAGAIN for "no resources"; clone's other
		 * errors (EINVAL, EFAULT, EINTR) go out as they are. */
		return tid == -ENOMEM ? EAGAIN : (int)-tid;
	}
	return 0;
	/* LAB 7: END SOLUTION */
#if 0 /* LAB 7: STUB */
	/* Lab 7: a stack and TLS block (__pthread_alloc), the thread's
	 * descriptor, then __pthread_clone (docs/labs/lab7-pthreads.md). */
	(void)thread;
	(void)attr;
	(void)start;
	(void)arg;
	return ENOSYS;
#endif /* LAB 7: END STUB */
}

void pthread_exit(void *result)
{
	struct pthread *self = pthread_self();

	self->result = result;
	/* A thread has a block only if it set a value, which needs a key:
	 * pthread_key_create has set the hook then. */
	if (self->specific)
		__pthread_run_destructors(self);

	if (atomic_cmpxchg(&self->detach_state, PT_JOINABLE, PT_EXITED) == PT_JOINABLE) {
		/* Joinable: publish. The joiner sets done to -1 before it
		 * sleeps; only then is a wake-up (a system call) needed. */
		if (atomic_xchg(&self->done, 1) == -1)
			futex_wake(&self->done, FUTEX_WAKE_ALL);
	} else {
		/* Detached: nobody will join; queue the mapping ourselves. It
		 * is not touched until the kernel zeroes our word at exit. */
		futex_lock(&__pthread_lists_lock);
		__pthread_queue_exited(self);
		futex_unlock(&__pthread_lists_lock);
	}
	/* The last thread out ends the process, as on Linux. */
	if (atomic_add(&__pthread_nthreads, -1) == 0)
		exit(0);
	for (;;)
		raw_exit(0);            /* SYS_exit: this thread only */
}

int pthread_join(pthread_t pd, void **result)
{
	/* LAB 7: BEGIN SOLUTION */
	struct pthread *self = pthread_self();
	int d, err = 0;

	if (pd == self)
		return EDEADLK;
	futex_lock(&__pthread_lists_lock);
	if (!__pthread_is_live(pd))
		err = ESRCH;
	else if (pd->detach_state == PT_DETACHED)
		err = EINVAL;
	else if (self->joiner == pd)
		err = EDEADLK;          /* it is joining us */
	else if (!__atomic_compare_exchange_n(&pd->joiner, &(struct pthread *){ NULL }, self,
					      false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		err = EINVAL;           /* someone else joins it */
	futex_unlock(&__pthread_lists_lock);
	if (err)
		return err;

	while ((d = atomic_load(&pd->done)) != 1) {
		if (d == 0 && atomic_cmpxchg(&pd->done, 0, -1) != 0)
			continue;       /* it just finished */
		futex_wait(&pd->done, -1, NULL);
	}
	if (result)
		*result = pd->result;
	futex_lock(&__pthread_lists_lock);
	__pthread_queue_exited(pd);
	futex_unlock(&__pthread_lists_lock);
	__pthread_reclaim();
	return 0;
	/* LAB 7: END SOLUTION */
#if 0 /* LAB 7: STUB */
	/* Lab 7: wait on pd->done with the futex, then take the result and
	 * reclaim pd's stack. */
	(void)pd;
	(void)result;
	return ENOSYS;
#endif /* LAB 7: END STUB */
}

int pthread_detach(pthread_t pd)
{
	int err = 0;

	futex_lock(&__pthread_lists_lock);
	if (!__pthread_is_live(pd)) {
		err = ESRCH;
	} else if (pd->joiner) {
		err = EINVAL;           /* being joined: the joiner frees it */
	} else {
		switch (atomic_cmpxchg(&pd->detach_state, PT_JOINABLE, PT_DETACHED)) {
		case PT_JOINABLE:
			break;          /* it will queue itself when it exits */
		case PT_DETACHED:
			err = EINVAL;
			break;
		case PT_EXITED:         /* finished, never joined: ours to free */
			pd->detach_state = PT_DETACHED;
			__pthread_queue_exited(pd);
			break;
		}
	}
	futex_unlock(&__pthread_lists_lock);
	__pthread_reclaim();
	return err;
}
