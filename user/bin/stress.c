/* user/bin/stress.c - the stress run (docs/fuzzing.md, user/fuzz/stress.h).
 *
 *     stress [-t SECONDS] [-e] [-l LOAD]
 *
 * Booted as init (`make stress`, init=/bin/stress -- ...): SECONDS
 * (default 600) of threads, fork and exec, signals and futexes at once,
 * then the kernel's books compared with those before; -e adds the exec
 * race (issue 11, bug 3); -l runs only load number LOAD (stress.h's
 * enum st_load). Exit status 0 if all was clean.
 *
 *     stress -c CODE
 *
 * is what its loads execve: it exits with CODE at once. */
#include "user/fuzz/stress.h"
#include "stdio.h"
#include "stdlib.h"
#include "string.h"

int main(int argc, char **argv)
{
	struct st_config cfg = { 600, false, -1 };
	static char why[256];

	if (argc == 3 && strcmp(argv[1], "-c") == 0)
		return atoi(argv[2]);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-e") == 0)
			cfg.exec_race = true;
		else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc)
			cfg.only = atoi(argv[++i]);
		else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
			cfg.seconds = atol(argv[++i]);
		else {
			printf("usage: stress [-t SECONDS] [-e] [-l LOAD]\n");
			return 2;
		}
	}
	if (raw_getpid() != 1) {
		printf("stress: run it as init (make stress): it kills every other task at the end\n");
		return 2;
	}
	fz_guard_init();
	if (st_session(&cfg, why, sizeof(why)) != 0) {
		printf("stress: FAILED: %s\n", why);
		return 1;
	}
	printf("stress: clean\n");
	return 0;
}
