/* arch/i386/rtc.h - the CMOS real-time clock, read once at boot. */
#ifndef ARCH_I386_RTC_H
#define ARCH_I386_RTC_H

#include "lib/types.h"

/* Seconds since 1970-01-01 00:00:00 UTC, as the RTC says now. */
uint64_t rtc_read_epoch(void);

#endif
