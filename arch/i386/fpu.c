/* arch/i386/fpu.c - per-CPU FPU set-up and per-task FPU state (fpu.h):
 * switching, #NM, fork/exec/exit, and the decoding of #MF/#XM. The signal
 * frame's copy is in fpu_signal.c.
 *
 * The rules every function here keeps, with interrupts off while it
 * touches the registers (a switch in the middle would save half a state):
 *   - CR0.TS is clear on a CPU exactly when its current task is live;
 *     fpu_ts[] mirrors it so that no switch reads CR0.
 *   - Only the save/restore helpers below execute FPU instructions, and
 *     only on a user task's state: the kernel computes nothing in the
 *     FPU (Linux's kernel_fpu_begin exists for that; Spindle has no use). */
#include "arch/i386/fpu.h"
#include "arch/i386/fpu_internal.h"
#include "arch/i386/cpu.h"
#include "arch/i386/irqflags.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/traps.h"
#include "arch/i386/x86.h"
#include "kernel/mm/kmem.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/signal.h"
#include "kernel/task.h"
#include "lib/string.h"

/* CPUID leaf 1 EDX (SDM Vol. 2A, CPUID, Table 3-11). */
#define CPUID_EDX_FPU  (1u << 0)
#define CPUID_EDX_FXSR (1u << 24)
#define CPUID_EDX_SSE  (1u << 25)

bool fpu_fxsr;                          /* fxsave/fxrstor, CR4.OSFXSR */
static bool fpu_sse;                    /* SSE: CR4.OSXMMEXCPT, #XM */
static bool fpu_present;
static bool fpu_lazy;
uint32_t fpu_mxcsr_mask = 0xffbf;       /* SDM Vol. 1 11.6.6: the default */

static struct objcache fpu_cache;

/* The state a task starts from: fninit's (SDM Vol. 1 8.1.10 / Table
 * 8-10: FCW 0x037f, FSW 0, every register empty) with MXCSR 0x1f80
 * (SDM Vol. 1 10.2.3.1). In fnsave form the tag word is 0xffff (all
 * empty); in fxsave's abridged form it is 0. Restoring this image is
 * fninit + ldmxcsr without any instruction beyond the restore. */
static union fpu_area init_area;

/* Per CPU: whose state its registers hold (Linux's fpu_fpregs_owner_ctx),
 * and whether CR0.TS is set. */
static struct task *fpu_owner[NR_CPUS];
static bool fpu_ts[NR_CPUS];

static struct {
	uint64_t nm_traps, restores, saves, lazy_hits;
} stats[NR_CPUS];

static int cpu_id(void)
{
	return current_thread_info()->cpu;
}

/* ---- CR0.TS (SDM Vol. 3A 2.5): set, every x87/MMX/SSE instruction
 * raises #NM; clts clears it without touching the other bits. ---- */
static void ts_set(int cpu)
{
	if (!fpu_ts[cpu]) {
		write_cr0(read_cr0() | CR0_TS);
		fpu_ts[cpu] = true;
	}
}

static void ts_clear(int cpu)
{
	if (fpu_ts[cpu]) {
		clts();
		fpu_ts[cpu] = false;
	}
}

/* ---- the only FPU instructions the kernel executes ---- */

/* The registers into f->area. fxsave leaves them as they were; fnsave
 * reinitialises the FPU (SDM Vol. 2A, FSAVE), so after it this CPU holds
 * nobody's state and f is no longer live. TS must be clear. */
static inline void hw_save(struct task *t, int cpu)
{
	struct fpu *f = &t->thread.fpu;

	ASSERT(irqs_disabled());
	ASSERT(!fpu_ts[cpu] && f->live);
	if (fpu_fxsr) {
		__asm__ volatile("fxsave %0" : "=m"(f->area->fx));
	} else {
		__asm__ volatile("fnsave %0" : "=m"(f->area->fn));
		fpu_owner[cpu] = NULL;
		f->live = false;
		ts_set(cpu);
	}
	stats[cpu].saves++;
}

/* f->area into the registers; TS must be clear. The area never holds an
 * MXCSR with a reserved bit set (fpu_signal.c masks what user space hands
 * back), so fxrstor cannot #GP (SDM Vol. 2A, FXRSTOR). */
static inline void hw_restore(struct task *t, int cpu)
{
	struct fpu *f = &t->thread.fpu;

	ASSERT(irqs_disabled());
	ASSERT(!fpu_ts[cpu]);
	if (fpu_fxsr)
		__asm__ volatile("fxrstor %0" : : "m"(f->area->fx));
	else
		__asm__ volatile("frstor %0" : : "m"(f->area->fn));
	fpu_owner[cpu] = t;
	f->last_cpu = cpu;
	stats[cpu].restores++;
}

/* Gives the running task t its registers: clear TS and restore unless
 * this CPU's registers still hold exactly t's area. The check needs
 * both halves: owner alone would accept a CPU t left before running
 * elsewhere (the stale copy after a migration); last_cpu alone would
 * accept a CPU that another task used since. */
static inline void make_live(struct task *t, int cpu)
{
	struct fpu *f = &t->thread.fpu;

	ts_clear(cpu);
	if (fpu_owner[cpu] == t && f->last_cpu == cpu)
		stats[cpu].lazy_hits++;
	else
		hw_restore(t, cpu);
	f->live = true;
}

void fpu_sync_current(void)
{
	struct task *t = current;

	if (t->thread.fpu.live)
		hw_save(t, cpu_id());
}

void fpu_drop_live_current(void)
{
	struct task *t = current;
	int cpu = cpu_id();

	ASSERT(irqs_disabled());
	if (t->thread.fpu.live) {
		t->thread.fpu.live = false;
		ts_set(cpu);
	}
	/* The area is about to change, or has: no CPU's copy is current. */
	t->thread.fpu.last_cpu = -1;
}

/* ---- set-up ---- */

void fpu_init_cpu(void)
{
	uint32_t edx = cpuid_1_edx();
	uint32_t cr0 = read_cr0(), cr4 = read_cr4();

	/* MP: wait/fwait honours TS too. NE: x87 errors are #MF, not the
	 * PC's FERR# on IRQ 13 (SDM Vol. 3A 2.5, 9.2.2). EM clear: the FPU
	 * is there (else every FPU instruction is #UD or #NM). TS set: the
	 * first FPU instruction of any task traps. */
	cr0 |= CR0_MP | CR0_NE | CR0_TS;
	cr0 &= ~CR0_EM;
	if (!(edx & CPUID_EDX_FPU))
		cr0 = (cr0 | CR0_EM) & ~CR0_MP;
	write_cr0(cr0);
	/* OSFXSR: the OS saves SSE state with fxsave, so SSE instructions
	 * are allowed (else #UD); OSXMMEXCPT: unmasked SIMD exceptions are
	 * #XM, not #UD (SDM Vol. 3A 2.5, 13.1.3). */
	if (edx & CPUID_EDX_FXSR)
		cr4 |= CR4_OSFXSR;
	if (edx & CPUID_EDX_SSE)
		cr4 |= CR4_OSXMMEXCPT;
	write_cr4(cr4);
	fpu_ts[cpu_id()] = true;
}

void fpu_init(bool lazy)
{
	uint32_t edx = cpuid_1_edx();
	/* 16-byte aligned for fxsave (SDM Vol. 2A, FXSAVE: #GP otherwise). */
	static union fpu_area probe __attribute__((aligned(16)));
	int cpu = cpu_id();

	fpu_present = edx & CPUID_EDX_FPU;
	fpu_fxsr = edx & CPUID_EDX_FXSR;
	fpu_sse = fpu_fxsr && (edx & CPUID_EDX_SSE);
	fpu_lazy = lazy;
	objcache_init(&fpu_cache, "fpu", sizeof(union fpu_area), 64);

	if (fpu_fxsr) {
		init_area.fx[FXSAVE_FCW] = FPU_INIT_FCW & 0xff;
		init_area.fx[FXSAVE_FCW + 1] = FPU_INIT_FCW >> 8;
		fx_put32(init_area.fx, FXSAVE_MXCSR, FPU_INIT_MXCSR);
		/* Which MXCSR bits this CPU has: fxsave writes the mask at
		 * byte 28, 0 meaning the default 0xffbf (SDM Vol. 1 11.6.6).
		 * The one FPU instruction outside a task's save/restore: it
		 * reads the CPU's constant mask, no task's state. */
		ts_clear(cpu);
		__asm__ volatile("fxsave %0" : "=m"(probe.fx));
		ts_set(cpu);
		if (fx_get32(probe.fx, FXSAVE_MXCSR_MASK))
			fpu_mxcsr_mask = fx_get32(probe.fx, FXSAVE_MXCSR_MASK);
	} else {
		fx_put32(init_area.fn, FNSAVE_CWD, 0xffff0000u | FPU_INIT_FCW);
		fx_put32(init_area.fn, FNSAVE_SWD, 0xffff0000u);
		fx_put32(init_area.fn, 8, 0xffffffffu);         /* tag: all empty */
	}
	kprintf("fpu: %s%s, %s switching\n",
		!fpu_present ? "none" : fpu_fxsr ? "fxsave" : "fnsave",
		fpu_sse ? " + SSE" : "", lazy ? "lazy" : "eager");
}

bool fpu_is_lazy(void) { return fpu_lazy; }

bool fpu_ensure_area(void)
{
	struct fpu *f = &current->thread.fpu;

	if (!f->area)
		f->area = objcache_alloc(&fpu_cache);
	return f->area != NULL;
}

/* ---- switching ---- */

void fpu_switch(struct task *prev, struct task *next)
{
	int cpu = cpu_id();
	struct fpu *n = &next->thread.fpu;

	ASSERT(irqs_disabled());
	ASSERT(fpu_ts[cpu] == !prev->thread.fpu.live);
	/* Linux 2.5's unlazy_fpu: save only what prev used in this slice. */
	if (prev->thread.fpu.live) {
		hw_save(prev, cpu);
		prev->thread.fpu.live = false;
	}
	if (!fpu_lazy && n->used)
		make_live(next, cpu);
	else
		ts_set(cpu);
}

void fpu_device_not_available(struct trapframe *tf)
{
	struct task *t = current;
	struct fpu *f = &t->thread.fpu;
	int cpu;

	if (!tf_from_user(tf))
		panic("#NM in kernel mode at eip=0x%08x: the kernel used the FPU", tf->eip);
	if (!fpu_present) {
		/* Linux without math emulation: "no coprocessor found". */
		kprintf("pid %d (%s): FPU instruction and no FPU: SIGFPE\n", t->tgid, t->comm);
		force_signal(t, SIGFPE);
		return;
	}
	ASSERT(!f->live);
	if (!f->area) {
		/* The allocation may wait for the frame pool's lock: with
		 * interrupts on, as page_fault does. Not live, so a switch
		 * meanwhile has nothing to save. */
		sti();
		f->area = objcache_alloc(&fpu_cache);
		cli();
		if (!f->area) {
			kprintf("pid %d (%s): no memory for its FPU state: SIGKILL\n",
				t->tgid, t->comm);
			force_signal(t, SIGKILL);
			return;
		}
	}
	if (!f->used) {
		memcpy(f->area, &init_area, sizeof(init_area));
		f->used = true;
		f->last_cpu = -1;
	}
	cpu = cpu_id();
	stats[cpu].nm_traps++;
	make_live(t, cpu);
}

/* Linux's fpu__exception_code (arch/x86/kernel/fpu/core.c): the lowest
 * unmasked exception wins, in this order. For x87 the flags are the
 * status word's, masked by the control word's mask bits (both bits 0-5,
 * SDM Vol. 1 8.1.3, 8.1.5); for SSE MXCSR has the flags in bits 0-5 and
 * the masks in 7-12 (SDM Vol. 1 10.2.3). */
int fpu_exception_code(int trapno)
{
	struct task *t = current;
	struct fpu *f = &t->thread.fpu;
	uint32_t flags = read_eflags(), err;

	cli();
	if (!f->used) {
		if (flags & EFLAGS_IF)
			sti();
		return 0;
	}
	fpu_sync_current();
	if (trapno == T_FPERR) {
		uint16_t cwd, swd;

		if (fpu_fxsr) {
			cwd = (uint16_t)fx_get32(f->area->fx, FXSAVE_FCW);
			swd = (uint16_t)fx_get32(f->area->fx, FXSAVE_FSW);
		} else {
			cwd = (uint16_t)fx_get32(f->area->fn, FNSAVE_CWD);
			swd = (uint16_t)fx_get32(f->area->fn, FNSAVE_SWD);
		}
		err = swd & ~cwd;
	} else {
		uint32_t mxcsr = fpu_fxsr ? fx_get32(f->area->fx, FXSAVE_MXCSR) : 0;

		err = ~(mxcsr >> 7) & mxcsr;
	}
	if (flags & EFLAGS_IF)
		sti();
	if (err & 0x001)                /* invalid operation (and stack fault) */
		return FPE_FLTINV;
	if (err & 0x004)                /* divide by zero */
		return FPE_FLTDIV;
	if (err & 0x008)                /* overflow */
		return FPE_FLTOVF;
	if (err & 0x012)                /* denormal, underflow */
		return FPE_FLTUND;
	if (err & 0x020)                /* precision */
		return FPE_FLTRES;
	return 0;                       /* spurious: Linux ignores it too */
}

/* ---- fork, exec, exit ---- */

int fpu_copy(struct task *child, struct task *parent)
{
	struct fpu *c = &child->thread.fpu, *p = &parent->thread.fpu;
	union fpu_area *area = c->area; /* a recycled task's (fpu_area_give) */
	uint32_t flags;

	ASSERT(parent == current);
	*c = (struct fpu){ .last_cpu = -1 };    /* no CPU holds the child's copy */
	if (!p->used) {
		/* No state to copy: the child gets its area at its first FPU
		 * instruction, as every task does; a recycled one goes. */
		if (area)
			objcache_free(&fpu_cache, area);
		return 0;
	}
	c->area = area;
	if (!c->area && !(c->area = objcache_alloc(&fpu_cache)))
		return -ENOMEM;
	flags = read_eflags();
	cli();
	/* Linux's fpu_clone saves the parent's registers straight into the
	 * child's state: one fxsave instead of one into the parent's area
	 * and a 512-byte copy. fnsave would reinitialise the parent's
	 * registers, so that path saves to the parent's area first. */
	if (p->live && fpu_fxsr) {
		__asm__ volatile("fxsave %0" : "=m"(c->area->fx));
		stats[cpu_id()].saves++;
	} else {
		fpu_sync_current();
		memcpy(c->area, p->area, sizeof(*c->area));
	}
	if (flags & EFLAGS_IF)
		sti();
	c->used = true;
	return 0;
}

void fpu_exec_reset(void)
{
	struct task *t = current;
	uint32_t flags = read_eflags();

	/* Linux's fpu_flush_thread: the area is kept for the new program,
	 * which starts from fninit's state at its first FPU instruction. */
	cli();
	fpu_drop_live_current();
	t->thread.fpu.used = false;
	if (flags & EFLAGS_IF)
		sti();
}

void fpu_exit(struct task *t)
{
	struct fpu *f = &t->thread.fpu;
	uint32_t flags;

	/* No state, nothing live (live implies used: fpu.h), and only t
	 * itself, in user mode, could make it otherwise: most threads never
	 * touch the FPU, and leave here. (Their last_cpu is of no account:
	 * fpu_copy starts the task's next life at -1.) */
	ASSERT(f->used || !f->live);
	if (!f->used)
		return;
	flags = read_eflags();
	cli();
	if (t == current)
		fpu_drop_live_current();
	ASSERT(!f->live);
	f->used = false;
	f->last_cpu = -1;
	if (flags & EFLAGS_IF)
		sti();
}

void fpu_release(struct task *t)
{
	union fpu_area *area;

	fpu_exit(t);
	if ((area = fpu_area_take(t)))
		objcache_free(&fpu_cache, area);
}

union fpu_area *fpu_area_take(struct task *t)
{
	union fpu_area *area = t->thread.fpu.area;

	ASSERT(!t->thread.fpu.live && !t->thread.fpu.used);     /* fpu_exit ran */
	t->thread.fpu.area = NULL;
	return area;
}

void fpu_area_give(struct task *t, union fpu_area *area)
{
	ASSERT(!t->thread.fpu.area);
	t->thread.fpu.area = area;
}

void fpu_get_stats(struct fpu_stats *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < NR_CPUS; i++) {
		s->nm_traps += stats[i].nm_traps;
		s->restores += stats[i].restores;
		s->saves += stats[i].saves;
		s->lazy_hits += stats[i].lazy_hits;
	}
}
