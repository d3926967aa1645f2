/* kernel/trace_events.h - the tracer's events and hooks, as the full
 * kernel builds them (CONFIG_TRACE); kernel/trace.h documents them and
 * is what the code includes. */
#ifndef KERNEL_TRACE_EVENTS_H
#define KERNEL_TRACE_EVENTS_H

#include "lib/types.h"

struct task;

/* The event types; the letter is what the dump prints (docs/tracing.md
 * lists the fields of each). */
enum trace_type {
	TR_SWITCH = 1,  /* S prev_tid next_tid tls6 tls7 tls8 (aux: slot mask) */
	TR_CLONE,       /* C parent_tid child_tid CL_flags child_struct child_tgid */
	TR_EXIT,        /* X tid tgid status self_reap */
	TR_PARK,        /* P tid struct: parked in this CPU's task cache */
	TR_FREE,        /* F struct: the task parked before, freed */
	TR_REUSE,       /* R struct: clone took the parked task */
	TR_FUTEX_WAIT,  /* W tid uaddr */
	TR_FUTEX_WAKE,  /* K tid uaddr woken */
	TR_MIGRATE,     /* M tid from_cpu to_cpu */
	TR_IPI_SEND,    /* I to_cpu vector */
	TR_IPI_RECV,    /* J vector */
	TR_NTYPES
};

extern bool trace_on;
/* Whether the hooks below call their slow halves: tracing is on, or a
 * schedule seed is (chaos=SEED, kernel/chaos.h), whose perturbation
 * points are the tracer's events. The seeds add no hook of their own, so
 * with both off no path pays more than this flag's test. */
extern bool trace_hooks_on;

/* Called once from kmain, before the APs start: allocates the rings and
 * turns tracing on if `on`. */
void trace_init(bool on);

/* The slow halves of the hooks (only called with trace_hooks_on): a
 * chaos point if a seed is on, then the record if tracing is. */
void trace_record(enum trace_type type, unsigned aux, uint32_t a, uint32_t b,
		  uint32_t c, uint32_t d, uint32_t e);
void trace_record_switch(const struct task *prev, const struct task *next);

/* Stops recording and prints every ring between the markers
 * "--- trace begin" and "--- trace end" (no-op when tracing is off). */
void trace_dump(void);

/* Events recorded and dropped (a full ring) since boot, all CPUs. */
uint64_t trace_recorded(void);
uint64_t trace_dropped(void);

/* chaos_init: the hooks on for the seed's points (tracing stays off). */
void trace_hooks_enable(void);
/* kernel/chaos.c, from trace_record at each event (a switch, a clone, an
 * exit, a futex wait or wake, a migration, an IPI sent or received):
 * with chaos=SEED, may delay this CPU and end its turn, as a tick may;
 * without, returns at once. */
void chaos_point(void);

#define TRACE_ON() __builtin_expect(__atomic_load_n(&trace_hooks_on, __ATOMIC_RELAXED), 0)
#define TRACE(type, a, b, c, d, e) \
	do { if (TRACE_ON()) trace_record((type), 0, (a), (b), (c), (d), (e)); } while (0)
#define TRACE_SWITCH(prev, next) \
	do { if (TRACE_ON()) trace_record_switch((prev), (next)); } while (0)

#endif
