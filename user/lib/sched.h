/* user/lib/sched.h - sched_yield(2). */
#ifndef USER_SCHED_H
#define USER_SCHED_H

int sched_yield(void);

#endif
