/* user/lib/sched.h - sched_yield(2) and CPU affinity,
 * sched_setaffinity(2)/sched_getaffinity(2), with glibc's cpu_set_t (1024
 * CPUs, so code written against glibc builds here unchanged). */
#ifndef USER_SCHED_H
#define USER_SCHED_H

#include "sys/types.h"

int sched_yield(void);

#define CPU_SETSIZE 1024
typedef struct {
	unsigned long __bits[CPU_SETSIZE / (8 * sizeof(unsigned long))];
} cpu_set_t;

#define __CPU_WORD(cpu) ((cpu) / (8 * sizeof(unsigned long)))
#define __CPU_BIT(cpu)  (1ul << ((cpu) % (8 * sizeof(unsigned long))))
#define CPU_ZERO(set)   __builtin_memset((set), 0, sizeof(cpu_set_t))
#define CPU_SET(cpu, set) \
	((void)((unsigned)(cpu) < CPU_SETSIZE && ((set)->__bits[__CPU_WORD(cpu)] |= __CPU_BIT(cpu))))
#define CPU_CLR(cpu, set) \
	((void)((unsigned)(cpu) < CPU_SETSIZE && ((set)->__bits[__CPU_WORD(cpu)] &= ~__CPU_BIT(cpu))))
#define CPU_ISSET(cpu, set) \
	((unsigned)(cpu) < CPU_SETSIZE && ((set)->__bits[__CPU_WORD(cpu)] & __CPU_BIT(cpu)) != 0)
int __sched_cpucount(size_t setsize, const cpu_set_t *set);
#define CPU_COUNT(set)  __sched_cpucount(sizeof(cpu_set_t), (set))

/* pid 0 is the calling thread; any other pid is a thread id. Both return
 * 0, or -1 with errno (EINVAL: no usable CPU in the mask; ESRCH; EFAULT). */
int sched_setaffinity(pid_t pid, size_t setsize, const cpu_set_t *set);
int sched_getaffinity(pid_t pid, size_t setsize, cpu_set_t *set);

#endif
