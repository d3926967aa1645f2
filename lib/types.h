/* lib/types.h - fixed-width types for code shared by the kernel, user
 * space and the host unit tests. gcc's freestanding headers provide them. */
#ifndef LIB_TYPES_H
#define LIB_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>

#endif
