/* user/fuzz/stress.h - the stress run (docs/fuzzing.md): minutes of the
 * kernel's busiest paths at once, each load in its own process, with the
 * kernel's books checked exactly at the end (books.c).
 *
 *   threads   pthreads created and joined, detached ones, and raw
 *             CLONE_DETACHED | CLONE_RELEASE_VM threads (the seed's
 *             task cache), in batches
 *   forkexec  fork, execve of /bin/stress -c, wait4 and its status
 *   signals   a process with handlers that another floods with kill and
 *             tgkill; busy and sleeping children ended by SIGKILL
 *   futex     threads passing a token round a ring of futexes, and
 *             waits that time out
 *   execrace  (only with -e) a leader and three threads calling execve
 *             at the same moment: issue 11, bug 3 (a leader left a
 *             zombie and threads in D, unkillable); off by default until
 *             it is fixed
 *
 * Each load runs LOAD_ROUND-long rounds until the time is up, counting
 * rounds and errors in the shared page; a load that dies is an error. */
#ifndef USER_FUZZ_STRESS_H
#define USER_FUZZ_STRESS_H

#include "user/fuzz/fuzz.h"

enum st_load { ST_THREADS, ST_FORKEXEC, ST_SIGNALS, ST_FUTEX, ST_EXECRACE, ST_NLOADS };

struct st_shared {
	volatile int stop;
	volatile unsigned long rounds[ST_NLOADS];
	volatile unsigned long errors[ST_NLOADS];
	volatile char why[ST_NLOADS][96];       /* the first error of each */
};

struct st_config {
	long seconds;
	bool exec_race;
	int only;                       /* -1, or the one load to run */
};

extern const char *const st_load_names[ST_NLOADS];

/* stress_loads.c: one load's loop, until sh->stop; in its own process. */
void st_run_load(enum st_load which, struct st_shared *sh) __attribute__((noreturn));
void st_error(struct st_shared *sh, enum st_load which, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* stress.c: the whole run as pid 1's part (books before and after);
 * 0 if clean, the reason in why otherwise. */
int st_session(const struct st_config *cfg, char *why, size_t n);

#endif
