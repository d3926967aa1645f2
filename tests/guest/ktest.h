/* tests/guest/ktest.h - in-kernel tests, run by `ktest=GROUP` on the command
 * line (tests/run.py boots one QEMU per group).
 *
 *   KTEST(mm, frames_round_trip) {
 *       KCHECK(pmm_free_frames() > 0);
 *   }
 *
 * Each test prints one line, `PASS mm.frames_round_trip` or
 * `FAIL mm.frames_round_trip: <file>:<line>: <what>`; the run ends with
 * `ktest: done, N passed, M failed` and powers off with KTEST_STATUS_*.
 * Tests live in tests/guest/ and are linked into every kernel (the
 * .ktests section costs a few hundred bytes). */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include "lib/types.h"

struct ktest {
	const char *group;
	const char *name;
	void (*fn)(void);
};

#define KTEST_STATUS_PASS 0x10      /* QEMU exit code 33 */
#define KTEST_STATUS_FAIL 0x11      /* QEMU exit code 35 */

#define KTEST(group, name) \
	static void ktest_##group##_##name(void); \
	static const struct ktest ktest_desc_##group##_##name \
		__attribute__((section(".ktests"), used, aligned(4))) = \
		{ #group, #name, ktest_##group##_##name }; \
	static void ktest_##group##_##name(void)

/* KCHECK and KCHECK_EQ end the test at its first failure (they return
 * from the test function), the tree's one rule for every test dialect
 * (docs/contributing.md, "Tests"). ktest_fail records a failure and
 * returns; it is for the two places the rule allows: a helper that
 * reports and lets its caller end the test, and a test that must give
 * back what it holds before it ends (ktest_vm_stress.c's CHECK_ON while
 * the frame pool is dry: a test that returned early would leak into the
 * next tests of its boot). */
void ktest_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool ktest_failed(void);

#define KCHECK(cond) do { \
	if (!(cond)) { \
		ktest_fail(__FILE__, __LINE__, "%s", #cond); \
		return; \
	} \
} while (0)

#define KCHECK_EQ(a, b) do { \
	uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b); \
	if (_a != _b) { \
		ktest_fail(__FILE__, __LINE__, "%s == %s (0x%llx != 0x%llx)", \
			   #a, #b, (unsigned long long)_a, (unsigned long long)_b); \
		return; \
	} \
} while (0)

/* Runs every test of `group` (or of every group for "all"; "list" prints
 * the group names instead), then powers off. Never returns. */
void ktest_run(const char *group) __attribute__((noreturn));

#endif
