/* user/tests/t_pthread_fork.c - fork() in a program whose other threads
 * are busy in the library (user/lib/fork.c): the child must not inherit
 * a lock held by a thread it does not have. Four threads loop on malloc
 * and free, fprintf to memory streams (whose buffers grow through
 * realloc with the stream's lock held), printf and thread creation, and
 * three more on keys, atexit and pthread_atfork (each guarded by a lock
 * of the library's), while the main thread forks 200 times; each child
 * uses all of that again - malloc, stdio, pthread_create and join - and
 * exits through exit(), which flushes every stream. Then the same from a thread other
 * than main, with main forking at the same time. (pthread_atfork's own
 * cases are t_pthread_atfork's.)
 *
 * A child reports only through its exit status (t.h). The parent waits
 * for each with a deadline: a child that hangs is killed and the case
 * fails, it does not hang the test. Booted as init. */
#define T_PROG "t_pthread_fork"
#include "t.h"
#include "thr.h"
#include "pthread.h"
#include "pthread_impl.h"      /* struct pthread's tid */
#include "unistd.h"

#define NWORKERS 4
#define NFORKS 200
#define CHILD_DEADLINE_MS 10000 /* a child needs some ms (on a loaded host); a hung one, for ever */
#define ROTATE 32               /* a worker's stream is replaced every ROTATE lines */

/* Prints the /proc/tasks lines of process pid's threads: for a child
 * that hangs, whether it spins (R) or sleeps (S), and on which CPU. */
static void show_tasks(pid_t pid)
{
	const char *s = thr_procbuf;

	if (thr_read_file("/proc/tasks", thr_procbuf, sizeof(thr_procbuf)) < 0)
		return;
	while (*s) {
		const char *line = s, *p = s;
		thr_num(&p);                    /* TID */
		bool ours = (pid_t)thr_num(&p) == pid;
		while (*s && *s != '\n')
			s++;
		if (ours)
			printf("t_pthread_fork: hung child: %.*s\n", (int)(s - line), line);
		if (*s)
			s++;
	}
}

/* Waits for pid, polling wait4 with WNOHANG, for up to ms: its wait
 * status, or -ETIMEDOUT once it has been killed (it hung), or -errno. */
static long wait_deadline(pid_t pid, long ms)
{
	long long end = thr_now_ns() + ms * 1000000ll;
	int st = -1;
	long r;

	while ((r = raw_wait4(pid, &st, WNOHANG, NULL)) == 0) {
		if (thr_now_ns() > end) {
			show_tasks(pid);
			raw_kill(pid, SIGKILL);
			raw_wait4(pid, &st, 0, NULL);
			return -ETIMEDOUT;
		}
		thr_sleep_ms(1);
	}
	return r == pid ? st : (r < 0 ? r : -EINVAL);
}

/* ---- the busy threads ---- */

struct worker {
	pthread_t t;
	int id;
	/* Its memory stream: NULL while it is being replaced, so that a
	 * child never sees one that is being closed (the store comes before
	 * fclose in this thread's program order, which fork preserves). */
	FILE *volatile out;
	char *buf;
	size_t len;
	unsigned long rounds, first;    /* rounds done; the first in out */
	int error;                      /* what went wrong (0: nothing) */
};

static struct worker workers[NWORKERS];
static volatile int stop;
/* > 0 while a forker waits for its child: the workers rest meanwhile, so
 * that the child gets the CPUs (on a loaded host, 4 spinning workers
 * make every child slow). Every fork still happens with them at work. */
static volatile int paused;

static const char filler[] = "the quick brown fox jumps over the lazy dog";

static int worker_line(char *s, size_t n, int id, unsigned long round)
{
	return snprintf(s, n, "worker %d round %lu: %s\n", id, round, filler);
}

/* Closes w's stream and checks that it holds exactly the lines of
 * rounds [first, rounds): the parent's streams stay whole through all
 * the forks. Then opens the next one. */
static int rotate(struct worker *w)
{
	FILE *f = w->out;
	char line[128];
	size_t at = 0;

	w->out = NULL;
	if (fclose(f))
		return 20;
	for (unsigned long r = w->first; r < w->rounds; r++) {
		int n = worker_line(line, sizeof(line), w->id, r);
		if (at + (size_t)n > w->len || memcmp(w->buf + at, line, (size_t)n))
			return 21;
		at += (size_t)n;
	}
	if (at != w->len || w->buf[at] != '\0')
		return 22;
	free(w->buf);
	w->first = w->rounds;
	if (!(f = open_memstream(&w->buf, &w->len)))
		return 23;
	w->out = f;
	return 0;
}

static void *nothing(void *arg)
{
	return arg;
}

static void at_exit_noop(void)
{
}

static void *worker(void *arg)
{
	struct worker *w = arg;
	unsigned seed = (unsigned)w->id * 2654435761u + 1;
	void *keep[8] = { 0 };
	pthread_t t;

	while (!atomic_load(&stop) && !w->error) {
		if (atomic_load(&paused)) {
			thr_sleep_ms(1);
			continue;
		}
		/* malloc's lock, and pages written (copy-on-write faults
		 * after every fork, while the next fork may be under way). */
		seed = seed * 1103515245u + 12345u;
		unsigned slot = (seed >> 8) & 7;
		size_t n = 1 + (seed >> 16) % 3000;
		free(keep[slot]);
		if (!(keep[slot] = malloc(n))) {
			w->error = 10;
			break;
		}
		memset(keep[slot], w->id, n);
		/* The stream's lock, and malloc's inside it as the buffer grows. */
		if (fprintf(w->out, "worker %d round %lu: %s\n", w->id, w->rounds, filler) < 0) {
			w->error = 11;
			break;
		}
		__atomic_store_n(&w->rounds, w->rounds + 1, __ATOMIC_RELAXED);
		printf("%s", "");       /* stdout's lock; prints nothing */
		if (w->rounds - w->first == ROTATE && (w->error = rotate(w)))
			break;          /* the list's lock, malloc's, fclose's flush */
		if (w->id == 2 && (w->rounds & 15) == 0) {
			void *r = NULL;
			if (pthread_create(&t, NULL, nothing, w) || pthread_join(t, &r) || r != w)
				w->error = 13;
		}
	}
	for (int i = 0; i < 8; i++)
		free(keep[i]);
	return NULL;
}

/* The library's other locks, each hammered by a thread of its own that
 * touches no other: a worker above is nearly always asleep on malloc's
 * or a stream's lock when the fork happens (fork takes those first), so
 * it would seldom be caught inside these. */
enum { LOOP_KEYS, LOOP_ATEXIT, LOOP_ATFORK, NLOOPERS };
static pthread_t loopers[NLOOPERS];
static volatile int looper_error;

static void *looper(void *arg)
{
	int kind = (int)(uintptr_t)arg;
	pthread_key_t key;

	while (!atomic_load(&stop)) {
		if (atomic_load(&paused)) {
			thr_sleep_ms(1);
			continue;
		}
		switch (kind) {
		case LOOP_KEYS:         /* the key table's lock */
			if (pthread_key_create(&key, NULL) || pthread_key_delete(key))
				looper_error = 15;
			break;
		case LOOP_ATEXIT:       /* the atexit table's (exit() takes it in
					 * every child); once the table is full,
					 * atexit only looks and says -1 */
			atexit(at_exit_noop);
			break;
		case LOOP_ATFORK:       /* pthread_atfork's, the same way: a
					 * handler that does nothing, then ENOMEM */
			pthread_atfork(NULL, NULL, NULL);
			break;
		}
	}
	return NULL;
}

/* Starts the workers and the loopers; false if one could not be made. */
static bool start_workers(void)
{
	stop = 0;
	memset(workers, 0, sizeof(workers));
	memset(loopers, 0, sizeof(loopers));
	for (int i = 0; i < NWORKERS; i++) {
		struct worker *w = &workers[i];

		w->id = i;
		if (!(w->out = open_memstream(&w->buf, &w->len)) ||
		    pthread_create(&w->t, NULL, worker, w))
			return false;
	}
	for (int i = 0; i < NLOOPERS; i++)
		if (pthread_create(&loopers[i], NULL, looper, (void *)(uintptr_t)i))
			return false;
	return true;
}

/* Stops and joins them; the first error any had (0: none), with rounds
 * for every worker in *rounds. */
static int stop_workers(unsigned long *rounds)
{
	int err = 0;

	atomic_store(&stop, 1);
	*rounds = 0;
	for (int i = 0; i < NLOOPERS; i++)
		if (loopers[i])
			pthread_join(loopers[i], NULL);
	if (looper_error)
		err = looper_error;
	for (int i = 0; i < NWORKERS; i++) {
		struct worker *w = &workers[i];

		if (!w->t)
			continue;       /* never started */
		pthread_join(w->t, NULL);
		if (!err && w->error)
			err = w->error;
		if (!err && w->out && (err = rotate(w)) == 0) {
			fclose(w->out);
			free(w->buf);
		}
		*rounds += w->rounds;
	}
	return err;
}

/* ---- the children ---- */

static void *child_thread(void *arg)
{
	return (char *)arg + 1;
}

/* What every child does: 0 if all worked (a CHECK says what did not).
 * self is the thread that forked, the child's only one. */
static int child_work(long i, pthread_t self)
{
	struct pthread_stats_np s;
	char *mem = NULL, want[32];
	size_t len = 0;
	void *r = NULL;
	pthread_key_t key;
	pthread_t t;
	FILE *f;

	CHECK(pthread_self() == self && self->tid == gettid());
	pthread_stats_np(&s);
	CHECK(s.running == 1 && s.exited == 0);
	char *p = malloc(1000);
	CHECK(p != NULL);
	memset(p, 'c', 1000);
	free(p);
	CHECK((f = open_memstream(&mem, &len)) != NULL);
	CHECK(fprintf(f, "child %ld", i) >= 0 && fclose(f) == 0);
	snprintf(want, sizeof(want), "child %ld", i);
	CHECK(strcmp(mem, want) == 0 && len == strlen(want));
	free(mem);
	CHECK(printf("%s", "") == 0);
	/* The workers' streams came along; each was whole at the fork. */
	for (int k = 0; k < NWORKERS; k++) {
		FILE *wf = workers[k].out;
		CHECK(!wf || fprintf(wf, "child %ld\n", i) >= 0);
	}
	/* The parent's other threads do not exist here. (Asked before a
	 * thread is created here: it may get a worker's old mapping, and so
	 * the same pthread_t, as POSIX allows.) */
	CHECK(pthread_join(workers[0].t, NULL) == ESRCH);
	CHECK(pthread_create(&t, NULL, child_thread, (void *)i) == 0 && pthread_join(t, &r) == 0);
	CHECK(r == (void *)(i + 1));
	CHECK(pthread_key_create(&key, NULL) == 0 && pthread_key_delete(key) == 0);
	int e = pthread_atfork(NULL, NULL, NULL);
	CHECK(e == 0 || e == ENOMEM);           /* ENOMEM once a looper filled it */
	return 0;
}

/* Forks n children, each running child(i, the forking thread) and then
 * exit() with its result: the index of the first that failed, with its
 * status in *st, or -1.
 *
 * Before each fork the busy threads get a moment (a tick) to be back at
 * work. The pause is asked for just before the fork: a thread sees it
 * only at the top of its loop, so those inside the library at the fork
 * still are, but each parks as soon as it is out, and the fork (which
 * may wait for every one of them) and the child compete with fewer. */
static int fork_children(int n, long *st, int (*child)(long, pthread_t))
{
	pthread_t me = pthread_self();

	for (int i = 0; i < n; i++) {
		thr_sleep_ms(1);
		atomic_add(&paused, 1);
		pid_t pid = fork();
		if (pid == 0)
			exit(child(i, me));
		*st = pid < 0 ? -errno : wait_deadline(pid, CHILD_DEADLINE_MS);
		atomic_add(&paused, -1);
		if (*st != EXITED(0))
			return i;
	}
	return -1;
}

TEST(fork_200_times_while_4_threads_malloc_and_print)
{
	unsigned long rounds;
	long long t0 = thr_now_ns();
	long st = 0;
	int failed = -1, err;

	if (start_workers())
		failed = fork_children(NFORKS, &st, child_work);
	else
		st = -EAGAIN, failed = 0;
	err = stop_workers(&rounds);
	EXPECT(failed < 0, "child %d of %d: %s", failed,
	       NFORKS, t_status_str(st, t_b1_));
	EXPECT_EQ(err, 0);
	printf("t_pthread_fork: %d forks in %lld ms, %lu worker rounds\n", NFORKS,
	       (thr_now_ns() - t0) / 1000000, rounds);
	EXPECT(rounds > 0, "the workers never ran");
}

/* A thread other than main forks, while main forks too: both children
 * have one thread, the one that forked. */
static void *forker(void *arg)
{
	long st = 0;
	int failed = fork_children(20, &st, child_work);

	(void)arg;
	return failed < 0 ? NULL : (void *)st;     /* st != 0 when it failed */
}

TEST(fork_from_a_thread_while_main_forks)
{
	unsigned long rounds;
	pthread_t f;
	void *fr = (void *)1;
	long st = 0;
	int failed = -1, err;

	if (!start_workers() || pthread_create(&f, NULL, forker, NULL)) {
		stop_workers(&rounds);
		FAIL("could not start the threads");
	}
	failed = fork_children(20, &st, child_work);
	pthread_join(f, &fr);
	err = stop_workers(&rounds);
	EXPECT(failed < 0, "main's child %d: %s", failed, t_status_str(st, t_b1_));
	EXPECT(fr == NULL, "the thread's child: %s", t_status_str((long)fr, t_b1_));
	EXPECT_EQ(err, 0);
}

/* In a child of a thread other than main, the main thread is gone. */
static void *fork_and_join_main(void *arg)
{
	pid_t pid = fork();

	if (pid == 0)
		exit(pthread_join((pthread_t)arg, NULL) == ESRCH &&
		     pthread_self()->tid == gettid() ? 0 : 1);
	return (void *)wait_deadline(pid, CHILD_DEADLINE_MS);
}

TEST(main_is_gone_in_a_child_of_another_thread)
{
	pthread_t t;
	void *r = NULL;

	EXPECT_EQ(pthread_create(&t, NULL, fork_and_join_main, pthread_self()), 0);
	EXPECT_EQ(pthread_join(t, &r), 0);
	EXPECT_STATUS((long)r, EXITED(0));
}

int main(void)
{
	RUN(fork_200_times_while_4_threads_malloc_and_print);
	RUN(fork_from_a_thread_while_main_forks);
	RUN(main_is_gone_in_a_child_of_another_thread);
	return t_exit_code();
}
