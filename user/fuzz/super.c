/* user/fuzz/super.c - the supervisor: keeps cfg->workers workers going
 * until the budget is spent (fuzz.h).
 *
 * A worker that exits or dies is replaced by its next generation. One
 * whose heartbeat (its slot's call count) stands still for FZ_STALL_MS
 * is blocked somewhere (a futex nobody wakes, a long sleep): it gets
 * SIGKILL, which must end it wherever it sleeps; one still there
 * FZ_UNKILLABLE_MS later is a kernel bug, reported with its state from
 * /proc/tasks, and ends the run. So do a trap child that came back with
 * privilege (traps.c) and one SIGKILL could not end. */
#include "user/fuzz/fuzz.h"
#include "signal.h"
#include "stdio.h"
#include "string.h"
#include "sys/mman.h"

#define FZ_STALL_MS 3000
#define FZ_UNKILLABLE_MS 15000

struct watch {
	unsigned long last_calls;
	long long last_change, killed_at;
};

static struct watch watch[FZ_MAX_WORKERS];
static unsigned long deaths_by_signal, stalls, exits, generations;
static bool shared_changed;     /* a worker exited FZ_EXIT_SHARED: its line says why */
static int sig_count[NSIG + 1];

static void start(const struct fz_config *cfg, struct fz_shared *sh, int i)
{
	struct fz_slot *s = &sh->slot[i];
	long pid;

	memset((void *)s->kids, 0, sizeof(s->kids));
	s->calls = 0;
	pid = raw_fork();
	if (pid == 0)
		fz_worker(cfg, sh, i, s->gen);
	if (pid < 0) {                          /* out of tasks for now: later */
		s->pid = 0;
		return;
	}
	s->pid = (int)pid;
	generations++;
	watch[i].last_calls = 0;
	watch[i].last_change = fz_now_ms();
	watch[i].killed_at = 0;
}

/* Prints the lines of /proc/tasks whose TGID is pid. */
static void show_task(int pid)
{
	static char buf[16384];
	struct fz_proc_task pt;
	const char *s = buf;

	if (fz_read_file("/proc/tasks", buf, sizeof(buf)) < 0)
		return;
	while ((s = fz_proc_task(s, &pt)))
		if (pt.tgid == pid || pt.tid == pid)
			printf("fuzz:   %s\n", pt.line);
}

static void reap(const struct fz_config *cfg, struct fz_shared *sh)
{
	int st;
	long pid;

	while ((pid = raw_wait4(-1, &st, WNOHANG | __WALL, NULL)) > 0) {
		for (int i = 0; i < cfg->workers; i++) {
			if (sh->slot[i].pid != pid)
				continue;
			sh->slot[i].pid = 0;
			sh->slot[i].gen++;
			if ((st & 0x7f) != 0) {
				deaths_by_signal++;
				sig_count[(st & 0x7f) <= NSIG ? st & 0x7f : 0]++;
			} else {
				exits++;
				if (((st >> 8) & 0xff) == FZ_EXIT_SHARED)
					shared_changed = true;
			}
		}
	}
}

/* 0 while all is well; 1 once a kernel bug has been seen (printed). */
static int watchdog(const struct fz_config *cfg, struct fz_shared *sh)
{
	long long now = fz_now_ms();

	for (int i = 0; i < cfg->workers; i++) {
		struct fz_slot *s = &sh->slot[i];
		struct watch *w = &watch[i];
		if (!s->pid)
			continue;
		if (s->calls != w->last_calls) {
			w->last_calls = s->calls;
			w->last_change = now;
		} else if (!w->killed_at && now - w->last_change > FZ_STALL_MS) {
			raw_kill(s->pid, SIGKILL);
			for (int k = 0; k < FZ_KIDS + FZ_THREADS; k++)
				if (s->kids[k] > 0)
					raw_kill(s->kids[k], SIGKILL);
			w->killed_at = now;
			stalls++;
		} else if (w->killed_at && now - w->killed_at > FZ_UNKILLABLE_MS) {
			printf("fuzz: BUG: worker %d (pid %d, generation %u) survived SIGKILL for "
			       "%d s; last call %lu:\n", i, s->pid, s->gen, FZ_UNKILLABLE_MS / 1000,
			       s->nr);
			show_task(s->pid);
			return 1;
		}
	}
	if (sh->escalated) {
		printf("fuzz: BUG: a trap child (kind %u, %#x) %s\n", sh->escalation_kind,
		       sh->escalation_sub, sh->escalated == FZ_EXIT_DF ?
		       "saw the kernel copy with the direction flag set" :
		       "came back to user mode with privilege (CPL, IOPL, VM or IF)");
		return 1;
	}
	if (sh->unkillable) {
		printf("fuzz: BUG: trap child pid %d survived SIGKILL for 10 s:\n", sh->unkillable);
		show_task(sh->unkillable);
		return 1;
	}
	/* Every worker would now see it after each call: one report (the
	 * first "shared page changed" line above) ends the run. */
	if (shared_changed)
		return 1;
	return 0;
}

static int running(const struct fz_config *cfg, const struct fz_shared *sh)
{
	int n = 0;

	for (int i = 0; i < cfg->workers; i++)
		n += sh->slot[i].pid != 0;
	return n;
}

/* Every worker told to stop (they look at sh->stop before each call),
 * then killed; 1 if one will not go. */
static int stop_all(const struct fz_config *cfg, struct fz_shared *sh)
{
	long long start = fz_now_ms();

	sh->stop = 1;
	while (running(cfg, sh)) {
		long long now = fz_now_ms();
		reap(cfg, sh);
		if (now - start > 2000)
			for (int i = 0; i < cfg->workers; i++)
				if (sh->slot[i].pid && !watch[i].killed_at) {
					raw_kill(sh->slot[i].pid, SIGKILL);
					watch[i].killed_at = now;
				}
		if (now - start > 2000 + FZ_UNKILLABLE_MS) {
			for (int i = 0; i < cfg->workers; i++)
				if (sh->slot[i].pid) {
					printf("fuzz: BUG: worker %d (pid %d) survived SIGKILL:\n", i,
					       sh->slot[i].pid);
					show_task(sh->slot[i].pid);
				}
			return 1;
		}
		fz_sleep_ms(5);
	}
	return 0;
}

int fz_supervise(const struct fz_config *cfg)
{
	size_t size = FZ_SHARED_SIZE;
	/* The guard and the page above it (fuzz.h): one reservation, then
	 * the page mapped over its top. */
	long g = raw_mmap2(NULL, FZ_GUARD + size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long r = RAW_IS_ERR(g) ? g : raw_mmap2((void *)(g + FZ_GUARD), size, PROT_READ | PROT_WRITE,
						MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	long long t0 = fz_now_ms();
	struct fz_shared *sh;
	int bad = 0;

	if (RAW_IS_ERR(r)) {
		printf("fuzz: cannot map the shared page: %ld\n", r);
		return 2;
	}
	/* pid 1's guard handlers (session.c) are no use here: a fault must
	 * kill the supervisor, not return to the faulting instruction. */
	for (int sig = 1; sig <= NSIG; sig++) {
		struct k_sigaction dfl = { SIG_DFL, 0, NULL, { 0, 0 } };
		raw_rt_sigaction(sig, &dfl, NULL, SIGSET_SIZE);
	}
	sh = (struct fz_shared *)r;
	memset(sh, 0, size);
	sh->magic = FZ_MAGIC;
	sh->super_pid = (int)raw_getpid();
	sh->budget = cfg->calls;
	printf("fuzz: seed %#x, %lu calls, %d workers%s\n", cfg->seed, cfg->calls, cfg->workers,
	       cfg->sigkill_exit ? ", SIGKILL exit signals" : "");
	for (int i = 0; i < cfg->workers; i++)
		start(cfg, sh, i);
	while (!sh->stop && !bad) {
		reap(cfg, sh);
		for (int i = 0; i < cfg->workers && !sh->stop; i++)
			if (!sh->slot[i].pid)
				start(cfg, sh, i);
		bad = watchdog(cfg, sh);
		fz_sleep_ms(10);
	}
	bad |= stop_all(cfg, sh);
	printf("fuzz: seed %#x stopped after %llu calls in %lld ms: %lu worker generations, "
	       "%lu ended by a signal, %lu stalled and killed\n", cfg->seed,
	       (unsigned long long)sh->total,
	       fz_now_ms() - t0, generations, deaths_by_signal, stalls);
	printf("fuzz: where each worker stopped:");
	for (int i = 0; i < cfg->workers; i++)
		printf(" w%d.%u#%lu", i, sh->slot[i].gen ? sh->slot[i].gen - 1 : 0, sh->slot[i].calls);
	printf("\nfuzz: deaths by signal:");
	for (int s = 0; s <= NSIG; s++)
		if (sig_count[s])
			printf(" %d:%d", s, sig_count[s]);
	printf("\n");
	return bad;
}
