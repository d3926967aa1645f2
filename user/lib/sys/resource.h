/* user/lib/sys/resource.h - resource limits (struct rlimit and the
 * RLIMIT_* numbers are lib/abi.h's, Linux's). */
#ifndef USER_SYS_RESOURCE_H
#define USER_SYS_RESOURCE_H

#include "sys/types.h"
#include "lib/abi_linux.h"

typedef unsigned long rlim_t;

int getrlimit(int resource, struct rlimit *r);
int setrlimit(int resource, const struct rlimit *r);

/* getrusage: the CPU times (compat/linux/cputime.c, at the tick's resolution);
 * the other fields are 0 on Spindle. */
#define RUSAGE_SELF      0
#define RUSAGE_CHILDREN  (-1)
#define RUSAGE_THREAD    1
struct rusage {
	struct timeval ru_utime, ru_stime;
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt, ru_nswap;
	long ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};
int getrusage(int who, struct rusage *ru);

#endif
