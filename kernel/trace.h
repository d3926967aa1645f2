/* kernel/trace.h - the scheduler event tracer (docs/tracing.md).
 *
 * Off unless the kernel command line has the word `trace`. Then each CPU
 * records its own events in its own ring (kernel/trace.c), which the
 * kernel prints on the serial console when init exits; tools/trace2json.py
 * turns that into a Chrome trace-event file and an SVG timeline.
 *
 * Every hook is a TRACE_*() macro: with tracing off it costs a load, a
 * test and a branch that is never taken (three instructions: make bench's
 * figures, docs/tracing.md), and no call. The tracer is part of the full
 * kernel (CONFIG_TRACE, Makefile); in the seed kernel every hook below
 * compiles to nothing. */
#ifndef KERNEL_TRACE_H
#define KERNEL_TRACE_H

#include "lib/types.h"

#ifdef CONFIG_TRACE
#include "kernel/trace_events.h"
#else
static inline void trace_init(bool on) { (void)on; }
static inline void trace_dump(void) { }
static inline uint64_t trace_recorded(void) { return 0; }
static inline uint64_t trace_dropped(void) { return 0; }
#define TRACE(type, a, b, c, d, e) do { } while (0)
#define TRACE_SWITCH(prev, next) do { } while (0)
#endif

#endif
