/* compat/linux/fs/proc.c - /proc as directories (abi.md section 9):
 *
 *   /proc/self        a symbolic link to /proc/<the caller's pid>
 *   /proc/thread-self a symbolic link to <pid>/task/<tid>, the caller's
 *   /proc/<pid>/      one directory per process (thread group)
 *   /proc/<pid>/task/<tid>/   one per thread of it, with the same files
 *                     (but task): stat and status then show the
 *                     thread's own id, name, state, CPU, times and
 *                     signals; cmdline, maps and exe are the process's
 *   /proc/<pid>/exe   a link to the program execve ran: readlink gives
 *                     the path it was run by; opening or executing it
 *                     reaches the file itself, even renamed or unlinked
 *                     (Linux's "magic link": busybox re-executes itself
 *                     through it)
 *   /proc/<pid>/stat, /proc/<pid>/cmdline   what ps reads, as Linux
 *                     writes them (compat/linux/fs/proc_pid.c)
 *   /proc/<pid>/status, /proc/<pid>/maps   the same for Linux's status
 *                     and the address space's areas (proc_status.c)
 *   /proc/kstat, /proc/tasks   the kernel's counters and task list, made
 *                     by kernel/kinfo.c
 *   /proc/meminfo, uptime, loadavg, stat, mounts   Linux's, for free,
 *                     uptime, top, df and friends (kernel/kinfo.c too)
 * Each file's text is made at open and again by a read from offset 0
 * (struct proc_text below), as Linux's seq_file.
 *
 * Nothing here is stored: each lookup makes a fresh inode for what it
 * finds, and the inode is freed with its last reference. Directory
 * positions are fixed: ".", "..", the files of fixed[], then the
 * processes by pid (PID_POS + pid), so a listing survives processes
 * coming and going. */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "kernel/kinfo.h"
#include "kernel/mutex.h"
#include "kernel/panic.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "lib/format.h"
#include "lib/string.h"

enum proc_kind { P_ROOT, P_SELF, P_THREAD_SELF, P_KSTAT, P_TASKS, P_MEMINFO, P_UPTIME,
		 P_LOADAVG, P_SYSSTAT, P_MOUNTS, P_PIDDIR, P_EXE, P_STAT, P_CMDLINE, P_STATUS,
		 P_MAPS, P_TASKDIR, P_TIDDIR, P_NKINDS };
#define P_LAST_FIXED P_MOUNTS   /* the root's files are P_SELF .. P_LAST_FIXED */

#define PID_POS 16              /* readdir position of pid 0 */
_Static_assert(PID_POS > P_LAST_FIXED + 1, "the root's files come before the pids");
/* A thread's files are numbered by its tid, a process's by its pid. */
#define PROC_INO(id, kind) (0x1000u + (uint32_t)(id) * 32u + (uint32_t)(kind))
_Static_assert(P_NKINDS <= 32, "PROC_INO gives each id 32 inode numbers");

static const struct inode_ops root_iops, pid_iops, task_iops, self_iops, thread_self_iops,
	exe_iops, file_iops;
static const struct file_ops kinfo_fops, pidfile_fops;

/* The entries of a /proc/<pid> directory, in readdir order; a thread's
 * /proc/<pid>/task/<tid> has all but the last. */
static const struct {
	const char *name;
	enum proc_kind kind;
} pid_entries[] = { { "exe", P_EXE }, { "stat", P_STAT }, { "cmdline", P_CMDLINE },
		    { "status", P_STATUS }, { "maps", P_MAPS }, { "task", P_TASKDIR } };
#define NR_PID_ENTRIES (sizeof(pid_entries) / sizeof(pid_entries[0]))

/* How many of them directory dir has. */
static unsigned nr_entries(const struct inode *dir)
{
	return dir->u.proc.kind == P_TIDDIR ? NR_PID_ENTRIES - 1 : NR_PID_ENTRIES;
}

static const struct {
	const char *name;
	uint32_t mode;
	const struct inode_ops *iop;
	const char *kinfo_path;     /* kinfo_open's name */
} fixed[] = {
	[P_SELF] = { "self", S_IFLNK | 0777, &self_iops, NULL },
	[P_THREAD_SELF] = { "thread-self", S_IFLNK | 0777, &thread_self_iops, NULL },
	[P_KSTAT] = { "kstat", S_IFREG | 0444, &file_iops, "/proc/kstat" },
	[P_TASKS] = { "tasks", S_IFREG | 0444, &file_iops, "/proc/tasks" },
	[P_MEMINFO] = { "meminfo", S_IFREG | 0444, &file_iops, "/proc/meminfo" },
	[P_UPTIME] = { "uptime", S_IFREG | 0444, &file_iops, "/proc/uptime" },
	[P_LOADAVG] = { "loadavg", S_IFREG | 0444, &file_iops, "/proc/loadavg" },
	[P_SYSSTAT] = { "stat", S_IFREG | 0444, &file_iops, "/proc/stat" },
	[P_MOUNTS] = { "mounts", S_IFREG | 0444, &file_iops, "/proc/mounts" },
};

/* A process with this pid (its leader, zombie or not), under
 * tasklist_lock. */
static struct task *find_process(int pid)
{
	struct task *t = pid > 0 ? task_find(pid) : NULL;

	return t && t->tgid == pid && t->group_leader == t && t->state != TASK_DEAD ? t : NULL;
}

static bool process_exists(int pid)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	bool yes = find_process(pid) != NULL;

	spin_unlock_irqrestore(&tasklist_lock, flags);
	return yes;
}

/* An inode of process pid's (0: none), or of its thread tid's (0: the
 * process's own). */
static struct inode *proc_inode(enum proc_kind kind, int pid, int tid, uint32_t mode,
				const struct inode_ops *iop, const struct file_ops *fop)
{
	struct inode *i = inode_new(DEV_PROC, mode, iop, fop);

	if (i) {
		i->ino = PROC_INO(tid ? tid : pid, kind);
		i->nlink = S_ISDIR(mode) ? 2 : 1;
		i->u.proc.pid = pid;
		i->u.proc.kind = kind;
		i->u.proc.tid = tid;
	}
	return i;
}

static bool parse_pid(const char *name, size_t len, int *pid)
{
	int v = 0;

	if (len == 0 || len > 9 || name[0] == '0')
		return false;
	for (size_t k = 0; k < len; k++) {
		if (name[k] < '0' || name[k] > '9')
			return false;
		v = v * 10 + (name[k] - '0');
	}
	*pid = v;
	return true;
}

/* A directory below the root: a process's /proc/<pid> (P_PIDDIR), its
 * task directory (P_TASKDIR) or a thread's /proc/<pid>/task/<tid>
 * (P_TIDDIR, the same operations as a process's). It holds its parent,
 * and has its own entry for getcwd (freed with it: dir_evict). */
static struct inode *proc_dir(struct inode *parent, enum proc_kind kind, int pid, int tid,
			      long *err)
{
	struct inode *d = proc_inode(kind, pid, tid, S_IFDIR | 0555,
				     kind == P_TASKDIR ? &task_iops : &pid_iops, &dir_fops);
	struct dir_entry *e = kzalloc(sizeof(*e) + 12);

	if (!d || !e) {
		kfree(e);
		if (d)
			inode_put(d);
		*err = -ENOMEM;
		return NULL;
	}
	if (kind == P_TASKDIR)
		e->len = (uint16_t)snprintf(e->name, 12, "task");
	else
		e->len = (uint16_t)snprintf(e->name, 12, "%d", tid ? tid : pid);
	e->inode = d;
	d->self = e;
	d->parent = parent;
	inode_get(parent);
	return d;
}

static struct inode *root_lookup(struct inode *root, const char *name, size_t len, long *err)
{
	struct inode *i = NULL;
	int pid;

	for (int k = P_SELF; k <= P_LAST_FIXED; k++)
		if (strlen(fixed[k].name) == len && memcmp(fixed[k].name, name, len) == 0) {
			i = proc_inode((enum proc_kind)k, 0, 0, fixed[k].mode, fixed[k].iop,
				       S_ISREG(fixed[k].mode) ? &kinfo_fops : NULL);
			if (!i)
				*err = -ENOMEM;
			return i;
		}
	if (parse_pid(name, len, &pid) && process_exists(pid))
		return proc_dir(root, P_PIDDIR, pid, 0, err);
	*err = -ENOENT;
	return NULL;
}

/* The smallest pid >= from that is a process, or -1. */
static int next_process(int from)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct list *pos;
	int best = -1;

	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t->group_leader == t && t->tgid >= from && t->tgid > 0 &&
		    t->state != TASK_DEAD && (best < 0 || t->tgid < best))
			best = t->tgid;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return best;
}

static bool emit_dots(struct inode *dir, uint64_t *pos, readdir_fn fn, void *ctx)
{
	while (*pos < 2) {
		uint32_t ino = *pos == 0 ? dir->ino : dir->parent->ino;
		if (!fn(ctx, "..", (size_t)(*pos + 1), ino, DT_DIR, *pos + 1))
			return false;
		(*pos)++;
	}
	return true;
}

static long root_readdir(struct inode *root, uint64_t *pos, readdir_fn fn, void *ctx)
{
	char name[12];
	int pid;

	if (!emit_dots(root, pos, fn, ctx))
		return 0;
	for (; *pos < 2 + P_LAST_FIXED; (*pos)++) {
		int k = (int)*pos - 1;          /* 2 -> P_SELF ... */
		if (!fn(ctx, fixed[k].name, strlen(fixed[k].name), PROC_INO(0, k),
			S_ISLNK(fixed[k].mode) ? DT_LNK : DT_REG, *pos + 1))
			return 0;
	}
	if (*pos < PID_POS)
		*pos = PID_POS;
	while ((pid = next_process((int)(*pos - PID_POS))) > 0) {
		size_t len = (size_t)snprintf(name, sizeof(name), "%d", pid);
		if (!fn(ctx, name, len, PROC_INO(pid, P_PIDDIR), DT_DIR, PID_POS + (uint64_t)pid + 1))
			return 0;
		*pos = PID_POS + (uint64_t)pid + 1;
	}
	return 0;
}

/* In a process's or a thread's directory (dir->u.proc.tid: 0 or the
 * thread), whose files carry the same pid and tid. */
static struct inode *pid_lookup(struct inode *dir, const char *name, size_t len, long *err)
{
	int pid = dir->u.proc.pid, tid = dir->u.proc.tid;
	struct inode *i = NULL;
	unsigned k, n = nr_entries(dir);

	for (k = 0; k < n; k++)
		if (strlen(pid_entries[k].name) == len && memcmp(pid_entries[k].name, name, len) == 0)
			break;
	if (k == n)
		*err = -ENOENT;
	else if (pid_entries[k].kind == P_TASKDIR)
		return proc_dir(dir, P_TASKDIR, pid, 0, err);
	else if (pid_entries[k].kind == P_EXE)
		i = proc_inode(P_EXE, pid, tid, S_IFLNK | 0777, &exe_iops, NULL);
	else
		i = proc_inode(pid_entries[k].kind, pid, tid, S_IFREG | 0444, &file_iops,
			       &pidfile_fops);
	if (k < n && !i)
		*err = -ENOMEM;
	return i;
}

static long pid_readdir(struct inode *dir, uint64_t *pos, readdir_fn fn, void *ctx)
{
	int id = dir->u.proc.tid ? dir->u.proc.tid : dir->u.proc.pid;

	if (!emit_dots(dir, pos, fn, ctx))
		return 0;
	for (; *pos >= 2 && *pos < 2 + nr_entries(dir); (*pos)++) {
		const char *name = pid_entries[*pos - 2].name;
		enum proc_kind kind = pid_entries[*pos - 2].kind;
		if (!fn(ctx, name, strlen(name), PROC_INO(id, kind),
			kind == P_EXE ? DT_LNK : kind == P_TASKDIR ? DT_DIR : DT_REG, *pos + 1))
			return 0;
	}
	return 0;
}

/* Thread tid of process pid, alive or a zombie, under tasklist_lock? */
static bool thread_of_locked(int pid, int tid)
{
	struct task *t = tid > 0 ? task_find(tid) : NULL;

	ASSERT(spin_held(&tasklist_lock));
	return t && t->tgid == pid && t->state != TASK_DEAD && find_process(pid);
}

/* /proc/<pid>/task/<tid>: a thread of that process. */
static struct inode *task_lookup(struct inode *dir, const char *name, size_t len, long *err)
{
	uint32_t flags;
	bool found = false;
	int tid;

	if (parse_pid(name, len, &tid)) {
		flags = spin_lock_irqsave(&tasklist_lock);
		found = thread_of_locked(dir->u.proc.pid, tid);
		spin_unlock_irqrestore(&tasklist_lock, flags);
	}
	if (found)
		return proc_dir(dir, P_TIDDIR, dir->u.proc.pid, tid, err);
	*err = -ENOENT;
	return NULL;
}

/* The smallest tid >= from of a thread of process pid, or -1. */
static int next_thread(int pid, int from)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct task *leader = find_process(pid), *t = leader;
	int best = -1;

	while (t) {
		if (t->tid >= from && t->state != TASK_DEAD && (best < 0 || t->tid < best))
			best = t->tid;
		t = list_entry(t->thread_group.next, struct task, thread_group);
		if (t == leader)
			break;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return best;
}

/* The threads by tid: position 2 + tid, so that a listing survives
 * threads coming and going, as the root's processes do. */
static long task_readdir(struct inode *dir, uint64_t *pos, readdir_fn fn, void *ctx)
{
	char name[12];
	int tid;

	if (!emit_dots(dir, pos, fn, ctx))
		return 0;
	while ((tid = next_thread(dir->u.proc.pid, (int)(*pos - 2))) > 0) {
		size_t len = (size_t)snprintf(name, sizeof(name), "%d", tid);
		if (!fn(ctx, name, len, PROC_INO(tid, P_TIDDIR), DT_DIR, 2 + (uint64_t)tid + 1))
			return 0;
		*pos = 2 + (uint64_t)tid + 1;
	}
	return 0;
}

static void dir_evict(struct inode *dir)
{
	kfree(dir->self);
}

/* A link's text s of len bytes into buf, cut to n as readlink cuts it
 * (no NUL): the bytes given. */
static long link_text(char *buf, size_t n, const char *s, size_t len)
{
	if (len > n)
		len = n;
	memcpy(buf, s, len);
	return (long)len;
}

/* /proc/self: the caller's pid, as text. */
static long self_readlink(struct inode *link, char *buf, size_t n)
{
	char s[12];

	(void)link;
	return link_text(buf, n, s, (size_t)snprintf(s, sizeof(s), "%d", current->tgid));
}

/* /proc/thread-self: "<pid>/task/<tid>", the caller's (Linux 3.17). */
static long thread_self_readlink(struct inode *link, char *buf, size_t n)
{
	char s[32];

	(void)link;
	return link_text(buf, n, s, (size_t)snprintf(s, sizeof(s), "%d/task/%d", current->tgid,
							 current->tid));
}

/* /proc/<pid>/exe: the path, or the inode itself. */
static long exe_readlink(struct inode *link, char *buf, size_t n)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct task *t = find_process(link->u.proc.pid);
	/* Read once: exit may clear it meanwhile; what it points at stays
	 * while we hold the lock (tasklist_lock_grace, kernel/task.h). */
	struct exe_link *exe = t ? __atomic_load_n(&t->lx.exe, __ATOMIC_ACQUIRE) : NULL;
	long len = exe ? link_text(buf, n, exe->path, strlen(exe->path)) : -ENOENT;

	spin_unlock_irqrestore(&tasklist_lock, flags);
	return len;
}

static struct inode *exe_follow(struct inode *link, long *err)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct task *t = find_process(link->u.proc.pid);
	struct exe_link *exe = t ? __atomic_load_n(&t->lx.exe, __ATOMIC_ACQUIRE) : NULL;
	struct inode *i = NULL;

	if (exe) {
		i = exe->inode;
		inode_get(i);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!i)
		*err = -ENOENT;
	return i;
}

/* An open /proc file: its text, made at open and made again by a read
 * from offset 0 after the first, as Linux's seq_file does (seq_read
 * starts over at 0): a program that rereads one open file with pread or
 * lseek sees fresh figures, as top does and Linux's
 * selftests/proc/proc-uptime-001.c (which loops until the uptime it
 * rereads has moved) needs. The lock keeps two readers of one open file
 * from replacing the text under each other: read() holds the file's
 * pos_lock, pread does not. */
struct proc_text {
	struct mutex lock;
	struct initrd_file *snap;   /* the text, under lock */
	bool unread;                /* snap is fresh from open */
};

static struct initrd_file *proc_text_make(const struct inode *i, long *err)
{
	switch (i->u.proc.kind) {
	case P_STAT: return proc_pid_stat(i->u.proc.pid, i->u.proc.tid, err);
	case P_CMDLINE: return proc_pid_cmdline(i->u.proc.pid, i->u.proc.tid, err);
	case P_STATUS: return proc_pid_status(i->u.proc.pid, i->u.proc.tid, err);
	case P_MAPS: return proc_pid_maps(i->u.proc.pid, i->u.proc.tid, err);
	default: return kinfo_open(fixed[i->u.proc.kind].kinfo_path, err);
	}
}

static long proc_text_open(struct file *f)
{
	struct proc_text *pt = kmalloc(sizeof(*pt));
	long err = 0;

	if (!pt)
		return -ENOMEM;
	mutex_init(&pt->lock, "proc_text");
	pt->unread = true;
	if (!(pt->snap = proc_text_make(f->inode, &err))) {
		kfree(pt);
		return err;
	}
	f->private = pt;
	return 0;
}

static void proc_text_release(struct file *f)
{
	struct proc_text *pt = f->private;

	kinfo_release(pt->snap);
	kfree(pt);
}

static long proc_text_read(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	struct proc_text *pt = f->private;
	struct initrd_file *fresh;
	long err = 0, got = 0;

	mutex_lock(&pt->lock);
	if (*pos == 0 && !pt->unread) {
		if (!(fresh = proc_text_make(f->inode, &err))) {
			mutex_unlock(&pt->lock);
			/* The process has gone: -ESRCH, as Linux's
			 * proc_single_show (a lookup would say -ENOENT). */
			return err == -ENOENT ? -ESRCH : err;
		}
		kinfo_release(pt->snap);
		pt->snap = fresh;
	}
	pt->unread = false;
	if (*pos < pt->snap->size && n > 0) {
		if (n > pt->snap->size - *pos)
			n = (size_t)(pt->snap->size - *pos);
		got = (long)iob_put(b, 0, (const char *)pt->snap->data + *pos, n);
		*pos += (uint64_t)got;
		if (!got)
			got = -EFAULT;
	}
	mutex_unlock(&pt->lock);
	return got;
}

/* kstat, tasks and Linux's files of the root: read-only. */
static long kinfo_open_op(struct file *f)
{
	if (f->mode & FMODE_WRITE)
		return -EACCES;
	return proc_text_open(f);
}

static const struct file_ops kinfo_fops = {
	.open = kinfo_open_op,
	.release = proc_text_release,
	.read = proc_text_read,
	.seekable = true,
};

/* /proc/<pid>/stat, cmdline, status and maps. As on Linux, root may open
 * them for writing; a write is -EINVAL (no write op). */
static const struct file_ops pidfile_fops = {
	.open = proc_text_open,
	.release = proc_text_release,
	.read = proc_text_read,
	.seekable = true,
};

static const struct inode_ops root_iops = { .lookup = root_lookup, .readdir = root_readdir };
static const struct inode_ops pid_iops = { .lookup = pid_lookup, .readdir = pid_readdir,
					   .evict = dir_evict };
static const struct inode_ops task_iops = { .lookup = task_lookup, .readdir = task_readdir,
					    .evict = dir_evict };
static const struct inode_ops self_iops = { .readlink = self_readlink };
static const struct inode_ops thread_self_iops = { .readlink = thread_self_readlink };
static const struct inode_ops exe_iops = { .readlink = exe_readlink, .follow = exe_follow };
static const struct inode_ops file_iops = { 0 };

void proc_init(void)
{
	struct inode *root = proc_inode(P_ROOT, 0, 0, S_IFDIR | 0555, &root_iops, &dir_fops);

	if (!root || ramfs_attach(fs_root, "proc", root) < 0)
		panic("proc: no memory");
	root->ino = 1;
	inode_put(root);        /* the root directory's entry holds it */
}
