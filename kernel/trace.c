/* kernel/trace.c - per-CPU rings of scheduler events (trace.h,
 * docs/tracing.md).
 *
 * Each CPU has its own ring, written only by that CPU with interrupts
 * off: no lock, no shared cache line, and an interrupt's event cannot
 * split another. A ring does not wrap: when it is full, later events are
 * counted in `dropped` and lost, so a trace is complete from the start or
 * says how much it misses (the counts the tests check stay exact up to
 * the first drop). The rings are allocated only when tracing is on.
 *
 * The way out is trace_dump(), called when init exits: every ring as one
 * text line per event between two marker lines on the console, which
 * tools/trace2json.py reads. */
#include "kernel/trace.h"
#include "kernel/chaos.h"
#include "kernel/clock.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/task.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/trace_arch.h"

/* 2^TRACE_RING_ORDER pages a CPU: 16,384 events of 32 bytes, enough for
 * `make trace PROG="start-detached 1000" CPUS=4` with room to spare
 * (docs/tracing.md has the figures). */
#define TRACE_RING_ORDER 7
#define TRACE_RING_EVENTS ((4096u << TRACE_RING_ORDER) / sizeof(struct trace_rec))

struct trace_rec {
	uint64_t ts;            /* arch_trace_clock() */
	uint16_t type;          /* enum trace_type */
	uint16_t aux;
	uint32_t arg[5];
};
_Static_assert(sizeof(struct trace_rec) == 32, "a ring holds a whole number of events");

struct trace_ring {
	struct trace_rec *buf;  /* NULL: tracing off, or no memory */
	uint32_t head;          /* events written; only this CPU writes it */
	uint32_t dropped;       /* events lost to a full ring */
};

bool trace_on;
bool trace_hooks_on;
static struct trace_ring rings[NR_CPUS];

static const char letters[TR_NTYPES] = {
	[TR_SWITCH] = 'S', [TR_CLONE] = 'C', [TR_EXIT] = 'X', [TR_PARK] = 'P',
	[TR_FREE] = 'F', [TR_REUSE] = 'R', [TR_FUTEX_WAIT] = 'W',
	[TR_FUTEX_WAKE] = 'K', [TR_MIGRATE] = 'M', [TR_IPI_SEND] = 'I',
	[TR_IPI_RECV] = 'J',
};

void trace_init(bool on)
{
	if (!on)
		return;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		rings[cpu].buf = page_alloc(TRACE_RING_ORDER);
		if (!rings[cpu].buf) {
			kprintf("trace: no memory for cpu%d's ring: its events are dropped\n", cpu);
		}
	}
	kprintf("trace: on, %u events a CPU\n", (unsigned)TRACE_RING_EVENTS);
	__atomic_store_n(&trace_on, true, __ATOMIC_RELEASE);
	trace_hooks_enable();
}

void trace_hooks_enable(void)
{
	__atomic_store_n(&trace_hooks_on, true, __ATOMIC_RELEASE);
}

void trace_record(enum trace_type type, unsigned aux, uint32_t a, uint32_t b,
		  uint32_t c, uint32_t d, uint32_t e)
{
	chaos_point();                  /* nothing unless chaos=SEED */
	if (!__atomic_load_n(&trace_on, __ATOMIC_ACQUIRE))
		return;                 /* the hooks are on for the seed alone */

	uint32_t flags = arch_trace_irq_save();
	struct trace_ring *r = &rings[arch_trace_cpu()];

	if (!r->buf || r->head >= TRACE_RING_EVENTS) {
		r->dropped++;
	} else {
		struct trace_rec *ev = &r->buf[r->head];
		ev->ts = arch_trace_clock();
		ev->type = (uint16_t)type;
		ev->aux = (uint16_t)aux;
		ev->arg[0] = a;
		ev->arg[1] = b;
		ev->arg[2] = c;
		ev->arg[3] = d;
		ev->arg[4] = e;
		/* The record before the count: trace_dump, on another CPU,
		 * reads the count first and then only whole records. */
		__atomic_store_n(&r->head, r->head + 1, __ATOMIC_RELEASE);
	}
	arch_trace_irq_restore(flags);
}

void trace_record_switch(const struct task *prev, const struct task *next)
{
	uint32_t base[3];
	unsigned mask = arch_trace_tls(&next->thread, base);

	trace_record(TR_SWITCH, mask, (uint32_t)prev->tid, (uint32_t)next->tid,
		     base[0], base[1], base[2]);
}

uint64_t trace_recorded(void)
{
	uint64_t n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		n += __atomic_load_n(&rings[cpu].head, __ATOMIC_ACQUIRE);
	return n;
}

uint64_t trace_dropped(void)
{
	uint64_t n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		n += __atomic_load_n(&rings[cpu].dropped, __ATOMIC_RELAXED);
	return n;
}

/* One event: "cpu ts letter aux a b c d e", numbers in hex but the CPU. */
static void dump_event(int cpu, const struct trace_rec *ev)
{
	ASSERT(ev->type > 0 && ev->type < TR_NTYPES);
	kprintf("%d %llx %c %x %x %x %x %x %x\n", cpu, (unsigned long long)ev->ts,
		letters[ev->type], ev->aux, ev->arg[0], ev->arg[1], ev->arg[2],
		ev->arg[3], ev->arg[4]);
}

void trace_dump(void)
{
	uint64_t printed = 0, dropped = 0;
	int ncpu = 0;

	if (!__atomic_exchange_n(&trace_on, false, __ATOMIC_ACQ_REL))
		return;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (rings[cpu].head || rings[cpu].dropped)
			ncpu = cpu + 1;
	kprintf("--- trace begin: v1 cpus %d tsc_hz %llu ring %u ---\n", ncpu,
		(unsigned long long)clock_tsc_hz(), (unsigned)TRACE_RING_EVENTS);
	/* Another CPU may still be finishing an event it began before
	 * trace_on went false: the totals are of what is printed here, so
	 * the end line always agrees with the lines above it. */
	for (int cpu = 0; cpu < ncpu; cpu++) {
		uint32_t n = __atomic_load_n(&rings[cpu].head, __ATOMIC_ACQUIRE);
		uint32_t d = __atomic_load_n(&rings[cpu].dropped, __ATOMIC_RELAXED);
		for (uint32_t i = 0; i < n; i++)
			dump_event(cpu, &rings[cpu].buf[i]);
		kprintf("D %d %u\n", cpu, d);
		printed += n;
		dropped += d;
	}
	kprintf("--- trace end: events %llu dropped %llu ---\n",
		(unsigned long long)printed, (unsigned long long)dropped);
}
