/* user/fuzz/worker.c - a worker: its memory, its threads and children,
 * and the loop that makes its calls (fuzz.h).
 *
 * A worker generation makes FZ_GEN_CALLS calls, then kills what is left
 * of its children and exits; the supervisor starts the next generation.
 * Its main thread spawns up to FZ_THREADS fuzzing threads (clone with a
 * thread's flags, plus random TLS, SETTID, DETACHED and RELEASE_VM) and
 * up to FZ_KIDS fuzzing child processes (clone without CLONE_VM, or with
 * it but not CLONE_THREAD); each makes up to FZ_SUB_CALLS calls. */
#include "user/fuzz/calls.h"
#include "signal.h"
#include "stdio.h"
#include "string.h"
#include "sys/mman.h"

static struct fz_world world;

static char *map(uint32_t pages, int prot)
{
	long r = raw_mmap2(NULL, pages * 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return RAW_IS_ERR(r) ? NULL : (char *)r;
}

void fz_world_init(struct fz_world *w, const struct fz_config *cfg, struct fz_shared *sh,
		   int slot)
{
	memset(w, 0, sizeof(*w));
	w->cfg = cfg;
	w->sh = sh;
	w->slot = slot;
	w->arena = map(FZ_ARENA_PAGES, PROT_READ | PROT_WRITE);
	w->victim = map(FZ_VICTIM_PAGES, PROT_READ | PROT_WRITE);
	w->stacks = map(FZ_THREADS * FZ_STACK / 4096, PROT_READ | PROT_WRITE);
	w->ro = map(1, PROT_READ);
	w->none = map(1, PROT_NONE);
	w->half = map(2, PROT_READ | PROT_WRITE);
	if (!w->arena || !w->victim || !w->stacks || !w->ro || !w->none || !w->half)
		raw_exit_group(3);              /* out of memory already: a new try */
	raw_munmap(w->half + 4096, 4096);       /* the hole */
}

static void task_loop(struct fz_task *t)
{
	const struct fz_shared *sh = t->w->sh;

	while (t->left && !(sh && sh->stop)) {
		if (fz_chance(t, 3))
			fz_trap(t);
		else
			fz_call(t);
	}
}

/* ---- threads and children ---- */

struct sub {
	struct fz_task t;               /* filled by the parent before clone */
};

static struct sub subs[FZ_THREADS + FZ_KIDS];

static void sub_main(void *arg)
{
	struct fz_task t = ((struct sub *)arg)->t;   /* a copy on our own stack */

	task_loop(&t);
}

static volatile int *busy_word(int i)
{
	return (volatile int *)(world.stacks + (i + 1) * FZ_STACK - 4);
}

static void record_kid(struct fz_shared *sh, int slot, long pid)
{
	if (!sh || pid <= 0)
		return;
	for (int k = 0; k < FZ_KIDS + FZ_THREADS; k++)
		if (sh->slot[slot].kids[k] == 0) {
			sh->slot[slot].kids[k] = (int)pid;
			return;
		}
}

static void forget_kid(struct fz_shared *sh, int slot, long pid)
{
	if (!sh)
		return;
	for (int k = 0; k < FZ_KIDS + FZ_THREADS; k++)
		if (sh->slot[slot].kids[k] == pid)
			sh->slot[slot].kids[k] = 0;
}

static int nkids;

static void spawn(struct fz_task *t, unsigned n)
{
	struct fz_shared *sh = t->w->sh;
	bool thread = fz_chance(t, 60);
	unsigned long flags;
	struct user_desc *u = NULL;
	int i = -1;
	long r;

	if (thread) {
		for (int k = 0; k < FZ_THREADS; k++)
			if (*busy_word(k) == 0) {
				i = k;
				break;
			}
		if (i < 0)
			return;
		flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD;
		if (fz_chance(t, 30))
			flags |= CLONE_DETACHED;
		if (fz_chance(t, 40))
			flags |= CLONE_RELEASE_VM;
		if (fz_chance(t, 30))
			flags |= CLONE_SETTID;
		if (fz_chance(t, 30)) {
			flags |= CLONE_SETTLS;
			u = (struct user_desc *)(t->w->arena + 2048);
			fz_user_desc(t, u);
		}
		if (fz_chance(t, 10))
			flags = (flags & ~0xffu) | (uint32_t)fz_exit_signal(t);
	} else {
		if (nkids >= FZ_KIDS)
			return;
		i = (int)fz_below(t, FZ_THREADS);      /* a copy of the stack: any slot */
		flags = (unsigned long)fz_exit_signal(t);
		if (fz_chance(t, 30))
			flags |= CLONE_VM | (fz_chance(t, 50) ? CLONE_SIGHAND : 0);
		if (flags & CLONE_VM) {
			int k;
			for (k = 0; k < FZ_THREADS && *busy_word(k); k++)
				;
			if (k == FZ_THREADS)
				return;
			i = k;
		}
		if (fz_chance(t, 20))
			flags |= CLONE_FILES;
	}
	struct sub *s = &subs[(flags & CLONE_VM) ? i : FZ_THREADS + nkids % FZ_KIDS];
	s->t = *t;
	s->t.rng = fz_mix(t->w->cfg->seed, (uint32_t)t->w->slot,
			  t->w->sh ? t->w->sh->slot[t->w->slot].gen : 0xe0, 0x100 + n);
	s->t.left = FZ_SUB_CALLS;
	s->t.made = 0;
	s->t.depth = 1;
	snprintf(s->t.name, sizeof(s->t.name), "%s%c%u", t->name, thread ? 't' : 'c', n);
	if (flags & CLONE_VM)
		*busy_word(i) = 1;
	fz_count(t, SYS_clone);
	fz_trace(t, SYS_clone, (uint32_t[]){ (uint32_t)flags }, 1);
	r = fz_clone(flags, world.stacks + (i + 1) * FZ_STACK,
		     (flags & CLONE_SETTID) ? (int *)(t->w->arena + 2040) : NULL, u, sub_main, s);
	if (r <= 0) {
		if (flags & CLONE_VM)
			*busy_word(i) = 0;
		return;
	}
	if (!(flags & CLONE_THREAD)) {
		nkids++;
		record_kid(sh, t->w->slot, r);
	}
}

/* Reaps whatever has ended: children, and threads that left zombies. */
static void reap(struct fz_task *t)
{
	long r;

	while ((r = raw_wait4(-1, NULL, WNOHANG | __WALL, NULL)) > 0) {
		forget_kid(t->w->sh, t->w->slot, r);
		if (nkids > 0)
			nkids--;
	}
}

/* The end of a generation: no child may outlive it for long. */
static void finish(struct fz_task *t)
{
	struct fz_shared *sh = t->w->sh;
	long long end = fz_now_ms() + 2000;

	if (sh)
		for (int k = 0; k < FZ_KIDS + FZ_THREADS; k++)
			if (sh->slot[t->w->slot].kids[k] > 0)
				raw_kill(sh->slot[t->w->slot].kids[k], SIGKILL);
	while (fz_now_ms() < end && raw_wait4(-1, NULL, WNOHANG | __WALL, NULL) >= 0)
		raw_sched_yield();
	raw_exit_group(0);
}

static void nop_handler(int sig)
{
	(void)sig;
}

/* Most signals get a handler that returns, so that the kills a worker
 * sends itself mostly test delivery and sigreturn rather than end it:
 * a generation lives long enough to build up state. The faults keep
 * their default (a handler would return to the fault for ever). */
static void catch_most(struct fz_task *t)
{
	struct k_sigaction ka = { (void *)nop_handler, SA_RESTORER, (void *)__restore_rt,
				  { 0, 0 } };

	for (int s = 1; s <= NSIG; s++)
		if (s != SIGSEGV && s != SIGBUS && s != SIGILL && s != SIGFPE && s != SIGTRAP &&
		    fz_chance(t, 85))
			raw_rt_sigaction(s, &ka, NULL, SIGSET_SIZE);
}

void fz_worker(const struct fz_config *cfg, struct fz_shared *sh, int slot, unsigned gen)
{
	struct fz_task t;
	unsigned spawned = 0;

	fz_world_init(&world, cfg, sh, slot);
	memset(&t, 0, sizeof(t));
	t.w = &world;
	t.rng = fz_mix(cfg->seed, (uint32_t)slot, gen, 0);
	t.left = FZ_GEN_CALLS;
	snprintf(t.name, sizeof(t.name), "w%d.%u", slot, gen);
	catch_most(&t);
	while (t.left && !sh->stop) {
		if ((t.made & 15) == 0)
			reap(&t);
		if (fz_chance(&t, 3))
			spawn(&t, spawned++);
		else if (fz_chance(&t, 3))
			fz_trap(&t);
		else
			fz_call(&t);
	}
	finish(&t);
	__builtin_unreachable();
}

/* /bin/fuzz -x STREAM CALLS: what a worker's execve of /bin/fuzz runs. */
void fz_exec_image(const struct fz_config *cfg, uint32_t stream, unsigned long calls)
{
	struct fz_task t;

	fz_world_init(&world, cfg, NULL, 0);
	memset(&t, 0, sizeof(t));
	t.w = &world;
	t.rng = fz_mix(cfg->seed, 0xe0, stream, 0);
	t.left = calls;
	t.depth = 1;
	snprintf(t.name, sizeof(t.name), "x%08x", stream);
	task_loop(&t);
	raw_exit_group(0);
	__builtin_unreachable();
}
