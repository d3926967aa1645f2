/* kernel/task.c - task structs, kernel stacks and thread ids.
 *
 * Tasks come from an object cache (task_struct_cachep), kernel stacks
 * from the guarded stack area (arch/i386/kstack.h: 8 KiB, 8 KiB aligned,
 * so the thread_info at the bottom is found by masking %esp, with an
 * unmapped page under each). A freed task struct is poisoned (POISON_FREE) and its
 * stack unmapped, so that a use after the free shows. Thread ids are
 * handed out upward from the last one and wrap at PID_MAX, as Linux does,
 * so a just-freed id is not reused at once; pid_table maps an id to its
 * task in one step. */
#include "kernel/task.h"
#include "kernel/sched.h"
#include "kernel/exit.h"
#include "kernel/task_cache.h"
#include "kernel/panic.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/fpu.h"
#include "arch/i386/kstack.h"
#include "arch/i386/process.h"
#include "lib/format.h"
#include "lib/string.h"

#define PID_MAX 32768

/* The slab the task structs come from, named as in Linux 2.5's fork.c and
 * the seed (clone-detached-A1 frees into task_struct_cachep). Not to be
 * confused with task_cache, the seed's per-CPU array of parked tasks
 * (kernel/exit.c). */
struct objcache task_struct_cachep;

struct spinlock tasklist_lock = SPINLOCK_INIT("tasklist");
struct list all_tasks = LIST_INIT(all_tasks);

static struct task *pid_table[PID_MAX];
static int last_tid;
static struct task boot_task;       /* kmain's thread: cpu0's idle task */

/* Every list a task is on starts empty, and it leads its own group. */
static void task_init_links(struct task *t)
{
	list_init(&t->run_link);
	list_init(&t->timer_link);
	list_init(&t->children);
	list_init(&t->sibling);
	list_init(&t->thread_group);
	list_init(&t->all_link);
	waitqueue_init(&t->wait_chldexit, "wait4");
	t->group_leader = t;
}

/* What makes t cpu's idle task, the boot CPU's and each AP's alike:
 * tid 0, never hashed, never exits, runs when nothing else can. */
static void idle_task_setup(struct task *t, int cpu)
{
	linux_task_init(t);             /* an idle task copies nobody */
	snprintf(t->comm, sizeof(t->comm), "idle%d", cpu);
	t->tid = t->tgid = 0;
	t->state = TASK_RUNNING;
	t->exit_signal = -1;
	t->cpu = cpu;
	t->ti->cpu = cpu;
	t->thread.esp0 = (uint32_t)t->ti + KSTACK_SIZE;
}

void task_init(void)
{
	struct task *t = &boot_task;

	objcache_init(&task_struct_cachep, "task", sizeof(struct task), 64);

	/* kmain's own context becomes a task: cpu0's idle task. */
	t->ti = current_thread_info();
	t->ti->task = t;
	task_init_links(t);
	idle_task_setup(t, 0);
}

struct task *idle_task_create(int cpu)
{
	struct task *t = task_alloc();

	if (t)
		idle_task_setup(t, cpu);
	return t;
}

struct task *task_alloc(void)
{
	/* clone-detached-A1: a task parked in this CPU's cache first. */
	struct task *t = task_cache_take();
	struct thread_info *ti;
	union fpu_area *fpu_area = NULL;

	if (t) {
		ti = t->ti;
		fpu_area = fpu_area_take(t);    /* it comes back with the task */
	} else {
		t = objcache_alloc(&task_struct_cachep);
		if (!t)
			return NULL;
		ti = kstack_alloc();
		if (!ti) {
			objcache_free(&task_struct_cachep, t);
			return NULL;
		}
	}
	memset(t, 0, sizeof(*t));
	*ti = (struct thread_info){ .task = t, .magic = THREAD_INFO_MAGIC };
	t->ti = ti;
	fpu_area_give(t, fpu_area);
	task_init_links(t);
	t->cpus_allowed = CPU_MASK_ALL;
	return t;
}

void task_free(struct task *t)
{
	ASSERT(t != current);
	linux_task_free(t);
	if (t->ti->magic != THREAD_INFO_MAGIC)
		panic("task_free: kernel stack of %s (tid %d) overflowed", t->comm, t->tid);
	fpu_release(t);                 /* its FPU area, if it has one */
	kstack_free(t->ti);
	objcache_free(&task_struct_cachep, t);          /* poisons it */
}

void task_poison_parked(struct task *t)
{
	/* From files up to the signal state: the pointers a stale user of
	 * the task would follow (a poisoned one faults at 0x6b6b6b6b).
	 * Until the task has switched away for good the scheduler still
	 * reads the fields above (state, on_cpu, ctx, ti, the run and timer
	 * links), and switch_to reads mm (NULL by now: exit_mm). The signal
	 * sets below are values nobody follows, 200 bytes that a park would
	 * poison for nothing (about 50 instructions of every thread's
	 * create+exit), and task_free hands lx to the layer. */
	ASSERT(t->mm == NULL);
	memset(&t->files, POISON_FREE,
	       __builtin_offsetof(struct task, pending) - __builtin_offsetof(struct task, files));
}

void tasklist_lock_grace(void)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* Allocates a free id and enters t under it; tasklist_lock held. */
static int tid_alloc_locked(struct task *t)
{
	ASSERT(spin_held(&tasklist_lock));
	for (int i = 0; i < PID_MAX - 1; i++) {
		int tid = last_tid + 1 + i;
		if (tid >= PID_MAX)
			tid -= PID_MAX - 1;     /* wrap to 1; 0 is the idle tasks' */
		if (!pid_table[tid]) {
			pid_table[tid] = t;
			last_tid = tid;
			return tid;
		}
	}
	return -EAGAIN;
}

int task_last_tid_locked(void)
{
	ASSERT(spin_held(&tasklist_lock));
	return last_tid;
}

int task_hash(struct task *t)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	int tid = tid_alloc_locked(t);

	if (tid > 0) {
		t->tid = tid;
		list_add_tail(&t->all_link, &all_tasks);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return tid;
}

void task_unhash_locked(struct task *t)
{
	ASSERT(spin_held(&tasklist_lock));
	if (t->tid > 0 && pid_table[t->tid] == t)
		pid_table[t->tid] = NULL;
	list_del(&t->all_link);
}

void task_change_tid_locked(struct task *t, int tid)
{
	ASSERT(spin_held(&tasklist_lock));
	ASSERT(tid > 0 && tid < PID_MAX);
	if (t->tid > 0 && pid_table[t->tid] == t)
		pid_table[t->tid] = NULL;
	t->tid = tid;
	pid_table[tid] = t;
}

struct task *task_find(int tid)
{
	ASSERT(spin_held(&tasklist_lock));
	if (tid <= 0 || tid >= PID_MAX)
		return NULL;
	return pid_table[tid];
}

struct task *kthread_create(const char *name, void (*fn)(void *), void *arg)
{
	struct task *t = task_alloc();

	if (!t)
		return NULL;
	linux_task_init(t);             /* a kernel thread copies nobody */
	strlcpy(t->comm, name, sizeof(t->comm));
	t->exit_signal = -1;            /* nobody waits for kernel threads */
	if (task_hash(t) < 0) {
		task_free(t);
		return NULL;
	}
	t->tgid = t->tid;
	t->cpu = current->cpu;
	copy_kthread(t, fn, arg);
	sched_add(t);
	return t;
}
