/* user/tests/t_trace.c - the scheduler tracer records nothing unless the
 * kernel was booted with `trace` (kernel/trace.h, docs/tracing.md).
 *
 *   t_trace          booted without `trace` (every smpN/t_trace): a
 *                    thread's clone, run, exit and park, and a futex wait
 *                    and wake, leave /proc/kstat's trace_events at 0
 *   t_trace on       booted with `trace` (trace/t_trace_on): the same
 *                    work adds events, and none is dropped
 *
 * So the hooks are really off by default, and really on with the word:
 * the same program fails if either is not so. */
#define T_PROG "t_trace"
#include "t.h"
#include "futex.h"
#include "user/tests/thr.h"

#define TSTACK 4096
#define FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
	       CLONE_DETACHED | CLONE_RELEASE_VM)

static bool on;

/* trace_events and trace_dropped from /proc/kstat; false if missing. */
static bool trace_counts(unsigned long *events, unsigned long *dropped)
{
	const char *s = thr_procbuf;
	int seen = 0;

	if (thr_read_file("/proc/kstat", thr_procbuf, sizeof(thr_procbuf)) < 0)
		return false;
	while (*s) {
		if (thr_word(&s, "trace_events"))
			*events = thr_num(&s), seen |= 1;
		else if (thr_word(&s, "trace_dropped"))
			*dropped = thr_num(&s), seen |= 2;
		while (*s && *s != '\n')
			s++;
		if (*s)
			s++;
	}
	return seen == 3;
}

static volatile int futex_word;

/* The thread: wakes main, which waits on futex_word, then exits. */
static int waker_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	thr_sleep_ms(20);
	futex_word = 1;
	raw_futex((int *)&futex_word, FUTEX_WAKE, 1, NULL);
	return 0;
}

TEST(events_only_when_on)
{
	unsigned long e0 = ~0ul, d0 = ~0ul, e1 = ~0ul, d1 = ~0ul;
	char *stack = thr_map(TSTACK);
	volatile int *word;

	EXPECT(stack != NULL, "no stack");
	word = (volatile int *)(stack + TSTACK - 4);
	*word = 0x12341234;
	EXPECT(trace_counts(&e0, &d0), "no trace_events/trace_dropped in /proc/kstat");
	EXPECT(thr_clone(FLAGS, stack + TSTACK, NULL, NULL, waker_fn, NULL) > 0, "clone failed");
	while (futex_word == 0)
		raw_futex((int *)&futex_word, FUTEX_WAIT, 0, NULL);
	EXPECT(thr_wait_word(word, 0, 5000), "the thread never exited (word %#x)", *word);
	EXPECT(trace_counts(&e1, &d1), "/proc/kstat unreadable");
	if (on) {
		/* At least the clone, a switch, the exit and the park. */
		EXPECT(e1 >= e0 + 4, "trace on: %lu events before, %lu after", e0, e1);
		EXPECT_EQ(d1, 0);
	} else {
		EXPECT(e0 == 0 && e1 == 0, "trace off: %lu then %lu events recorded", e0, e1);
		EXPECT(d0 == 0 && d1 == 0, "trace off: %lu then %lu events dropped", d0, d1);
	}
	raw_munmap(stack, TSTACK);
}

int main(int argc, char **argv)
{
	on = argc > 1 && strcmp(argv[1], "on") == 0;
	RUN(events_only_when_on);
	return t_exit_code();
}
