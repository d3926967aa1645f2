/* kernel/kinfo.c - /proc/kstat and /proc/tasks, and the snapshots of
 * every text file of /proc (kinfo.h). */
#include "kernel/kinfo.h"
#include "arch/i386/cpu.h"
#include "kernel/exit.h"
#include "kernel/task_cache.h"
#include "kernel/task.h"
#include "kernel/trace.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/oom.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/process.h"
#include "kernel/mm/vm.h"
#include "arch/i386/fpu.h"
#include "arch/i386/kstack.h"
#include "lib/format.h"
#include "lib/string.h"

#define KINFO_MAX (64 * 1024)

/* Where every snapshot is first written (kinfo_open), under its lock. */
static char scratch[KINFO_MAX];
static struct spinlock scratch_lock = SPINLOCK_INIT("kinfo scratch");

void kb_printf(struct kbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= KINFO_MAX - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, KINFO_MAX - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n < KINFO_MAX - b->len ? (size_t)n : KINFO_MAX - 1 - b->len;
}

static int count_tasks(void)
{
	struct list *pos;
	int n = 0;

	list_for_each(pos, &all_tasks)
		n++;
	return n;
}

static void gen_kstat(struct kbuf *b)
{
	struct task_cache_stats tc;
	struct fpu_stats fs;
	uint32_t flags;
	int ntasks;

	task_cache_stats(&tc);
	flags = spin_lock_irqsave(&tasklist_lock);
	ntasks = count_tasks();
	spin_unlock_irqrestore(&tasklist_lock, flags);
	kb_printf(b, "frames_free %u\n", pmm_free_frames());
	kb_printf(b, "frames_total %u\n", pmm_total_frames());
	kb_printf(b, "task_cache_parked %llu\n", (unsigned long long)tc.parked);
	kb_printf(b, "task_cache_freed %llu\n", (unsigned long long)tc.freed);
	kb_printf(b, "task_cache_reused %llu\n", (unsigned long long)tc.reused);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		task_cache_stats_cpu(cpu, &tc);
		if (tc.parked || tc.reused)
			kb_printf(b, "task_cache_cpu %d parked %llu freed %llu reused %llu\n", cpu,
				  (unsigned long long)tc.parked, (unsigned long long)tc.freed,
				  (unsigned long long)tc.reused);
	}
	kb_printf(b, "tasks %d\n", ntasks);
	kb_printf(b, "trace_events %llu\n", (unsigned long long)trace_recorded());
	kb_printf(b, "trace_dropped %llu\n", (unsigned long long)trace_dropped());
	kb_printf(b, "self_rss_pages %u\n", current->mm ? current->mm->rss_pages : 0);
	linux_kstat(b);                 /* fs_pages: the RAM file system */
	kb_printf(b, "kmalloc_large_pages %u\n", kmalloc_large_pages());
	fpu_get_stats(&fs);
	kb_printf(b, "fpu_mode %s\n", fpu_is_lazy() ? "lazy" : "eager");
	kb_printf(b, "fpu_nm_traps %llu\n", (unsigned long long)fs.nm_traps);
	kb_printf(b, "fpu_restores %llu\n", (unsigned long long)fs.restores);
	kb_printf(b, "fpu_saves %llu\n", (unsigned long long)fs.saves);
	kb_printf(b, "fpu_lazy_hits %llu\n", (unsigned long long)fs.lazy_hits);
	/* pages: the frames the cache's slabs hold. The same objects may
	 * sit in more or fewer slabs after some churn; what a workload must
	 * give back exactly is the objects, and frames_free plus every
	 * cache's pages (docs/reliability.md section 6). */
	for (struct objcache *c = kmem_caches(); c; c = c->next)
		kb_printf(b, "cache %s inuse %u slabs %u pages %u\n", c->name, c->nr_inuse,
			  c->nr_slabs, c->nr_slabs << c->order);
	/* Kernel stacks are not an object cache (arch/i386/kstack.h), but
	 * read as one: a stack and its two frames, one "slab" each. */
	kb_printf(b, "cache kstack inuse %u slabs %u pages %u\n", kstack_inuse(), kstack_inuse(),
		  2 * kstack_inuse());
}

static const char *state_name(enum task_state s)
{
	switch (s) {
	case TASK_RUNNING: return "R";
	case TASK_INTERRUPTIBLE: return "S";
	case TASK_UNINTERRUPTIBLE: return "D";
	case TASK_ZOMBIE: return "Z";
	case TASK_STOPPED: return "T";
	default: return "X";
	}
}

static void gen_tasks(struct kbuf *b)
{
	struct list *pos;
	uint32_t flags;

	kb_printf(b, "TID TGID PPID STATE CPU EXITSIG COMM TLS6 TLS7 TLS8 PERS\n");
	flags = spin_lock_irqsave(&tasklist_lock);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		kb_printf(b, "%d %d %d %s %d %d %s 0x%08x 0x%08x 0x%08x %s\n", t->tid, t->tgid,
			  t->parent ? t->parent->tgid : 0, state_name(t->state), t->cpu,
			  t->exit_signal, t->comm, tls_slot_base(&t->thread, 0),
			  tls_slot_base(&t->thread, 1), tls_slot_base(&t->thread, 2), linux_personality(t) ? "linux" : "seed");
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

static void gen_files(struct kbuf *b)
{
	for (int i = 0; i < initrd_count(); i++)
		kb_printf(b, "%u %s\n", initrd_file(i)->size, initrd_file(i)->path);
}

bool kinfo_is_proc_path(const char *path)
{
	return strncmp(path, "/proc/", 6) == 0;
}

struct initrd_file *kinfo_open(const char *path, long *err)
{
	void (*gen)(struct kbuf *);
	struct initrd_file *f;
	struct kbuf b = { NULL, 0 };

	if (strcmp(path, "/proc/kstat") == 0)
		gen = gen_kstat;
	else if (strcmp(path, "/proc/tasks") == 0)
		gen = gen_tasks;
	else if (strcmp(path, "/proc/files") == 0)
		gen = gen_files;
	else if (!(gen = linux_kinfo_gen(path))) {   /* Linux's own files */
		*err = -ENOENT;
		return NULL;
	}
	/* The snapshot is written into one static scratch buffer and then
	 * copied into an allocation of its own size (a few hundred bytes for
	 * kstat), not into 64 KiB allocated per open: the tool that looks at
	 * an out-of-memory situation must work during one. Allocations that
	 * still find no page go through the out-of-memory policy. */
	while (!(f = kzalloc(sizeof(*f))) && out_of_memory())
		;
	while (f) {
		uint32_t flags = spin_lock_irqsave(&scratch_lock);
		b = (struct kbuf){ scratch, 0 };
		gen(&b);
		if ((f->data = kmalloc(b.len + 1)))
			memcpy((void *)f->data, scratch, b.len);
		spin_unlock_irqrestore(&scratch_lock, flags);
		if (f->data || !out_of_memory())
			break;
	}
	if (!f || !f->data) {
		kfree(f);
		*err = -ENOMEM;
		return NULL;
	}
	strlcpy(f->path, path, sizeof(f->path));
	f->size = (uint32_t)b.len;
	return f;
}

void kinfo_release(struct initrd_file *f)
{
	kfree((void *)f->data);
	kfree(f);
}
