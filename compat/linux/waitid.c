/* compat/linux/waitid.c - waitid 284 (Linux's kernel/exit.c), on the
 * core's do_wait (kernel/wait.c): the same children, told as a siginfo. */
#include "kernel/wait.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/uaccess.h"
#include "lib/errno.h"

/* What waitid tells about the child it found (Linux's waitid_info). */
struct waitid_out {
	uint32_t urusage;
	int code, status;
};

/* A wait status as si_code and si_status: exited (the exit code), killed
 * (the signal; CLD_DUMPED if the core bit is set), stopped (the stop
 * signal), continued (SIGCONT). */
static long waitid_report(const struct wait_found *f, void *ctx)
{
	struct waitid_out *o = ctx;
	int st = f->status;

	if (WIFCONTINUED(st)) {
		o->code = CLD_CONTINUED;
		o->status = SIGCONT;
	} else if (WIFSTOPPED(st)) {
		o->code = CLD_STOPPED;
		o->status = WSTOPSIG(st);
	} else if (WIFEXITED(st)) {
		o->code = CLD_EXITED;
		o->status = WEXITSTATUS(st);
	} else {
		o->code = (st & 0x80) ? CLD_DUMPED : CLD_KILLED;
		o->status = WTERMSIG(st);
	}
	if (!o->urusage)
		return 0;
	return linux_rusage_to_user(o->urusage, f->ticks);
}

/* waitid's (idtype, id) as a wait_target: false if they are not valid
 * (Linux: an id <= 0 for P_PID, < 0 for P_PGID; P_PIDFD). */
static bool waitid_target(int idtype, int id, struct wait_target *w)
{
	*w = (struct wait_target){ 0, 0 };
	switch (idtype) {
	case P_ALL:
		return true;
	case P_PID:
		w->pid = id;
		return id > 0;
	case P_PGID:
		w->pgid = id ? id : current->lx.pgid;      /* 0: the caller's own group */
		return id >= 0;
	default:
		return false;
	}
}

/* waitid(idtype, id, infop, options, rusage): P_ALL, P_PID id (> 0) or
 * P_PGID id (0: the caller's group); options must ask for at least one
 * of WEXITED, WSTOPPED, WCONTINUED, and may add WNOHANG and WNOWAIT
 * (report, but leave the child waitable). Returns 0. infop gets
 * si_signo SIGCHLD, si_code CLD_*, si_pid, si_uid 0 and si_status -
 * all 0 when WNOHANG found nothing, and written even when the call
 * fails (Linux's sys_waitid). P_PIDFD (3) is -EINVAL: Spindle has no
 * pidfds. */
LINUX_SYSCALL(SYS_waitid, waitid)
{
	struct wait_target w;
	bool valid = waitid_target((int)arg[0], (int)arg[1], &w);
	uint32_t uinfo = arg[2], options = arg[3];
	int found = 0;
	struct waitid_out o = { arg[4], 0, 0 };
	long r = -EINVAL;

	if (!(options & ~(uint32_t)(WNOHANG | WNOWAIT | WEXITED | WSTOPPED | WCONTINUED |
				    __WNOTHREAD | __WCLONE | __WALL)) &&
	    (options & (WEXITED | WSTOPPED | WCONTINUED)) && valid) {
		r = do_wait(&w, options, waitid_report, &o);
		if (r > 0) {
			found = (int)r;
			r = 0;
		}
	}
	if (uinfo) {
		struct {
			int signo, errno_, code, pid;
			uint32_t uid;
			int status;
		} si = { found ? SIGCHLD : 0, 0, found ? o.code : 0, found, 0,
			 found ? o.status : 0 };
		if (copy_to_user(uinfo, &si, sizeof(si)))
			return -EFAULT;
	}
	return r;
}
