/* user/lib/string.h - the string functions are lib/string.c's, the same
 * code the kernel runs, compiled again for user space. */
#ifndef USER_STRING_H
#define USER_STRING_H

#include "lib/string.h"

#endif
