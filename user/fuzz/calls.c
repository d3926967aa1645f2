/* user/fuzz/calls.c - one random system call with dangerous arguments
 * (fuzz.h). Every call goes through fz_sys, which counts it against
 * the budget and, with -v, prints it first.
 *
 * The restrictions of fuzz.h live here: fds 0-2 (the console) are never
 * passed, signals go only to fuzz tasks (fz_target_pid), execve runs
 * only /bin/fuzz -x or something that cannot run, and no range that
 * mmap, munmap or mprotect is given covers the supervisor's page. */
#include "user/fuzz/fuzz.h"
#include "user/fuzz/calls.h"
#include "signal.h"
#include "stdio.h"
#include "string.h"
#include "sys/mman.h"
#include "sys/uio.h"
#include "time.h"

void fz_count(struct fz_task *t, unsigned long nr)
{
	struct fz_shared *sh = t->w->sh;

	t->made++;
	if (t->left)
		t->left--;
	if (!sh)
		return;
	__atomic_add_fetch(&sh->slot[t->w->slot].calls, 1, __ATOMIC_RELAXED);
	sh->slot[t->w->slot].nr = nr;
	if (__atomic_add_fetch(&sh->total, 1, __ATOMIC_RELAXED) >= sh->budget)
		sh->stop = 1;
}

void fz_trace(struct fz_task *t, unsigned long nr, const uint32_t *a, int n)
{
	char line[160];
	int len;

	if (!t->w->cfg->trace)
		return;
	len = snprintf(line, sizeof(line), "fz %s #%lu: %lu(", t->name, t->made, nr);
	for (int i = 0; i < n && len < (int)sizeof(line) - 16; i++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%s%#x", i ? ", " : "",
				a[i]);
	len += snprintf(line + len, sizeof(line) - (size_t)len, ")\n");
	raw_write(1, line, (size_t)len);
}

long fz_sys(struct fz_task *t, unsigned long nr, int n, uint32_t a0, uint32_t a1,
	    uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5)
{
	uint32_t a[6] = { a0, a1, a2, a3, a4, a5 };
	struct fz_shared *sh = t->w->sh;
	long r;

	fz_count(t, nr);
	fz_trace(t, nr, a, n);
	r = raw_syscall6((long)nr, (long)a0, (long)a1, (long)a2, (long)a3, (long)a4, (long)a5);
	if (sh && sh->magic != FZ_MAGIC) {
		char line[160];
		int len = snprintf(line, sizeof(line), "fuzz: BUG: the shared page changed "
				   "under %s #%lu: %lu(%#x, %#x, %#x, %#x, %#x, %#x) = %ld\n",
				   t->name, t->made, nr, a0, a1, a2, a3, a4, a5, r);
		raw_write(1, line, (size_t)len);
		/* What the page holds now tells who wrote it: a frame, a file's
		 * bytes, zeroes (a page that is no longer the shared one). */
		const uint32_t *w = (const uint32_t *)sh;
		len = snprintf(line, sizeof(line), "fuzz: the page at %p now holds %08x %08x %08x "
			       "%08x %08x %08x %08x %08x\n", (void *)sh, w[0], w[1], w[2], w[3],
			       w[4], w[5], w[6], w[7]);
		raw_write(1, line, (size_t)len);
		raw_exit_group(FZ_EXIT_SHARED);
	}
	return r;
}

/* ---- argument helpers ---- */

/* An fd that is never the console's 0, 1 or 2. */
uint32_t fz_fd(struct fz_task *t)
{
	uint32_t fd;

	switch (fz_below(t, 8)) {
	case 0: fd = fz_int(t); break;
	case 1: fd = (uint32_t)-(int32_t)fz_below(t, 4); break;
	default: fd = 3 + fz_below(t, 16); break;
	}
	return fd <= 2 ? fd + 3 : fd;
}

/* Scratch space in the arena for a structure the kernel reads. */
static void *scratch(struct fz_task *t, size_t n)
{
	uint32_t off = 256 + fz_below(t, FZ_ARENA_PAGES * 4096 - 512 - (uint32_t)n);

	return t->w->arena + (off & ~3u);
}

/* A pointer to a structure of n bytes: usually a valid one the caller
 * fills, sometimes one that is not there. */
uint32_t fz_struct_ptr(struct fz_task *t, void **valid, size_t n)
{
	*valid = NULL;
	if (fz_chance(t, 25))
		return fz_ptr(t, (uint32_t)n);
	if (fz_chance(t, 8)) {                  /* the last bytes run into the hole */
		char *p = t->w->half + 4096 - n / 2;
		fz_fill(t, p, n / 2);
		return (uint32_t)p;
	}
	*valid = scratch(t, n);
	return (uint32_t)*valid;
}

/* The files a worker may open for writing, truncate or grow are the
 * sandbox's copies (FZ_SANDBOX, fstree.c), never the system's own: pid 1
 * makes the sandbox again after the run, and the books must then come
 * back exactly. The directories and /proc are the real ones. */
static const char *const paths[] = {
	FZ_SANDBOX "/fuzz", FZ_SANDBOX "/init", "/proc/kstat", "/proc/tasks", "/proc/files",
	FZ_SANDBOX "/motd", FZ_SANDBOX "/bad_elf64", FZ_SANDBOX "/bad_trunc", "/", "/bin",
	"/bin/", "/proc", "/" FZ_SANDBOX "//fuzz", FZ_SANDBOX "/.." FZ_SANDBOX "/fuzz",
	"/nonexistent", "", "/proc/nope", FZ_SANDBOX "/fuzz/x", ".", "..",
	FZ_SANDBOX "/./init", "/etc/", "proc/kstat", FZ_SANDBOX,
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

/* Whether p is one of the paths above that names something in the
 * sandbox (p may be any pointer: only compared). */
bool fz_path_in_sandbox(uint32_t p)
{
	for (size_t i = 0; i < NPATHS; i++)
		if (p == (uint32_t)paths[i])
			return strstr(paths[i], FZ_SANDBOX "/") != NULL;
	return false;
}

/* A path: a real one, a made-up one, an unterminated or overlong one, or
 * a bad pointer. Never the console (fuzz.h). */
uint32_t fz_path(struct fz_task *t)
{
	char *s;
	size_t n;

	switch (fz_below(t, 8)) {
	case 0:
		return fz_ptr(t, 64);
	case 1:                                 /* random bytes, maybe unterminated */
		n = fz_below(t, 64);
		s = t->w->half + 4096 - n;
		fz_fill(t, s, n);
		for (size_t i = 0; i < n; i++)
			if (s[i] == 0 || s[i] == '/')
				s[i] = 'x';
		return (uint32_t)s;
	case 2:                                 /* longer than PATH_MAX */
		s = t->w->arena + 4096;
		n = 4096 + fz_below(t, 64);
		memset(s, 'a', n);
		s[0] = '/';
		s[n] = 0;
		return (uint32_t)s;
	default:
		return (uint32_t)paths[fz_below(t, NPATHS)];
	}
}

int fz_exit_signal(struct fz_task *t)
{
	int sig;

	switch (fz_below(t, 6)) {
	case 0: sig = 0; break;
	case 1: case 2: sig = fz_sig(t) & 0xff; break;
	default: sig = SIGCHLD; break;
	}
	if (sig == SIGKILL && !t->w->cfg->sigkill_exit)
		sig = SIGCHLD;
	return sig;
}

/* A task a worker may signal: itself, its children, another worker, or
 * a pid nobody has. Never pid 1, the supervisor, 0 or -1 (fuzz.h). */
int fz_target_pid(struct fz_task *t)
{
	const struct fz_shared *sh = t->w->sh;
	int pid;

	switch (fz_below(t, 12)) {
	case 0: case 1: case 8: case 9: case 10: case 11: pid = (int)raw_getpid(); break;
	case 2: pid = (int)raw_gettid(); break;
	case 3: pid = sh ? sh->slot[t->w->slot].kids[fz_below(t, FZ_KIDS + FZ_THREADS)] : 0; break;
	case 4: pid = sh ? sh->slot[fz_below(t, FZ_MAX_WORKERS)].pid : 0; break;
	case 5: pid = 0x40000000 + (int)fz_below(t, 0x1000000); break;
	case 6: pid = -2 - (int)fz_below(t, 0x7fff); break;
	default: pid = (int)raw_getpid() + (int)fz_below(t, 5); break;
	}
	if (pid == 0 || pid == -1 || pid == 1 || (sh && pid == sh->super_pid))
		pid = (int)raw_getpid();
	/* Run from a shell, the nearby pids may be the shell's: only ours. */
	if (pid > 0 && pid < 0x40000000 && sh && pid != (int)raw_getpid()) {
		bool ours = false;
		for (int i = 0; i < FZ_MAX_WORKERS && !ours; i++) {
			ours = sh->slot[i].pid == pid;
			for (int k = 0; k < FZ_KIDS + FZ_THREADS && !ours; k++)
				ours = sh->slot[i].kids[k] == pid;
		}
		if (!ours)
			pid = (int)raw_gettid();
	}
	return pid;
}

static bool overlaps(uint64_t a, uint64_t end, const void *p, uint32_t n)
{
	return p && a < (uint32_t)p + (uint64_t)n && end > (uint32_t)p;
}

/* [a, a + len) misses the supervisor's page and, but for 2 calls in
 * 100 (a worker may unmap itself: it dies, and is restarted), the
 * worker's own scratch pages and stacks: munmap and mprotect aim at the
 * victim pages. */
bool fz_range_ok(struct fz_task *t, uint32_t a, uint32_t len)
{
	const struct fz_world *w = t->w;
	uint64_t end = (uint64_t)a + (len ? len : 1);

	if (end > 0x100000000ull)       /* the kernel refuses it; as if it ended at the top */
		end = 0x100000000ull;
	if (w->sh && overlaps(a, end, (const char *)w->sh - FZ_GUARD, FZ_GUARD + FZ_SHARED_SIZE))
		return false;
	if (fz_chance(t, 2))
		return true;
	return !overlaps(a, end, w->arena, FZ_ARENA_PAGES * 4096) &&
	       !overlaps(a, end, w->stacks, FZ_THREADS * FZ_STACK) &&
	       !overlaps(a, end, w->ro, 4096) && !overlaps(a, end, w->none, 4096) &&
	       !overlaps(a, end, w->half, 2 * 4096) &&
	       !overlaps(a, end, (void *)0x08048000, 0x100000) &&   /* text, data */
	       !overlaps(a, end, (void *)(USER_TOP - 0x100000), 0x100000);  /* main stack */
}

/* An address for mmap/munmap/mprotect: page-aligned mostly. */
uint32_t fz_addr(struct fz_task *t)
{
	uint32_t a;

	switch (fz_below(t, 6)) {
	case 0: a = (uint32_t)t->w->victim + 4096 * fz_below(t, FZ_VICTIM_PAGES + 2); break;
	case 1: a = fz_ptr(t, 0); break;
	case 2: a = USER_TOP - 4096 * fz_below(t, 4); break;
	case 3: a = 0x40000000 + 4096 * fz_below(t, 0x1000); break;
	default: a = (uint32_t)t->w->victim + 4096 * fz_below(t, FZ_VICTIM_PAGES); break;
	}
	if (fz_chance(t, 85))
		a &= ~4095u;
	return a;
}

/* ---- the calls ---- */

static void c_read(struct fz_task *t)
{
	uint32_t len = fz_len(t);

	fz_sys(t, SYS_read, 3, fz_fd(t), fz_ptr(t, len), len, 0, 0, 0);
}

static void c_write(struct fz_task *t)
{
	uint32_t len = fz_len(t);

	fz_sys(t, SYS_write, 3, fz_fd(t), fz_ptr(t, len), len, 0, 0, 0);
}

static void c_writev(struct fz_task *t)
{
	struct iovec *iov;
	uint32_t cnt = fz_chance(t, 80) ? fz_below(t, 9) : fz_int(t);
	uint32_t p = fz_struct_ptr(t, (void **)&iov, 8 * sizeof(*iov));

	for (int i = 0; iov && i < 8; i++) {
		iov[i].iov_len = fz_len(t);
		iov[i].iov_base = (void *)fz_ptr(t, (uint32_t)iov[i].iov_len);
	}
	fz_sys(t, SYS_writev, 3, fz_fd(t), p, cnt, 0, 0, 0);
}

/* Only the sandbox's files are opened for writing or truncated. A random
 * path pointer can name a real file: fz_ptr likes the top of the stack,
 * where AT_EXECFN's "/bin/fuzz" ends the initial stack, and one byte in
 * it reads "bin/fuzz", which from the working directory "/" is the
 * fuzzer's own program. O_TRUNC truncates even with O_RDONLY (as on
 * Linux): make fuzz SEED=1 CALLS=30000 CPUS=1 FUZZ_FLAGS=-K caught it,
 * open(0xbfffffed "bin/fuzz", 0xb32ab620) leaving /bin/fuzz 0 bytes long. */
static void c_open(struct fz_task *t)
{
	uint32_t flags = fz_chance(t, 60) ? fz_below(t, 3) : fz_int(t);
	uint32_t path = fz_path(t);

	if (!fz_path_in_sandbox(path))
		flags &= ~(uint32_t)(O_ACCMODE | O_TRUNC | O_APPEND);
	fz_sys(t, SYS_open, 2, path, flags, 0, 0, 0, 0);
}

static void c_close(struct fz_task *t)
{
	fz_sys(t, SYS_close, 1, fz_fd(t), 0, 0, 0, 0, 0);
}

static void c_wait(struct fz_task *t)
{
	static const int pids[] = { -1, 0, -2, 0x7fffffff, (int)0x80000000 };
	uint32_t opt = WNOHANG;
	int pid;

	if (fz_chance(t, 50))
		pid = pids[fz_below(t, sizeof(pids) / sizeof(pids[0]))];
	else
		pid = fz_target_pid(t);
	if (fz_chance(t, 30))
		opt |= fz_chance(t, 50) ? __WALL : __WCLONE;
	if (fz_chance(t, 10))
		opt = fz_int(t);
	if (fz_chance(t, 3) && t->depth > 0)
		opt &= ~(uint32_t)WNOHANG;      /* may block: a thread may */
	else
		opt |= WNOHANG;
	if (fz_chance(t, 50))
		fz_sys(t, SYS_wait4, 4, (uint32_t)pid, fz_ptr(t, 4), opt,
		       fz_chance(t, 80) ? 0 : fz_ptr(t, 72), 0, 0);
	else
		fz_sys(t, SYS_waitpid, 3, (uint32_t)pid, fz_ptr(t, 4), opt, 0, 0, 0);
}

static void c_ids(struct fz_task *t)
{
	static const unsigned long nrs[] = { SYS_getpid, SYS_gettid, SYS_getppid, SYS_sched_yield };

	fz_sys(t, nrs[fz_below(t, 4)], 0, 0, 0, 0, 0, 0, 0);
}

static void c_kill(struct fz_task *t)
{
	int pid = fz_target_pid(t);

	if (fz_chance(t, 50))
		fz_sys(t, SYS_kill, 2, (uint32_t)pid, (uint32_t)fz_sig(t), 0, 0, 0, 0);
	else
		fz_sys(t, SYS_tgkill, 3, (uint32_t)pid,
		       fz_chance(t, 60) ? (uint32_t)raw_gettid() : (uint32_t)fz_target_pid(t),
		       (uint32_t)fz_sig(t), 0, 0, 0);
}

static void c_brk(struct fz_task *t)
{
	uint32_t cur = (uint32_t)raw_brk(0);
	uint32_t a;

	switch (fz_below(t, 4)) {
	case 0: a = cur + fz_below(t, 0x100000); break;
	case 1: a = cur - fz_below(t, 0x10000); break;
	case 2: a = fz_ptr(t, 0); break;
	default: a = fz_int(t); break;
	}
	if (!fz_range_ok(t, cur < a ? cur : a, cur < a ? a - cur : cur - a))
		a = cur;
	fz_sys(t, SYS_brk, 1, a, 0, 0, 0, 0, 0);
}

#define FZ_SHARED_MAX (16 * 4096)

static void c_mmap(struct fz_task *t)
{
	static const uint32_t flag_sets[] = {
		MAP_PRIVATE | MAP_ANONYMOUS, MAP_SHARED | MAP_ANONYMOUS,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED,
		MAP_PRIVATE, MAP_ANONYMOUS, MAP_SHARED | MAP_PRIVATE | MAP_ANONYMOUS,
	};
	uint32_t a = fz_addr(t), len = fz_len(t);
	uint32_t prot = fz_chance(t, 70) ? fz_below(t, 8) : fz_int(t);
	uint32_t flags = fz_chance(t, 85) ? flag_sets[fz_below(t, 7)] : fz_int(t);
	uint32_t fd = fz_chance(t, 80) ? (uint32_t)-1 : fz_fd(t);

	/* fork fills a MAP_SHARED area in completely (kernel/mm/vm.c,
	 * copy_area_pages): a huge one and a fork take every free frame,
	 * and with no out-of-memory policy yet (issue 11, bug 2) whichever
	 * task faults next dies, the supervisor as likely as any. Shared
	 * areas stay small until that policy exists. */
	if ((flags & MAP_SHARED) && len > FZ_SHARED_MAX)
		len = fz_below(t, FZ_SHARED_MAX + 1);
	if (!fz_range_ok(t, a, len))
		return;
	fz_sys(t, SYS_mmap2, 6, a, len, prot, flags, fd, fz_chance(t, 80) ? 0 : fz_int(t));
}

static void c_munmap(struct fz_task *t)
{
	uint32_t a = fz_addr(t), len = fz_chance(t, 70) ? 4096 * fz_below(t, 4) : fz_len(t);

	if (fz_range_ok(t, a, len))
		fz_sys(t, SYS_munmap, 2, a, len, 0, 0, 0, 0);
}

static void c_mprotect(struct fz_task *t)
{
	uint32_t a = fz_addr(t), len = fz_chance(t, 70) ? 4096 * fz_below(t, 4) : fz_len(t);
	uint32_t prot = fz_chance(t, 70) ? fz_below(t, 8) : fz_int(t);

	if (fz_range_ok(t, a, len))
		fz_sys(t, SYS_mprotect, 3, a, len, prot, 0, 0, 0);
}

static void c_nanosleep(struct fz_task *t)
{
	struct timespec *ts;
	uint32_t p = fz_struct_ptr(t, (void **)&ts, sizeof(*ts));

	if (ts)
		fz_timespec(t, ts);
	fz_sys(t, SYS_nanosleep, 2, p, fz_chance(t, 50) ? 0 : fz_ptr(t, 8), 0, 0, 0, 0);
}

/* The select calls and ppoll: sets, fds and masks anywhere, a timeout
 * as nanosleep's (odd, long - the watchdog may end it - or a bad
 * pointer), and never NULL: select(0, NULL, NULL, NULL, NULL) would
 * sleep until a signal, as pause does. */
static void c_select(struct fz_task *t)
{
	static const uint16_t nrs[] = { SYS_select, SYS__newselect, SYS_pselect6, SYS_ppoll,
					SYS_pselect6_time64, SYS_ppoll_time64 };
	unsigned long nr = nrs[fz_below(t, sizeof(nrs) / sizeof(nrs[0]))];
	uint32_t n = fz_chance(t, 70) ? fz_below(t, 40) : fz_int(t);
	struct timespec *ts;
	uint32_t tp = fz_struct_ptr(t, (void **)&ts, 16);

	if (ts)
		fz_timespec(t, ts);
	if (!tp)
		tp = fz_ptr(t, 16) | 1;         /* not NULL: an odd address */
	if (nr == SYS_select)                   /* its arguments in a struct */
		fz_sys(t, nr, 1, fz_ptr(t, 20), 0, 0, 0, 0, 0);
	else if (nr == SYS_ppoll || nr == SYS_ppoll_time64)
		fz_sys(t, nr, 5, fz_ptr(t, 8 * (n & 63)), n, tp, fz_ptr(t, 8),
		       fz_chance(t, 80) ? 8 : fz_int(t), 0);
	else
		fz_sys(t, nr, 6, n, fz_ptr(t, 128), fz_ptr(t, 128), fz_ptr(t, 128), tp,
		       fz_ptr(t, 8));
}

/* waitid, always with WNOHANG: a task must not wait for ever. */
static void c_waitid(struct fz_task *t)
{
	uint32_t idtype = fz_chance(t, 80) ? fz_below(t, 4) : fz_int(t);
	uint32_t id = fz_chance(t, 50) ? (uint32_t)fz_target_pid(t) : fz_int(t);
	uint32_t opt = fz_chance(t, 80) ? 4 /* WEXITED */ : fz_int(t);

	if (fz_chance(t, 30))
		opt |= 0x01000000 | 2 | 8;      /* WNOWAIT, WSTOPPED, WCONTINUED */
	fz_sys(t, SYS_waitid, 5, idtype, id, fz_ptr(t, 128), opt | WNOHANG,
	       fz_chance(t, 70) ? 0 : fz_ptr(t, 72), 0);
}

static void c_clock(struct fz_task *t)
{
	uint32_t clk = fz_chance(t, 70) ? fz_below(t, 3) : fz_int(t);

	fz_sys(t, SYS_clock_gettime, 2, clk, fz_ptr(t, 8), 0, 0, 0, 0);
}

/* clone with any flags; the child, if there is one, exits at once. */
static void c_clone(struct fz_task *t)
{
	static const uint32_t bits[] = {
		CLONE_VM, CLONE_FS, CLONE_FILES, CLONE_SIGHAND, CLONE_THREAD, CLONE_SETTLS,
		CLONE_SETTID, CLONE_DETACHED, CLONE_RELEASE_VM,
	};
	uint32_t flags = 0, sp, tls;
	struct user_desc *u;

	for (int i = 0; i < 9; i++)
		if (fz_chance(t, 35))
			flags |= bits[i];
	if (fz_chance(t, 10))
		flags |= fz_int(t) & ~0xffu;
	flags = (flags & ~0xffu) | (uint32_t)fz_exit_signal(t);
	sp = fz_chance(t, 50) ? (uint32_t)t->w->arena + 4096 * (1 + fz_below(t, FZ_ARENA_PAGES - 1))
			      : fz_ptr(t, 0);
	tls = fz_struct_ptr(t, (void **)&u, sizeof(*u));
	if (u)
		fz_user_desc(t, u);
	fz_count(t, SYS_clone);
	fz_trace(t, SYS_clone, (uint32_t[]){ flags, sp, fz_ptr(t, 4), tls }, 4);
	fz_clone_raw(flags, sp, fz_ptr(t, 4), tls, fz_ptr(t, 4));
}

static void c_fork(struct fz_task *t)
{
	if (fz_sys(t, SYS_fork, 0, 0, 0, 0, 0, 0, 0) == 0)
		raw_exit(0);
}

static void c_exit(struct fz_task *t)
{
	uint32_t code = fz_int(t);

	/* A status byte of 97 to 99 is one of the fuzzer's own verdicts
	 * (FZ_EXIT_*, fuzz.h): the supervisor would end the run as if the
	 * shared page had changed, with no line to say why (seed 1001, at
	 * 66,341 calls, -smp 1 and 4 alike). The upper bits stay random:
	 * the kernel must drop them. */
	if ((code & 0xff) >= FZ_EXIT_SHARED && (code & 0xff) <= FZ_EXIT_ESCALATED)
		code &= ~0xffu;
	if (fz_chance(t, 50))
		fz_sys(t, SYS_exit, 1, code, 0, 0, 0, 0, 0);
	else
		fz_sys(t, SYS_exit_group, 1, code, 0, 0, 0, 0, 0);
}

/* A number nobody implements, or one somebody may have added since:
 * random arguments. The numbers that could reach outside the fuzz trees
 * (kill and its kin, reboot, ptrace) and the ones called above are
 * left out. */
static void c_random(struct fz_task *t)
{
	static const uint16_t deny[] = {
		SYS_exit, SYS_fork, SYS_read, SYS_write, SYS_open, SYS_close, SYS_waitpid,
		SYS_execve, SYS_kill, SYS_brk, SYS_munmap, SYS_wait4, SYS_clone,
		SYS_modify_ldt, SYS_mprotect, SYS_writev, SYS_nanosleep, SYS_rt_sigreturn,
		SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_mmap2, SYS_futex,
		SYS_set_thread_area, SYS_get_thread_area, SYS_exit_group, SYS_tgkill,
		26 /* ptrace */, 29 /* pause */, 48 /* signal */, 67 /* sigaction */,
		88 /* reboot */, 119 /* sigreturn */, 120, 129 /* delete_module */,
		178 /* rt_sigqueueinfo */, 190 /* vfork */, 238 /* tkill */,
		335 /* rt_tgsigqueueinfo */, 424 /* pidfd_send_signal */, 63 /* dup2 */,
		330 /* dup3 */, 41 /* dup */, 436 /* close_range: as close */, 5,
		295 /* openat */,
		168 /* poll: like pause, poll(NULL, 0, -1) sleeps until a signal */,
		SYS_select, SYS__newselect, SYS_pselect6, SYS_ppoll, SYS_pselect6_time64,
		SYS_ppoll_time64, SYS_waitid,   /* the same; c_select, c_waitid */
		/* The calls that change a file by its path: a random pointer
		 * may meet a real path - the initial stack holds AT_EXECFN's
		 * "/bin/fuzz" near its top, an edge fz_ptr likes - and change
		 * a file outside the sandbox (/fz), which the books then
		 * report. c_open and the fs ops fuzz them inside it. */
		SYS_creat, SYS_link, SYS_unlink, SYS_mknod, SYS_chmod, SYS_rename, SYS_mkdir,
		SYS_rmdir, SYS_symlink, SYS_truncate, SYS_truncate64, SYS_mkdirat, SYS_mknodat,
		SYS_unlinkat, SYS_renameat, SYS_linkat, SYS_symlinkat, SYS_fchmodat,
		SYS_utimensat, SYS_utimensat_time64,
	};
	uint32_t nr, a[6];

again:
	nr = fz_chance(t, 90) ? fz_below(t, 450) : fz_int(t);
	for (unsigned i = 0; i < sizeof(deny) / sizeof(deny[0]); i++)
		if (nr == deny[i])
			goto again;
	for (int i = 0; i < 6; i++)
		a[i] = fz_chance(t, 50) ? fz_int(t) : fz_ptr(t, 64);
	fz_sys(t, nr, 6, a[0], a[1], a[2], a[3], a[4], a[5]);
}

struct fz_op {
	void (*fn)(struct fz_task *);
	unsigned weight;
};

static const struct fz_op ops[] = {
	{ c_read, 6 }, { c_write, 4 }, { c_writev, 3 }, { c_open, 6 }, { c_close, 4 },
	{ c_wait, 5 }, { c_ids, 4 }, { c_kill, 4 }, { c_brk, 3 }, { c_mmap, 6 },
	{ c_munmap, 3 }, { c_mprotect, 4 }, { c_nanosleep, 2 }, { c_clock, 2 },
	{ c_clone, 3 }, { c_fork, 1 }, { c_random, 5 }, { fz_c_futex, 8 },
	{ fz_c_sigaction, 6 }, { fz_c_sigprocmask, 4 }, { fz_c_ldt, 6 },
	{ fz_c_tls, 6 }, { fz_c_execve, 1 }, { c_select, 2 }, { c_waitid, 2 },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

void fz_call(struct fz_task *t)
{
	static unsigned total;
	unsigned w;

	if (fz_chance(t, 1) && fz_chance(t, 20)) {     /* 0.2%: the task ends */
		c_exit(t);
		return;
	}
	if (!total)
		for (unsigned i = 0; i < NOPS; i++)
			total += ops[i].weight;
	w = fz_below(t, total);
	for (unsigned i = 0; i < NOPS; i++) {
		if (w < ops[i].weight) {
			ops[i].fn(t);
			return;
		}
		w -= ops[i].weight;
	}
}
