/* compat/linux/fs/select.c - the select(2) calls: old select 82, _newselect
 * 142, pselect6 308 and pselect6_time64 413 (Linux's fs/select.c
 * core_sys_select), on poll's wait (compat/linux/fs/poll.h).
 *
 * The three fd_sets are bit arrays of n bits, 32 to a word. Each fd
 * that is in at least one set becomes one struct pollfd whose events are
 * the union of what its sets wait for (Linux's POLLIN_SET, POLLOUT_SET
 * and POLLEX_SET below); do_poll waits; then each set keeps only the fds
 * whose revents meet its own events. The result counts bits, so an fd
 * ready for reading and writing counts twice, as on Linux.
 *
 * Linux's answers: n < 0 is -EINVAL, and n is cut to RLIMIT_NOFILE (no
 * fd beyond it can be open); an fd in a set that is not open is -EBADF;
 * the sets are written back only on success (a timeout included: all
 * clear); the time left goes back to the timeout (poll.h
 * poll_timeout_finish). A signal ends the wait: -EINTR after a handler,
 * the call again (with the time left) after a stop. */
#include "compat/linux/layer.h"
#include "compat/linux/fs/poll.h"
#include "kernel/file.h"
#include "compat/linux/restart.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define POLLIN_SET  (POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET (POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET  POLLPRI

enum { SET_IN, SET_OUT, SET_EX, NSETS };

static const unsigned set_events[NSETS] = { POLLIN_SET, POLLOUT_SET, POLLEX_SET };

static bool bit(const uint32_t *set, unsigned fd)
{
	return (set[fd / 32] >> (fd % 32)) & 1;
}

static bool fd_is_open(int fd)
{
	struct file *f = fd_get(current->files, fd);

	if (f)
		file_put(f);
	return f != NULL;
}

/* The fds of the sets (in[0..NSETS) words each) as pollfds: how many,
 * or -EBADF. fds may be NULL to count only. */
static long sets_to_pollfds(uint32_t *const in[NSETS], unsigned n, struct pollfd *fds)
{
	long k = 0;

	for (unsigned fd = 0; fd < n; fd++) {
		unsigned events = 0;

		for (int s = 0; s < NSETS; s++)
			if (in[s] && bit(in[s], fd))
				events |= set_events[s];
		if (!events)
			continue;
		if (!fds) {
			if (!fd_is_open((int)fd))
				return -EBADF;
		} else {
			fds[k] = (struct pollfd){ (int)fd, (short)events, 0 };
		}
		k++;
	}
	return k;
}

/* Linux's core_sys_select: n and the user's three sets (each may be 0),
 * until deadline. The number of bits set in the result, 0 at the
 * deadline, -ERESTARTNOHAND, -EBADF, -EINVAL, -EFAULT, -ENOMEM. */
static long core_select(int n, const uint32_t uset[NSETS], uint64_t deadline)
{
	unsigned words, bytes;
	uint32_t *buf, *in[NSETS], *out[NSETS];
	struct pollfd *fds = NULL;
	long nfds, r = 0;

	if (n < 0)
		return -EINVAL;
	if ((unsigned long)n > nofile_limit())
		n = (int)nofile_limit();
	words = ((unsigned)n + 31) / 32;
	bytes = words * 4;
	if (!(buf = kmalloc(2 * NSETS * bytes + 1)))
		return -ENOMEM;
	memset(buf, 0, 2 * NSETS * bytes);
	for (int s = 0; s < NSETS; s++) {
		in[s] = uset[s] ? buf + s * words : NULL;
		out[s] = buf + (NSETS + s) * words;
		if (in[s] && copy_from_user(in[s], uset[s], bytes)) {
			r = -EFAULT;
			goto done;
		}
	}
	if ((nfds = sets_to_pollfds(in, (unsigned)n, NULL)) < 0) {
		r = nfds;
		goto done;
	}
	if (nfds && !(fds = kmalloc((size_t)nfds * sizeof(*fds)))) {
		r = -ENOMEM;
		goto done;
	}
	sets_to_pollfds(in, (unsigned)n, fds);
	r = do_poll(fds, (unsigned)nfds, deadline, 0);
	if (r < 0)
		goto done;
	r = 0;
	for (long k = 0; k < nfds; k++) {
		unsigned fd = (unsigned)fds[k].fd, rev = (unsigned short)fds[k].revents;

		if (rev & POLLNVAL) {           /* closed by another thread meanwhile */
			r = -EBADF;
			goto done;
		}
		for (int s = 0; s < NSETS; s++)
			if (in[s] && bit(in[s], fd) && (rev & set_events[s])) {
				out[s][fd / 32] |= 1u << (fd % 32);
				r++;
			}
	}
	for (int s = 0; s < NSETS; s++)
		if (in[s] && copy_to_user(uset[s], out[s], bytes)) {
			r = -EFAULT;
			break;
		}
done:
	kfree(fds);
	kfree(buf);
	return r;
}

/* select with a struct timeval timeout (0: none). */
static long do_select(int n, const uint32_t uset[NSETS], uint32_t utv)
{
	uint64_t deadline;
	long r;

	if ((r = poll_timeout_from_user(utv, PT_TIMEVAL, &deadline)) < 0)
		return r;
	r = core_select(n, uset, deadline);
	return poll_timeout_finish(utv, PT_TIMEVAL, deadline, r);
}

/* _newselect(n, in, out, ex, timeout): what glibc calls select. */
LINUX_SYSCALL(SYS__newselect, _newselect)
{
	return do_select((int)arg[0], &arg[1], arg[4]);
}

/* The first i386 select (82) takes its five arguments in a struct
 * (Linux's sys_old_select, struct sel_arg_struct). */
LINUX_SYSCALL(SYS_select, select)
{
	struct {
		uint32_t n, set[NSETS], tv;
	} a;

	if (copy_from_user(&a, arg[0], sizeof(a)))
		return -EFAULT;
	return do_select((int)a.n, a.set, a.tv);
}

/* pselect6(n, in, out, ex, timeout, sig): a timespec timeout and, if sig
 * is not 0, a pointer to {const sigset_t *ss; size_t ss_len}: the mask
 * in force while it waits (none if ss is 0). */
static long do_pselect6(const uint32_t *arg, enum poll_time_kind kind)
{
	uint64_t deadline;
	struct {
		uint32_t ss, ss_len;
	} sig = { 0, 0 };
	long r;

	if ((r = poll_timeout_from_user(arg[4], kind, &deadline)) < 0)
		return r;
	if (arg[5] && copy_from_user(&sig, arg[5], sizeof(sig)))
		return -EFAULT;
	if (sig.ss && (r = sigmask_set_temporary(sig.ss, sig.ss_len)) < 0)
		return r;
	r = core_select((int)arg[0], &arg[1], deadline);
	sigmask_restore_unless_interrupted(r);
	return poll_timeout_finish(arg[4], kind, deadline, r);
}

LINUX_SYSCALL(SYS_pselect6, pselect6)
{
	return do_pselect6(arg, PT_TIMESPEC);
}

LINUX_SYSCALL(SYS_pselect6_time64, pselect6_time64)
{
	return do_pselect6(arg, PT_TIMESPEC64);
}
