/* user/lib/sys/resource.h - resource limits (struct rlimit and the
 * RLIMIT_* numbers are lib/abi.h's, Linux's). */
#ifndef USER_SYS_RESOURCE_H
#define USER_SYS_RESOURCE_H

#include "sys/types.h"
#include "lib/abi.h"

typedef unsigned long rlim_t;

int getrlimit(int resource, struct rlimit *r);
int setrlimit(int resource, const struct rlimit *r);

#endif
