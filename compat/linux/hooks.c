/* compat/linux/hooks.c - the hooks of kernel/linux_hooks.h that tie the
 * layer's pieces to a task's life: created, cloned, exec'd, exited,
 * freed. Each hook whose work is one feature's lives with that feature
 * (clone.c, futex_linux.c, robust.c, the tty); these touch several. */
#include "kernel/exit.h"
#include "kernel/file.h"
#include "kernel/linux_hooks.h"
#include "kernel/panic.h"
#include "kernel/task.h"
#include "kernel/exec.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/vm.h"
#include "compat/linux/cputime.h"
#include "compat/linux/layer.h"
#include "compat/linux/personality.h"
#include "compat/linux/fs/vfs.h"
#include "compat/linux/tty.h"
#include "lib/string.h"

void linux_task_init(struct task *t)
{
	rlimit_init_defaults(t->lx.rlim);
	list_init(&t->lx.it_link);
}

void linux_task_free(struct task *t)
{
	itimer_cancel(t);
	/* A child that clone abandoned still holds what it copied. */
	fs_struct_put(t->lx.fs);
	exe_link_put(t->lx.exe);
	t->lx.fs = NULL;
	t->lx.exe = NULL;
}

int linux_copy_resources(struct task *c, struct task *p, uint32_t flags)
{
	list_init(&c->lx.it_link);      /* no interval timer yet */
	c->lx.personality = p->lx.personality;         /* abi.md section 9 */
	/* A new process starts with its parent's limits; a thread reads its
	 * process's (task_rlimits) and needs no copy. */
	if (!(flags & CLONE_THREAD))
		memcpy(c->lx.rlim, task_rlimits(p), sizeof(c->lx.rlim));
	/* sigaltstack(2): fork keeps the alternate stack; a task sharing
	 * the address space (CLONE_VM) would share it, so starts with none. */
	if (!(flags & CLONE_VM)) {
		c->lx.sas_ss_sp = p->lx.sas_ss_sp;
		c->lx.sas_ss_size = p->lx.sas_ss_size;
	}
	exe_link_get(p->lx.exe);
	c->lx.exe = p->lx.exe;
	if (!p->lx.fs)
		return 0;
	if (flags & CLONE_FS) {
		fs_struct_get(p->lx.fs);
		c->lx.fs = p->lx.fs;
	} else if (!(c->lx.fs = fs_struct_copy(p->lx.fs))) {
		return -ENOMEM;
	}
	return 0;
}

void linux_exit_resources(struct task *t)
{
	struct fs_struct *fs = t->lx.fs;
	struct exe_link *exe = t->lx.exe;

	/* /proc/PID/status and /proc/PID/exe read another task's under
	 * tasklist_lock: one store each lets go, and the last put waits for
	 * such readers (tasklist_lock_grace, kernel/task.h), as for files. */
	__atomic_store_n(&t->lx.fs, NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&t->lx.exe, NULL, __ATOMIC_RELEASE);
	fs_struct_put(fs);
	exe_link_put(exe);
}

void linux_exit_reap_self_locked(struct task *t)
{
	ASSERT(spin_held(&tasklist_lock));
	cputime_unlink_locked(t);       /* its time stays the process's */
	/* A thread's timer is off anyway (the process's lives in its
	 * leader). Every writer of it_real_expires but itimer_cancel holds
	 * tasklist_lock, as we do (compat/linux/itimer.c), so a zero read
	 * here is exact, and the common exit takes no itimer_lock. */
	if (t->lx.it_real_expires)
		itimer_cancel(t);
}

/* ---- execve ---- */

uint32_t linux_exec_stack_size(uint32_t most)
{
	/* The caller's RLIMIT_STACK (Linux lets the stack grow to it;
	 * Spindle maps it whole at execve), at least EXEC_STACK_MIN so that
	 * the arguments fit, at most what the layout leaves below
	 * USER_STACK_TOP. */
	unsigned long lim = task_rlimits(current)[RLIMIT_STACK].rlim_cur;

	if (lim >= most)
		return most;
	lim = (lim + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1);
	return lim < EXEC_STACK_MIN ? EXEC_STACK_MIN : (uint32_t)lim;
}

void linux_exec_take_over_locked(struct task *leader, struct task *t)
{
	ASSERT(spin_held(&tasklist_lock));
	/* The process's limits (task_rlimits) are the leader's. */
	memcpy(t->lx.rlim, leader->lx.rlim, sizeof(t->lx.rlim));
	itimer_move_locked(leader, t);  /* the process's alarm goes on */
	cputime_move_locked(leader, t); /* and its CPU-time books */
	cputime_unlink_locked(leader);  /* its own time: ours now */
}

/* Finds the program: a regular file with an execute bit (-EACCES, as
 * Linux's may_open with MAY_EXEC: root needs one x bit too). */
struct file *linux_open_exec(const char *path, long *err)
{
	struct inode *start, *i;
	struct file *f;

	if ((*err = lookup_start(AT_FDCWD, &start)) < 0)
		return NULL;
	*err = path_walk(start, path, LOOKUP_FOLLOW, &i);
	inode_put(start);
	if (*err < 0)
		return NULL;
	if (!S_ISREG(i->mode) || !(i->mode & 0111)) {
		inode_put(i);
		*err = -EACCES;
		return NULL;
	}
	f = file_open_inode(i, O_RDONLY, err);
	inode_put(i);
	return f;
}

/* The absolute path /proc/PID/exe shows: path if absolute, else the cwd
 * and path. */
long linux_exec_prepare(const char *path, struct file *f, struct exe_link **out)
{
	struct exe_link *e = NULL;
	struct inode *cwd;
	char *buf;
	long n;

	if (path[0] == '/' || !current->lx.fs) {
		e = exe_link_new(f->inode, path);
	} else if ((buf = kmalloc(PATH_MAX))) {
		cwd = fs_cwd(current->lx.fs);
		n = dir_path(cwd, buf, PATH_MAX);
		inode_put(cwd);
		if (n >= 0 && (size_t)n + 1 + strlen(path) < PATH_MAX) {
			if (n > 1)
				buf[n++] = '/';
			memcpy(buf + n, path, strlen(path) + 1);
			e = exe_link_new(f->inode, buf);
		} else if (n < 0) {
			e = exe_link_new(f->inode, path);
		}
		kfree(buf);
	}
	*out = e;
	return e ? 0 : -ENOMEM;
}

void linux_exec_abandon(struct exe_link *exe)
{
	exe_link_put(exe);
}

void linux_exec_commit(struct task *t, bool is_linux, struct exe_link *exe)
{
	struct exe_link *old = t->lx.exe;

	t->lx.personality = is_linux ? PERSONALITY_LINUX : PERSONALITY_SEED;
	t->lx.sas_ss_sp = t->lx.sas_ss_size = 0;        /* execve drops the sigaltstack */
	/* One store, then the put: /proc/PID/exe's readers look under
	 * tasklist_lock, and the last put waits for them (kernel/task.h). */
	__atomic_store_n(&t->lx.exe, exe, __ATOMIC_RELEASE);
	exe_link_put(old);
}

int linux_init_task(struct task *t)
{
	if (!(t->lx.fs = fs_struct_new()))
		return -ENOMEM;
	/* init leads session 1 and process group 1, and the console is its
	 * controlling terminal with group 1 in the foreground. */
	t->lx.pgid = t->lx.sid = t->tgid;
	tty_set_session(t->lx.sid, t->lx.pgid);
	return 0;
}

int linux_pgid(const struct task *t)
{
	return t->lx.pgid;
}

unsigned long linux_as_limit(void)
{
	return task_rlimits(current)[RLIMIT_AS].rlim_cur;
}
