/* user/lib/strsignal.c - strsignal: the text of a signal number, as glibc
 * words it (the shell prints it for a job a signal killed). */
#include "string.h"
#include "lib/abi_linux.h"
#include "lib/format.h"

static const char *const descriptions[] = {
	[SIGHUP]  = "Hangup",
	[SIGINT]  = "Interrupt",
	[SIGQUIT] = "Quit",
	[SIGILL]  = "Illegal instruction",
	[SIGTRAP] = "Trace/breakpoint trap",
	[SIGABRT] = "Aborted",
	[SIGBUS]  = "Bus error",
	[SIGFPE]  = "Floating point exception",
	[SIGKILL] = "Killed",
	[SIGUSR1] = "User defined signal 1",
	[SIGSEGV] = "Segmentation fault",
	[SIGUSR2] = "User defined signal 2",
	[SIGPIPE] = "Broken pipe",
	[SIGALRM] = "Alarm clock",
	[SIGTERM] = "Terminated",
	[SIGCHLD] = "Child exited",
	[SIGCONT] = "Continued",
	[SIGSTOP] = "Stopped (signal)",
};

static char unknown[32];

char *strsignal(int sig)
{
	if (sig > 0 && sig < (int)(sizeof(descriptions) / sizeof(descriptions[0])) &&
	    descriptions[sig])
		return (char *)descriptions[sig];
	snprintf(unknown, sizeof(unknown), "Unknown signal %d", sig);
	return unknown;
}
