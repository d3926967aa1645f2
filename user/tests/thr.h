/* user/tests/thr.h - raw threads for the clone, TLS, futex and storm tests
 * (and for /bin/start-detached): a clone wrapper that runs a function on
 * a new stack, stacks, polling with a deadline, reaping children, signal
 * handlers, and /proc/kstat and /proc/tasks readers.
 *
 * thr_clone(flags, newsp, ptid, tls, fn, arg) is clone(2) with the
 * registers of abi.md section 4 (erratum 9: %ebx flags, %ecx newsp, %edx
 * ptid, %esi tls, %edi ctid). In the child it calls fn(arg, regs), where
 * regs are the child's registers as the kernel started it (pushal right
 * at the return from int $0x80), and passes fn's result to SYS_exit. The
 * child finds fn and arg in %ebp and %edi: it starts with every register
 * but %eax and %esp as the parent had it, and ctid (%edi) is reserved
 * and ignored, so nothing has to be stored on the new stack. With
 * CLONE_RELEASE_VM the child's stack starts at newsp-4, at the reserved
 * word itself: the child only pushes below it. */
#ifndef USER_TESTS_THR_H
#define USER_TESTS_THR_H

#include "raw.h"
#include "signal.h"
#include "string.h"
#include "sys/mman.h"

/* The child's registers at its first user instruction: pushal order. */
struct thr_regs {
	unsigned long edi, esi, ebp, esp, ebx, edx, ecx, eax;
};
_Static_assert(sizeof(struct thr_regs) == 32, "pushal stores 8 registers");

typedef int (*thr_fn)(void *arg, const struct thr_regs *entry);

long thr_clone(unsigned long flags, void *newsp, int *ptid,
	       struct user_desc *tls, thr_fn fn, void *arg);

#define THR_STR_(x) #x
#define THR_STR(x) THR_STR_(x)

__asm__(
	"	.text\n"
	"	.globl thr_clone\n"
	"	.type thr_clone, @function\n"
	"thr_clone:\n"
	"	pushl %ebp\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	movl 20(%esp), %ebx\n"          /* flags */
	"	movl 24(%esp), %ecx\n"          /* newsp */
	"	movl 28(%esp), %edx\n"          /* ptid */
	"	movl 32(%esp), %esi\n"          /* tls */
	"	movl 36(%esp), %ebp\n"          /* fn: rides in %ebp */
	"	movl 40(%esp), %edi\n"          /* arg: in %edi (ctid, ignored) */
	"	movl $" THR_STR(SYS_clone) ", %eax\n"
	"	int $0x80\n"
	"	testl %eax, %eax\n"
	"	jz 1f\n"
	"	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n"
	"1:	pushal\n"                       /* struct thr_regs */
	"	movl %esp, %eax\n"
	"	andl $-16, %esp\n"              /* only ever moves down */
	"	subl $8, %esp\n"
	"	pushl %eax\n"
	"	pushl %edi\n"
	"	call *%ebp\n"
	"	movl %eax, %ebx\n"
	"	movl $" THR_STR(SYS_exit) ", %eax\n"
	"	int $0x80\n"
	"	ud2\n"
	"	.size thr_clone, . - thr_clone\n");

/* What pthreads asks for (NPTL's flags of the time, without SETTLS). */
#define THR_THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
			  CLONE_THREAD)

/* ---- memory ---- */

/* len bytes of fresh anonymous memory, every page touched (so that no
 * later fault allocates a frame behind a /proc/kstat comparison), or NULL. */
__attribute__((unused))
static void *thr_map(unsigned long len)
{
	long r = raw_mmap2(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (RAW_IS_ERR(r))
		return NULL;
	memset((void *)r, 0, len);
	return (void *)r;
}

/* ---- time ---- */

__attribute__((unused))
static long long thr_now_ns(void)
{
	struct timespec ts = { 0, 0 };

	raw_clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

__attribute__((unused))
static void thr_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	raw_nanosleep(&ts, NULL);
}

/* Yields until *w == want or ms milliseconds have passed; true if seen. */
__attribute__((unused))
static bool thr_wait_word(volatile int *w, int want, long ms)
{
	long long end = thr_now_ns() + ms * 1000000ll;

	while (*w != want) {
		if (thr_now_ns() > end)
			return *w == want;
		raw_sched_yield();
	}
	return true;
}

/* ---- children ---- */

/* A child that does nothing: it exits 0 at once. */
__attribute__((unused))
static int thr_quick_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	return 0;
}

/* Reaps whatever an earlier failed case left behind, children of any
 * exit signal (__WALL), waiting up to 1 s for them to exit. */
__attribute__((unused))
static void thr_reap_leftovers(void)
{
	for (int i = 0; i < 100; i++) {
		long r = raw_wait4(-1, NULL, WNOHANG | __WALL, NULL);
		if (r < 0)
			return;
		if (r == 0)
			thr_sleep_ms(10);
	}
}

/* ---- signals ---- */

/* Yields for ever: a process that only a signal ends. */
__attribute__((noreturn, unused))
static void thr_spin_forever(void)
{
	for (;;)
		raw_sched_yield();
}

/* The wait status of a forked child, spinning, after kill(child, sig);
 * or -errno from fork, kill or wait4. */
__attribute__((unused))
static long thr_killed_by(int sig)
{
	int st = -1;
	long pid = raw_fork();

	if (pid == 0)
		thr_spin_forever();
	if (pid < 0)
		return pid;
	raw_sched_yield();
	long k = raw_kill((int)pid, sig);
	long r = raw_wait4(pid, &st, 0, NULL);
	return k < 0 ? k : r == pid ? st : r;
}

/* Installs handler (or SIG_DFL / SIG_IGN) for sig, with SA_RESTORER. */
__attribute__((unused))
static long thr_signal(int sig, void (*handler)(int))
{
	struct k_sigaction ka = { (void *)handler, SA_RESTORER, (void *)__restore_rt, { 0, 0 } };

	return raw_rt_sigaction(sig, &ka, NULL, SIGSET_SIZE);
}

/* ---- what the CPU sees in the GDT and LDT ---- */

/* LAR: the access rights of selector sel (SDM Vol. 2A, "LAR"); false if
 * the descriptor is not valid or not visible at CPL 3. */
__attribute__((unused))
static bool thr_lar(unsigned sel, unsigned *ar)
{
	unsigned char ok;
	unsigned v = 0;

	__asm__ volatile("larl %2, %0\n\tsetz %1" : "+r"(v), "=q"(ok) : "r"(sel) : "cc");
	*ar = v;
	return ok;
}

/* LSL: the segment limit of sel in bytes (scaled by G); false if invalid. */
__attribute__((unused))
static bool thr_lsl(unsigned sel, unsigned *limit)
{
	unsigned char ok;
	unsigned v = 0;

	__asm__ volatile("lsll %2, %0\n\tsetz %1" : "+r"(v), "=q"(ok) : "r"(sel) : "cc");
	*limit = v;
	return ok;
}

/* ---- /proc/kstat and /proc/tasks ---- */

#define THR_MAX_CACHES 32

struct thr_kstat {
	unsigned long frames_free, parked, freed, reused, tasks;
	unsigned long self_rss;         /* the reader's own resident pages */
	int ncaches;
	struct { char name[24]; unsigned long inuse, slabs, pages; } cache[THR_MAX_CACHES];
};

/* The whole of a /proc file into buf (NUL-terminated); length or -errno. */
__attribute__((unused))
static long thr_read_file(const char *path, char *buf, long size)
{
	long fd = raw_open(path, 0), n = 0, r;

	if (fd < 0)
		return fd;
	while (n < size - 1 && (r = raw_read((int)fd, buf + n, (size_t)(size - 1 - n))) > 0)
		n += r;
	raw_close((int)fd);
	buf[n] = 0;
	return n;
}

__attribute__((unused))
static unsigned long thr_num(const char **p)
{
	unsigned long v = 0;

	while (**p == ' ')
		(*p)++;
	while (**p >= '0' && **p <= '9')
		v = v * 10 + (unsigned long)(*(*p)++ - '0');
	return v;
}

/* Does line s start with word w followed by a space? Moves s past it. */
__attribute__((unused))
static bool thr_word(const char **s, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(*s, w, n) != 0 || (*s)[n] != ' ')
		return false;
	*s += n + 1;
	return true;
}

static char thr_procbuf[16384] __attribute__((unused));

/* 0, or -errno, or -EINVAL if a field is missing. */
__attribute__((unused))
static long thr_kstat(struct thr_kstat *k)
{
	static bool warm;
	long n;
	const char *s = thr_procbuf;
	int seen = 0;

	/* The text is made at open, the buffer written at read: a page of
	 * the buffer first touched then would be missing from the reading
	 * (the text grows when a counter gains a digit). */
	if (!warm) {
		memset(thr_procbuf, 0, sizeof(thr_procbuf));
		warm = true;
	}
	n = thr_read_file("/proc/kstat", thr_procbuf, sizeof(thr_procbuf));

	if (n < 0)
		return n;
	memset(k, 0, sizeof(*k));
	while (*s) {
		if (thr_word(&s, "frames_free"))
			k->frames_free = thr_num(&s), seen |= 1;
		else if (thr_word(&s, "task_cache_parked"))
			k->parked = thr_num(&s), seen |= 2;
		else if (thr_word(&s, "task_cache_freed"))
			k->freed = thr_num(&s), seen |= 4;
		else if (thr_word(&s, "task_cache_reused"))
			k->reused = thr_num(&s), seen |= 8;
		else if (thr_word(&s, "self_rss_pages"))
			k->self_rss = thr_num(&s);
		else if (thr_word(&s, "tasks"))
			k->tasks = thr_num(&s), seen |= 16;
		else if (thr_word(&s, "cache") && k->ncaches < THR_MAX_CACHES) {
			/* cache NAME inuse N slabs N */
			int i = 0, c = k->ncaches++;
			while (*s && *s != ' ' && i < 23)
				k->cache[c].name[i++] = *s++;
			k->cache[c].name[i] = 0;
			while (*s == ' ')
				s++;
			if (thr_word(&s, "inuse"))
				k->cache[c].inuse = thr_num(&s);
			while (*s == ' ')
				s++;
			if (thr_word(&s, "slabs"))
				k->cache[c].slabs = thr_num(&s);
			while (*s == ' ')
				s++;
			if (thr_word(&s, "pages"))
				k->cache[c].pages = thr_num(&s);
		}
		while (*s && *s != '\n')
			s++;
		if (*s)
			s++;
	}
	return seen == 31 && k->ncaches > 0 ? 0 : -EINVAL;
}

/* The frames neither in an object cache's slab nor the reader's own:
 * the free ones plus every cache's pages plus the reader's resident
 * pages. After a workload that gave back every object, this comes back
 * exactly even when the objects that stay sit in other slabs than before
 * (a slab is freed only when its last object is, kernel/mm/kmem.c), or
 * the reader touched a page of its own for the first time (its stack,
 * a buffer), which free frames alone need not. */
__attribute__((unused))
static unsigned long thr_frames_outside_caches(const struct thr_kstat *k)
{
	unsigned long n = k->frames_free + k->self_rss;

	for (int i = 0; i < k->ncaches; i++)
		n += k->cache[i].pages;
	return n;
}

/* Whether b gives back all that a had: tasks and every cache's objects
 * in use, and thr_frames_outside_caches. If not, why says what differs. */
__attribute__((unused))
static bool thr_books_same(const struct thr_kstat *a, const struct thr_kstat *b, char *why,
			   size_t n)
{
	if (b->tasks != a->tasks)
		return snprintf(why, n, "tasks %lu, %lu before", b->tasks, a->tasks), false;
	if (b->ncaches != a->ncaches)
		return snprintf(why, n, "%d caches, %d before", b->ncaches, a->ncaches), false;
	for (int i = 0; i < a->ncaches; i++)
		if (b->cache[i].inuse != a->cache[i].inuse || strcmp(a->cache[i].name, b->cache[i].name))
			return snprintf(why, n, "cache %s: %lu objects in use, %lu before",
					b->cache[i].name, b->cache[i].inuse, a->cache[i].inuse), false;
	if (thr_frames_outside_caches(b) != thr_frames_outside_caches(a))
		return snprintf(why, n, "frames outside the caches %lu, %lu before (free %lu, %lu "
				"before; own %lu, %lu before)", thr_frames_outside_caches(b),
				thr_frames_outside_caches(a), b->frames_free, a->frames_free,
				b->self_rss, a->self_rss), false;
	return true;
}

/* The STATE letter of tid in /proc/tasks, or 0 if it is not listed. */
__attribute__((unused))
static char thr_task_state(int tid)
{
	const char *s = thr_procbuf;

	if (thr_read_file("/proc/tasks", thr_procbuf, sizeof(thr_procbuf)) < 0)
		return 0;
	while (*s) {
		if ((int)thr_num(&s) == tid) {
			thr_num(&s);            /* TGID */
			thr_num(&s);            /* PPID */
			while (*s == ' ')
				s++;
			return *s;
		}
		while (*s && *s != '\n')
			s++;
		if (*s)
			s++;
	}
	return 0;
}

/* Waits (up to ms) until tid sleeps (state S): true if it does. */
__attribute__((unused))
static bool thr_wait_sleeping(int tid, long ms)
{
	long long end = thr_now_ns() + ms * 1000000ll;

	while (thr_task_state(tid) != 'S') {
		if (thr_now_ns() > end)
			return false;
		raw_sched_yield();
	}
	return true;
}

#endif
