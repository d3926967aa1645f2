/* user/tests/t_abi_ldt.c - modify_ldt's LDT (abi.md section 5) where
 * t_ldt and t_tls_switch do not look:
 *   - "Entries obey the same rules as TLS entries", read to include
 *     "a task that rewrites the slot it is using sees the new base right
 *     after the call" (%fs is reloaded on every return to user mode);
 *   - another thread of the address space that has the entry loaded
 *     sees the new base once it next returns to user mode, even from an
 *     interrupt while it spins in user mode, and even when the write
 *     grew the table (a new table: every CPU must switch to it);
 *   - the LDT is the address space's, so execve (a new address space)
 *     starts the program with none: func 0 reads zeros, and no LDT
 *     selector is valid.
 * Booted as init; run again by itself (argv[1] = "after-exec") as the
 * program that execve starts. */
#define T_PROG "t_abi_ldt"
#include "t.h"
#include "thr.h"
#include "segs.h"

#define DATA32(e, base) ((struct user_desc){ (e), (unsigned)(base), 0xfffff, 1, 0, 0, 1, 0, 0 })
#define EMPTY(e) ((struct user_desc){ (e), 0, 0, 0, 0, 1, 0, 1, 0 })   /* LDT_empty */

static long ldt_write(struct user_desc d)
{
	return raw_modify_ldt(0x11, &d, sizeof(d));
}

static volatile int wa = 0x0aaa0002, wb = 0x0bbb0002, wc = 0x0ccc0002;

TEST(rewriting_the_loaded_entry_takes_effect_at_once)
{
	EXPECT_EQ(ldt_write(DATA32(2, &wa)), 0);
	set_fs(LDT_SEL(2));
	EXPECT_EQ((int)fs_word(), 0x0aaa0002);
	EXPECT_EQ(ldt_write(DATA32(2, &wb)), 0);        /* %fs still names entry 2 */
	int v = (int)fs_word();
	set_fs(0);
	EXPECT(v == 0x0bbb0002, "%%fs:0 right after the rewrite = %#x, want the new 0x0bbb0002", v);
	EXPECT_EQ(ldt_write(EMPTY(2)), 0);
}

/* ---- another thread with the entry loaded ---- */

#define STACK 16384
static char stk[2][STACK] __attribute__((aligned(16)));

struct watcher {
	volatile int ready, seen, give_up;
	int want;
	bool syscalls;          /* spin with sched_yield, or purely in user mode */
};

static int watcher_fn(void *arg, const struct thr_regs *r)
{
	struct watcher *w = arg;
	int v = 0;

	(void)r;
	set_fs(LDT_SEL(3));
	w->ready = 1;
	while (!w->give_up) {
		v = fs_word();
		if (v == w->want) {
			w->seen = 1;
			break;
		}
		if (w->syscalls)
			raw_sched_yield();
	}
	set_fs(0);
	return 0;
}

/* Starts a watcher on entry 3 (base &wa), rewrites entry 3 to &wc (after
 * growing the table to entry grow_to if not 0), and waits up to 10 s. */
static long watch(bool syscalls, unsigned grow_to, int *seen)
{
	static struct watcher w;
	int st = -1;
	long tid;

	w = (struct watcher){ 0, 0, 0, 0x0ccc0002, syscalls };
	*seen = 0;
	if (ldt_write(DATA32(3, &wa)) != 0)
		return -1;
	tid = thr_clone(THR_THREAD_FLAGS, stk[syscalls] + STACK, NULL, NULL, watcher_fn, &w);
	if (tid <= 0)
		return tid;
	if (!thr_wait_word(&w.ready, 1, 20000))
		return -2;
	thr_sleep_ms(20);               /* let it spin on the old base */
	if (grow_to && ldt_write(DATA32(grow_to, &wb)) != 0)
		return -3;
	if (ldt_write(DATA32(3, &wc)) != 0)
		return -4;
	thr_wait_word(&w.seen, 1, 10000);
	*seen = w.seen;
	w.give_up = 1;
	if (raw_wait4(tid, &st, __WCLONE, NULL) != tid || st != 0)
		return -5;
	return 0;
}

TEST(another_thread_sees_the_rewrite_at_its_next_system_call)
{
	int seen;

	EXPECT_EQ(watch(true, 0, &seen), 0);
	EXPECT(seen, "a thread returning from sched_yield kept reading the old base");
	EXPECT_EQ(watch(true, 3000, &seen), 0);
	EXPECT(seen, "after the table grew, a thread returning from sched_yield kept the old base");
}

TEST(another_thread_spinning_in_user_mode_sees_the_rewrite)
{
	int seen;

	EXPECT_EQ(watch(false, 0, &seen), 0);
	EXPECT(seen, "a thread spinning in user mode never saw the new base (no reload on "
	       "return from an interrupt?)");
	EXPECT_EQ(watch(false, 6000, &seen), 0);
	EXPECT(seen, "after the table grew, a thread spinning in user mode kept the old base");
}

/* ---- execve ---- */

static int after_exec(void)
{
	static unsigned buf[16];
	unsigned ar;

	memset(buf, 0xaa, sizeof(buf));
	if (raw_modify_ldt(0, buf, sizeof(buf)) != (long)sizeof(buf))
		return 1;
	for (int i = 0; i < 16; i++)
		if (buf[i])
			return 2;               /* the old program's entries */
	if (thr_lar(LDT_SEL(3), &ar))
		return 3;                       /* entry 3 still valid */
	return 0;
}

static int exec_with_an_ldt(long unused)
{
	static char *const argv[] = { "t_abi_ldt", "after-exec", NULL };
	static char *const envp[] = { NULL };

	(void)unused;
	if (ldt_write(DATA32(3, &wa)) != 0 || ldt_write(DATA32(1, &wb)) != 0)
		return 90;
	set_fs(LDT_SEL(3));
	raw_execve("/tests/t_abi_ldt", argv, envp);
	return 91;
}

TEST(execve_starts_the_program_with_no_ldt)
{
	/* exit 1: func 0 failed; 2: entries left; 3: a selector still valid */
	EXPECT_STATUS(child_status(exec_with_an_ldt, 0), EXITED(0));
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "after-exec") == 0)
		return after_exec();
	RUN(rewriting_the_loaded_entry_takes_effect_at_once);
	RUN(another_thread_sees_the_rewrite_at_its_next_system_call);
	RUN(another_thread_spinning_in_user_mode_sees_the_rewrite);
	RUN(execve_starts_the_program_with_no_ldt);
	return t_exit_code();
}
