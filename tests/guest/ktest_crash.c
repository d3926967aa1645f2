/* tests/guest/ktest_crash.c - deliberate kernel faults. Each group boots
 * on its own and must end in a PANIC with a symbolised backtrace that
 * names the test function; tests/run.py checks the shape of that output
 * and QEMU's exit status 255 (power-off status 0x7f). */
#include "tests/guest/ktest.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/mmu.h"
#include "arch/i386/spinlock.h"

/* 0xF8000000 is KERNBASE + 896 MiB: above the direct map, never mapped. */
#define UNMAPPED_KERNEL_ADDR 0xF8000000u

/* noinline keeps each in its own frame so the backtrace has a caller. */
__attribute__((noinline)) static void crash_write_unmapped(void)
{
	*(volatile uint32_t *)UNMAPPED_KERNEL_ADDR = 0x5350494e;
}

KTEST(crash_pf, write_unmapped_kernel_address)
{
	crash_write_unmapped();
	ktest_fail(__FILE__, __LINE__, "the write to %#x did not fault",
		   UNMAPPED_KERNEL_ADDR);
}

__attribute__((noinline)) static void crash_call_panic(int n)
{
	panic("deliberate panic %d from the crash_panic test", n);
}

KTEST(crash_panic, panic_call)
{
	crash_call_panic(42);
}

__attribute__((noinline)) static void crash_invalid_opcode(void)
{
	__asm__ volatile("ud2");
}

KTEST(crash_ud, invalid_opcode)
{
	crash_invalid_opcode();
	ktest_fail(__FILE__, __LINE__, "ud2 did not trap");
}

__attribute__((noinline)) static void crash_null_read(void)
{
	(void)*(volatile uint32_t *)0;
}

KTEST(crash_null, read_address_zero)
{
	crash_null_read();
	ktest_fail(__FILE__, __LINE__, "reading address 0 did not fault");
}

/* A task that sleeps holding a spinlock leaves every other taker
 * spinning: schedule() refuses (kernel/sched.c schedule_checks). */
static struct spinlock crash_lock = SPINLOCK_INIT("crash test");

__attribute__((noinline)) static void crash_schedule_locked(void)
{
	spin_lock(&crash_lock);
	schedule();
	spin_unlock(&crash_lock);
}

KTEST(crash_sleep_spinlock, schedule_with_spinlock_held)
{
	crash_schedule_locked();
	ktest_fail(__FILE__, __LINE__, "schedule() with a spinlock held did not panic");
}

/* A CPU that takes a spinlock it already holds would spin forever:
 * spin_lock, finding the lock busy, sees that its owner is this CPU and
 * panics instead (arch/i386/spinlock.h). Interrupts off, as a real
 * recursive acquire usually is, so no tick can hide the hang. */
__attribute__((noinline)) static void crash_lock_twice(void)
{
	uint32_t flags = spin_lock_irqsave(&crash_lock);

	spin_lock(&crash_lock);
	spin_unlock(&crash_lock);
	spin_unlock_irqrestore(&crash_lock, flags);
}

KTEST(crash_recursive_lock, spin_lock_twice_on_one_cpu)
{
	crash_lock_twice();
	ktest_fail(__FILE__, __LINE__, "taking a held spinlock again did not panic");
}

/* A "tasklist_lock held" comment is an assertion (spin_held): task_find
 * called without the lock must panic, naming the lock and the function,
 * rather than read pid_table while a clone or an exit changes it. */
__attribute__((noinline)) static struct task *crash_find_unlocked(void)
{
	return task_find(1);
}

KTEST(crash_lock_not_held, task_find_without_tasklist_lock)
{
	crash_find_unlocked();
	ktest_fail(__FILE__, __LINE__, "task_find without tasklist_lock did not panic");
}

/* Recursion with 1 KiB frames on a kernel thread's stack (a guarded one:
 * arch/i386/kstack.h) runs into the guard page: the double-fault task
 * reports "kernel stack overflow" with the recursion's backtrace. The
 * thread's stack is not kmain's, so the backtrace names this function,
 * not kmain (run.py's CRASH_IN_KTHREAD). */
__attribute__((noinline)) static int ktest_crash_stack_overflow_recurse(int depth)
{
	volatile char frame[1024];

	frame[0] = (char)depth;
	if (depth > 1000000)            /* never: 8 KiB is some 8 frames */
		return 0;
	return ktest_crash_stack_overflow_recurse(depth + 1) + frame[0];
}

static void ktest_crash_stack_overflow_thread(void *arg)
{
	(void)arg;
	ktest_crash_stack_overflow_recurse(0);
}

KTEST(crash_stack_overflow, recursion_into_the_guard_page)
{
	if (!kthread_create("overflow", ktest_crash_stack_overflow_thread, NULL))
		ktest_fail(__FILE__, __LINE__, "kthread_create failed");
	for (int i = 0; i < 1000; i++)
		schedule();
	ktest_fail(__FILE__, __LINE__, "the recursion did not end in a panic");
}

/* A freed task's kernel stack is unmapped at once (arch/i386/kstack.h):
 * reading its thread_info after task_free is a page fault, not a read
 * of whatever the frame holds now. */
__attribute__((noinline)) static uint32_t crash_read_freed_stack(void)
{
	struct task *t = task_alloc();
	volatile struct thread_info *ti;

	if (!t)
		return 0;
	ti = t->ti;
	task_free(t);
	return ti->magic;
}

KTEST(crash_kstack_use_after_free, read_a_freed_stack)
{
	crash_read_freed_stack();
	ktest_fail(__FILE__, __LINE__, "reading a freed kernel stack did not fault");
}

/* Frees one object of a slab twice, among free neighbours: objcache_free
 * looks for it on the freelist (it is poisoned, so it may be free) and
 * must panic rather than chain it twice. */
__attribute__((noinline)) static void crash_free_twice(void)
{
	static struct objcache cache;
	void *a, *b;

	objcache_init(&cache, "crash test", 64, 8);
	a = objcache_alloc(&cache);
	b = objcache_alloc(&cache);     /* keeps the slab alive after a's frees */
	if (!a || !b)
		return;
	objcache_free(&cache, a);
	objcache_free(&cache, a);
}

KTEST(crash_double_free, free_an_object_twice)
{
	crash_free_twice();
	ktest_fail(__FILE__, __LINE__, "the second free of one object did not panic");
}
