/* tests/guest/ktest.c - the in-kernel test runner (ktest.h). */
#include "tests/guest/ktest.h"
#include "kernel/printf.h"
#include "arch/i386/power.h"
#include "lib/string.h"

extern const struct ktest __ktests_start[], __ktests_end[];

static bool failed;
static char reason[160];

void ktest_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (failed)
		return;
	failed = true;
	n = snprintf(reason, sizeof(reason), "%s:%d: ", file, line);
	va_start(ap, fmt);
	vsnprintf(reason + n, sizeof(reason) - (size_t)n, fmt, ap);
	va_end(ap);
}

bool ktest_failed(void)
{
	return failed;
}

/* ktest=list: one "ktest-group NAME" line per group, in link order, for
 * tests/run.py to discover the groups it must boot. */
static void ktest_list(void)
{
	for (const struct ktest *t = __ktests_start; t < __ktests_end; t++) {
		const struct ktest *u = __ktests_start;
		while (u < t && strcmp(u->group, t->group) != 0)
			u++;
		if (u == t)
			kprintf("ktest-group %s\n", t->group);
	}
	kprintf("ktest: done, 0 passed, 0 failed\n");
	power_off(KTEST_STATUS_PASS);
}

void ktest_run(const char *group)
{
	if (strcmp(group, "list") == 0)
		ktest_list();
	int passed = 0, nfailed = 0;
	bool all = strcmp(group, "all") == 0;

	kprintf("ktest: running group %s\n", group);
	for (const struct ktest *t = __ktests_start; t < __ktests_end; t++) {
		/* "all" leaves out the crash_* groups: each ends the boot. */
		if (all ? strncmp(t->group, "crash_", 6) == 0
			: strcmp(t->group, group) != 0)
			continue;
		failed = false;
		t->fn();
		if (failed) {
			kprintf("FAIL %s.%s: %s\n", t->group, t->name, reason);
			nfailed++;
		} else {
			kprintf("PASS %s.%s\n", t->group, t->name);
			passed++;
		}
	}
	if (passed + nfailed == 0) {
		kprintf("ktest: no test in group %s\n", group);
		nfailed = 1;
	}
	kprintf("ktest: done, %d passed, %d failed\n", passed, nfailed);
	power_off(nfailed ? KTEST_STATUS_FAIL : KTEST_STATUS_PASS);
}
