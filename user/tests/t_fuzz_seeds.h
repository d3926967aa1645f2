/* user/tests/t_fuzz_seeds.h - the seeds t_fuzz runs in make check
 * (docs/fuzzing.md). The first are fixed seeds that cover every kind of
 * call; after them come the regression seeds: every seed that ever broke
 * the kernel, with the budget and worker count that broke it, and what
 * it found. A seed found by `make fuzz` that breaks the kernel goes here
 * (with its fix) and stays. Each row runs at -smp 1 and -smp 4 (the
 * interleaving differs, the calls do not). */
#ifndef USER_TESTS_T_FUZZ_SEEDS_H
#define USER_TESTS_T_FUZZ_SEEDS_H

struct t_fuzz_seed {
	unsigned seed;
	unsigned long calls;
	int workers;
	const char *found;              /* NULL for the fixed seeds */
};

static const struct t_fuzz_seed t_fuzz_seeds[] = {
	{ 0x5eed0001, 8000, 6, NULL },
	{ 0x5eed0002, 8000, 6, NULL },
	/* ---- regression seeds ---- */
	{ 0x3, 10000, 6, "-smp 4: a fork racing kill(-1, SIGKILL) made a child that "
			 "escaped the kill (kernel/fork.c: fatal_signal_pending)" },
};

#endif
