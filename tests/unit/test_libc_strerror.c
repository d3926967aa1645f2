/* tests/unit/test_libc_strerror.c - user/lib/strerror.c and strsignal.c
 * against the host's glibc: every errno value of lib/errno.h must read
 * exactly as glibc words it, and so must the signals. Ours replace
 * glibc's strerror and strsignal in this process, so the reference is
 * glibc's strerrordesc_np and sigdescr_np (glibc 2.32 and later), which
 * return the same texts under other names. */
#include "tests/unit/unit.h"
#include "user/lib/string.h"
#include "lib/errno.h"
#include "lib/abi_linux.h"

const char *strerrordesc_np(int e);
const char *sigdescr_np(int sig);

static const int errnos[] = {
	EPERM, ENOENT, ESRCH, EINTR, EIO, E2BIG, ENOEXEC, EBADF, ECHILD, EAGAIN,
	ENOMEM, EACCES, EFAULT, EBUSY, EEXIST, ENODEV, ENOTDIR, EISDIR, EINVAL,
	EMFILE, ENOSPC, ESPIPE, EROFS, ERANGE, ENAMETOOLONG, ENOSYS, ETIMEDOUT,
	ENXIO, EXDEV, ENFILE, ENOTTY, EFBIG, EMLINK, EPIPE, ENOTEMPTY, ELOOP, EOVERFLOW,
};

TEST(every_errno_reads_as_glibcs)
{
	for (unsigned i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		CHECK_STR(strerror(errnos[i]), strerrordesc_np(errnos[i]));
	CHECK_STR(strerror(0), "Success");
}

TEST(unknown_numbers)
{
	CHECK_STR(strerror(999), "Unknown error 999");
	CHECK_STR(strerror(-1), "Unknown error -1");
	CHECK_STR(strerror(26), "Unknown error 26");    /* ETXTBSY: not in lib/errno.h */
}

TEST(signals_read_as_glibcs)
{
	static const int sigs[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE,
		SIGKILL, SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
		SIGCHLD, SIGCONT, SIGSTOP,
	};

	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		CHECK_STR(strsignal(sigs[i]), sigdescr_np(sigs[i]));
	CHECK_STR(strsignal(0), "Unknown signal 0");
	CHECK_STR(strsignal(99), "Unknown signal 99");
}
