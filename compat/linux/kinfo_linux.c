/* compat/linux/kinfo_linux.c - the system-wide /proc files Linux programs read,
 * in Linux's layout (proc(5); Linux's fs/proc/meminfo.c, uptime.c,
 * loadavg.c, stat.c and the mount table): busybox's free, uptime, top
 * and df, and the memory checks of Linux's own tests. Every figure is
 * one Spindle keeps; what Spindle does not have (swap, buffers, nice,
 * I/O wait, interrupts by line) is 0, as on a Linux without it. */
#include "compat/linux/layer.h"
#include "kernel/kinfo.h"
#include "kernel/clock.h"
#include "compat/linux/cputime.h"
#include "compat/linux/loadavg.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "kernel/time.h"
#include "compat/linux/fs/vfs.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/cpu.h"
#include "arch/i386/kstack.h"
#include "lib/string.h"

#define KB_PER_FRAME 4

static void meminfo_line(struct kbuf *b, const char *name, uint64_t kb)
{
	kb_printf(b, "%-15s %8llu kB\n", name, (unsigned long long)kb);
}

/* MemTotal is what the frame allocator had at boot (the kernel image
 * and its tables excluded, as Linux's totalram). Files live in memory:
 * Cached, and not available, since ramfs cannot drop a page. Slab is
 * every object cache's pages and the kernel stacks. */
static void gen_meminfo(struct kbuf *b)
{
	uint64_t slab = 0, free = (uint64_t)pmm_free_frames() * KB_PER_FRAME;

	for (struct objcache *c = kmem_caches(); c; c = c->next)
		slab += (uint64_t)(c->nr_slabs << c->order) * KB_PER_FRAME;
	meminfo_line(b, "MemTotal:", (uint64_t)pmm_total_frames() * KB_PER_FRAME);
	meminfo_line(b, "MemFree:", free);
	meminfo_line(b, "MemAvailable:", free);
	meminfo_line(b, "Buffers:", 0);
	meminfo_line(b, "Cached:", (uint64_t)ramfs_data_pages() * KB_PER_FRAME);
	meminfo_line(b, "SwapCached:", 0);
	meminfo_line(b, "SwapTotal:", 0);
	meminfo_line(b, "SwapFree:", 0);
	meminfo_line(b, "Shmem:", 0);
	meminfo_line(b, "Slab:", slab);
	meminfo_line(b, "SReclaimable:", 0);
	meminfo_line(b, "SUnreclaim:", slab);
	meminfo_line(b, "KernelStack:", (uint64_t)kstack_inuse() * 2 * KB_PER_FRAME);
}

/* Seconds since boot, and the CPUs' idle seconds added up (so more than
 * the first on an idle SMP machine, as on Linux). */
static void gen_uptime(struct kbuf *b)
{
	uint64_t up = clock_ns() / 10000000ull, idle = 0;     /* hundredths */

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		idle += cputime_cpu_usage(cpu, CPU_IDLE);     /* USER_HZ = 100 */
	kb_printf(b, "%llu.%02llu %llu.%02llu\n", (unsigned long long)(up / 100),
		  (unsigned long long)(up % 100), (unsigned long long)(idle / 100),
		  (unsigned long long)(idle % 100));
}

/* Tasks running or runnable, and all tasks (idle tasks not counted). */
static void count_tasks_by_state(int *running, int *total, int *blocked, int *last)
{
	struct list *pos;
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	*running = *total = *blocked = 0;
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t->tid == 0 || t->state == TASK_DEAD)
			continue;
		(*total)++;
		if (t->state == TASK_RUNNING)
			(*running)++;
		else if (t->state == TASK_UNINTERRUPTIBLE)
			(*blocked)++;
	}
	*last = task_last_tid_locked();
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* "0.52 0.21 0.08 2/41 1234": the averages (compat/linux/loadavg.c) rounded
 * to hundredths as Linux's, runnable/all tasks, the newest id. */
static void gen_loadavg(struct kbuf *b)
{
	unsigned long avg[3];
	int running, total, blocked, last;

	loadavg_get(avg);
	count_tasks_by_state(&running, &total, &blocked, &last);
	for (int i = 0; i < 3; i++) {
		unsigned long x = avg[i] + FIXED_1 / 200;
		kb_printf(b, "%lu.%02lu ", x >> FSHIFT, ((x & (FIXED_1 - 1)) * 100) >> FSHIFT);
	}
	kb_printf(b, "%d/%d %d\n", running, total, last);
}

/* The cpu lines: user nice system idle iowait irq softirq steal guest
 * guest_nice, in clock_t units; Spindle counts the first, third and
 * fourth. Then the context switches, the boot time and the tasks. */
static void gen_stat(struct kbuf *b)
{
	uint64_t sum[CPU_USAGE_KINDS] = { 0 }, ctxt = 0;
	uint32_t online = sched_online_mask();
	int running, total, blocked, last;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		for (int k = 0; k < CPU_USAGE_KINDS; k++)
			sum[k] += cputime_cpu_usage(cpu, (enum cpu_usage_kind)k);
	kb_printf(b, "cpu  %llu 0 %llu %llu 0 0 0 0 0 0\n", (unsigned long long)sum[CPU_USER],
		  (unsigned long long)sum[CPU_SYSTEM], (unsigned long long)sum[CPU_IDLE]);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!(online & (1u << cpu)))
			continue;
		kb_printf(b, "cpu%d %llu 0 %llu %llu 0 0 0 0 0 0\n", cpu,
			  (unsigned long long)cputime_cpu_usage(cpu, CPU_USER),
			  (unsigned long long)cputime_cpu_usage(cpu, CPU_SYSTEM),
			  (unsigned long long)cputime_cpu_usage(cpu, CPU_IDLE));
		ctxt += sched_switches(cpu);
	}
	count_tasks_by_state(&running, &total, &blocked, &last);
	kb_printf(b, "ctxt %llu\n", (unsigned long long)ctxt);
	kb_printf(b, "btime %llu\n",
		  (unsigned long long)((realtime_ns() - clock_ns()) / NSEC_PER_SEC));
	kb_printf(b, "procs_running %d\n", running);
	kb_printf(b, "procs_blocked %d\n", blocked);
}

/* The root file system (the initrd unpacked into ramfs, which Linux
 * calls rootfs) and /proc: device, mount point, type, options. */
static void gen_mounts(struct kbuf *b)
{
	kb_printf(b, "rootfs / rootfs rw 0 0\n");
	kb_printf(b, "proc /proc proc rw 0 0\n");
}

/* ---- the hooks kernel/kinfo.c calls (kernel/linux_hooks.h) ---- */

void linux_kstat(struct kbuf *b)
{
	kb_printf(b, "fs_pages %u\n", ramfs_data_pages());
}

void (*linux_kinfo_gen(const char *path))(struct kbuf *b)
{
	static const struct {
		const char *path;
		void (*gen)(struct kbuf *);
	} files[] = {
		{ "/proc/meminfo", gen_meminfo }, { "/proc/uptime", gen_uptime },
		{ "/proc/loadavg", gen_loadavg }, { "/proc/stat", gen_stat },
		{ "/proc/mounts", gen_mounts },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (strcmp(path, files[i].path) == 0)
			return files[i].gen;
	return NULL;
}
