/* user/lib/termios.h - the terminal interface (POSIX <termios.h>) over
 * the console's ioctls. struct termios, the flags and the V* indexes are
 * Linux i386's (lib/termbits.h); this libc's struct termios is the
 * kernel's own, so tcgetattr is a single TCGETS. */
#ifndef USER_TERMIOS_H
#define USER_TERMIOS_H

#include "sys/types.h"
#include "lib/termbits.h"

/* tcsetattr's when */
#define TCSANOW   0
#define TCSADRAIN 1
#define TCSAFLUSH 2

/* tcflush's queue */
#define TCIFLUSH  0
#define TCOFLUSH  1
#define TCIOFLUSH 2

int tcgetattr(int fd, struct termios *t);
int tcsetattr(int fd, int when, const struct termios *t);
/* Raw mode as glibc's cfmakeraw: no input translation, no output
 * processing, no echo, no signals, bytes one at a time (VMIN 1, VTIME 0). */
void cfmakeraw(struct termios *t);
speed_t cfgetispeed(const struct termios *t);
speed_t cfgetospeed(const struct termios *t);
int cfsetispeed(struct termios *t, speed_t speed);
int cfsetospeed(struct termios *t, speed_t speed);
int tcflush(int fd, int queue);
int tcdrain(int fd);
pid_t tcgetsid(int fd);
/* also in <unistd.h>, where POSIX puts them */
pid_t tcgetpgrp(int fd);
int tcsetpgrp(int fd, pid_t pgrp);

#endif
