/* compat/linux/fs/proc_internal.h - what the files of /proc/<pid> share
 * (compat/linux/fs/proc_pid.c: stat and cmdline; proc_status.c: status and
 * maps). Not for the rest of the kernel. */
#ifndef KERNEL_FS_PROC_INTERNAL_H
#define KERNEL_FS_PROC_INTERNAL_H

#include "lib/types.h"

struct initrd_file;
struct mm;
struct task;

/* A snapshot file's text in a new allocation (freed by kinfo_release),
 * or NULL with *err -ENOMEM. */
struct initrd_file *proc_snapshot(const char *text, size_t len, long *err);

/* The process (its leader) with pid, under tasklist_lock, and its
 * address space with a reference taken (mm_put it), or NULL (a zombie, a
 * kernel thread, or one whose last user is putting it: mm_put in
 * kernel/mm/vm.c waits for tasklist_lock before it frees, so mm is
 * still there to look at). NULL if there is no such process. The pages
 * are read after tasklist_lock is dropped, with interrupts on: a CPU
 * spinning on mm->lock with them off could not answer the TLB shootdown
 * of another that holds it (kernel/mm/vm.c page_make_ready). */
struct task *proc_find_process_locked(int pid, struct mm **mm);
/* The same for a /proc/<pid>/task/<tid> file: *th is thread tid of that
 * process (the leader itself when tid is 0), whose own fields the file
 * shows; NULL (and no reference) if either has gone. */
struct task *proc_find_thread_locked(int pid, int tid, struct mm **mm, struct task **th);

#endif
