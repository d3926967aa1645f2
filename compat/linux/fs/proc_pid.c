/* compat/linux/fs/proc_pid.c - the text of /proc/<pid>/stat and
 * /proc/<pid>/cmdline (proc.c makes the files), written as Linux 6.1's
 * fs/proc/array.c do_task_stat and fs/proc/base.c proc_pid_cmdline_read
 * write them: what ps and top read (busybox's ps skips a process whose
 * stat it cannot read, and shows "[comm]" for an empty cmdline).
 *
 * stat is one line of 52 fields, "pid (comm) state ppid ...", described
 * in proc(5). Spindle keeps no page-fault counts, CPU times, start time,
 * nice value or scheduling policy of its own: those fields are 0 (nice
 * 0 and priority 20 are what Linux shows for an ordinary task, policy 0
 * is SCHED_OTHER), as Linux itself shows 0 for the fields it no longer
 * keeps (itrealvalue, nswap, cnswap). docs/files.md lists them.
 *
 * cmdline is the argument strings execve put on the stack, each with its
 * NUL, read from the process's own pages ([mm->arg_start, arg_end));
 * empty for a zombie or a kernel thread, as on Linux. */
#include "compat/linux/fs/vfs.h"
#include "compat/linux/fs/proc_internal.h"
#include "compat/linux/cputime.h"
#include "compat/linux/layer.h"
#include "kernel/initrd.h"
#include "kernel/signal.h"
#include "kernel/task.h"
#include "compat/linux/tty.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/vm.h"
#include "arch/i386/pgtable.h"
#include "lib/format.h"
#include "lib/string.h"

#define STAT_MAX 512            /* 52 fields of at most 20 digits, and comm */
#define CMDLINE_MAX PAGE_SIZE   /* what Linux's ps reads at most, too */
#define CONSOLE_TTY_NR (5 << 8 | 1)     /* /dev/console's device number */

struct initrd_file *proc_snapshot(const char *text, size_t len, long *err)
{
	struct initrd_file *f = kzalloc(sizeof(*f));
	char *data = kmalloc(len + 1);

	if (!f || !data) {
		kfree(f);
		kfree(data);
		*err = -ENOMEM;
		return NULL;
	}
	memcpy(data, text, len);
	f->data = data;
	f->size = (uint32_t)len;
	return f;
}

/* mm_get, unless its last user has put it already (it is being freed):
 * then false. For a reader that found mm under tasklist_lock (mm_put's
 * comment, kernel/mm/vm.c, says why that is safe). */
static bool mm_get_unless_zero(struct mm *mm)
{
	int n = __atomic_load_n(&mm->users, __ATOMIC_SEQ_CST);

	while (n > 0)
		if (__atomic_compare_exchange_n(&mm->users, &n, n + 1, false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return true;
	return false;
}

struct task *proc_find_process_locked(int pid, struct mm **mm)
{
	struct task *t = pid > 0 ? task_find(pid) : NULL;

	ASSERT(spin_held(&tasklist_lock));
	if (!t || t->tgid != pid || t->group_leader != t || t->state == TASK_DEAD)
		return NULL;
	*mm = __atomic_load_n(&t->mm, __ATOMIC_ACQUIRE);
	if (*mm && !mm_get_unless_zero(*mm))
		*mm = NULL;
	return t;
}

struct task *proc_find_thread_locked(int pid, int tid, struct mm **mm, struct task **th)
{
	struct task *x = tid ? task_find(tid) : NULL, *t;

	ASSERT(spin_held(&tasklist_lock));
	if (tid && (!x || x->tgid != pid || x->state == TASK_DEAD))
		return NULL;            /* checked first: no mm reference to drop */
	t = proc_find_process_locked(pid, mm);
	*th = tid ? x : t;
	return t;
}

static char state_char(enum task_state s)
{
	switch (s) {
	case TASK_RUNNING: return 'R';
	case TASK_INTERRUPTIBLE: return 'S';
	case TASK_UNINTERRUPTIBLE: return 'D';
	case TASK_ZOMBIE: return 'Z';
	case TASK_STOPPED: return 'T';
	default: return 'X';
	}
}

/* Everything stat shows about the task, read under tasklist_lock. */
struct stat_fields {
	char comm[TASK_COMM_LEN];
	char state;
	int pid, ppid, pgid, sid, nthreads, exit_signal, cpu, exit_code;
	uint32_t pending, blocked, ignored, caught;
	unsigned long rsslim;
	struct tms times;               /* clock_t units, as times(2) */
};

/* t is the process's leader; th the task the file is about: t itself,
 * or one thread of /proc/<pid>/task/<tid>, whose id, name, state, CPU,
 * times and signals it then shows (Linux's do_task_stat, whole = 0). */
static void read_task_locked(struct task *t, struct task *th, struct stat_fields *s)
{
	struct list *pos;
	uint32_t flags;

	ASSERT(spin_held(&tasklist_lock));
	memcpy(s->comm, th->comm, sizeof(s->comm));
	s->comm[sizeof(s->comm) - 1] = '\0';
	s->state = state_char(th->state);
	s->pid = th == t ? t->tgid : th->tid;
	s->ppid = t->parent ? t->parent->tgid : 0;
	s->pgid = t->lx.pgid;
	s->sid = t->lx.sid;
	s->nthreads = 1;
	list_for_each(pos, &t->thread_group)
		s->nthreads++;
	s->exit_signal = th->exit_signal;
	s->cpu = th->cpu;
	s->exit_code = t->state == TASK_ZOMBIE ? t->exit_code : 0;
	s->rsslim = task_rlimits(t)[RLIMIT_RSS].rlim_cur;
	if (th == t)
		cputime_tms_locked(t, &s->times);
	else
		cputime_thread_tms_locked(th, &s->times);
	/* The old 32-bit signal words (Linux: sig[0] & 0x7fffffff). */
	s->pending = s->blocked = s->ignored = s->caught = 0;
	if (t->sighand) {
		flags = spin_lock_irqsave(&t->sighand->lock);
		s->pending = (uint32_t)(th->pending.signals | t->sighand->shared_pending.signals);
		s->blocked = (uint32_t)th->blocked;
		for (int sig = 1; sig <= 31; sig++) {
			void *h = t->sighand->action[sig - 1].handler;
			if (h == SIG_IGN)
				s->ignored |= 1u << (sig - 1);
			else if (h != SIG_DFL)
				s->caught |= 1u << (sig - 1);
		}
		spin_unlock_irqrestore(&t->sighand->lock, flags);
	}
	s->pending &= 0x7fffffffu;
	s->blocked &= 0x7fffffffu;
	s->ignored &= 0x7fffffffu;
	s->caught &= 0x7fffffffu;
}

/* Its areas' total size (vsize, bytes) and resident pages (rss). */
static void read_mm(struct mm *mm, uint32_t *vsize, uint32_t *rss)
{
	spin_lock(&mm->lock);
	*vsize = 0;
	for (struct vma *v = mm->vmas; v; v = v->next)
		*vsize += v->end - v->start;
	*rss = mm->rss_pages;
	spin_unlock(&mm->lock);
}

struct initrd_file *proc_pid_stat(int pid, int tid, long *err)
{
	struct stat_fields s;
	struct mm *mm = NULL;
	struct task *th;
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct task *t = proc_find_thread_locked(pid, tid, &mm, &th);
	uint32_t vsize = 0, rss = 0, arg_start = 0, arg_end = 0;
	char buf[STAT_MAX];
	int tpgid, n;

	if (t)
		read_task_locked(t, th, &s);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!t) {
		*err = -ENOENT;
		return NULL;
	}
	if (mm) {
		read_mm(mm, &vsize, &rss);
		arg_start = mm->arg_start;
		arg_end = mm->arg_end;
		mm_put(mm);
	}
	tpgid = tty_foreground_of(s.sid);
	n = snprintf(buf, sizeof(buf),
		     "%d (%s) %c %d %d %d %d %d %u %u %u %u %u %ld %ld %ld %ld %d %d %d %d %u "
		     "%u %u %lu %u %u %u %u %u %u %u %u %u %u %u %u %d %d %u %u %u %u %d "
		     "%u %u %u %u %u %u %u %d\n",
		     s.pid, s.comm, s.state, s.ppid, s.pgid, s.sid,
		     tpgid >= 0 ? CONSOLE_TTY_NR : 0, tpgid,
		     0u,                            /* flags (Linux's PF_*) */
		     0u, 0u, 0u, 0u,                /* minflt cminflt majflt cmajflt */
		     s.times.tms_utime, s.times.tms_stime, s.times.tms_cutime, s.times.tms_cstime,
		     20, 0,                         /* priority, nice */
		     s.nthreads, 0,                 /* num_threads, itrealvalue */
		     0u,                            /* starttime */
		     vsize, rss, s.rsslim,
		     0u, 0u, 0u, 0u, 0u,            /* start/end code, start stack, esp, eip */
		     s.pending, s.blocked, s.ignored, s.caught,
		     0u, 0u, 0u,                    /* wchan, nswap, cnswap */
		     s.exit_signal, s.cpu,
		     0u, 0u, 0u, 0u,                /* rt_priority, policy, blkio, guest */
		     0,                             /* cguest_time */
		     0u, 0u, 0u,                    /* start/end data, start brk */
		     arg_start, arg_end,
		     0u, 0u,                        /* env start/end */
		     s.exit_code);
	return proc_snapshot(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1, err);
}

/* Copies [start, start + n) of mm into buf through its page tables
 * (the kernel's direct map of each frame); stops at the first page not
 * there. The bytes copied. */
static size_t read_mm_bytes(struct mm *mm, uint32_t start, char *buf, size_t n)
{
	size_t done = 0;

	spin_lock(&mm->lock);

	while (done < n) {
		uint32_t va = start + (uint32_t)done, off = va & (PAGE_SIZE - 1);
		uint32_t *pte = pte_lookup(mm->pgdir, va);
		size_t k = PAGE_SIZE - off < n - done ? PAGE_SIZE - off : n - done;

		if (!pte || !pte_has_page(*pte))
			break;
		memcpy(buf + done, (const char *)pte_page(*pte) + off, k);
		done += k;
	}
	spin_unlock(&mm->lock);
	return done;
}

struct initrd_file *proc_pid_cmdline(int pid, int tid, long *err)
{
	struct mm *mm = NULL;
	struct initrd_file *f;
	struct task *t, *th;
	size_t len = 0;
	uint32_t flags;
	/* Allocated first: not under tasklist_lock. */
	char *buf = kmalloc(CMDLINE_MAX);

	if (!buf) {
		*err = -ENOMEM;
		return NULL;
	}
	flags = spin_lock_irqsave(&tasklist_lock);
	t = proc_find_thread_locked(pid, tid, &mm, &th);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!t) {
		kfree(buf);
		*err = -ENOENT;
		return NULL;
	}
	if (mm) {
		uint32_t n = mm->arg_end - mm->arg_start;
		len = read_mm_bytes(mm, mm->arg_start, buf, n < CMDLINE_MAX ? n : CMDLINE_MAX);
		mm_put(mm);
	}
	f = proc_snapshot(buf, len, err);
	kfree(buf);
	return f;
}
