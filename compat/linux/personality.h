/* compat/linux/personality.h - the two kinds of program Spindle runs
 * (abi.md section 9).
 *
 * A static ELF with the GNU ABI note (every program linked against glibc)
 * gets the linux personality: Linux 6.1's system call behaviour. Anything
 * else (Spindle's own libc, raw test programs) gets the seed personality:
 * the 2.5.31 seed's ABI. The personality belongs to the thread group: set
 * by execve (kernel/exec.c, which reads the note), inherited by fork and
 * clone, shown in /proc/tasks and by ps. Where they differ:
 *   clone's flag bits        compat/linux/clone.c (the two tables)
 *   uname's sysname          compat/linux/uname.c
 *   a handler without        kernel/signal.c chooses Linux's old frame
 *   SA_SIGINFO               (arch/i386/signal_frame.c setup_frame)
 *   system call 0 by hand    compat/linux/restart.c: restart_syscall, or
 *                            -ENOSYS (not in the seed's table)
 * Everything else is common to both. */
#ifndef KERNEL_PERSONALITY_H
#define KERNEL_PERSONALITY_H

#include "lib/types.h"

enum personality {
	PERSONALITY_SEED = 0,       /* the default: a task struct is zeroed */
	PERSONALITY_LINUX = 1,
};


struct elf32_ehdr;
struct elf32_phdr;
/* Which personality an executable gets: linux if one of its PT_NOTE
 * segments holds the GNU ABI note (name "GNU", type NT_GNU_ABI_TAG, OS
 * word 0 = Linux). The notes are read from the file image of `size`
 * bytes that eh points at; a note that does not fit is ignored. */
enum personality elf_personality(const struct elf32_ehdr *eh, const struct elf32_phdr *ph,
				 uint32_t size);
/* The same test on one PT_NOTE segment's contents, read into notes
 * (execve reads each one from the file: kernel/exec.c). */
bool elf_notes_say_linux(const uint8_t *notes, uint32_t len);

#endif
