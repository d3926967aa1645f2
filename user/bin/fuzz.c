/* user/bin/fuzz.c - the system-call fuzzer (docs/fuzzing.md).
 *
 *     fuzz [-s SEED] [-n CALLS] [-w WORKERS] [-v] [-K]
 *
 * -s the seed (default 1), -n the call budget (default 100000), -w the
 * worker processes (default 6, at most 16), -v print every call before
 * it is made (slow; for reproducing a seed), -K let clone's exit signal
 * be SIGKILL (issue 11, bug 1: an orphan carrying it kills pid 1).
 *
 * Booted as init (`make fuzz`, init=/bin/fuzz -- ...) it runs a whole
 * session: the books before, a supervisor as its child, the orphans
 * reaped, everything killed at the end and the books compared; its exit
 * status says whether all was well. Run from the shell it is only the
 * supervisor (orphans go to init).
 *
 *     fuzz -T CASE N
 *
 * runs privileged experiment CASE of fz_privileged (user/fuzz/traps.c)
 * N times, each in a child, and says which came back with privilege:
 * for narrowing down a trap that a seed found.
 *
 *     fuzz -x STREAM CALLS
 *
 * is what a worker's execve of /bin/fuzz runs: a few calls, no more. It
 * is honoured only with FUZZ_CHILD=1 in the environment, and without it
 * nothing else is: a worker's image never becomes a supervisor. */
#include "user/fuzz/fuzz.h"
#include "stdio.h"
#include "stdlib.h"
#include "string.h"

/* The CPUs this kernel runs (sched_getaffinity's mask of online CPUs),
 * or 0 if it cannot say: the reproduce line names them. */
static int cpus_online(void)
{
	uint32_t mask = 0;
	int n = 0;

	if (raw_sched_getaffinity(0, sizeof(mask), &mask) < 0)
		return 0;
	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

static int usage(void)
{
	printf("usage: fuzz [-s SEED] [-n CALLS] [-w WORKERS] [-v] [-K]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct fz_config cfg = { 1, 100000, 6, false, false };
	static char why[256];
	bool child = getenv("FUZZ_CHILD") != NULL;

	if (argc >= 4 && (strcmp(argv[1], "-x") == 0 || strcmp(argv[1], "-xv") == 0)) {
		if (!child)
			return usage();
		cfg.trace = argv[1][2] == 'v';
		fz_exec_image(&cfg, (uint32_t)strtoul(argv[2], NULL, 16),
			      strtoul(argv[3], NULL, 10));
	}
	if (child)
		return 0;
	if (argc == 4 && strcmp(argv[1], "-T") == 0) {
		static struct fz_world w;
		struct fz_task t = { 1, &w, 1, 0, 1, "T" };
		uint32_t k = (uint32_t)atoi(argv[2]);
		fz_world_init(&w, &cfg, NULL, 0);
		for (int rep = 0; rep < atoi(argv[3]); rep++) {
			t.rng = fz_mix(7, k, (uint32_t)rep, 0);
			long pid = raw_fork();
			if (pid == 0) {
				fz_privileged(&t, k);
				raw_exit_group(0);
			}
			int st = 0;
			fz_wait_child((int)pid, &st, 300);
			if (st == 99 << 8)
				printf("T %u.%d: escalated\n", k, rep);
		}
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "-v") == 0)
			cfg.trace = true;
		else if (strcmp(a, "-K") == 0)
			cfg.sigkill_exit = true;
		else if (v && strcmp(a, "-s") == 0)
			cfg.seed = (uint32_t)strtoul(v, NULL, 0), i++;
		else if (v && strcmp(a, "-n") == 0)
			cfg.calls = strtoul(v, NULL, 0), i++;
		else if (v && strcmp(a, "-w") == 0)
			cfg.workers = atoi(v), i++;
		else
			return usage();
	}
	if (cfg.workers < 1 || cfg.workers > FZ_MAX_WORKERS)
		return usage();
	if (raw_getpid() != 1)
		return fz_supervise(&cfg);
	fz_guard_init();
	if (fz_session(&cfg, why, sizeof(why)) != 0) {
		printf("fuzz: FAILED seed %#x: %s\n", cfg.seed, why);
		char cpus[16] = "";

		if (cpus_online() > 0)
			snprintf(cpus, sizeof(cpus), " CPUS=%d", cpus_online());
		printf("fuzz: reproduce with: make fuzz SEED=%#x CALLS=%lu%s WORKERS=%d%s\n",
		       cfg.seed, cfg.calls, cpus, cfg.workers,
		       cfg.sigkill_exit ? " FUZZ_FLAGS=-K" : "");
		return 1;
	}
	printf("fuzz: seed %#x passed\n", cfg.seed);
	return 0;
}
