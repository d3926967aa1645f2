/* user/lib/strerror.c - strerror: the text of an errno value.
 *
 * The messages are glibc's for Linux, word for word, so that a program's
 * "sh: foo: No such file or directory" reads as it would on Linux;
 * tests/unit/test_libc_strerror.c compares every one with the host's
 * glibc. Only the numbers lib/errno.h names are here. */
#include "string.h"
#include "lib/errno.h"
#include "lib/format.h"

static const char *const messages[] = {
	[0]            = "Success",
	[EPERM]        = "Operation not permitted",
	[ENOENT]       = "No such file or directory",
	[ESRCH]        = "No such process",
	[EINTR]        = "Interrupted system call",
	[EIO]          = "Input/output error",
	[E2BIG]        = "Argument list too long",
	[ENOEXEC]      = "Exec format error",
	[EBADF]        = "Bad file descriptor",
	[ECHILD]       = "No child processes",
	[EAGAIN]       = "Resource temporarily unavailable",
	[ENOMEM]       = "Cannot allocate memory",
	[EACCES]       = "Permission denied",
	[EFAULT]       = "Bad address",
	[EBUSY]        = "Device or resource busy",
	[EEXIST]       = "File exists",
	[ENODEV]       = "No such device",
	[ENOTDIR]      = "Not a directory",
	[EISDIR]       = "Is a directory",
	[EINVAL]       = "Invalid argument",
	[EMFILE]       = "Too many open files",
	[ENOSPC]       = "No space left on device",
	[ESPIPE]       = "Illegal seek",
	[EROFS]        = "Read-only file system",
	[ERANGE]       = "Numerical result out of range",
	[ENAMETOOLONG] = "File name too long",
	[ENOSYS]       = "Function not implemented",
	[ENXIO]        = "No such device or address",
	[EXDEV]        = "Invalid cross-device link",
	[ENFILE]       = "Too many open files in system",
	[ENOTTY]       = "Inappropriate ioctl for device",
	[EFBIG]        = "File too large",
	[EMLINK]       = "Too many links",
	[EPIPE]        = "Broken pipe",
	[ENOTEMPTY]    = "Directory not empty",
	[ELOOP]        = "Too many levels of symbolic links",
	[EOVERFLOW]    = "Value too large for defined data type",
	[ETIMEDOUT]    = "Connection timed out",
};

/* For numbers without a message; like glibc's, overwritten by the next
 * such call. */
static char unknown[32];

char *strerror(int e)
{
	if (e >= 0 && e < (int)(sizeof(messages) / sizeof(messages[0])) && messages[e])
		return (char *)messages[e];
	snprintf(unknown, sizeof(unknown), "Unknown error %d", e);
	return unknown;
}
