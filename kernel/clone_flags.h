/* kernel/clone_flags.h - clone's flag bits, per personality.
 *
 * clone(2) is where the seed's ABI and final Linux's differ most: the same
 * bit means different things (abi.md sections 4 and 9). The system call
 * first translates the caller's bits, through its personality's table
 * (kernel/clone_flags.c), into what the kernel is asked to do: CL_* bits,
 * which do_clone (kernel/fork.c) acts on whatever the personality. */
#ifndef KERNEL_CLONE_FLAGS_H
#define KERNEL_CLONE_FLAGS_H

#include "lib/types.h"

/* What a clone asks for, in the kernel's own terms. */
#define CL_VM             (1u << 0)  /* share the address space */
#define CL_FS             (1u << 1)  /* share cwd/umask */
#define CL_FILES          (1u << 2)  /* share the fd table */
#define CL_SIGHAND        (1u << 3)  /* share the handlers (needs CL_VM) */
#define CL_THREAD         (1u << 4)  /* same group (needs CL_SIGHAND) */
#define CL_SETTLS         (1u << 5)  /* *tls becomes a TLS slot */
#define CL_PARENT_SETTID  (1u << 6)  /* TID to *ptid, parent's memory, before return */
#define CL_CHILD_SETTID   (1u << 7)  /* TID to *ctid, child's memory */
#define CL_CHILD_CLEARTID (1u << 8)  /* 0 to *ctid + FUTEX_WAKE at mm release */
#define CL_DETACHED       (1u << 9)  /* no exit signal: reaps itself */
#define CL_RELEASE_VM     (1u << 10) /* stack at newsp-4; 0 there at mm release */
#define CL_VFORK          (1u << 11) /* parent sleeps until exec or exit */
#define CL_PARENT         (1u << 12) /* child of the caller's parent */

/* clone's arguments once translated. */
struct clone_args {
	uint32_t flags;         /* CL_* */
	int exit_signal;        /* CSIGNAL, or -1: none (CL_DETACHED) */
	uint32_t newsp;         /* the child's %esp */
	uint32_t ptid, tls, ctid;
};

/* Translates the caller's clone flags (CSIGNAL included) into *a under
 * the given personality: 0, or -EINVAL for a bit that personality does
 * not know (or a signal number out of range). */
int clone_translate(int personality, uint32_t uflags, struct clone_args *a);

#endif
