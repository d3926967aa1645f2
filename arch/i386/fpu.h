/* arch/i386/fpu.h - each task's x87/MMX/SSE registers (abi.md section 10).
 *
 * The kernel itself never computes in floating point (it is built with
 * -mno-80387 -mno-sse), so the FPU registers always belong to a user task;
 * the kernel only saves them, restores them and, for a fault or a signal,
 * reads the saved copy. Everything about CR0.TS, CR4.OSFXSR, fxsave and
 * fnsave is in arch/i386/fpu*.c; the rest of the kernel calls the
 * functions below.
 *
 * Where a task's state is:
 *   - t->thread.fpu.area: a 512-byte fxsave image (SDM Vol. 1 10.5.1,
 *     Table 10-2), 16-byte aligned, from fpu_cache, allocated the first
 *     time the task executes an FPU instruction (a task that never does
 *     costs nothing). On a CPU without FXSR it holds the 108-byte fnsave
 *     image instead (SDM Vol. 1 8.1.10, Figure 8-9).
 *   - t->thread.fpu.used: the area holds the task's state (Linux's
 *     used_math()). False: the task has no state yet, or it was reset
 *     (execve, a signal handler's start): its next FPU instruction starts
 *     from fninit's state with MXCSR 0x1f80.
 *   - t->thread.fpu.live: the registers of the CPU t runs on hold t's
 *     state, newer than the area (Linux 2.5's TS_USEDFPU); CR0.TS is then
 *     clear. Only ever true for the running task.
 *   - t->thread.fpu.last_cpu, and that CPU's cpu->fpu_owner: when
 *     owner == t and last_cpu == that CPU, its registers still hold an
 *     exact copy of t's area, so switching t in again needs no restore
 *     (Linux 3.x's fpu_lazy_restore). last_cpu is -1 whenever the area
 *     changed behind the registers' back (fork's copy, execve, a signal
 *     frame), and moves to the new CPU on every restore: a task that ran
 *     on CPU 1 meanwhile is never given CPU 0's older copy.
 *
 * Switching: in both modes a task that has never used the FPU runs with
 * CR0.TS set, and its first FPU instruction raises #NM. In eager mode
 * (the default) a task that has state gets it back in switch_to; in lazy
 * mode (fpu=lazy on the command line) every task starts its time slice
 * with CR0.TS set and gets it back at its first FPU instruction (#NM), as
 * in Linux 2.5. docs/switch.md compares the two with make bench. */
#ifndef ARCH_I386_FPU_H
#define ARCH_I386_FPU_H

#include "lib/types.h"

struct task;
struct trapframe;

union fpu_area;

struct fpu {
	union fpu_area *area;   /* NULL until the first FPU instruction */
	int last_cpu;           /* CPU whose registers hold a copy, or -1 */
	bool used;              /* area holds the state (else: fninit's) */
	bool live;              /* this CPU's registers are newer than area */
};

/* The fxsave image (SDM Vol. 1 Table 10-2), and the fields the kernel
 * reads or checks in it. */
#define FXSAVE_SIZE      512
#define FXSAVE_FCW       0      /* x87 control word */
#define FXSAVE_FSW       2      /* x87 status word */
#define FXSAVE_FTW       4      /* abridged tag: 1 bit a register */
#define FXSAVE_MXCSR     24
#define FXSAVE_MXCSR_MASK 28
#define FXSAVE_ST0       32     /* st(i) at 32 + 16 i, 10 bytes used */
#define FXSAVE_XMM0      160    /* xmm(i) at 160 + 16 i */
/* The fnsave image (SDM Vol. 1 Figure 8-9, 32-bit protected mode). */
#define FNSAVE_SIZE      108
#define FNSAVE_CWD       0
#define FNSAVE_SWD       4
#define FNSAVE_ST0       28     /* st(i) at 28 + 10 i */

#define FPU_INIT_FCW     0x037f /* fninit: all exceptions masked, 64-bit precision */
#define FPU_INIT_MXCSR   0x1f80 /* all SIMD exceptions masked, round to nearest */

/* Set up once on the boot CPU before any task runs: features (CPUID),
 * fpu_cache, the switching mode (eager unless lazy is true). */
void fpu_init(bool lazy);
/* CR0.MP/NE/EM and CR4.OSFXSR/OSXMMEXCPT on the calling CPU (every CPU,
 * boot and AP, before it runs a user task); leaves CR0.TS set. */
void fpu_init_cpu(void);
bool fpu_is_lazy(void);

/* switch_to's part: saves prev's registers if it used them, and in eager
 * mode gives next its own. Interrupts off. */
void fpu_switch(struct task *prev, struct task *next);

/* #NM from user mode: the current task's first FPU instruction since
 * it was switched in (lazy) or ever (both modes). */
void fpu_device_not_available(struct trapframe *tf);
/* #MF or #XM (trapno) from user mode: Linux's FPE_FLT* si_code for the
 * current task's unmasked exception, decoded from its saved status word
 * or MXCSR (Linux's fpu__exception_code), or 0 for a spurious one. */
int fpu_exception_code(int trapno);

/* clone/fork: child gets a copy of parent's state (parent is current).
 * 0, or -ENOMEM. child->thread was copied from parent's: this replaces
 * its fpu. */
int fpu_copy(struct task *child, struct task *parent);
/* execve: current's next FPU instruction starts from fninit's state. */
void fpu_exec_reset(void);
/* exit: the registers are nobody's now; the area stays with the task,
 * as Linux's state lives inside its task_struct: a task parked in the
 * task cache (kernel/task_cache.c) hands it on to the next clone
 * (fpu_area_take/give), so that a thread that comes and goes does not
 * allocate and free 512 bytes each time. */
void fpu_exit(struct task *t);
/* A task struct freed: the area goes back to fpu_cache. */
void fpu_release(struct task *t);
/* task_alloc reusing a parked task: its area (or NULL), taken before
 * the struct is cleared and given back after; fpu_copy fills it when
 * the parent has FPU state and frees it otherwise (copy_kthread too). */
union fpu_area *fpu_area_take(struct task *t);
void fpu_area_give(struct task *t, union fpu_area *area);

/* Bytes of user stack fpu_save_sigframe needs below sp (0: no state),
 * and where the _fpstate it writes starts (sigcontext.fpstate). */
uint32_t fpu_sigframe_alloc(uint32_t sp, uint32_t *fpstate);
/* Writes current's state as Linux i386's struct _fpstate at fpstate
 * (from fpu_sigframe_alloc) and gives current a fresh state for the
 * handler. 0, or -EFAULT (state untouched). */
int fpu_save_sigframe(uint32_t fpstate);
/* rt_sigreturn: current's state from the _fpstate at fpstate (0: no
 * state, back to fninit's), sanitised so that no value can fault the
 * kernel's restore. 0, or -EFAULT. */
int fpu_restore_sigframe(uint32_t fpstate);

/* For tests (/proc/kstat, ktest): #NM traps and restores since boot. */
struct fpu_stats {
	uint64_t nm_traps;      /* #NM handled */
	uint64_t restores;      /* fxrstor/frstor executed */
	uint64_t saves;         /* fxsave/fnsave executed */
	uint64_t lazy_hits;     /* restores skipped: the registers still held it */
};
void fpu_get_stats(struct fpu_stats *s);

#endif
