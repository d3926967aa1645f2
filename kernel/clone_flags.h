/* kernel/clone_flags.h - clone's arguments, as do_clone takes them.
 *
 * The kernel's own language for clone is the seed's (abi.md section 4):
 * CSIGNAL and CLONE_VM .. CLONE_THREAD, and the four flags of August
 * 2002 (lib/abi.h). A seed program's bits are taken as they are
 * (clone_args_from_seed, kernel/fork.c); a Linux program's go through the
 * Linux layer's table first (compat/linux/clone.c), where some bits mean
 * something else. */
#ifndef KERNEL_CLONE_FLAGS_H
#define KERNEL_CLONE_FLAGS_H

#include "lib/types.h"
#include "lib/abi.h"

/* Every flag the seed's clone takes besides CSIGNAL. */
#define SEED_CLONE_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
			  CLONE_THREAD | CLONE_SETTLS | CLONE_SETTID | \
			  CLONE_DETACHED | CLONE_RELEASE_VM)

/* clone's arguments once translated. */
struct clone_args {
	uint32_t flags;         /* SEED_CLONE_FLAGS bits */
	int exit_signal;        /* CSIGNAL, or -1: none (CLONE_DETACHED) */
	uint32_t newsp;         /* the child's %esp */
	uint32_t ptid, tls, ctid;
	/* What only a Linux program asks for (compat/linux/clone.c, LCL_*);
	 * 0 from the core, which never looks at it. */
	uint32_t linux_flags;
};

/* Makes the child (kernel/fork.c): its tid, or -errno. */
long do_clone(const struct clone_args *a);

#endif
