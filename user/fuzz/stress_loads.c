/* user/fuzz/stress_loads.c - the loads of the stress run (stress.h).
 * Every check that fails is counted with st_error; nothing here may
 * block for ever: every wait has a deadline. */
#include "user/fuzz/stress.h"
#include "pthread.h"
#include "signal.h"
#include "stdio.h"
#include "string.h"
#include "sys/mman.h"

const char *const st_load_names[ST_NLOADS] = {
	"threads", "forkexec", "signals", "futex", "execrace",
};

void st_error(struct st_shared *sh, enum st_load which, const char *fmt, ...)
{
	va_list ap;

	if (__atomic_add_fetch(&sh->errors[which], 1, __ATOMIC_SEQ_CST) != 1)
		return;
	va_start(ap, fmt);
	vsnprintf((char *)sh->why[which], sizeof(sh->why[which]), fmt, ap);
	va_end(ap);
}

static char *const st_env[] = { NULL };

/* The exit status of pid within ms, or -1 (then it is SIGKILLed and
 * waited for 10 s more; -2 if even that does not end it). */
static int wait_status(long pid, long ms)
{
	int st = 0;
	long r = fz_wait_child((int)pid, &st, ms);

	if (r == 0)
		return -2;
	return r == pid ? st : -1;
}

/* ---- threads ---- */

#define ST_JOINED 8
#define ST_DETACHED 4
#define ST_RAW 16
#define ST_RAW_STACK 4096

static pthread_mutex_t st_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int st_counter, st_detached_left;
static char st_raw_stacks[ST_RAW][ST_RAW_STACK] __attribute__((aligned(16)));

static void *joined_fn(void *arg)
{
	for (int i = 0; i < 100; i++) {
		pthread_mutex_lock(&st_lock);
		st_counter++;
		pthread_mutex_unlock(&st_lock);
	}
	return arg;
}

static void *detached_fn(void *arg)
{
	__atomic_sub_fetch(&st_detached_left, 1, __ATOMIC_SEQ_CST);
	return arg;
}

static void raw_fn(void *arg)
{
	(void)arg;
}

/* The report of a pthread_create that failed (err), made at once: with
 * the memory then, since EAGAIN with less than 1/8 of the frames free is
 * the kernel's rule (kernel/fork.c, room_for_a_task), not a bug, and
 * EAGAIN with plenty free is one. */
static void create_failed(struct st_shared *sh, int kind, const char *what, int n, int err)
{
	struct fz_books k;

	if (fz_kstat(&k) < 0)
		k.frames_free = k.frames_total = 0;
	st_error(sh, kind, "%s: %d threads created (pthread_create: %d, free frames %lu of %lu)",
		 what, n, err, k.frames_free, k.frames_total);
}

static void threads_round(struct st_shared *sh)
{
	pthread_t t[ST_JOINED];
	int n = 0, err = 0;

	st_counter = 0;
	for (; n < ST_JOINED; n++)
		if ((err = pthread_create(&t[n], NULL, joined_fn, (void *)(long)n)) != 0) {
			create_failed(sh, ST_THREADS, "joined", n, err);
			break;
		}
	for (int i = 0; i < n; i++) {
		void *r = NULL;
		if (pthread_join(t[i], &r) != 0 || r != (void *)(long)i)
			st_error(sh, ST_THREADS, "pthread_join %d: result %p", i, r);
	}
	if (st_counter != 100 * n)
		st_error(sh, ST_THREADS, "%d threads, counter %d", n, st_counter);

	st_detached_left = ST_DETACHED;
	for (int i = 0; i < ST_DETACHED; i++) {
		pthread_t d;
		if (pthread_create(&d, NULL, detached_fn, NULL) != 0 || pthread_detach(d) != 0) {
			__atomic_sub_fetch(&st_detached_left, 1, __ATOMIC_SEQ_CST);
			st_error(sh, ST_THREADS, "detached pthread %d", i);
		}
	}
	for (long long end = fz_now_ms() + 10000; st_detached_left && fz_now_ms() < end;)
		raw_sched_yield();
	if (st_detached_left)
		st_error(sh, ST_THREADS, "%d detached pthreads never ran", st_detached_left);

	/* The seed's threads: detached, the stack word cleared at exit. */
	for (int i = 0; i < ST_RAW; i++) {
		volatile int *busy = (volatile int *)(st_raw_stacks[i] + ST_RAW_STACK - 4);
		*busy = 1;
		if (fz_clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
			     CLONE_DETACHED | CLONE_RELEASE_VM, st_raw_stacks[i] + ST_RAW_STACK,
			     NULL, NULL, raw_fn, NULL) <= 0) {
			*busy = 0;
			st_error(sh, ST_THREADS, "raw detached clone %d", i);
		}
	}
	for (int i = 0; i < ST_RAW; i++) {
		volatile int *busy = (volatile int *)(st_raw_stacks[i] + ST_RAW_STACK - 4);
		for (long long end = fz_now_ms() + 10000; *busy && fz_now_ms() < end;)
			raw_sched_yield();
		if (*busy) {
			st_error(sh, ST_THREADS, "raw detached thread %d never exited", i);
			*busy = 0;
		}
	}
}

/* ---- fork and exec ---- */

static char st_vstack[16384] __attribute__((aligned(16)));

static void exec_child(void *arg)
{
	char *argv[] = { "stress", "-c", (char *)arg, NULL };

	raw_execve("/bin/stress", argv, st_env);
	raw_exit_group(100);
}

static void forkexec_round(struct st_shared *sh)
{
	long pid = raw_fork();
	int st;

	if (pid == 0)
		exec_child("7");
	if ((st = wait_status(pid, 20000)) != 7 << 8)
		st_error(sh, ST_FORKEXEC, "fork+exec: pid %ld status %#x", pid, st);
	pid = raw_fork();
	if (pid == 0)
		raw_exit_group(5);
	if ((st = wait_status(pid, 20000)) != 5 << 8)
		st_error(sh, ST_FORKEXEC, "fork+exit: status %#x", st);
	/* posix_spawn's way: a CLONE_VM child that execs at once. */
	pid = fz_clone(CLONE_VM | SIGCHLD, st_vstack + sizeof(st_vstack), NULL, NULL,
		       exec_child, "8");
	if ((st = wait_status(pid, 20000)) != 8 << 8)
		st_error(sh, ST_FORKEXEC, "CLONE_VM+exec: pid %ld status %#x", pid, st);
}

/* ---- signals ---- */

static volatile int st_got, st_done;
static volatile int *st_ready;          /* MAP_SHARED: the target's handlers are in */

static void count_handler(int sig)
{
	(void)sig;
	st_got++;
}

static void done_handler(int sig)
{
	(void)sig;
	st_done = 1;
}

static void install(int sig, void (*fn)(int))
{
	struct k_sigaction ka = { (void *)fn, SA_RESTORER, (void *)__restore_rt, { 0, 0 } };

	raw_rt_sigaction(sig, &ka, NULL, SIGSET_SIZE);
}

static void signal_target(void)
{
	install(SIGUSR1, count_handler);
	install(SIGUSR2, count_handler);
	install(34, count_handler);             /* SIGRTMIN */
	install(SIGTERM, done_handler);
	*st_ready = 1;
	for (long long end = fz_now_ms() + 20000; !st_done && fz_now_ms() < end;) {
		struct timespec ts = { 0, 1000000 };
		raw_nanosleep(&ts, NULL);
	}
	raw_exit_group(st_done && st_got > 0 ? 0 : 1 + (st_done ? 2 : 0) + (st_got ? 4 : 0));
}

static void signals_round(struct st_shared *sh)
{
	static int word;
	long pid;
	int st;

	if (!st_ready) {
		long r = raw_mmap2(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				   -1, 0);
		if (RAW_IS_ERR(r)) {
			st_error(sh, ST_SIGNALS, "mmap: %ld", r);
			return;
		}
		st_ready = (volatile int *)r;
	}
	*st_ready = 0;
	pid = raw_fork();
	if (pid == 0)
		signal_target();
	for (long long end = fz_now_ms() + 10000; !*st_ready && fz_now_ms() < end;)
		raw_sched_yield();
	for (int i = 0; i < 200 && pid > 0; i++) {
		switch (i % 3) {
		case 0: raw_kill((int)pid, SIGUSR1); break;
		case 1: raw_tgkill((int)pid, (int)pid, SIGUSR2); break;
		default: raw_kill((int)pid, 34); break;
		}
		if (i % 8 == 0)
			raw_sched_yield();
	}
	fz_sleep_ms(2);
	raw_kill((int)pid, SIGTERM);
	if ((st = wait_status(pid, 20000)) != 0)
		st_error(sh, ST_SIGNALS, "handler target: status %#x", st);

	/* SIGKILL ends a task wherever it is: spinning, in a futex wait, asleep. */
	for (int how = 0; how < 3; how++) {
		pid = raw_fork();
		if (pid == 0) {
			struct timespec ts = { 1000, 0 };
			if (how == 0)
				for (;;)
					;
			if (how == 1)
				raw_futex(&word, FUTEX_WAIT, 0, NULL);
			else
				raw_nanosleep(&ts, NULL);
			raw_exit_group(3);
		}
		fz_sleep_ms(1);
		raw_kill((int)pid, SIGKILL);
		if ((st = wait_status(pid, 10000)) != SIGKILL)
			st_error(sh, ST_SIGNALS, "SIGKILL of a %s child: status %#x",
				 how == 0 ? "spinning" : how == 1 ? "futex-waiting" : "sleeping", st);
	}
}

/* ---- futexes ---- */

#define ST_RING 4
#define ST_PASSES 400

static volatile int st_ring[ST_RING];
static volatile int st_ring_errors;

static void *ring_fn(void *arg)
{
	int me = (int)(long)arg, next = (me + 1) % ST_RING;

	for (int pass = 0; pass < ST_PASSES; pass++) {
		long long end = fz_now_ms() + 20000;
		while (!st_ring[me]) {
			struct timespec ts = { 0, 50000000 };
			long r = raw_futex((int *)&st_ring[me], FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, &ts);
			if (r != 0 && r != -EAGAIN && r != -ETIMEDOUT && r != -EINTR)
				st_ring_errors++;
			if (fz_now_ms() > end) {
				st_ring_errors++;
				return NULL;
			}
		}
		st_ring[me] = 0;
		st_ring[next] = 1;
		raw_futex((int *)&st_ring[next], FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL);
	}
	return NULL;
}

static void futex_round(struct st_shared *sh)
{
	pthread_t t[ST_RING];
	struct timespec ts = { 0, 1000000 };
	int n = 0, word = 0, err = 0;
	long r;

	st_ring_errors = 0;
	for (int i = 0; i < ST_RING; i++)
		st_ring[i] = 0;
	for (; n < ST_RING; n++)
		if ((err = pthread_create(&t[n], NULL, ring_fn, (void *)(long)n)) != 0) {
			create_failed(sh, ST_FUTEX, "ring", n, err);
			break;
		}
	st_ring[0] = 1;
	raw_futex((int *)&st_ring[0], FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	if (st_ring_errors)
		st_error(sh, ST_FUTEX, "ring: %d threads, %d errors", n, st_ring_errors);
	if ((r = raw_futex(&word, FUTEX_WAIT, 0, &ts)) != -ETIMEDOUT)
		st_error(sh, ST_FUTEX, "a 1 ms FUTEX_WAIT returned %ld", r);
}

/* ---- simultaneous execve (issue 11, bug 3) ---- */

#define ST_RACERS 3
static char st_rstacks[ST_RACERS][16384] __attribute__((aligned(16)));
static volatile int st_go;

static void racer_fn(void *arg)
{
	while (!st_go)
		;
	exec_child(arg);
}

static void execrace_round(struct st_shared *sh)
{
	long pid = raw_fork();
	int st;

	if (pid == 0) {
		for (int i = 0; i < ST_RACERS; i++)
			fz_clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD,
				 st_rstacks[i] + sizeof(st_rstacks[i]), NULL, NULL, racer_fn, "9");
		st_go = 1;
		exec_child("9");
	}
	st = wait_status(pid, 20000);
	if (st == -2)
		st_error(sh, ST_EXECRACE, "pid %ld survived SIGKILL after a simultaneous execve", pid);
	else if (st != 9 << 8)
		st_error(sh, ST_EXECRACE, "simultaneous execve: status %#x", st);
}

void st_run_load(enum st_load which, struct st_shared *sh)
{
	while (!sh->stop) {
		switch (which) {
		case ST_THREADS: threads_round(sh); break;
		case ST_FORKEXEC: forkexec_round(sh); break;
		case ST_SIGNALS: signals_round(sh); break;
		case ST_FUTEX: futex_round(sh); break;
		default: execrace_round(sh); break;
		}
		__atomic_add_fetch(&sh->rounds[which], 1, __ATOMIC_RELAXED);
	}
	raw_exit_group(0);
	__builtin_unreachable();
}
