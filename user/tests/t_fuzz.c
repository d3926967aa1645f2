/* user/tests/t_fuzz.c - the system-call fuzzer in make check
 * (docs/fuzzing.md): every seed of t_fuzz_seeds.h, each a whole fuzz
 * session (user/fuzz/session.c) run by this program as pid 1: the
 * supervisor a child, the workers under it; afterwards no task but pid 1
 * and the kernel's books (free frames, tasks, every object cache, the
 * task cache emptied) exactly as before. A panic or a hang fails the
 * boot. tests/user_tests.py runs it at -smp 1 and 4 only (USER_TEST_SMP). */
#define T_PROG "t_fuzz"
#include "t.h"
#include "t_fuzz_seeds.h"
#include "user/fuzz/fuzz.h"

int main(void)
{
	static char why[256];

	fz_guard_init();
	for (unsigned i = 0; i < sizeof(t_fuzz_seeds) / sizeof(t_fuzz_seeds[0]); i++) {
		const struct t_fuzz_seed *s = &t_fuzz_seeds[i];
		struct fz_config cfg = { s->seed, s->calls, s->workers, false, false };

		if (fz_session(&cfg, why, sizeof(why)) == 0)
			printf("PASS %s.seed_%#x\n", T_PROG, s->seed);
		else
			printf("FAIL %s.seed_%#x: %s\n", T_PROG, s->seed, why), t_failures++;
	}
	return t_exit_code();
}
