/* user/fuzz/fuzz.h - the system-call fuzzer (docs/fuzzing.md).
 *
 * Who is who, from the top:
 *
 *   session     pid 1 (t_fuzz, or /bin/fuzz booted as init): reads the
 *               kernel's books, forks the supervisor, reaps the orphans
 *               the workers leave behind and kills those that linger,
 *               and at the end kills every task but itself and checks
 *               that the books came back exactly (session.c, books.c).
 *   supervisor  a child of pid 1, never pid 1 itself: forks the workers,
 *               restarts those that die, kills those that stall, stops
 *               them all when the call budget is spent (super.c).
 *   worker      one process with its own tree: it makes random system
 *               calls (calls.c) from itself, from up to FZ_THREADS
 *               threads and FZ_KIDS child processes, and runs trapping
 *               instructions, segment loads and garbage sigreturn frames
 *               in short-lived forked children (traps.c) (worker.c).
 *
 * Reproducible: every task draws from its own PRNG stream (rand.c),
 * seeded from (seed, worker, generation, spawn index), and chooses its
 * calls and arguments from that stream alone; the results (pids, fds)
 * are only used where a valid one is wanted. Timing differs between
 * runs (threads, CPUs), so a seed reproduces the calls, not always the
 * interleaving.
 *
 * What a worker may never do (the restrictions): signal a task outside
 * the fuzz trees (pid 1, the supervisor, kill(0), kill(-1)), write to or
 * read from the console (fds 0-2, /dev/console), execve anything but
 * /bin/fuzz -x or a file that cannot run, or touch the page the
 * supervisor shares with it. */
#ifndef USER_FUZZ_FUZZ_H
#define USER_FUZZ_FUZZ_H

#include "lib/types.h"
#include "raw.h"

#define FZ_MAX_WORKERS 16
#define FZ_THREADS 3            /* fuzzing threads per worker at once */
#define FZ_KIDS 3               /* fuzzing child processes per worker */
#define FZ_GEN_CALLS 1500       /* a worker generation's calls, then a new one */
#define FZ_SUB_CALLS 300        /* a thread's or child's calls */
#define FZ_EXEC_CALLS 60        /* calls of a `fuzz -x` image after execve */

struct fz_config {
	uint32_t seed;
	unsigned long calls;            /* the budget, all workers together */
	int workers;
	bool trace;                     /* print every call before making it */
	/* Issue 11, bug 1: an orphan whose exit signal is SIGKILL kills pid 1
	 * once reparented. Until the kernel resets it to SIGCHLD, clone's
	 * CSIGNAL never carries SIGKILL unless this is set. */
	bool sigkill_exit;
};

/* One worker's slot in the shared page. */
struct fz_slot {
	volatile int pid;               /* 0: none running */
	volatile unsigned gen;          /* its generation (0, 1, ...) */
	volatile unsigned long calls;   /* calls of this generation: the heartbeat */
	volatile unsigned long nr;      /* the number of the last call begun */
	volatile int kids[FZ_KIDS + FZ_THREADS];  /* its child processes: signal targets */
};

/* The page the supervisor maps MAP_SHARED before forking the workers,
 * with FZ_GUARD bytes of PROT_NONE below it: a system call that writes
 * further than the fuzzer knows (uname's 390 bytes through a pointer
 * that was kept 64 bytes away: seed 42, 2026-12-06) faults in the guard
 * instead of changing the page. Nothing may map, unmap or protect the
 * guard (fz_range_ok) or point into it (fz_touches_shared). */
struct fz_shared {
	unsigned long magic;            /* FZ_MAGIC: a worker checks it after each call */
	volatile uint64_t total;        /* calls made, all workers: never wraps */
	volatile int stop;              /* budget spent: every task stops */
	volatile int escalated;         /* a trap child came back with privilege */
	volatile int unkillable;        /* a task SIGKILL did not end (its pid) */
	volatile uint32_t escalation_kind, escalation_sub;  /* fz_trap's choice */
	int super_pid;
	uint64_t budget;
	struct fz_slot slot[FZ_MAX_WORKERS];
};

/* A worker process's memory layout, for the pointer generators. */
struct fz_world {
	const struct fz_config *cfg;
	struct fz_shared *sh;           /* NULL in a `fuzz -x` image */
	int slot;
	char *arena;                    /* FZ_ARENA_PAGES read-write */
	char *ro, *none;                /* a read-only page, a PROT_NONE page */
	char *half;                     /* a read-write page with a hole after it */
	char *stacks;                   /* FZ_THREADS thread stacks */
	char *victim;                   /* FZ_VICTIM_PAGES for munmap, mprotect... */
};

#define FZ_MAGIC 0x5eedf00d
#define FZ_SHARED_SIZE ((sizeof(struct fz_shared) + 4095) & ~4095u)
#define FZ_GUARD 0x20000       /* PROT_NONE below the shared page */
#define FZ_EXIT_SHARED 97      /* a worker's status: the shared page changed */
#define FZ_EXIT_DF 98          /* a trap child's status: DF broke a copy */
#define FZ_EXIT_ESCALATED 99   /* ... came back with privilege */
#define FZ_ARENA_PAGES 16
#define FZ_VICTIM_PAGES 16
#define FZ_STACK 16384

/* One fuzzing task: the worker, a thread, a child. */
struct fz_task {
	uint64_t rng;
	struct fz_world *w;
	unsigned long left;             /* calls it may still make */
	unsigned long made;
	int depth;                      /* 0: the worker's main thread */
	char name[24];                  /* "w3.2" or "w3.2t1": for the trace */
};

/* rand.c: the PRNG and the dangerous values. */
uint64_t fz_mix(uint32_t seed, uint32_t a, uint32_t b, uint32_t c);
uint32_t fz_rand(struct fz_task *t);
uint32_t fz_below(struct fz_task *t, uint32_t n);        /* 0 .. n-1 */
bool fz_chance(struct fz_task *t, unsigned percent);
uint32_t fz_int(struct fz_task *t);
uint32_t fz_len(struct fz_task *t);
uint32_t fz_ptr(struct fz_task *t, uint32_t len);       /* may not touch the shared page */
void fz_fill(struct fz_task *t, void *buf, size_t n);
int fz_sig(struct fz_task *t);
bool fz_touches_shared(const struct fz_world *w, uint32_t p, uint32_t len);

/* calls.c */
void fz_call(struct fz_task *t);                /* one random call */
int fz_target_pid(struct fz_task *t);           /* a pid a worker may signal */
int fz_exit_signal(struct fz_task *t);
void fz_count(struct fz_task *t, unsigned long nr);
void fz_trace(struct fz_task *t, unsigned long nr, const uint32_t *a, int n);

/* traps.c: one trapping experiment in a forked child. */
void fz_trap(struct fz_task *t);
#define FZ_PRIVILEGED 30             /* fz_privileged's experiments */
void fz_privileged(struct fz_task *t, uint32_t which);
long fz_wait_child(int pid, int *status, long ms);      /* kills it after ms */

/* clone.S */
long fz_clone(unsigned long flags, void *newsp, int *ptid, void *tls,
	      void (*fn)(void *), void *arg);   /* fn's child exits 0 */
long fz_clone_raw(unsigned long flags, uint32_t newsp, uint32_t ptid, uint32_t tls,
		  uint32_t ctid);               /* the child exits 0 at once */
void fz_sigreturn_at(void *frame) __attribute__((noreturn));

/* worker.c */
void fz_worker(const struct fz_config *cfg, struct fz_shared *sh, int slot, unsigned gen)
	__attribute__((noreturn));
void fz_exec_image(const struct fz_config *cfg, uint32_t stream, unsigned long calls)
	__attribute__((noreturn));
void fz_world_init(struct fz_world *w, const struct fz_config *cfg,
		   struct fz_shared *sh, int slot);

/* super.c: 0 if the run was clean. */
int fz_supervise(const struct fz_config *cfg);

struct fz_books;

/* session.c: the pid-1 part. 0 if clean; why in buf otherwise. */
int fz_session(const struct fz_config *cfg, char *why, size_t n);
void fz_guard_init(void);       /* pid 1: a handler for every signal it can catch */
/* pid 1: kill(-1, SIGKILL) and reap until no more tasks than before. */
long fz_kill_rest(const struct fz_books *before, char *why, size_t n);
void fz_touch_stack(void);      /* the stack a session uses, touched at once */

/* books.c: the kernel's books (/proc/kstat), drained of the per-CPU
 * task cache, and /proc/tasks. */
#define FZ_MAX_CACHES 32
struct fz_books {
	unsigned long frames_free, parked, freed, reused, tasks;
	unsigned long frames_total;                     /* for the report */
	unsigned long self_rss, fs_pages, large_pages;  /* for the report */
	int ncaches;
	struct { char name[24]; unsigned long inuse, slabs, pages; } cache[FZ_MAX_CACHES];
};
struct fz_proc_task {
	int tid, tgid, ppid;
	char state;
	char line[96];
};
long fz_read_file(const char *path, char *buf, long size);
const char *fz_proc_task(const char *s, struct fz_proc_task *pt);  /* the next line */
long fz_kstat(struct fz_books *k);
unsigned long fz_parked_now(const struct fz_books *k);
long fz_books_take(struct fz_books *k);     /* the task cache emptied first */
/* The RAM file system around a run (fstree.c). fz_fs_snapshot makes the
 * workers' sandbox, FZ_SANDBOX, and lists the tree; fz_fs_restore
 * removes what the run added and makes the sandbox again: 0, or -1 with
 * why when the run changed a file outside the sandbox. */
#define FZ_SANDBOX "/fz"
void fz_fs_snapshot(void);
int fz_fs_restore(char *why, size_t n);
/* Until the books equal k0 (up to ms): 0, or -1 with the difference in
 * why. Equal: the same tasks, every cache's objects in use, and the
 * frames outside the caches (free frames plus every cache's pages). */
long fz_books_settle(const struct fz_books *k0, struct fz_books *k1, long ms, char *why,
		     size_t n);

/* ms of CLOCK_MONOTONIC */
long long fz_now_ms(void);
void fz_sleep_ms(long ms);

#endif
