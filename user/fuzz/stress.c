/* user/fuzz/stress.c - the stress run's pid-1 part (stress.h): the books
 * before, a process per load, the loads stopped when the time is up,
 * every task killed, the books after. Orphans (an exec race's leftovers)
 * are reaped as they come. */
#include "user/fuzz/stress.h"
#include "signal.h"
#include "stdio.h"
#include "string.h"
#include "sys/mman.h"

static struct fz_books k0, k1;

static void status(const struct st_shared *sh, long long ms_left)
{
	printf("stress: %lld s left:", ms_left / 1000);
	for (int i = 0; i < ST_NLOADS; i++)
		printf(" %s %lu", st_load_names[i], sh->rounds[i]);
	printf("\n");
}

int st_session(const struct st_config *cfg, char *why, size_t n)
{
	size_t size = (sizeof(struct st_shared) + 4095) & ~4095u;
	long r = raw_mmap2(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long pids[ST_NLOADS] = { 0 };
	struct st_shared *sh;
	long long end, last;
	int bad = 0;

	*why = 0;
	fz_touch_stack();
	if (RAW_IS_ERR(r))
		return snprintf(why, n, "cannot map the shared page: %ld", r), 1;
	sh = (struct st_shared *)r;
	memset(sh, 0, size);
	memset(&k1, 0, sizeof(k1));     /* no page first touched after k0 */
	printf("stress: %ld s%s\n", cfg->seconds, cfg->exec_race ? ", with the exec race" : "");
	status(sh, cfg->seconds * 1000);        /* stdio's buffers in place before k0 */
	if ((r = fz_books_take(&k0)) != 0)
		return snprintf(why, n, "cannot read the books before: %ld", r), 1;
	for (int i = 0; i < ST_NLOADS; i++) {
		if ((i == ST_EXECRACE && !cfg->exec_race) || (cfg->only >= 0 && i != cfg->only))
			continue;
		if ((pids[i] = raw_fork()) == 0)
			st_run_load((enum st_load)i, sh);
		if (pids[i] < 0)
			return snprintf(why, n, "cannot fork load %s: %ld", st_load_names[i], pids[i]), 1;
	}
	end = fz_now_ms() + cfg->seconds * 1000;
	last = fz_now_ms();
	while (fz_now_ms() < end) {
		int st;
		long pid = raw_wait4(-1, &st, WNOHANG | __WALL, NULL);
		for (int i = 0; pid > 0 && i < ST_NLOADS; i++)
			if (pid == pids[i]) {
				st_error(sh, (enum st_load)i, "the load died: status %#x", st);
				pids[i] = 0;
			}
		if (fz_now_ms() - last >= 10000) {
			last = fz_now_ms();
			status(sh, end - last);
		}
		if (pid <= 0)
			fz_sleep_ms(10);
	}
	sh->stop = 1;
	for (int i = 0; i < ST_NLOADS; i++) {
		int st = 0;
		if (pids[i] > 0 && fz_wait_child((int)pids[i], &st, 60000) != pids[i])
			st_error(sh, (enum st_load)i, "the load did not stop in 60 s");
		else if (pids[i] > 0 && st != 0)
			st_error(sh, (enum st_load)i, "the load ended with status %#x", st);
	}
	for (int i = 0; i < ST_NLOADS; i++) {
		if ((i == ST_EXECRACE && !cfg->exec_race) || (cfg->only >= 0 && i != cfg->only))
			continue;
		printf("stress: %s: %lu rounds, %lu errors%s%s\n", st_load_names[i], sh->rounds[i],
		       sh->errors[i], sh->errors[i] ? ": " : "", (const char *)sh->why[i]);
		if (sh->errors[i] || !sh->rounds[i]) {
			if (!bad)
				snprintf(why, n, "%s: %s", st_load_names[i], sh->errors[i] ?
					 (const char *)sh->why[i] : "not a single round");
			bad = 1;
		}
	}
	if (fz_kill_rest(&k0, bad ? why + strlen(why) : why, bad ? 0 : n) != 0)
		bad = 1;
	if (!bad && fz_books_settle(&k0, &k1, 20000, why, n) != 0)
		bad = 1;
	if (!bad)
		printf("stress: books exact: %lu free frames, %lu tasks, %d object caches as "
		       "before\n", k1.frames_free, k1.tasks, k1.ncaches);
	return bad;
}
