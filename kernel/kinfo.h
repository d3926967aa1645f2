/* kernel/kinfo.h - read-only views of the kernel as text files.
 *
 *   /proc/kstat   counters, one "name value" per line: free frames, the
 *                 per-CPU task cache (parked, freed, reused), live tasks,
 *                 and "cache NAME inuse N slabs N" for every object cache
 *   /proc/tasks   one line per task: tid tgid ppid state cpu exit_signal
 *                 comm, the bases of its three TLS descriptors and its
 *                 personality, seed or linux (ps)
 *   /proc/files   "SIZE PATH" per initrd file (no longer shown in /proc:
 *                 ls reads directories; compat/linux/fs/proc.c mounts the two
 *                 above as files)
 *   /proc/meminfo, /proc/uptime, /proc/loadavg, /proc/stat, /proc/mounts
 *                 Linux's, with Linux's layout (compat/linux/kinfo_linux.c)
 *
 * Each open takes a snapshot; reads then see that snapshot, like a file
 * of the initrd, so a test can read before and after a workload. */
#ifndef KERNEL_KINFO_H
#define KERNEL_KINFO_H

#include "kernel/initrd.h"

/* Where a snapshot is written (kernel/kinfo.c owns the buffer). */
struct kbuf {
	char *buf;
	size_t len;
};
/* printf to b; what does not fit is cut off. */
void kb_printf(struct kbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/* The snapshot for path as a file, or NULL (with *err: -ENOENT for an
 * unknown /proc name, -ENOMEM). kinfo_release frees it. */
struct initrd_file *kinfo_open(const char *path, long *err);
void kinfo_release(struct initrd_file *f);
bool kinfo_is_proc_path(const char *path);

#endif
