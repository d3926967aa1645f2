/* compat/linux/fs/proc_status.c - /proc/<pid>/status and /proc/<pid>/maps, as
 * Linux 6.1 writes them (fs/proc/array.c proc_pid_status, fs/proc/
 * task_mmu.c show_map_vma). status is what programs and Linux's tests
 * grep for a process's state, ids, memory, threads and signal masks;
 * maps is each area of the address space - glibc's pthread_getattr_np
 * finds the main thread's stack in it.
 *
 * Spindle has no file-backed mappings (a program's segments are copied
 * into anonymous memory at execve), so maps names only [heap] and
 * [stack]; offset, device and inode are 0, as for Linux's anonymous
 * areas. One user, root: the ids are 0. */
#include "compat/linux/fs/vfs.h"
#include "compat/linux/fs/proc_internal.h"
#include "kernel/file.h"
#include "kernel/panic.h"
#include "kernel/signal.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/vm.h"
#include "lib/format.h"
#include "lib/string.h"

#define STATUS_MAX 1024
#define MAPS_LINE 80            /* "xxxxxxxx-xxxxxxxx rwxp 00000000 00:00 0" padded, a name */

static const char *state_long(enum task_state s)
{
	switch (s) {
	case TASK_RUNNING: return "R (running)";
	case TASK_INTERRUPTIBLE: return "S (sleeping)";
	case TASK_UNINTERRUPTIBLE: return "D (disk sleep)";
	case TASK_STOPPED: return "T (stopped)";
	case TASK_ZOMBIE: return "Z (zombie)";
	default: return "X (dead)";
	}
}

/* What status shows of the process, read under tasklist_lock (and its
 * sighand's lock for the signal sets). */
struct status_fields {
	char comm[TASK_COMM_LEN];
	const char *state;
	int tgid, pid, ppid, threads;
	unsigned umask, fdsize;
	uint64_t pending, shared, blocked, ignored, caught;
	uint32_t cpus;
};

/* What t->files and t->lx.fs point at stays while tasklist_lock is
 * held (tasklist_lock_grace, kernel/task.h); each pointer is read once,
 * as exit may clear it meanwhile. */
static void read_status_locked(struct task *t, struct task *th, struct status_fields *s)
{
	struct fs_struct *fs = __atomic_load_n(&t->lx.fs, __ATOMIC_ACQUIRE);
	struct files *files = __atomic_load_n(&t->files, __ATOMIC_ACQUIRE);
	struct list *pos;

	ASSERT(spin_held(&tasklist_lock));
	memset(s, 0, sizeof(*s));
	memcpy(s->comm, th->comm, sizeof(s->comm));
	s->comm[sizeof(s->comm) - 1] = '\0';
	s->state = state_long(th->state);
	s->tgid = t->tgid;
	s->pid = th == t ? t->tgid : th->tid;
	s->ppid = t->parent ? t->parent->tgid : 0;
	s->threads = 1;
	list_for_each(pos, &t->thread_group)
		s->threads++;
	s->cpus = th->cpus_allowed;
	if (fs)
		s->umask = __atomic_load_n(&fs->umask, __ATOMIC_RELAXED);
	if (files)
		s->fdsize = __atomic_load_n(&files->max, __ATOMIC_RELAXED);
	if (t->sighand) {
		uint32_t flags = spin_lock_irqsave(&t->sighand->lock);
		s->pending = th->pending.signals;
		s->shared = t->sighand->shared_pending.signals;
		s->blocked = th->blocked;
		for (int sig = 1; sig <= SIG_MAX; sig++) {
			void *h = t->sighand->action[sig - 1].handler;
			if (h == SIG_IGN)
				s->ignored |= SIGMASK(sig);
			else if (h != SIG_DFL)
				s->caught |= SIGMASK(sig);
		}
		spin_unlock_irqrestore(&t->sighand->lock, flags);
	}
}

/* cpus as Linux's Cpus_allowed_list: "0-3", "0,2". */
static int cpu_list(char *buf, size_t n, uint32_t cpus)
{
	int len = 0;

	for (int lo = 0; lo < 32 && (size_t)len < n; lo++) {
		int hi = lo;
		if (!(cpus & (1u << lo)))
			continue;
		while (hi + 1 < 32 && (cpus & (1u << (hi + 1))))
			hi++;
		len += snprintf(buf + len, n - (size_t)len, hi > lo ? "%s%d-%d" : "%s%d",
				len ? "," : "", lo, hi);
		lo = hi;
	}
	return len;
}

struct initrd_file *proc_pid_status(int pid, int tid, long *err)
{
	struct status_fields s;
	struct mm *mm = NULL;
	struct task *th;
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct task *t = proc_find_thread_locked(pid, tid, &mm, &th);
	uint32_t vsize = 0, rss = 0;
	char buf[STATUS_MAX], cpus[48];
	int n;

	if (t)
		read_status_locked(t, th, &s);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!t) {
		*err = -ENOENT;
		return NULL;
	}
	if (mm) {
		spin_lock(&mm->lock);
		for (struct vma *v = mm->vmas; v; v = v->next)
			vsize += v->end - v->start;
		rss = mm->rss_pages;
		spin_unlock(&mm->lock);
		mm_put(mm);
	}
	cpu_list(cpus, sizeof(cpus), s.cpus);
	n = snprintf(buf, sizeof(buf),
		     "Name:\t%s\nUmask:\t%04o\nState:\t%s\nTgid:\t%d\nNgid:\t0\nPid:\t%d\n"
		     "PPid:\t%d\nTracerPid:\t0\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n"
		     "FDSize:\t%u\nGroups:\t\n",
		     s.comm, s.umask, s.state, s.tgid, s.pid, s.ppid, s.fdsize);
	if (mm)         /* a zombie or kernel thread has no Vm lines (Linux) */
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "VmSize:\t%8u kB\nVmRSS:\t%8u kB\n",
			      vsize / 1024, rss * (PAGE_SIZE / 1024));
	n += snprintf(buf + n, sizeof(buf) - (size_t)n,
		      "Threads:\t%d\nSigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\n"
		      "SigIgn:\t%016llx\nSigCgt:\t%016llx\nCpus_allowed:\t%x\n"
		      "Cpus_allowed_list:\t%s\n",
		      s.threads, (unsigned long long)s.pending, (unsigned long long)s.shared,
		      (unsigned long long)s.blocked, (unsigned long long)s.ignored,
		      (unsigned long long)s.caught, s.cpus, cpus);
	return proc_snapshot(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1, err);
}

/* One area as Linux's show_map_vma: "start-end perms offset dev inode "
 * (with its space), then, for a named area, spaces up to column 48 (25 +
 * 6 * sizeof(void *) - 1: seq_setwidth), one more (seq_pad), the name. */
static int map_line(char *buf, size_t n, const struct vma *v)
{
	const char *name = v->flags & VMA_STACK ? "[stack]" : v->flags & VMA_HEAP ? "[heap]" : NULL;
	int len = snprintf(buf, n, "%08x-%08x %c%c%c%c 00000000 00:00 0 ", v->start, v->end,
			   v->prot & PROT_READ ? 'r' : '-', v->prot & PROT_WRITE ? 'w' : '-',
			   v->prot & PROT_EXEC ? 'x' : '-', v->flags & VMA_SHARED ? 's' : 'p');

	if (name)
		len += snprintf(buf + len, n - (size_t)len, "%*s %s", len < 48 ? 48 - len : 0, "",
				name);
	len += snprintf(buf + len, n - (size_t)len, "\n");
	return len;
}

struct initrd_file *proc_pid_maps(int pid, int tid, long *err)
{
	struct mm *mm = NULL;
	struct initrd_file *f;
	struct task *t, *th;
	uint32_t flags, count = 0;
	size_t cap, len = 0;
	char *buf;

	flags = spin_lock_irqsave(&tasklist_lock);
	t = proc_find_thread_locked(pid, tid, &mm, &th);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!t) {
		*err = -ENOENT;
		return NULL;
	}
	if (!mm)                        /* a zombie: empty, as on Linux */
		return proc_snapshot("", 0, err);
	/* Count, allocate with the lock dropped, then write what fits: an
	 * area added meanwhile may be left out, as a later read would see. */
	spin_lock(&mm->lock);
	for (struct vma *v = mm->vmas; v; v = v->next)
		count++;
	spin_unlock(&mm->lock);
	cap = (size_t)count * MAPS_LINE + MAPS_LINE;
	if (!(buf = kmalloc(cap))) {
		mm_put(mm);
		*err = -ENOMEM;
		return NULL;
	}
	spin_lock(&mm->lock);
	for (struct vma *v = mm->vmas; v && cap - len > MAPS_LINE; v = v->next)
		len += (size_t)map_line(buf + len, cap - len, v);
	spin_unlock(&mm->lock);
	mm_put(mm);
	f = proc_snapshot(buf, len, err);
	kfree(buf);
	return f;
}
