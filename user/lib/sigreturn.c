/* user/lib/sigreturn.c - __restore_rt, the signal restorer.
 *
 * A handler installed with SA_RESTORER returns into its restorer (the
 * kernel puts the restorer's address where the handler's return address
 * goes, as Linux/i386 does); the restorer asks the kernel to put back the
 * registers and mask it saved before the handler ran (abi.md section 7).
 * It must not touch the stack: the saved frame is right above %esp.
 * Assembly in a C file only so that the number comes from lib/abi.h,
 * which is C. */
#include "signal.h"

#define STR_(x) #x
#define STR(x) STR_(x)

__asm__(
	"	.text\n"
	"	.globl __restore_rt\n"
	"	.type __restore_rt, @function\n"
	"__restore_rt:\n"
	"	movl $" STR(SYS_rt_sigreturn) ", %eax\n"
	"	int $0x80\n"
	"	ud2\n"                  /* rt_sigreturn does not return */
	"	.size __restore_rt, . - __restore_rt\n");
