/* compat/linux/fs/poll.h - the wait shared by poll(2) and ppoll
 * (compat/linux/fs/poll.c) and the select(2) calls (compat/linux/fs/select.c). */
#ifndef KERNEL_FS_POLL_H
#define KERNEL_FS_POLL_H

#include "lib/abi_linux.h"
#include "lib/types.h"

/* What poll reports whether asked for or not (Linux's poll_one: an fd
 * that is not open is POLLNVAL, and always counts). select passes 0:
 * its sets ask for POLLERR and POLLHUP where they matter. */
#define POLL_ALWAYS (POLLERR | POLLHUP)

/* Sleeps until one of fds[nfds] has one of its events (or one of
 * always), deadline passes (a clock_ns() time; UINT64_MAX: never), or a
 * signal comes. Fills every revents; returns how many fds have some, 0
 * at the deadline, -ERESTARTNOHAND on a signal (compat/linux/restart.h),
 * -ENOMEM. */
long do_poll(struct pollfd *fds, unsigned nfds, uint64_t deadline, unsigned always);

/* The timeouts of ppoll and the select calls (Linux's poll_select_*):
 * a struct timeval (select), timespec or timespec64 (the others). */
enum poll_time_kind { PT_TIMEVAL, PT_TIMESPEC, PT_TIMESPEC64 };

/* Reads the timeout at ut and makes it a deadline (clock_ns time; ut 0:
 * UINT64_MAX, none). 0, -EFAULT, -EINVAL (negative). */
int poll_timeout_from_user(uint32_t ut, enum poll_time_kind kind, uint64_t *deadline);
/* When the call ends with result r: the time left until deadline
 * written back to ut (Linux's poll_select_finish), which is how a
 * select or ppoll made again after a stop waits only what was left.
 * Returns r, or -EINTR if a restart's time could not be written. */
long poll_timeout_finish(uint32_t ut, enum poll_time_kind kind, uint64_t deadline, long r);

#endif
