/* user/lib/sys/ioctl.h - ioctl(2), with the terminal requests and struct
 * winsize (lib/termbits.h) as Linux's <sys/ioctl.h> makes them visible. */
#ifndef USER_SYS_IOCTL_H
#define USER_SYS_IOCTL_H

#include "lib/termbits.h"

int ioctl(int fd, unsigned long request, ...);

#endif
