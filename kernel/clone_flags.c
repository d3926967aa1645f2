/* kernel/clone_flags.c - the two tables of clone's flag bits (clone_flags.h).
 *
 * How an ABI evolves, side by side. The seed (Linux 2.5.31 with the
 * TLS/clone patches of August 2002) had four new flags at 0x00080000 ..
 * 0x00400000. Within weeks Linux renamed and re-purposed them as NPTL
 * took shape: SETTID became PARENT_SETTID (same bit, same meaning),
 * DETACHED's bit went to CHILD_CLEARTID, which is RELEASE_VM grown up
 * (the child's "I am gone" word, now with a futex wake-up, so that
 * pthread_join can sleep on it), and RELEASE_VM's bit became a DETACHED
 * that does nothing: from 2.6 on a thread (CLONE_THREAD) never has an
 * exit signal and never waits for a wait4, whatever the flags say.
 *
 *   bit         seed (2.5.31)        linux (6.1)
 *   0x00001000  -                    CLONE_PIDFD      -EINVAL here
 *   0x00002000  -                    CLONE_PTRACE     -EINVAL (no ptrace)
 *   0x00004000  -                    CLONE_VFORK
 *   0x00008000  -                    CLONE_PARENT
 *   0x00040000  -                    CLONE_SYSVSEM    accepted
 *   0x00080000  CLONE_SETTLS         CLONE_SETTLS
 *   0x00100000  CLONE_SETTID         CLONE_PARENT_SETTID
 *   0x00200000  CLONE_DETACHED       CLONE_CHILD_CLEARTID
 *   0x00400000  CLONE_RELEASE_VM     CLONE_DETACHED   ignored
 *   0x00800000  -                    CLONE_UNTRACED   ignored
 *   0x01000000  -                    CLONE_CHILD_SETTID
 *   0x02000000 .. 0x40000000, 0x00020000: namespaces, -EINVAL here
 *   0x80000000  -                    CLONE_IO         accepted
 * CSIGNAL and CLONE_VM .. CLONE_THREAD mean the same in both. */
#include "kernel/clone_flags.h"
#include "kernel/personality.h"
#include "kernel/signal.h"
#include "lib/abi.h"

struct clone_flag {
	uint32_t bit;           /* the caller's bit */
	uint32_t action;        /* CL_*, or 0: accepted and ignored */
};

struct clone_abi {
	const struct clone_flag *flags;
	int count;
	/* Linux 2.6 on: a CLONE_THREAD child never has an exit signal. */
	bool thread_reaps_itself;
};

#define COMMON_FLAGS \
	{ CLONE_VM,      CL_VM }, \
	{ CLONE_FS,      CL_FS }, \
	{ CLONE_FILES,   CL_FILES }, \
	{ CLONE_SIGHAND, CL_SIGHAND }, \
	{ CLONE_THREAD,  CL_THREAD }, \
	{ CLONE_SETTLS,  CL_SETTLS }

static const struct clone_flag seed_flags[] = {
	COMMON_FLAGS,
	{ CLONE_SETTID,         CL_PARENT_SETTID },
	{ CLONE_DETACHED,       CL_DETACHED },
	{ CLONE_RELEASE_VM,     CL_RELEASE_VM },
};

static const struct clone_flag linux_flags[] = {
	COMMON_FLAGS,
	{ CLONE_VFORK,          CL_VFORK },
	{ CLONE_PARENT,         CL_PARENT },
	{ CLONE_SYSVSEM,        0 },    /* no SysV semaphores to undo */
	{ CLONE_PARENT_SETTID,  CL_PARENT_SETTID },
	{ CLONE_CHILD_CLEARTID, CL_CHILD_CLEARTID },
	{ CLONE_LINUX_DETACHED, 0 },    /* ignored since 2.6 */
	{ CLONE_UNTRACED,       0 },    /* no ptrace to keep out */
	{ CLONE_CHILD_SETTID,   CL_CHILD_SETTID },
	{ CLONE_IO,             0 },    /* no I/O contexts to share */
};

#define ABI(table, reaps) { table, (int)(sizeof(table) / sizeof(table[0])), reaps }
static const struct clone_abi abis[] = {
	[PERSONALITY_SEED] = ABI(seed_flags, false),
	[PERSONALITY_LINUX] = ABI(linux_flags, true),
};

int clone_translate(int personality, uint32_t uflags, struct clone_args *a)
{
	const struct clone_abi *abi = &abis[personality == PERSONALITY_LINUX];
	uint32_t rest = uflags & ~(uint32_t)CSIGNAL;

	/* LAB 4: BEGIN SOLUTION */
	if ((uflags & CSIGNAL) > SIG_MAX)
		return -EINVAL;         /* no such signal to send at exit */
	a->flags = 0;
	for (int i = 0; i < abi->count; i++) {
		if (rest & abi->flags[i].bit) {
			a->flags |= abi->flags[i].action;
			rest &= ~abi->flags[i].bit;
		}
	}
	if (rest)
		return -EINVAL;         /* a bit this personality does not have */
	if (abi->thread_reaps_itself && (a->flags & CL_THREAD))
		a->flags |= CL_DETACHED;
	/* clone-detached-A1: DETACHED wins over CSIGNAL. */
	a->exit_signal = (a->flags & CL_DETACHED) ? -1 : (int)(uflags & CSIGNAL);
	return 0;
	/* LAB 4: END SOLUTION */
#if 0 /* LAB 4: STUB */
	/* Lab 4: turn each of the caller's bits into its CL_* action
	 * through abi's table, refuse the bits it lacks, and give a detached
	 * child no exit signal (docs/labs/lab4-clone.md). */
	(void)abi;
	(void)rest;
	(void)a;
	return -ENOSYS;
#endif /* LAB 4: END STUB */
}
