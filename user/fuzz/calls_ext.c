/* user/fuzz/calls_ext.c - the calls whose arguments are structures:
 * futexes and their timeouts, signal actions and masks, LDT and TLS
 * descriptors, execve (calls.h). */
#include "user/fuzz/calls.h"
#include "signal.h"
#include "stdio.h"
#include "string.h"
#include "time.h"

/* A timeout: short mostly (a worker must keep going), sometimes 0, one
 * the kernel must refuse (negative, tv_nsec out of range), or long. */
void fz_timespec(struct fz_task *t, struct timespec *ts)
{
	switch (fz_below(t, 10)) {
	case 0: ts->tv_sec = 0; ts->tv_nsec = 0; break;
	case 1: ts->tv_sec = -1 - (long)fz_below(t, 3); ts->tv_nsec = 0; break;
	case 2: ts->tv_sec = 0; ts->tv_nsec = 1000000000 + (long)fz_below(t, 3); break;
	case 3: ts->tv_sec = 0; ts->tv_nsec = -1; break;
	case 4: ts->tv_sec = (long)fz_int(t); ts->tv_nsec = (long)fz_int(t); break;
	case 5:
		if (fz_chance(t, 20)) {         /* long: the watchdog may end it */
			ts->tv_sec = 0x7fffffff;
			ts->tv_nsec = 999999999;
			break;
		}
		/* fall through */
	default: ts->tv_sec = 0; ts->tv_nsec = (long)fz_below(t, 2000000); break;
	}
}

/* A TLS or LDT descriptor: usually plausible with one field turned
 * dangerous (a kernel base, a limit reaching the kernel, a code or
 * conforming segment, not present), sometimes random bytes. */
void fz_user_desc(struct fz_task *t, struct user_desc *u)
{
	if (fz_chance(t, 20)) {
		fz_fill(t, u, sizeof(*u));
		return;
	}
	memset(u, 0, sizeof(*u));
	u->entry_number = fz_chance(t, 70) ? (fz_chance(t, 30) ? (unsigned)-1 : 6 + fz_below(t, 3))
					  : fz_int(t);
	u->base_addr = fz_chance(t, 60) ? (uint32_t)t->w->arena : fz_ptr(t, 0);
	u->limit = fz_chance(t, 50) ? 0xfffff : fz_int(t);
	u->seg_32bit = fz_rand(t) & 1;
	u->contents = fz_rand(t) & 3;
	u->read_exec_only = fz_chance(t, 20);
	u->limit_in_pages = fz_rand(t) & 1;
	u->seg_not_present = fz_chance(t, 15);
	u->useable = fz_rand(t) & 1;
}

/* The futex words every thread of a worker shares: first in the arena. */
#define FZ_FUTEX_WORDS 16

void fz_c_futex(struct fz_task *t)
{
	volatile int *words = (volatile int *)t->w->arena;
	struct timespec *ts = NULL;
	uint32_t uaddr, op, val, tsp = 0;
	int i = (int)fz_below(t, FZ_FUTEX_WORDS);

	switch (fz_below(t, 6)) {
	case 0: uaddr = fz_ptr(t, 4); break;
	case 1: uaddr = (uint32_t)&words[i] + 1 + fz_below(t, 3); break;   /* unaligned */
	default: uaddr = (uint32_t)&words[i]; break;
	}
	op = fz_chance(t, 85) ? fz_below(t, 2) | (fz_chance(t, 50) ? FUTEX_PRIVATE_FLAG : 0)
			      : fz_int(t);
	if ((op & 0x7f) == FUTEX_WAKE || fz_chance(t, 20))
		val = fz_chance(t, 70) ? 1 + fz_below(t, 4) : fz_int(t);
	else
		val = fz_chance(t, 70) ? (uint32_t)words[i] : fz_int(t);
	if (fz_chance(t, 70)) {
		tsp = fz_chance(t, 85) ? (uint32_t)(ts = (struct timespec *)(t->w->arena + 128 +
									16 * fz_below(t, 4)))
				      : fz_ptr(t, 8);
		if (ts)
			fz_timespec(t, ts);
	} else if (t->depth == 0 && (op & 0x7f) == FUTEX_WAIT) {
		/* The worker's main thread waits for ever only now and then:
		 * it is the one that wakes the others. */
		if (fz_chance(t, 80))
			val++;
	}
	if (fz_chance(t, 10))
		words[i] += 1;          /* so that a waiter's value goes stale */
	fz_sys(t, SYS_futex, 6, uaddr, op, val, tsp, fz_ptr(t, 4), fz_int(t));
}

static void fz_nop_handler(int sig)
{
	(void)sig;
}

/* A handler that makes a system call of its own, inside the delivery. */
static void fz_busy_handler(int sig)
{
	(void)sig;
	raw_sched_yield();
	raw_getpid();
}

void fz_c_sigaction(struct fz_task *t)
{
	struct k_sigaction *ka;
	uint32_t act = fz_struct_ptr(t, (void **)&ka, sizeof(*ka));
	uint32_t size = fz_chance(t, 85) ? SIGSET_SIZE : fz_int(t);

	if (ka) {
		static void *const handlers[] = {
			SIG_DFL, SIG_IGN, (void *)fz_nop_handler, (void *)fz_nop_handler,
			(void *)fz_busy_handler, SIG_DFL,
		};
		ka->handler = fz_chance(t, 4) ? (void *)fz_ptr(t, 0)
					       : handlers[fz_below(t, sizeof(handlers) /
								   sizeof(handlers[0]))];
		ka->flags = SA_RESTORER;
		if (fz_chance(t, 30))
			ka->flags |= fz_chance(t, 50) ? SA_SIGINFO : SA_NODEFER;
		if (fz_chance(t, 10))
			ka->flags |= SA_RESETHAND;
		if (fz_chance(t, 8))
			ka->flags = fz_int(t);
		ka->restorer = fz_chance(t, 95) ? (void *)__restore_rt : (void *)fz_ptr(t, 0);
		ka->mask[0] = fz_chance(t, 50) ? 0 : fz_rand(t);
		ka->mask[1] = fz_chance(t, 80) ? 0 : fz_rand(t);
	}
	fz_sys(t, SYS_rt_sigaction, 4, (uint32_t)fz_sig(t), fz_chance(t, 10) ? 0 : act,
	       fz_chance(t, 50) ? 0 : fz_ptr(t, sizeof(*ka)), size, 0, 0);
}

void fz_c_sigprocmask(struct fz_task *t)
{
	uint32_t *set;
	uint32_t p = fz_struct_ptr(t, (void **)&set, 8);
	uint32_t how = fz_chance(t, 85) ? fz_below(t, 3) : fz_int(t);

	if (set) {
		set[0] = fz_chance(t, 30) ? 0xffffffff : fz_rand(t);
		set[1] = fz_chance(t, 50) ? 0 : fz_rand(t);
	}
	fz_sys(t, SYS_rt_sigprocmask, 4, how, fz_chance(t, 10) ? 0 : p,
	       fz_chance(t, 50) ? 0 : fz_ptr(t, 8), fz_chance(t, 85) ? SIGSET_SIZE : fz_int(t),
	       0, 0);
}

/* modify_ldt: read (0), the default LDT (2), write old-style (1) and new
 * (0x11), with entries anywhere in 0..8191 and beyond, and byte counts
 * that are short, exact, or reach past the 64 KiB table. */
void fz_c_ldt(struct fz_task *t)
{
	static const uint32_t funcs[] = { 0, 1, 2, 0x11, 0x11, 0x11, 1, 0 };
	uint32_t func = fz_chance(t, 90) ? funcs[fz_below(t, 8)] : fz_int(t);
	uint32_t count, p;
	struct user_desc *u;

	if (func == 0 || func == 2) {
		count = fz_chance(t, 50) ? 8 * (1 + fz_below(t, 8192)) : fz_len(t);
		p = fz_ptr(t, count);
	} else {
		p = fz_struct_ptr(t, (void **)&u, sizeof(*u));
		if (u) {
			fz_user_desc(t, u);
			if (fz_chance(t, 70))
				u->entry_number = fz_chance(t, 50) ? fz_below(t, 16)
								   : fz_below(t, 8200);
		}
		count = fz_chance(t, 85) ? sizeof(*u) : fz_len(t);
	}
	fz_sys(t, SYS_modify_ldt, 3, func, p, count, 0, 0, 0);
}

void fz_c_tls(struct fz_task *t)
{
	struct user_desc *u;
	uint32_t p = fz_struct_ptr(t, (void **)&u, sizeof(*u));

	if (fz_chance(t, 60)) {
		if (u)
			fz_user_desc(t, u);
		fz_sys(t, SYS_set_thread_area, 1, p, 0, 0, 0, 0, 0);
	} else {
		if (u)
			u->entry_number = fz_chance(t, 70) ? 6 + fz_below(t, 3) : fz_int(t);
		fz_sys(t, SYS_get_thread_area, 1, p, 0, 0, 0, 0, 0);
	}
}

/* A pointer that faults for certain, whatever the worker has mapped
 * since it started: one into the kernel's quarter (USER_TOP and up, which
 * no user mapping reaches), not NULL (execve takes a NULL argv or envp
 * as empty). The PROT_NONE page, half's hole or the pages below the text
 * would not do: the fuzzer's own mmap, mprotect and munmap may aim there,
 * and a random mmap may fill the hole. */
static uint32_t bad_ptr(struct fz_task *t)
{
	if (fz_chance(t, 50))
		return 0xffffffff - fz_below(t, 8);
	return USER_TOP + fz_below(t, 0x3fffffff);
}

/* execve: /bin/fuzz -x (a new image that fuzzes a little and exits, its
 * environment FUZZ_CHILD=1 so that it never becomes a supervisor), or a
 * path that must fail, with arguments good, bad or too many. */
void fz_c_execve(struct fz_task *t)
{
	static char *const env[] = { "FUZZ_CHILD=1", NULL };
	static const char *const bad[] = {
		"/bin/bad_elf64", "/bin/bad_trunc", "/bin/bad_phoff", "/bin/bad_kaddr",
		"/bin/bad_interp", "/proc/kstat", "/etc/motd", "/bin", "/nonexistent", "",
	};
	char **argv = (char **)(t->w->arena + 3 * 4096);
	char *strs = t->w->arena + 3 * 4096 + 512;
	uint32_t path, av, ev = (uint32_t)env;
	uint32_t stream = fz_rand(t);

	snprintf(strs, 64, "%08x", stream);
	snprintf(strs + 64, 64, "%u", FZ_EXEC_CALLS);
	argv[0] = "fuzz";
	argv[1] = t->w->cfg->trace ? "-xv" : "-x";
	argv[2] = strs;
	argv[3] = strs + 64;
	argv[4] = NULL;
	av = (uint32_t)argv;
	switch (fz_below(t, 6)) {
	case 0:
		path = fz_path(t);
		/* Not the sandbox's copies of fuzz and init (calls.c paths):
		 * they would start a program that does not know it is a child. */
		if (fz_path_in_sandbox(path))
			path = (uint32_t)"/nonexistent";
		break;
	case 1:
		path = (uint32_t)bad[fz_below(t, sizeof(bad) / sizeof(bad[0]))];
		break;
	case 2:                                 /* bad argv or envp: -EFAULT */
		/* Bad for sure: a pointer that works could hand the new image an
		 * environment without FUZZ_CHILD, and it would supervise. */
		path = (uint32_t)"/bin/fuzz";
		switch (fz_below(t, 4)) {
		case 0: av = bad_ptr(t); break;
		case 1: av = USER_TOP - 2; break;       /* argv[0] runs into the kernel */
		case 2: argv[fz_below(t, 4)] = (char *)bad_ptr(t); break;
		default: ev = bad_ptr(t); break;
		}
		break;
	case 3: {                               /* too many arguments: -E2BIG */
		char **many = (char **)(t->w->arena + 4 * 4096);
		uint32_t n = (8 * 4096 - 4) / sizeof(char *);
		for (uint32_t i = 0; i < n; i++)
			many[i] = t->w->arena + 4096;   /* a 4 KiB string, see fz_path */
		memset(t->w->arena + 4096, 'a', 4095);
		t->w->arena[4096 + 4095] = 0;
		many[n] = NULL;
		path = (uint32_t)"/bin/fuzz";
		av = (uint32_t)many;
		break;
	}
	default:
		path = (uint32_t)"/bin/fuzz";
		break;
	}
	fz_sys(t, SYS_execve, 3, path, av, ev, 0, 0, 0);
}
