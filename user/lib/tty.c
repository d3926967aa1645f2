/* user/lib/tty.c - the terminal functions (<termios.h>, <sys/ioctl.h>)
 * and process groups (<unistd.h>): thin wrappers over ioctl and the
 * setpgid family. */
#include "termios.h"
#include "sys/ioctl.h"
#include "unistd.h"
#include "errno.h"
#include "raw.h"
#include <stdarg.h>

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	long arg;

	va_start(ap, request);
	arg = va_arg(ap, long);
	va_end(ap);
	return __syscall_ret(raw_ioctl(fd, (unsigned)request, arg));
}

int tcgetattr(int fd, struct termios *t)
{
	return __syscall_ret(raw_ioctl(fd, TCGETS, (long)t));
}

int tcsetattr(int fd, int when, const struct termios *t)
{
	static const unsigned req[] = { TCSETS, TCSETSW, TCSETSF };

	if (when < TCSANOW || when > TCSAFLUSH) {
		errno = EINVAL;
		return -1;
	}
	return __syscall_ret(raw_ioctl(fd, req[when], (long)t));
}

void cfmakeraw(struct termios *t)
{
	t->c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR |
				  IGNCR | ICRNL | IXON);
	t->c_oflag &= ~(tcflag_t)OPOST;
	t->c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	t->c_cflag &= ~(tcflag_t)(CSIZE | PARENB);
	t->c_cflag |= CS8;
	t->c_cc[VMIN] = 1;
	t->c_cc[VTIME] = 0;
}

speed_t cfgetispeed(const struct termios *t) { return t->c_cflag & CBAUD; }
speed_t cfgetospeed(const struct termios *t) { return t->c_cflag & CBAUD; }

int cfsetospeed(struct termios *t, speed_t speed)
{
	if (speed & ~(speed_t)CBAUD) {
		errno = EINVAL;
		return -1;
	}
	t->c_cflag = (t->c_cflag & ~(tcflag_t)CBAUD) | speed;
	return 0;
}

int cfsetispeed(struct termios *t, speed_t speed)
{
	return speed ? cfsetospeed(t, speed) : 0;   /* 0: as the output's */
}

/* TCFLSH is not implemented by the console: flushing input is a
 * TCSETSF with the modes as they are. Output is never queued. */
int tcflush(int fd, int queue)
{
	struct termios t;

	if (queue < TCIFLUSH || queue > TCIOFLUSH) {
		errno = EINVAL;
		return -1;
	}
	if (tcgetattr(fd, &t) < 0)
		return -1;
	return queue == TCOFLUSH ? 0 : tcsetattr(fd, TCSAFLUSH, &t);
}

int tcdrain(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t) < 0)
		return -1;
	return tcsetattr(fd, TCSADRAIN, &t);
}

pid_t tcgetpgrp(int fd)
{
	int pgrp;

	if (__syscall_ret(raw_ioctl(fd, TIOCGPGRP, (long)&pgrp)) < 0)
		return -1;
	return pgrp;
}

int tcsetpgrp(int fd, pid_t pgrp)
{
	int p = pgrp;

	return __syscall_ret(raw_ioctl(fd, TIOCSPGRP, (long)&p));
}

pid_t tcgetsid(int fd)
{
	int sid;

	if (__syscall_ret(raw_ioctl(fd, TIOCGSID, (long)&sid)) < 0)
		return -1;
	return sid;
}

/* A terminal is what answers TCGETS; errno is ENOTTY (or EBADF) if not. */
int isatty(int fd)
{
	struct termios t;

	return tcgetattr(fd, &t) == 0;
}

int setpgid(pid_t pid, pid_t pgid) { return __syscall_ret(raw_setpgid(pid, pgid)); }
pid_t getpgid(pid_t pid) { return __syscall_ret(raw_getpgid(pid)); }
pid_t getpgrp(void) { return raw_getpgrp(); }           /* cannot fail */
pid_t setsid(void) { return __syscall_ret(raw_setsid()); }
pid_t getsid(pid_t pid) { return __syscall_ret(raw_getsid(pid)); }
