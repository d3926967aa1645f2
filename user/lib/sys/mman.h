/* user/lib/sys/mman.h - mmap, munmap, mprotect (abi.md section 8). The
 * flag values are Linux i386's. */
#ifndef USER_SYS_MMAN_H
#define USER_SYS_MMAN_H

#include "sys/types.h"

#ifndef PROT_READ
#define PROT_NONE  0x0
#define PROT_READ  0x1
#define PROT_WRITE 0x2
#define PROT_EXEC  0x4
#endif
#ifndef MAP_SHARED
#define MAP_SHARED    0x01
#define MAP_PRIVATE   0x02
#define MAP_FIXED     0x10
#define MAP_ANONYMOUS 0x20
#define MAP_FIXED_NOREPLACE 0x100000  /* MAP_FIXED, or -EEXIST over a mapping */
#endif
#define MAP_ANON   MAP_ANONYMOUS
#define MAP_FAILED ((void *)-1)
#define PAGE_SIZE  4096

/* offset must be a multiple of PAGE_SIZE: it goes to mmap2 in pages. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
int munmap(void *addr, size_t len);
int mprotect(void *addr, size_t len, int prot);
/* madvise: the hints are accepted; MADV_DONTNEED and MADV_FREE give a
 * private area's pages back (they read as zeros again). */
#define MADV_NORMAL     0
#define MADV_RANDOM     1
#define MADV_SEQUENTIAL 2
#define MADV_WILLNEED   3
#define MADV_DONTNEED   4
#define MADV_FREE       8
int madvise(void *addr, size_t len, int advice);

#endif
