/* user/tests/t_exec_thread.c - execve in a thread of a multi-threaded
 * process (Linux's de_thread, kernel/exec.c). A forked child process
 * starts a CLONE_THREAD thread, which runs t_exec_child "leader": the
 * thread must come out of execve as the whole process, under the old
 * leader's pid (getpid() == gettid() == the child's pid, its parent
 * ours), so that /proc/tasks, kill(pid) and wait4(pid) find the new
 * program, and wait4(pid) reports its exit status. Nothing else of the
 * old process may remain: no other task of its group, no zombie, one
 * SIGCHLD in all, /proc/kstat's task count back where it started; the
 * threads killed by the execve reap themselves through the per-CPU task
 * cache (exactly that many task_cache_parked). With the leader already a
 * zombie, spinning in user mode, or asleep in FUTEX_WAIT with two other
 * threads; a detached thread with CLONE_RELEASE_VM (its word is zeroed);
 * a detached process (clone-detached-A1), whose leader exited first;
 * children of the leader and of the thread, which the new program keeps;
 * and execve by the leader itself. t_exec_child exits LEADER_BAD_* if its
 * ids are wrong, which shows here as a process that never runs it with
 * tid == pid. Booted as init. */
#define T_PROG "t_exec_thread"
#include "t.h"
#include "t_exec.h"
#include "thr.h"

#define STACK 16384
#define MAX_SLEEPERS 2
#define CODE 42                 /* the new program's exit status */
#define MAGIC 0x5a5a1234
#define DEADLINE_MS 10000

enum leader_does { LEADER_EXITS, LEADER_SPINS, LEADER_FUTEX_WAITS, LEADER_EXECS };

struct variant {
	enum leader_does leader;
	int sleepers;                   /* other threads asleep in FUTEX_WAIT */
	unsigned long flags;            /* more clone flags for the thread */
	bool grandchildren;             /* leader and thread each fork first */
	bool detached;                  /* the process: clone(CLONE_DETACHED) */
};

/* One MAP_SHARED area, mapped before the fork: what the child process
 * reports, then the stack of its execve-ing thread, so that we can read
 * the CLONE_RELEASE_VM word at the top of that stack. */
struct shared {
	struct variant v;
	int ppid;                       /* ours: the child's parent */
	volatile int pid;               /* the child process */
	volatile int tid;               /* its execve-ing thread, before execve */
	volatile int sleeper[MAX_SLEEPERS];
	volatile int grandchild[2];     /* forked by the leader, by the thread */
	volatile int spinning;
	volatile int futex;             /* stays 0: FUTEX_WAIT sleeps on it */
};
#define SHARED_SIZE (PAGE_SIZE + STACK)

static struct shared *sh;
static char stacks[MAX_SLEEPERS][STACK] __attribute__((aligned(16)));
static volatile unsigned long spin_count;
static char *const no_env[] = { NULL };

static char *thread_stack_top(void)
{
	return (char *)sh + SHARED_SIZE;
}

static volatile int *release_word(void)
{
	return (volatile int *)(thread_stack_top() - 4);
}

/* ---- the child process ---- */

static void sleep_forever(void)
{
	for (;;)
		thr_sleep_ms(1000);
}

static void futex_wait_forever(void)
{
	for (;;)
		raw_futex((int *)&sh->futex, FUTEX_WAIT, 0, NULL);
}

static int sleeper_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	futex_wait_forever();
	return 0;
}

static long fork_sleeper(void)
{
	long g = raw_fork();

	if (g == 0)
		sleep_forever();
	return g;
}

static int grandchild_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	sleep_forever();
	return 0;
}

/* fork, for the thread: its stack is in the MAP_SHARED area, which a
 * forked child would share and scribble on; this one gets a stack of its
 * own (a private copy, as the child does not share our memory). */
static long fork_sleeper_from_thread(void)
{
	static char stack[STACK] __attribute__((aligned(16)));

	return thr_clone(SIGCHLD, stack + STACK, NULL, NULL, grandchild_fn, NULL);
}

/* The thread (or, LEADER_EXECS, the leader): execve once the leader is
 * where the variant wants it. If execve fails, the whole process exits
 * 100 + errno. */
static int exec_fn(void *arg, const struct thr_regs *r)
{
	char pid[16], ppid[16], code[16];
	char *argv[] = { "t_exec_child", "leader", pid, ppid, code, NULL };
	long e;

	(void)arg;
	(void)r;
	if (sh->v.grandchildren && sh->v.leader != LEADER_EXECS)
		sh->grandchild[1] = (int)fork_sleeper_from_thread();
	if (sh->v.leader == LEADER_EXITS) {
		long long end = thr_now_ns() + DEADLINE_MS * 1000000ll;
		while (thr_task_state(sh->pid) != 'Z' && thr_now_ns() < end)
			raw_sched_yield();
	} else if (sh->v.leader == LEADER_SPINS) {
		thr_wait_word(&sh->spinning, 1, DEADLINE_MS);
	} else if (sh->v.leader == LEADER_FUTEX_WAITS) {
		thr_wait_sleeping(sh->pid, DEADLINE_MS);
	}
	snprintf(pid, sizeof(pid), "%d", sh->pid);
	snprintf(ppid, sizeof(ppid), "%d", sh->ppid);
	snprintf(code, sizeof(code), "%d", CODE);
	e = raw_execve(EXEC_CHILD, argv, no_env);
	raw_exit_group(100 + (int)-e);
	return 0;
}

static int run_child(void);

/* The process of a detached variant, made by clone without CLONE_VM:
 * this stack is its own copy. */
static char child_stack[STACK] __attribute__((aligned(16)));

static int child_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	raw_exit_group(run_child());
	return 0;
}

static int run_child(void)
{
	long tid;

	sh->pid = (int)raw_getpid();
	if (sh->v.grandchildren)
		sh->grandchild[0] = (int)fork_sleeper();
	for (int i = 0; i < sh->v.sleepers; i++) {
		tid = thr_clone(THR_THREAD_FLAGS, stacks[i] + STACK, NULL, NULL, sleeper_fn, NULL);
		if (tid < 0)
			return 80;
		sh->sleeper[i] = (int)tid;
		if (!thr_wait_sleeping((int)tid, DEADLINE_MS))
			return 81;
	}
	if (sh->v.leader == LEADER_EXECS) {
		sh->tid = sh->pid;
		return exec_fn(NULL, NULL);
	}
	tid = thr_clone(THR_THREAD_FLAGS | sh->v.flags, thread_stack_top(), NULL, NULL,
			exec_fn, NULL);
	if (tid < 0)
		return 82;
	sh->tid = (int)tid;
	switch (sh->v.leader) {
	case LEADER_EXITS:
		raw_exit(0);            /* SYS_exit: the leader thread only */
		return 83;
	case LEADER_SPINS:
		sh->spinning = 1;
		for (;;)
			spin_count++;
	default:
		futex_wait_forever();
		return 84;
	}
}

/* ---- /proc/tasks ---- */

struct row {
	int tid, tgid, ppid, exitsig;
	char state;
	char comm[16];
};
#define MAX_ROWS 64

static int snum(const char **p)
{
	int neg = 0;

	while (**p == ' ')
		(*p)++;
	if (**p == '-') {
		neg = 1;
		(*p)++;
	}
	return neg ? -(int)thr_num(p) : (int)thr_num(p);
}

/* Every task (TID TGID PPID STATE CPU EXITSIG COMM ...); how many. */
static int read_tasks(struct row *rows)
{
	const char *s = thr_procbuf;
	int n = 0;

	if (thr_read_file("/proc/tasks", thr_procbuf, sizeof(thr_procbuf)) < 0)
		return -1;
	while (*s && *s != '\n')
		s++;                    /* the header */
	while (*s == '\n' && s[1] && n < MAX_ROWS) {
		struct row *r = &rows[n++];
		int i = 0;
		s++;
		r->tid = snum(&s);
		r->tgid = snum(&s);
		r->ppid = snum(&s);
		while (*s == ' ')
			s++;
		r->state = *s++;
		snum(&s);               /* CPU */
		r->exitsig = snum(&s);
		while (*s == ' ')
			s++;
		while (*s && *s != ' ' && *s != '\n' && i < 15)
			r->comm[i++] = *s++;
		r->comm[i] = 0;
		while (*s && *s != '\n')
			s++;
	}
	return n;
}

static const struct row *find_row(const struct row *rows, int n, int tid)
{
	for (int i = 0; i < n; i++)
		if (rows[i].tid == tid)
			return &rows[i];
	return NULL;
}

static int count_group(const struct row *rows, int n, int tgid)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		c += rows[i].tgid == tgid;
	return c;
}

/* ---- the parent: observe everything first, clean up, then judge ---- */

static volatile int chld_hits;
static void on_chld(int sig) { (void)sig; chld_hits++; }

static long wait_retry(long pid, int *st, int options)
{
	long r;

	while ((r = raw_wait4((int)pid, st, options, NULL)) == -EINTR)
		;
	return r;
}

struct seen {
	long pid;
	bool exec_seen;                 /* tid == pid runs t_exec_child */
	long early;                     /* else: its wait status, or -1 */
	struct row leader;              /* the row of tid == pid */
	int group_rows;                 /* rows with tgid == pid */
	bool old_tids_listed;           /* the thread's or a sleeper's */
	int grand_ppid[2];
	unsigned long tasks_running;
	int word;
	long kill_r, tgkill_r, wait_r;
	int status;
	int chld;
	long echild;
	int group_rows_after;
	struct thr_kstat k0, k1;
};

/* Kills and reaps whatever is left, up to a few seconds. */
static void reap_all(struct seen *o)
{
	long long end = thr_now_ns() + 3000000000ll;

	if (o->pid > 0)
		raw_kill((int)o->pid, SIGKILL);
	for (int i = 0; i < 2; i++)
		if (sh->grandchild[i] > 0)
			raw_kill(sh->grandchild[i], SIGKILL);
	while (thr_now_ns() < end) {
		long r = raw_wait4(-1, NULL, WNOHANG | __WALL, NULL);
		if (r == -ECHILD)
			return;
		if (r <= 0)
			thr_sleep_ms(10);
	}
}

static void observe(const struct variant *v, struct seen *o)
{
	static struct row rows[MAX_ROWS];
	long long end;
	int n = 0, st = -1;

	memset(o, 0, sizeof(*o));
	memset(sh, 0, sizeof(*sh));
	o->early = -1;
	sh->v = *v;
	sh->ppid = (int)raw_getpid();
	*release_word() = MAGIC;
	chld_hits = 0;
	thr_kstat(&o->k0);
	if (v->detached)
		o->pid = thr_clone(CLONE_DETACHED, child_stack + STACK, NULL, NULL, child_fn, NULL);
	else if ((o->pid = raw_fork()) == 0)
		raw_exit_group(run_child());
	if (o->pid < 0)
		return;
	/* Until the task with tid == pid runs the new program. */
	for (end = thr_now_ns() + DEADLINE_MS * 1000000ll; thr_now_ns() < end;) {
		const struct row *r;
		n = read_tasks(rows);
		r = find_row(rows, n, (int)o->pid);
		if (r && !strcmp(r->comm, "t_exec_child") && r->state == 'S') {
			o->exec_seen = true;
			o->leader = *r;
			break;
		}
		if (raw_wait4((int)o->pid, &st, WNOHANG | __WALL, NULL) == o->pid ||
		    (v->detached && count_group(rows, n, (int)o->pid) == 0)) {
			o->early = v->detached ? -2 : st;
			o->pid = 0;
			break;
		}
		raw_sched_yield();
	}
	if (!o->exec_seen) {
		reap_all(o);
		return;
	}
	o->group_rows = count_group(rows, n, (int)o->pid);
	o->old_tids_listed = (sh->tid != o->pid && find_row(rows, n, sh->tid));
	for (int i = 0; i < v->sleepers; i++)
		o->old_tids_listed |= find_row(rows, n, sh->sleeper[i]) != NULL;
	for (int i = 0; i < 2; i++) {
		const struct row *g = find_row(rows, n, sh->grandchild[i]);
		o->grand_ppid[i] = g ? g->ppid : -1;
	}
	thr_kstat(&o->k1);
	o->tasks_running = o->k1.tasks;
	o->word = *release_word();
	o->tgkill_r = raw_tgkill((int)o->pid, (int)o->pid, 0);
	o->kill_r = raw_kill((int)o->pid, SIGUSR1);
	if (v->detached) {
		/* Nobody waits for it: it is gone once its row is. */
		end = thr_now_ns() + DEADLINE_MS * 1000000ll;
		while ((n = read_tasks(rows)) >= 0 && find_row(rows, n, (int)o->pid) &&
		       thr_now_ns() < end)
			raw_sched_yield();
		o->wait_r = raw_wait4((int)o->pid, &o->status, WNOHANG | __WALL, NULL);
	} else {
		o->wait_r = wait_retry(o->pid, &o->status, 0);
	}
	thr_sleep_ms(50);               /* time for a stray SIGCHLD */
	o->chld = chld_hits;
	for (int i = 0; i < 2; i++)
		if (sh->grandchild[i] > 0) {
			raw_kill(sh->grandchild[i], SIGKILL);
			wait_retry(sh->grandchild[i], NULL, 0);
		}
	o->echild = raw_wait4(-1, NULL, WNOHANG | __WALL, NULL);
	n = read_tasks(rows);
	o->group_rows_after = count_group(rows, n, (int)o->pid);
	thr_kstat(&o->k1);
	if (o->echild != -ECHILD)
		reap_all(o);
}

static void check(const struct variant *v)
{
	struct seen o;
	/* The leader's child, and the thread's unless the leader execs. */
	int grand = !v->grandchildren ? 0 : v->leader == LEADER_EXECS ? 1 : 2;
	int exitsig = v->detached ? -1 : SIGCHLD;

	EXPECT_EQ(thr_signal(SIGCHLD, on_chld), 0);
	observe(v, &o);
	EXPECT_EQ(thr_signal(SIGCHLD, SIG_DFL), 0);
	EXPECT(o.pid >= 0, "fork: %s", t_val(o.pid, t_b1_));
	EXPECT(o.exec_seen, "tid %d never ran t_exec_child; %s %s", sh->pid,
	       o.early >= 0 ? "the process ended with status" :
	       o.early == -2 ? "the process is gone" : "still running after",
	       o.early >= 0 ? t_status_str(o.early, t_b1_) : o.early == -2 ? "" : "10 s");
	/* The process keeps its parent and exit signal (-1: detached). */
	EXPECT(o.leader.tgid == o.pid && o.leader.ppid == sh->ppid && o.leader.exitsig == exitsig,
	       "/proc/tasks: tid %d tgid %d ppid %d exit signal %d, want %ld %ld %d %d",
	       o.leader.tid, o.leader.tgid, o.leader.ppid, o.leader.exitsig, o.pid, o.pid,
	       sh->ppid, exitsig);
	EXPECT(o.group_rows == 1 && !o.old_tids_listed,
	       "/proc/tasks: %d tasks with tgid %ld (want 1), old thread ids %s",
	       o.group_rows, o.pid, o.old_tids_listed ? "still listed" : "gone");
	for (int i = 0; i < grand; i++)
		EXPECT(o.grand_ppid[i] == o.pid, "the %s's child %d has parent %d, want %ld",
		       i ? "thread" : "leader", sh->grandchild[i], o.grand_ppid[i], o.pid);
	EXPECT(o.tasks_running == o.k0.tasks + 1 + (unsigned long)grand,
	       "/proc/kstat tasks %lu while the new program runs, want %lu + 1 + %d",
	       o.tasks_running, o.k0.tasks, grand);
	if (v->flags & CLONE_RELEASE_VM)
		EXPECT(o.word == 0, "the CLONE_RELEASE_VM word is %#x after execve", o.word);
	EXPECT_EQ(o.tgkill_r, 0);
	EXPECT_EQ(o.kill_r, 0);
	if (v->detached) {
		EXPECT_EQ(o.wait_r, -ECHILD);
		EXPECT(o.chld == 0, "%d SIGCHLDs from a detached process", o.chld);
	} else {
		EXPECT_EQ(o.wait_r, o.pid);
		EXPECT_STATUS(o.status, EXITED(CODE));
		EXPECT(o.chld == 1, "%d SIGCHLDs, want 1 (for the new program's exit only)",
		       o.chld);
	}
	EXPECT_EQ(o.echild, -ECHILD);
	EXPECT_EQ(o.group_rows_after, 0);
	EXPECT(o.k1.tasks == o.k0.tasks, "/proc/kstat tasks %lu after, %lu before",
	       o.k1.tasks, o.k0.tasks);
	/* Killed threads reap themselves; the old leader and forks do not,
	 * nor does the execve-ing thread, even a detached one: it is the
	 * leader now, with the leader's exit signal. Unless the process is
	 * detached: then it reaps itself at the end too. */
	EXPECT(o.k1.parked - o.k0.parked == (unsigned long)(v->sleepers + v->detached),
	       "task_cache_parked grew by %lu, want %d (the killed threads%s)",
	       o.k1.parked - o.k0.parked, v->sleepers + v->detached,
	       v->detached ? " and the process" : "");
}

TEST(leader_already_a_zombie)
{
	static const struct variant v = { .leader = LEADER_EXITS };
	check(&v);
}

TEST(leader_spinning_in_user_mode)
{
	static const struct variant v = { .leader = LEADER_SPINS };
	check(&v);
}

TEST(leader_and_two_threads_in_futex_wait)
{
	static const struct variant v = { .leader = LEADER_FUTEX_WAITS, .sleepers = 2 };
	check(&v);
}

TEST(detached_thread_with_release_vm)
{
	static const struct variant v = { .leader = LEADER_SPINS, .sleepers = 1,
					  .flags = CLONE_DETACHED | CLONE_RELEASE_VM };
	check(&v);
}

TEST(zombie_leader_detached_thread)
{
	static const struct variant v = { .leader = LEADER_EXITS, .sleepers = 2,
					  .flags = CLONE_DETACHED };
	check(&v);
}

TEST(children_of_leader_and_thread_stay)
{
	static const struct variant v = { .leader = LEADER_FUTEX_WAITS, .sleepers = 1,
					  .grandchildren = true };
	check(&v);
}

/* clone-detached-A1: a detached leader that exits first must stay (a
 * zombie) while its threads live, so that one can take over its pid. */
TEST(detached_process_leader_exited)
{
	static const struct variant v = { .leader = LEADER_EXITS, .sleepers = 1,
					  .detached = true };
	check(&v);
}

TEST(leader_execs_with_threads_asleep)
{
	static const struct variant v = { .leader = LEADER_EXECS, .sleepers = 2,
					  .grandchildren = true };
	check(&v);
}

int main(void)
{
	long r = raw_mmap2(NULL, SHARED_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (RAW_IS_ERR(r)) {
		printf("FAIL %s.setup: mmap2 MAP_SHARED: %ld\n", T_PROG, r);
		return 1;
	}
	sh = (struct shared *)r;
	RUN(leader_already_a_zombie);
	RUN(leader_spinning_in_user_mode);
	RUN(leader_and_two_threads_in_futex_wait);
	RUN(detached_thread_with_release_vm);
	RUN(zombie_leader_detached_thread);
	RUN(children_of_leader_and_thread_stay);
	RUN(detached_process_leader_exited);
	RUN(leader_execs_with_threads_asleep);
	return t_exit_code();
}
