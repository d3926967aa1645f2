/* user/fuzz/books.c - the kernel's books: /proc/kstat read, the per-CPU
 * task cache emptied, two readings compared (fuzz.h). Used by the fuzz
 * session, the stress run and the exhaustion tests.
 *
 * The task cache (clone-detached-A1, kernel/exit.c) keeps the last
 * self-reaping task of each CPU parked, holding its task struct and
 * kernel stack. parked - freed - reused is how many are parked now. To
 * compare exactly, both readings are taken with every slot empty, as
 * t_storm does: a thread on each CPU clones an ordinary child, which
 * takes the parked task, and wait4 frees it. Then free frames, tasks
 * and every object cache's count must be what they were. */
#include "user/fuzz/fuzz.h"
#include "stdio.h"
#include "string.h"

long fz_read_file(const char *path, char *buf, long size)
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

static unsigned long num(const char **p)
{
	unsigned long v = 0;

	while (**p == ' ')
		(*p)++;
	while (**p >= '0' && **p <= '9')
		v = v * 10 + (unsigned long)(*(*p)++ - '0');
	return v;
}

static bool word(const char **s, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(*s, w, n) != 0 || (*s)[n] != ' ')
		return false;
	*s += n + 1;
	return true;
}

static const char *next_line(const char *s)
{
	while (*s && *s != '\n')
		s++;
	return *s ? s + 1 : s;
}

/* The next task line of a /proc/tasks text from s (the header skipped);
 * NULL at the end. */
const char *fz_proc_task(const char *s, struct fz_proc_task *pt)
{
	while (*s && (*s < '0' || *s > '9'))
		s = next_line(s);
	if (!*s)
		return NULL;
	const char *e = next_line(s), *p = s;
	size_t n = (size_t)(e - s);

	if (n && s[n - 1] == '\n')
		n--;
	if (n >= sizeof(pt->line))
		n = sizeof(pt->line) - 1;
	memcpy(pt->line, s, n);
	pt->line[n] = 0;
	pt->tid = (int)num(&p);
	pt->tgid = (int)num(&p);
	pt->ppid = (int)num(&p);
	while (*p == ' ')
		p++;
	pt->state = *p;
	return e;
}

static char kbuf[16384];

long fz_kstat(struct fz_books *k)
{
	static bool warm;
	long n;
	const char *s = kbuf;
	int seen = 0;

	/* The text is made at open, kbuf written at read: a page of kbuf
	 * first touched then would be missing from the reading. */
	if (!warm) {
		memset(kbuf, 0, sizeof(kbuf));
		warm = true;
	}
	n = fz_read_file("/proc/kstat", kbuf, sizeof(kbuf));

	if (n < 0)
		return n;
	memset(k, 0, sizeof(*k));
	for (; *s; s = next_line(s)) {
		if (word(&s, "frames_free"))
			k->frames_free = num(&s), seen |= 1;
		else if (word(&s, "task_cache_parked"))
			k->parked = num(&s), seen |= 2;
		else if (word(&s, "task_cache_freed"))
			k->freed = num(&s), seen |= 4;
		else if (word(&s, "task_cache_reused"))
			k->reused = num(&s), seen |= 8;
		else if (word(&s, "frames_total"))
			k->frames_total = num(&s);
		else if (word(&s, "self_rss_pages"))
			k->self_rss = num(&s);
		else if (word(&s, "fs_pages"))
			k->fs_pages = num(&s);
		else if (word(&s, "kmalloc_large_pages"))
			k->large_pages = num(&s);
		else if (word(&s, "tasks"))
			k->tasks = num(&s), seen |= 16;
		else if (word(&s, "cache") && k->ncaches < FZ_MAX_CACHES) {
			int i = 0, c = k->ncaches++;
			while (*s && *s != ' ' && i < 23)
				k->cache[c].name[i++] = *s++;
			k->cache[c].name[i] = 0;
			while (*s == ' ')
				s++;
			if (word(&s, "inuse"))
				k->cache[c].inuse = num(&s);
			while (*s == ' ')
				s++;
			if (word(&s, "slabs"))
				k->cache[c].slabs = num(&s);
			while (*s == ' ')
				s++;
			if (word(&s, "pages"))
				k->cache[c].pages = num(&s);
		}
	}
	return seen == 31 && k->ncaches > 0 ? 0 : -EINVAL;
}

unsigned long fz_parked_now(const struct fz_books *k)
{
	return k->parked - k->freed - k->reused;
}

/* ---- emptying the task cache ---- */

#define DRAINERS 8              /* abi.md: up to 8 CPUs */
#define DSTACK 8192

static char dstacks[2 * DRAINERS + 2][DSTACK] __attribute__((aligned(16)));
static volatile int drained, drain_done, drain_bad;

static void quick(void *arg)
{
	(void)arg;
}

/* An ordinary child takes this CPU's parked task; wait4 frees it. */
static void drain_here(char *stack_top)
{
	int st = -1;
	long tid = fz_clone(CLONE_VM | SIGCHLD, stack_top, NULL, NULL, quick, NULL);

	long r = -EINTR;

	/* pid 1 catches every signal (session.c): a wait may be interrupted. */
	while (tid > 0 && r == -EINTR)
		r = raw_wait4((int)tid, &st, 0, NULL);
	if (tid <= 0 || r != tid || st != 0)
		drain_bad = 1;
}

/* drain_here, then keep a CPU busy until all have drained: the scheduler
 * puts each next drainer on a less loaded CPU. */
static void drainer(void *arg)
{
	drain_here(arg);
	__atomic_add_fetch(&drained, 1, __ATOMIC_SEQ_CST);
	while (!drain_done)
		raw_sched_yield();
}

static char *dtop(int i)
{
	return dstacks[i] + DSTACK;
}

long fz_books_take(struct fz_books *k)
{
	static bool touched;
	long r;

	/* No page fault may come between a reading and its being stored:
	 * the stacks, and k itself (a static first written here would get
	 * its page after the kernel counted the free frames). */
	memset(k, 0, sizeof(*k));
	if (!touched) {
		memset(dstacks, 0, sizeof(dstacks));
		touched = true;
	}
	for (int round = 0; round < 20; round++) {
		long tid[DRAINERS];
		int n;

		if ((r = fz_kstat(k)) != 0)
			return r;
		if (fz_parked_now(k) == 0)
			return 0;
		drain_bad = 0;
		drain_here(dtop(0));
		drained = drain_done = 0;
		for (n = 0; n < DRAINERS; n++)
			if ((tid[n] = fz_clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
					       CLONE_THREAD, dtop(1 + 2 * n), NULL, NULL, drainer,
					       dtop(2 + 2 * n))) <= 0)
				break;
		long long end = fz_now_ms() + 20000;
		while (drained < n && fz_now_ms() < end)
			raw_sched_yield();
		drain_done = 1;
		for (int i = 0; i < n; i++)
			while (raw_wait4((int)tid[i], NULL, __WCLONE, NULL) == -EINTR)
				;
		if (drain_bad || n < DRAINERS)
			return -EAGAIN;
	}
	return fz_parked_now(k) == 0 ? 0 : -EBUSY;
}

/* The frames neither in an object cache's slab nor mapped by the
 * reader: the free ones, every cache's pages and our own (pid 1's)
 * pages. The same objects may sit in other slabs after a run (a slab is
 * freed with its last object, kernel/mm/kmem.c): a file's name freed
 * from an old slab, the sandbox's copy made again in a new one. And pid
 * 1 may touch a page of its own for the first time between the two
 * readings (its program's code or data). Neither is the kernel's leak,
 * so what must come back exactly is the objects and this sum, not the
 * free frames alone. */
static unsigned long frames_outside(const struct fz_books *k)
{
	unsigned long n = k->frames_free + k->self_rss;

	for (int i = 0; i < k->ncaches; i++)
		n += k->cache[i].pages;
	return n;
}

/* The first difference between two readings, or 0. */
static int books_diff(const struct fz_books *a, const struct fz_books *b, char *why, size_t n)
{
	if (b->tasks != a->tasks)
		return snprintf(why, n, "tasks %lu, %lu before", b->tasks, a->tasks), 1;
	if (b->ncaches != a->ncaches)
		return snprintf(why, n, "%d object caches, %d before", b->ncaches, a->ncaches), 1;
	for (int i = 0; i < a->ncaches; i++)
		if (b->cache[i].inuse != a->cache[i].inuse || strcmp(a->cache[i].name, b->cache[i].name))
			return snprintf(why, n, "cache %s: %lu objects in use, %lu before",
					b->cache[i].name, b->cache[i].inuse, a->cache[i].inuse), 1;
	if (frames_outside(b) != frames_outside(a))
		return snprintf(why, n, "frames outside the caches %lu, %lu before (free %lu, %lu "
				"before; file pages %lu, %lu before; large kmallocs %lu, %lu "
				"before; our own pages %lu, %lu before)", frames_outside(b),
				frames_outside(a), b->frames_free, a->frames_free, b->fs_pages,
				a->fs_pages, b->large_pages, a->large_pages, b->self_rss,
				a->self_rss), 1;
	return 0;
}

long fz_books_settle(const struct fz_books *k0, struct fz_books *k1, long ms, char *why,
		     size_t n)
{
	long long end = fz_now_ms() + ms;
	long r;

	for (;;) {
		r = fz_books_take(k1);
		if (r == 0 && !books_diff(k0, k1, why, n))
			return 0;
		if (fz_now_ms() > end) {
			if (r != 0)
				snprintf(why, n, "cannot empty the task cache: %ld (%lu parked)", r,
					 fz_parked_now(k1));
			return -1;
		}
		fz_sleep_ms(20);
	}
}
