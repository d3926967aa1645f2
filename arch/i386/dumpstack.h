/* arch/i386/dumpstack.h - what a panic or the monitor shows of the
 * machine, as Linux's arch/x86/kernel/dumpstack.c: kernel/panic.c says
 * when and in which order, this says how an i386 is read.
 *
 * What it hides: the frame layout (%ebp chain, return addresses), the
 * prologue bytes of a function, the trap frame's registers and segment
 * selectors, and CR0/CR2/CR3/CR4. The output shape is fixed: tests/run.py
 * checks it (kernel/panic.c shows it). */
#ifndef ARCH_I386_DUMPSTACK_H
#define ARCH_I386_DUMPSTACK_H

#include "lib/types.h"

struct trapframe;

/* Prints "backtrace:" then "  #n 0x<eip> <function>+0x<off>" lines,
 * starting at eip and following the saved-%ebp chain from ebp (at most
 * 32 frames, while the frame pointers stay believable). */
void backtrace_from(uint32_t eip, uint32_t ebp);

/* The (eip, ebp) pair that backtrace_from needs to start at the caller
 * of the function whose frame is `frame` (its __builtin_frame_address(0)):
 * panic() leaves its own frame out so. */
void frame_caller(const void *frame, uint32_t *eip, uint32_t *ebp);

/* A trap the kernel cannot handle, after "PANIC: ": the rest of the line
 * (the trap's name, or "page fault" with the faulting address CR2), the
 * registers (general, segment, EFLAGS, control registers), then a
 * backtrace that also finds the caller of a function trapped before its
 * frame was set up (a leaf, or inside its prologue). */
void show_trap(const struct trapframe *tf);

#endif
