/* compat/linux/fs/poll.c - poll(2) (abi.md section 9), after Linux's
 * fs/select.c do_poll.
 *
 * poll waits until one of several files is ready, so it sleeps on
 * several wait queues at once. Each pass over the fds:
 *   1. the task becomes TASK_INTERRUPTIBLE;
 *   2. each file's poll op (vfs.h) queues it, with a waiter of its own,
 *      on the wait queues that matter (poll_wait: a pipe's readers or
 *      writers, the console's readers) and says what is ready now;
 *   3. if nothing is, and no signal is pending and time is left, it
 *      sleeps; any wake-up on any of those queues sets it running;
 *   4. it leaves every queue (finish_wait) and goes round again.
 * That is sched.h's pattern (announce, test, sleep) spread over many
 * queues: a file that becomes ready after its test in step 2 wakes a
 * task that is already queued, so the wake-up is never lost. A wake-up
 * that made nothing ready just costs another pass.
 *
 * Linux's answers: fds < 0 are skipped (revents 0); an fd that is not
 * open is POLLNVAL and counts as ready; POLLERR and POLLHUP are reported
 * whether asked for or not; nfds above RLIMIT_NOFILE is -EINVAL; a
 * timeout < 0 waits for ever, 0 does not wait. A signal ends the wait
 * with -EINTR if a handler runs, SA_RESTART or not; after a stop and
 * SIGCONT the call goes on, to the same deadline (Linux's sys_poll and
 * do_restart_poll; compat/linux/restart.h). */
#include "compat/linux/layer.h"
#include "compat/linux/fs/vfs.h"
#include "compat/linux/fs/poll.h"
#include "kernel/clock.h"
#include "compat/linux/restart.h"
#include "kernel/file.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/time.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/uaccess.h"

/* What a file without a poll op is: always ready (Linux's DEFAULT_POLLMASK). */
#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
/* poll_wait calls a file's poll op may make: a FIFO open for reading
 * and writing waits on both of its queues. */
#define POLL_QUEUES_PER_FILE 2
#define NS_PER_MS 1000000ull

struct poll_entry {
	struct waitqueue *wq;
	struct waiter w;
};

struct poll_table {
	struct poll_entry *entry;
	unsigned n, max;
};

void poll_wait(struct poll_table *pt, struct waitqueue *wq)
{
	struct poll_entry *e;

	if (!pt)
		return;
	/* The table has POLL_QUEUES_PER_FILE entries per fd: a file system
	 * asking for more is a kernel bug. */
	ASSERT(pt->n < pt->max);
	e = &pt->entry[pt->n++];
	e->wq = wq;
	e->w = (struct waiter){ current, LIST_INIT(e->w.link) };
	prepare_to_wait(wq, &e->w, TASK_INTERRUPTIBLE);
}

/* Leaves every queue of the pass; the task is running again. */
static void poll_freewait(struct poll_table *pt)
{
	for (unsigned k = 0; k < pt->n; k++)
		finish_wait(pt->entry[k].wq, &pt->entry[k].w);
	pt->n = 0;
	current->state = TASK_RUNNING;
}

/* One fd's revents (queueing the task through pt). */
static unsigned poll_one(const struct pollfd *p, struct poll_table *pt, unsigned always)
{
	struct file *f;
	unsigned mask;

	if (p->fd < 0)
		return 0;
	if (!(f = fd_get(current->files, p->fd)))
		return POLLNVAL;
	mask = f->fop && f->fop->poll ? f->fop->poll(f, pt) : DEFAULT_POLLMASK;
	file_put(f);
	return mask & ((unsigned)(unsigned short)p->events | always);
}

long do_poll(struct pollfd *fds, unsigned nfds, uint64_t deadline, unsigned always)
{
	struct poll_table pt = { NULL, 0, nfds * POLL_QUEUES_PER_FILE };
	uint64_t now;
	long ready;

	if (pt.max && !(pt.entry = kmalloc(pt.max * sizeof(*pt.entry))))
		return -ENOMEM;
	for (;;) {
		ready = 0;
		current->state = TASK_INTERRUPTIBLE;
		for (unsigned k = 0; k < nfds; k++) {
			fds[k].revents = (short)poll_one(&fds[k], &pt, always);
			if (fds[k].revents)
				ready++;
		}
		now = clock_ns();
		if (ready || now >= deadline || signal_pending(current))
			break;
		if (deadline == UINT64_MAX)
			schedule();
		else
			schedule_timeout(deadline - now);
		poll_freewait(&pt);
	}
	poll_freewait(&pt);
	kfree(pt.entry);
	/* Linux's order: ready fds first, then a signal, then the timeout. */
	return ready || !signal_pending(current) ? ready : -ERESTARTNOHAND;
}

/* poll of the user's ufds[nfds] until deadline: poll, ppoll and
 * restart_syscall's poll_restart. do_poll's results, and -EINVAL,
 * -EFAULT. */
static long poll_user(uint32_t ufds, unsigned nfds, uint64_t deadline)
{
	struct pollfd *fds = NULL;
	size_t size = (size_t)nfds * sizeof(*fds);
	long r;

	if (nfds > nofile_limit())
		return -EINVAL;
	if (nfds) {
		if (!(fds = kmalloc(size)))
			return -ENOMEM;
		if (copy_from_user(fds, ufds, size)) {
			kfree(fds);
			return -EFAULT;
		}
	}
	r = do_poll(fds, nfds, deadline, POLL_ALWAYS);
	/* Linux writes every revents back, even after a signal (its are 0). */
	for (unsigned k = 0; k < nfds && r != -ENOMEM; k++)
		if (copy_to_user(ufds + k * sizeof(*fds) + __builtin_offsetof(struct pollfd, revents),
				 &fds[k].revents, sizeof(fds[k].revents))) {
			r = -EFAULT;
			break;
		}
	kfree(fds);
	return r;
}

/* poll's own restart: made again with the whole timeout, it would never
 * end if stops came often enough, so the rest of it is kept in the
 * restart block (Linux's do_restart_poll). */
static long poll_restart(struct restart_block *rb);

static long poll_restartable(uint32_t ufds, unsigned nfds, uint64_t deadline)
{
	long r = poll_user(ufds, nfds, deadline);

	if (r == -ERESTARTNOHAND && deadline != UINT64_MAX) {
		struct restart_block *rb = restart_block_set(poll_restart, deadline);
		rb->arg[0] = ufds;
		rb->arg[1] = nfds;
		r = -ERESTART_RESTARTBLOCK;
	}
	return r;
}

static long poll_restart(struct restart_block *rb)
{
	return poll_restartable(rb->arg[0], rb->arg[1], rb->deadline);
}

/* poll(fds, nfds, timeout in ms) */
LINUX_SYSCALL(SYS_poll, poll)
{
	int timeout_ms = (int)arg[2];
	uint64_t deadline = UINT64_MAX;

	if (timeout_ms >= 0)
		deadline = clock_ns() + (uint64_t)timeout_ms * NS_PER_MS;
	return poll_restartable(arg[0], arg[1], deadline);
}

/* ---- the timeouts of ppoll and the select calls ---- */

int poll_timeout_from_user(uint32_t ut, enum poll_time_kind kind, uint64_t *deadline)
{
	uint64_t ns;
	int err;

	*deadline = UINT64_MAX;
	if (!ut)
		return 0;
	if (kind == PT_TIMEVAL) {
		struct timeval tv;
		int64_t sec, usec;
		if (copy_from_user(&tv, ut, sizeof(tv)))
			return -EFAULT;
		/* Linux's kern_select: whole seconds of tv_usec move to
		 * tv_sec; what is left must not be negative. */
		sec = (int64_t)tv.tv_sec + tv.tv_usec / 1000000;
		usec = tv.tv_usec % 1000000;
		if (sec < 0 || usec < 0)
			return -EINVAL;
		ns = (uint64_t)sec >= 500ull * 365 * 86400 ? TIME_NS_MAX :
			(uint64_t)sec * NSEC_PER_SEC + (uint64_t)usec * 1000;
	} else if ((err = timespec_from_user(ut, kind == PT_TIMESPEC64, &ns)) < 0) {
		return err;
	}
	*deadline = time_add_sat(clock_ns(), ns);
	return 0;
}

long poll_timeout_finish(uint32_t ut, enum poll_time_kind kind, uint64_t deadline, long r)
{
	uint64_t now = clock_ns(), left = deadline > now ? deadline - now : 0;
	int err;

	if (!ut || deadline == TIME_NS_MAX)
		return r;
	if (kind == PT_TIMEVAL) {
		struct timeval tv = { (long)(left / NSEC_PER_SEC),
				      (long)(left % NSEC_PER_SEC / 1000) };
		err = copy_to_user(ut, &tv, sizeof(tv)) ? -EFAULT : 0;
	} else {
		err = timespec_to_user(ut, kind == PT_TIMESPEC64, left);
	}
	/* A timeout in read-only memory is not the caller's error once
	 * the call is done (Linux ignores it), but a call to be made
	 * again would start over with its whole timeout: -EINTR then. */
	if (err && r == -ERESTARTNOHAND)
		return -EINTR;
	return r;
}

/* ppoll(fds, nfds, timeout, sigmask, sigsetsize): poll with a timespec
 * timeout (NULL: none) and a signal mask in force while it waits. The
 * time left goes back to *timeout; a signal makes it -EINTR after a
 * handler, or the call again (with the time left) after a stop. */
static long do_ppoll(const uint32_t *arg, enum poll_time_kind kind)
{
	uint64_t deadline;
	long r;

	if ((r = poll_timeout_from_user(arg[2], kind, &deadline)) < 0)
		return r;
	if (arg[3] && (r = sigmask_set_temporary(arg[3], arg[4])) < 0)
		return r;
	r = poll_user(arg[0], arg[1], deadline);
	sigmask_restore_unless_interrupted(r);
	return poll_timeout_finish(arg[2], kind, deadline, r);
}

LINUX_SYSCALL(SYS_ppoll, ppoll)
{
	return do_ppoll(arg, PT_TIMESPEC);
}

LINUX_SYSCALL(SYS_ppoll_time64, ppoll_time64)
{
	return do_ppoll(arg, PT_TIMESPEC64);
}
