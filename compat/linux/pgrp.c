/* compat/linux/pgrp.c - process groups and sessions (Linux's kernel/sys.c):
 * setpgid 57, getpgid 132, getpgrp 65, setsid 66, getsid 147.
 *
 * A process group is the set of processes with the same pgid: a shell
 * puts each pipeline in one, so that a signal from the terminal (^C)
 * reaches all of the pipeline's processes and none of the shell's. A
 * session (sid) is the set of groups under one login: the terminal
 * belongs to one session and has one foreground group in it (tty.h).
 * Spindle keeps no separate pgrp/session objects: a group exists while
 * a live process has its pgid. pgid and sid are copied into every
 * thread of a process, all under tasklist_lock. */
#include "kernel/task.h"
#include "kernel/panic.h"
#include "compat/linux/jobctl.h"
#include "kernel/syscall.h"
#include "compat/linux/tty.h"
#include "lib/errno.h"

static bool alive(const struct task *t)
{
	return t->state != TASK_ZOMBIE && t->state != TASK_DEAD;
}

/* Does a process with this pgid (in session sid, if sid >= 0) exist?
 * tasklist_lock held. */
bool pgrp_exists_locked(int pgid, int sid)
{
	struct list *pos;

	ASSERT(spin_held(&tasklist_lock));
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t->lx.pgid == pgid && alive(t) && (sid < 0 || t->lx.sid == sid))
			return true;
	}
	return false;
}

/* POSIX's orphaned process group, Linux's will_become_orphaned_pgrp: no
 * process of it has a parent in another group of the same session (a
 * parent that is init does not count), so nobody is left who could
 * continue it after a stop. tasklist_lock held. */
bool pgrp_orphaned_locked(int pgid)
{
	struct list *pos;

	ASSERT(spin_held(&tasklist_lock));
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link), *p = t->parent;
		if (t->group_leader != t || t->lx.pgid != pgid || !alive(t) || !p || p->tgid == 1)
			continue;
		if (p->lx.pgid != pgid && p->lx.sid == t->lx.sid)
			return false;
	}
	return true;
}

/* Every thread of t's process. tasklist_lock held. */
static void set_ids_locked(struct task *t, int pgid, int sid)
{
	struct task *o = t;

	ASSERT(spin_held(&tasklist_lock));
	do {
		o->lx.pgid = pgid;
		o->lx.sid = sid;
		o = list_entry(o->thread_group.next, struct task, thread_group);
	} while (o != t);
}

/* pid 0 is the caller; anyone else must be a live process. */
static struct task *find_process_locked(int pid)
{
	struct task *t = pid ? task_find(pid) : current;

	ASSERT(spin_held(&tasklist_lock));
	return t && alive(t) ? t : NULL;
}

/* setpgid(pid, pgid), Linux's rules: pid is the caller or one of its
 * children (-ESRCH), a child in the caller's session (-EPERM); a session
 * leader cannot move (-EPERM); pgid is pid's own id (a new group) or a
 * group of the caller's session (-EPERM). Spindle does not refuse a
 * child that has already called execve (Linux's -EACCES). */
LINUX_SYSCALL(SYS_setpgid, setpgid)
{
	int pid = (int)arg[0], pgid = (int)arg[1];
	struct task *t;
	uint32_t flags;
	long err = 0;

	if (pgid < 0)
		return -EINVAL;
	flags = spin_lock_irqsave(&tasklist_lock);
	t = find_process_locked(pid);
	if (t)
		t = t->group_leader;
	if (!t || (t->tgid != current->tgid &&
		   (!t->parent || t->parent->tgid != current->tgid)))
		err = -ESRCH;
	else if (t->lx.sid != current->lx.sid || t->lx.sid == t->tgid)
		err = -EPERM;
	else {
		if (!pgid)
			pgid = t->tgid;
		if (pgid != t->tgid && !pgrp_exists_locked(pgid, current->lx.sid))
			err = -EPERM;
		else
			set_ids_locked(t, pgid, t->lx.sid);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}

static long get_id(int pid, bool session)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct task *t = find_process_locked(pid);
	long r = !t ? -ESRCH : session ? t->lx.sid : t->lx.pgid;

	spin_unlock_irqrestore(&tasklist_lock, flags);
	return r;
}

LINUX_SYSCALL(SYS_getpgid, getpgid)
{
	return get_id((int)arg[0], false);
}

LINUX_SYSCALL(SYS_getpgrp, getpgrp)
{
	return get_id(0, false);
}

LINUX_SYSCALL(SYS_getsid, getsid)
{
	return get_id((int)arg[0], true);
}

/* setsid(): a new session and group, both the caller's id, with no
 * controlling terminal. A process group leader cannot (-EPERM: its
 * group's other members would be left in another session). */
LINUX_SYSCALL(SYS_setsid, setsid)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	int id = current->tgid;
	long r = id;

	if (pgrp_exists_locked(id, -1))
		r = -EPERM;
	else
		set_ids_locked(current, id, id);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return r;
}
