/* lib/cmdline.h - the kernel command line of abi.md section 1.
 *
 * QEMU's -kernel puts the kernel's own path first ("build/kernel.elf
 * init=/bin/sh"), GRUB passes only the arguments: a first word that holds
 * a '/' or a '.' and no '=' is taken as that path and skipped. Recognised words:
 *   init=PATH     the first program (default /bin/init)
 *   smp=N         cap the CPUs used (1..)
 *   ktest=GROUP   run the in-kernel test group GROUP (tests/guest)
 *   monitor       start the kernel monitor instead of init
 *   acpi=off      find the CPUs in the MP table, not the ACPI MADT
 *   fpu=lazy      switch FPU state lazily (CR0.TS, #NM); fpu=eager, the
 *                 default, restores it in switch_to (arch/i386/fpu.h)
 *   trace         record scheduler events (kernel/trace.h)
 *   chaos=SEED    perturb the schedule from SEED, 1.. (kernel/chaos.h)
 *   expect_cpus=N, extra_size=N   read by in-kernel tests only
 *   --            every later word is an argument of init (argv[1..])
 * Any other word is kept in unknown[] so the kernel can warn once each. */
#ifndef LIB_CMDLINE_H
#define LIB_CMDLINE_H

#include "lib/types.h"

#define CMDLINE_MAX       512  /* bytes kept from the loader's string */
#define CMDLINE_MAX_ARGS   16  /* init arguments after "--" */
#define CMDLINE_MAX_UNKNOWN 8

struct cmdline {
	char buf[CMDLINE_MAX];      /* private copy, words NUL-separated */
	const char *init;           /* "/bin/init" unless init= was given */
	const char *ktest;          /* NULL unless ktest= was given */
	bool monitor;               /* the word "monitor" was given */
	bool acpi_off;              /* acpi=off */
	bool fpu_lazy;              /* fpu=lazy (fpu=eager: false) */
	bool trace;                 /* trace: record scheduler events (docs/tracing.md) */
	int chaos;                  /* chaos=SEED: the schedule's seed, 0 = off (kernel/chaos.h) */
	int smp;                    /* 0 = no cap */
	int argc;                   /* words after "--" */
	const char *argv[CMDLINE_MAX_ARGS];
	int nunknown;
	const char *unknown[CMDLINE_MAX_UNKNOWN];
	bool truncated;             /* the string or a list did not fit */
};

/* Parses s (may be NULL: all defaults). Never fails: bad values (smp=x,
 * smp=0) are treated as unknown words. */
void cmdline_parse(struct cmdline *c, const char *s);

#endif
