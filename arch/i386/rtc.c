/* arch/i386/rtc.c - the MC146818 CMOS clock (ports 0x70/0x71).
 *
 * Registers 0x00/0x02/0x04/0x07/0x08/0x09 are seconds, minutes, hours,
 * day, month and year (two digits; 20xx assumed), in BCD unless status
 * register B bit 2 says binary. A read is retried until two in a row
 * agree, so an update in the middle cannot tear it. QEMU's `-rtc base=`
 * sets what it reads (make bench fixes it to 2024-01-01). */
#include "arch/i386/rtc.h"
#include "arch/i386/x86.h"

#define CMOS_INDEX 0x70
#define CMOS_DATA  0x71
#define RTC_UIP    0x80         /* status A: update in progress */
#define RTC_BINARY 0x04         /* status B: binary, not BCD */
#define RTC_24H    0x02         /* status B: 24-hour clock */

static uint8_t cmos(uint8_t reg)
{
	outb(CMOS_INDEX, reg);
	return inb(CMOS_DATA);
}

struct rtc_time {
	uint8_t sec, min, hour, day, mon, year;
};

static void rtc_snapshot(struct rtc_time *t)
{
	while (cmos(0x0A) & RTC_UIP)
		pause();
	t->sec = cmos(0x00);
	t->min = cmos(0x02);
	t->hour = cmos(0x04);
	t->day = cmos(0x07);
	t->mon = cmos(0x08);
	t->year = cmos(0x09);
}

static unsigned bcd(uint8_t v)
{
	return (v & 0x0f) + (v >> 4) * 10;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's
 * days_from_civil). */
static int64_t days_from_civil(int y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (int64_t)era * 146097 + (int64_t)doe - 719468;
}

uint64_t rtc_read_epoch(void)
{
	struct rtc_time a, b;
	uint8_t status_b = cmos(0x0B);
	unsigned hour, pm;

	rtc_snapshot(&a);
	for (;;) {
		rtc_snapshot(&b);
		if (a.sec == b.sec && a.min == b.min && a.hour == b.hour &&
		    a.day == b.day && a.mon == b.mon && a.year == b.year)
			break;
		a = b;
	}
	pm = b.hour & 0x80;
	b.hour &= 0x7f;
	if (!(status_b & RTC_BINARY)) {
		b.sec = (uint8_t)bcd(b.sec); b.min = (uint8_t)bcd(b.min);
		b.hour = (uint8_t)bcd(b.hour); b.day = (uint8_t)bcd(b.day);
		b.mon = (uint8_t)bcd(b.mon); b.year = (uint8_t)bcd(b.year);
	}
	hour = b.hour;
	if (!(status_b & RTC_24H) && pm)
		hour = (hour % 12) + 12;
	return (uint64_t)(days_from_civil(2000 + b.year, b.mon, b.day) * 86400) +
	       hour * 3600u + b.min * 60u + b.sec;
}
