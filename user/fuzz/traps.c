/* user/fuzz/traps.c - what cannot be tried in a worker itself, because
 * it ends or corrupts the task that tries it: privileged and trapping
 * instructions (cli, hlt, in/out, int N, lgdt, mov to %cr0 ...), loads
 * of random segment selectors, far jumps and calls, iret and popf with
 * dangerous flags, system calls with the direction flag set, and
 * rt_sigreturn with garbage frames (kernel selectors, IOPL, VM86, NT,
 * kernel addresses). Each runs in a forked child that the worker waits
 * for (killing it after a while); the child's death is the expected
 * answer. A frame that comes back must come back to ring 3 with IOPL 0,
 * VM 0 and interrupts on: fz_landing checks, and the child's exit
 * status says (the child has unmapped the shared page: a segment with
 * another base could make its stores land there); its worker reports an
 * escalation through the shared page, where the supervisor sees it. */
#include "user/fuzz/calls.h"
#include "signal.h"
#include "string.h"

#define USER_CS 0x23            /* GDT 4, RPL 3 (abi.md section 5) */
#define USER_DS 0x2b            /* GDT 5, RPL 3 */

/* Linux i386's rt_sigframe without FPU state (arch/i386/signal_frame.h). */
struct fz_sigcontext {
	uint16_t gs, __gsh, fs, __fsh, es, __esh, ds, __dsh;
	uint32_t edi, esi, ebp, esp, ebx, edx, ecx, eax;
	uint32_t trapno, err, eip;
	uint16_t cs, __csh;
	uint32_t eflags, esp_at_signal;
	uint16_t ss, __ssh;
	uint32_t fpstate, oldmask, cr2;
};

struct fz_frame {
	uint32_t pretcode, sig, pinfo, puc;
	uint8_t info[128];
	uint32_t uc_flags, uc_link, ss_sp, ss_flags, ss_size;
	struct fz_sigcontext sc;
	uint32_t sigmask[2];
	uint8_t retcode[8];
};
_Static_assert(sizeof(struct fz_sigcontext) == 88, "Linux's struct sigcontext");
_Static_assert(__builtin_offsetof(struct fz_frame, sc) == 164, "uc_mcontext at 164");
_Static_assert(sizeof(struct fz_frame) == 268, "rt_sigframe without FPU state");

/* Where a garbage frame that the kernel accepts resumes: it checks
 * privilege (fz_landing_check) before anything else can go wrong. */
void fz_landing(void);
__attribute__((noreturn, used)) static void fz_landing_check(uint32_t cs, uint32_t eflags);

__asm__(
	"	.text\n"
	"	.globl fz_landing\n"
	"	.type fz_landing, @function\n"
	"fz_landing:\n"
	"	movl %cs, %eax\n"
	"	pushfl\n"
	"	popl %ecx\n"
	"	movl $0x2b, %edx\n"             /* USER_DS: the frame may have left junk */
	"	movl %edx, %ds\n"
	"	movl %edx, %es\n"
	"	andl $-16, %esp\n"
	"	subl $8, %esp\n"
	"	pushl %ecx\n"
	"	pushl %eax\n"
	"	call fz_landing_check\n"
	"	ud2\n"
	"	.size fz_landing, . - fz_landing\n");

#define EFLAGS_IF 0x200
#define EFLAGS_TF 0x100
#define EFLAGS_DF 0x400
#define EFLAGS_IOPL 0x3000
#define EFLAGS_NT 0x4000
#define EFLAGS_AC 0x40000
#define EFLAGS_VM 0x20000

static void fz_landing_check(uint32_t cs, uint32_t eflags)
{
	if ((cs & 3) != 3 || (eflags & (EFLAGS_IOPL | EFLAGS_VM)) || !(eflags & EFLAGS_IF))
		raw_exit_group(FZ_EXIT_ESCALATED);
	raw_exit_group(0);
	__builtin_unreachable();
}

static const uint16_t selectors[] = {
	0x00, 0x03, 0x08, 0x10, 0x18, 0x1b, 0x23, 0x2b, 0x33, 0x3b, 0x43, 0x60, 0x63,
	0x68, 0x6b, 0x70, 0x73, 0x78, 0x7b, 0x80, 0xb8, 0xbb, 0x04, 0x07, 0x0f, 0x17,
	0xfff7, 0xffff, 0x30, 0x3f,
};

static uint16_t fz_selector(struct fz_task *t)
{
	if (fz_chance(t, 25))
		return (uint16_t)fz_rand(t);
	if (fz_chance(t, 20))           /* an LDT selector, RPL 3 */
		return (uint16_t)((fz_below(t, 16) << 3) | 7);
	return selectors[fz_below(t, sizeof(selectors) / sizeof(selectors[0]))];
}

static void garbage_sigreturn(struct fz_task *t)
{
	struct fz_frame *f = (struct fz_frame *)(t->w->arena + 8 * 4096);
	char *stack_top = t->w->arena + 12 * 4096;

	if (fz_chance(t, 10))
		f = (struct fz_frame *)(t->w->half + 4096 - fz_below(t, sizeof(*f)));
	if (fz_chance(t, 15)) {
		fz_fill(t, f, (char *)f >= t->w->half ? (size_t)(t->w->half + 4096 - (char *)f)
						       : sizeof(*f));
	} else {
		memset(f, 0, sizeof(*f));
		f->sc.gs = f->sc.fs = f->sc.es = f->sc.ds = f->sc.ss = USER_DS;
		f->sc.cs = USER_CS;
		f->sc.eip = (uint32_t)fz_landing;
		f->sc.esp = (uint32_t)stack_top;
		f->sc.eflags = 0x202;
		for (int n = 1 + (int)fz_below(t, 4); n > 0; n--) {
			switch (fz_below(t, 12)) {
			case 0: f->sc.cs = fz_selector(t); break;
			case 1: f->sc.ss = fz_selector(t); break;
			case 2: f->sc.ds = fz_selector(t); break;
			case 3: f->sc.es = fz_selector(t); break;
			case 4: f->sc.fs = fz_selector(t); break;
			case 5: f->sc.gs = fz_selector(t); break;
			case 6: f->sc.eflags |= EFLAGS_IOPL; break;
			case 7: f->sc.eflags = fz_chance(t, 50) ? fz_rand(t)
					: f->sc.eflags ^ (EFLAGS_VM | EFLAGS_NT | EFLAGS_AC |
							  EFLAGS_IF | EFLAGS_TF | EFLAGS_DF);
				break;
			case 8: f->sc.eip = fz_ptr(t, 0); break;
			case 9: f->sc.esp = fz_ptr(t, 0); break;
			case 10: f->sigmask[0] = fz_rand(t); f->sigmask[1] = fz_rand(t); break;
			default: f->sc.fpstate = fz_ptr(t, 0); f->uc_flags = fz_int(t); break;
			}
		}
	}
	fz_sigreturn_at(f);
}

/* A selector into a segment register, then a system call and a yield
 * (the kernel saves and restores it, or finds it bad), then a read
 * through it. The LDT may get a random entry first. */
static void segment_load(struct fz_task *t)
{
	uint16_t sel = fz_selector(t);
	uint32_t v;

	if (fz_chance(t, 40)) {
		struct user_desc *u = (struct user_desc *)(t->w->arena + 9 * 4096);
		fz_user_desc(t, u);
		u->entry_number = (sel >> 3) & 15;
		raw_modify_ldt(0x11, u, sizeof(*u));
	}
	switch (fz_below(t, 5)) {
	case 0: __asm__ volatile("movw %0, %%ds" : : "r"(sel)); break;
	case 1: __asm__ volatile("movw %0, %%es" : : "r"(sel)); break;
	case 2: __asm__ volatile("movw %0, %%fs" : : "r"(sel)); break;
	case 3: __asm__ volatile("movw %0, %%gs" : : "r"(sel)); break;
	default: __asm__ volatile("movw %0, %%ss\n\tnop" : : "r"(sel)); break;
	}
	raw_sched_yield();
	raw_getpid();
	__asm__ volatile("movl %%gs:0, %0" : "=r"(v));
	__asm__ volatile("movl %%fs:4, %0" : "=r"(v));
	(void)v;
}

/* The direction flag set across system calls that copy to and from user
 * memory: the kernel must not copy backwards (SysV ABI: DF is clear at
 * entry to every function, the kernel's included). */
static void df_syscalls(struct fz_task *t)
{
	char *buf = t->w->arena + 10 * 4096;
	long fd = raw_open("/proc/kstat", 0), r;

	memset(buf, 0x5a, 4096);
	__asm__ volatile("std\n\tint $0x80\n\tcld" : "=a"(r)
			 : "a"(SYS_read), "b"(fd), "c"(buf + 64), "d"(256) : "memory", "cc");
	__asm__ volatile("std\n\tint $0x80\n\tcld" : "=a"(r)
			 : "a"(SYS_clock_gettime), "b"(1), "c"(buf + 8) : "memory", "cc");
	/* What the kernel wrote must be where it was asked to go. */
	if (r == 0 && fd >= 0 && (buf[63] != 0x5a || buf[64 + 256] != 0x5a))
		raw_exit_group(FZ_EXIT_DF);
	__asm__ volatile("std\n\tint $0x80\n\tcld" : : "a"(SYS_getpid) : "memory", "cc");
	raw_exit_group(0);
}

void fz_privileged(struct fz_task *t, uint32_t which)
{
	uint32_t port = fz_chance(t, 30) ? 0xf4 : fz_below(t, 0x10000);
	static const uint8_t gdtr[8];

	switch (which) {
	case 0: __asm__ volatile("cli"); break;
	case 1: __asm__ volatile("sti"); break;
	case 2: __asm__ volatile("hlt"); break;
	case 3: __asm__ volatile("inb %%dx, %%al" : : "d"(port) : "eax"); break;
	case 4: __asm__ volatile("outb %%al, %%dx" : : "a"(0x11), "d"(port)); break;
	case 5: __asm__ volatile("int3"); break;
	case 6: __asm__ volatile("movl $0x7fffffff, %%eax\n\taddl $1, %%eax\n\tinto"
				 : : : "eax", "cc"); break;
	case 7: __asm__ volatile("ud2"); break;
	case 8: __asm__ volatile("lgdt %0" : : "m"(gdtr)); break;
	case 9: __asm__ volatile("lidt %0" : : "m"(gdtr)); break;
	case 10: __asm__ volatile("lldt %%ax" : : "a"(fz_selector(t))); break;
	case 11: __asm__ volatile("ltr %%ax" : : "a"(fz_selector(t))); break;
	case 12: __asm__ volatile("movl %%eax, %%cr0" : : "a"(0)); break;
	case 13: __asm__ volatile("movl %%cr3, %%eax" : : : "eax"); break;
	case 14: __asm__ volatile("movl %%eax, %%dr7" : : "a"(0xff)); break;
	case 15: __asm__ volatile("wrmsr" : : "a"(0), "d"(0), "c"(0x1b)); break;
	case 16: __asm__ volatile("rdmsr" : : "c"(0x10) : "eax", "edx"); break;
	case 17: __asm__ volatile("invlpg (%0)" : : "r"(0xc0000000)); break;
	case 18: __asm__ volatile("wbinvd"); break;
	case 19: __asm__ volatile("clts"); break;
	case 20: __asm__ volatile("rdpmc" : : "c"(0) : "eax", "edx"); break;
	case 21: __asm__ volatile(".byte 0xf1"); break;                 /* icebp */
	case 22: __asm__ volatile(".byte 0x0f, 0x34"); break;           /* sysenter */
	case 23: __asm__ volatile("lmsw %%ax" : : "a"(0)); break;
	case 24:                                        /* int N: never 0x80 */
		switch (fz_below(t, 10)) {
		case 0: __asm__ volatile("int $0x02"); break;     /* NMI's vector */
		case 1: __asm__ volatile("int $0x08"); break;     /* double fault's */
		case 2: __asm__ volatile("int $0x0d"); break;
		case 3: __asm__ volatile("int $0x0e"); break;     /* page fault's */
		case 4: __asm__ volatile("int $0x20"); break;     /* the timer's */
		case 5: __asm__ volatile("int $0x21"); break;
		case 6: __asm__ volatile("int $0x81"); break;
		case 7: __asm__ volatile("int $0xef"); break;
		case 8: __asm__ volatile("int $0xf0"); break;
		default: __asm__ volatile("int $0xff"); break;
		}
		break;
	case 25: {                                      /* a far jump through a random selector */
		uint32_t far[2] = { (uint32_t)fz_landing, fz_selector(t) };
		__asm__ volatile("ljmp *(%0)" : : "r"(far) : "memory"); break;
	}
	case 26: {                                      /* a far call */
		uint32_t far[2] = { (uint32_t)fz_landing, fz_selector(t) };
		__asm__ volatile("lcall *(%0)" : : "r"(far) : "memory"); break;
	}
	case 27: {                                      /* iret with a made-up frame */
		/* Never VM: QEMU's TCG (7.2, helper_ret_protected) enters
		 * virtual-8086 mode on an iret at any CPL, with the IOPL and
		 * IF of the frame, where the SDM allows it only at CPL 0; a
		 * user task could then cli or outb and no kernel could stop
		 * it (docs/fuzzing.md). */
		uint32_t fl = (fz_chance(t, 50) ? 0x202 | EFLAGS_IOPL : fz_rand(t)) & ~EFLAGS_VM;
		__asm__ volatile("pushl %0\n\tpushl %1\n\tpushl %2\n\tiret"
				 : : "r"(fl), "r"((uint32_t)fz_selector(t)), "r"(fz_landing) : "memory");
		break;
	}
	case 28: {                                      /* popf: IOPL, IF, TF, AC, NT */
		uint32_t fl = fz_rand(t) | 0x2;
		__asm__ volatile("pushl %0\n\tpopfl\n\tint $0x80"
				 : : "r"(fl), "a"(SYS_getpid) : "memory", "cc");
		fz_landing();
		break;
	}
	default: __asm__ volatile("xorl %%edx, %%edx\n\tdivl %%edx" : : "a"(1) : "edx", "cc"); break;
	}
}

/* One experiment in a forked child, which the worker then reaps. */
void fz_trap(struct fz_task *t)
{
	long pid, r;
	int st;

	uint32_t kind = fz_below(t, 8), sub = fz_rand(t);

	fz_count(t, SYS_fork);
	fz_trace(t, SYS_fork, (uint32_t[]){ 0x7ea9, kind, sub }, 3);
	pid = raw_fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		/* A segment with another base makes every store of the child
		 * land somewhere else: never in the supervisor's page. */
		if (t->w->sh)
			raw_munmap(t->w->sh, (sizeof(*t->w->sh) + 4095) & ~4095u);
		/* The faults' own handlers would return to the fault for ever:
		 * mostly the default, which kills. */
		if (fz_chance(t, 85)) {
			static const int faults[] = { SIGSEGV, SIGILL, SIGTRAP, SIGBUS, SIGFPE };
			struct k_sigaction dfl = { SIG_DFL, 0, NULL, { 0, 0 } };
			for (int i = 0; i < 5; i++)
				raw_rt_sigaction(faults[i], &dfl, NULL, SIGSET_SIZE);
		}
		t->rng ^= sub;
		switch (kind) {
		case 0: case 1: garbage_sigreturn(t); break;
		case 2: case 3: segment_load(t); break;
		case 4: df_syscalls(t); break;
		default: fz_privileged(t, fz_below(t, FZ_PRIVILEGED)); break;
		}
		raw_exit_group(0);
	}
	if (!t->w->sh)
		return;
	st = -1;
	r = fz_wait_child((int)pid, &st, 300);
	if (r == 0)
		t->w->sh->unkillable = (int)pid;
	else if (r == pid && (st & 0x7f) == 0 && ((st >> 8) & 0xff) >= FZ_EXIT_DF) {
		t->w->sh->escalation_kind = kind;
		t->w->sh->escalation_sub = sub;
		t->w->sh->escalated = (st >> 8) & 0xff;
	}
}

/* Waits up to ms for child pid, then SIGKILLs it and waits up to 10 s
 * more; the pid, or 0 if it never went (an unkillable task: reported
 * through the shared page). */
long fz_wait_child(int pid, int *status, long ms)
{
	long long end = fz_now_ms() + ms;
	bool killed = false;
	long r;

	for (;;) {
		r = raw_wait4(pid, status, WNOHANG | __WALL, NULL);
		if (r != 0)
			return r;
		if (fz_now_ms() > end) {
			if (killed)
				return 0;
			raw_kill(pid, SIGKILL);
			killed = true;
			end = fz_now_ms() + 10000;
		}
		raw_sched_yield();
	}
}
