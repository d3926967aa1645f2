/* lib/termbits.h - the terminal interface of Linux i386 (its
 * asm-generic/termbits.h and ioctls.h), shared by the kernel's console
 * tty (compat/linux/tty.h) and the libc's <termios.h> and <sys/ioctl.h>.
 *
 * struct termios here is the *kernel's* (what TCGETS copies out: 36
 * bytes, 19 control characters); glibc's own struct termios is larger
 * and its tcgetattr converts. Flag values are octal, as in Linux. */
#ifndef LIB_TERMBITS_H
#define LIB_TERMBITS_H

typedef unsigned int tcflag_t;
typedef unsigned char cc_t;
typedef unsigned int speed_t;

#define NCCS 19
struct termios {
	tcflag_t c_iflag;           /* input modes */
	tcflag_t c_oflag;           /* output modes */
	tcflag_t c_cflag;           /* control modes (the line: kept, unused) */
	tcflag_t c_lflag;           /* local modes: the line discipline's */
	cc_t c_line;
	cc_t c_cc[NCCS];            /* the special characters, by V* index */
};
_Static_assert(sizeof(struct termios) == 36, "Linux i386's struct termios");

struct winsize {
	unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel;
};

/* c_cc indexes */
#define VINTR     0
#define VQUIT     1
#define VERASE    2
#define VKILL     3
#define VEOF      4
#define VTIME     5
#define VMIN      6
#define VSWTC     7
#define VSTART    8
#define VSTOP     9
#define VSUSP    10
#define VEOL     11
#define VREPRINT 12
#define VDISCARD 13
#define VWERASE  14
#define VLNEXT   15
#define VEOL2    16

/* c_iflag */
#define IGNBRK  0000001
#define BRKINT  0000002
#define IGNPAR  0000004
#define PARMRK  0000010
#define INPCK   0000020
#define ISTRIP  0000040
#define INLCR   0000100
#define IGNCR   0000200
#define ICRNL   0000400
#define IUCLC   0001000
#define IXON    0002000
#define IXANY   0004000
#define IXOFF   0010000
#define IMAXBEL 0020000
#define IUTF8   0040000

/* c_oflag */
#define OPOST   0000001
#define OLCUC   0000002
#define ONLCR   0000004
#define OCRNL   0000010
#define ONOCR   0000020
#define ONLRET  0000040

/* c_cflag */
#define CBAUD   0010017
#define B0      0000000
#define B9600   0000015
#define B19200  0000016
#define B38400  0000017
#define B115200 0010002
#define CSIZE   0000060
#define CS8     0000060
#define CSTOPB  0000100
#define CREAD   0000200
#define PARENB  0000400
#define HUPCL   0002000
#define CLOCAL  0004000

/* c_lflag */
#define ISIG    0000001
#define ICANON  0000002
#define ECHO    0000010
#define ECHOE   0000020
#define ECHOK   0000040
#define ECHONL  0000100
#define NOFLSH  0000200
#define TOSTOP  0000400
#define ECHOCTL 0001000
#define ECHOPRT 0002000
#define ECHOKE  0004000
#define IEXTEN  0100000

/* ioctl requests (asm-generic/ioctls.h) */
#define TCGETS     0x5401
#define TCSETS     0x5402
#define TCSETSW    0x5403
#define TCSETSF    0x5404
#define TIOCSCTTY  0x540E
#define TIOCGPGRP  0x540F
#define TIOCSPGRP  0x5410
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#ifndef FIONREAD
#define FIONREAD   0x541B
#endif
#define TIOCNOTTY  0x5422
#define TIOCGSID   0x5429

#endif
