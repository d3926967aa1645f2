/* compat/linux/loadavg.h - the load averages of /proc/loadavg. */
#ifndef KERNEL_LOADAVG_H
#define KERNEL_LOADAVG_H

#define FSHIFT  11              /* bits of fraction (Linux's) */
#define FIXED_1 (1ul << FSHIFT) /* 1.0 */

/* From the boot CPU's tick (clock_tick): every 5 s, the runnable tasks
 * are folded into the three averages. */
void linux_tick(void);
/* The 1, 5 and 15 minute averages, FSHIFT-bit fixed point. */
void loadavg_get(unsigned long avg[3]);

#endif
