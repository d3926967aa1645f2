/* lib/abi_linux.h - the user ABI of docs/abi.md section 9, as C: what
 * the Linux layer (compat/linux/) adds to lib/abi.h's seed ABI - its
 * system calls, files, limits, clone and futex flags, time and identity.
 * User programs include it (user/lib), and the layer; the seed kernel
 * does not. Numbers are Linux i386's. */
#ifndef LIB_ABI_LINUX_H
#define LIB_ABI_LINUX_H

#include "lib/abi.h"

/* ---- System call numbers of section 9 ---- */
#define SYS_restart_syscall  0     /* the kernel's own, after a stop (compat/linux/restart.h) */
#define SYS_creat            8
#define SYS_link             9
#define SYS_unlink          10
#define SYS_chdir           12
#define SYS_mknod           14
#define SYS_chmod           15
#define SYS_lseek           19
#define SYS_alarm           27
#define SYS_pause           29
#define SYS_access          33
#define SYS_rename          38
#define SYS_mkdir           39
#define SYS_rmdir           40
#define SYS_dup             41
#define SYS_pipe            42
#define SYS_ioctl           54
#define SYS_setpgid         57
#define SYS_fcntl           55
#define SYS_umask           60
#define SYS_dup2            63
#define SYS_getpgrp         65
#define SYS_setsid          66
#define SYS_setrlimit       75
#define SYS_getrlimit       76
#define SYS_select          82
#define SYS_symlink         83
#define SYS_readlink        85
#define SYS_truncate        92
#define SYS_ftruncate       93
#define SYS_fchmod          94
#define SYS_statfs          99
#define SYS_fstatfs        100
#define SYS_setitimer      104
#define SYS_getitimer      105
#define SYS_fsync          118
#define SYS_getpgid        132
#define SYS_fchdir         133
#define SYS__llseek        140
#define SYS__newselect     142
#define SYS_readv          145
#define SYS_getsid         147
#define SYS_fdatasync      148
#define SYS_rt_sigpending  176
#define SYS_rt_sigtimedwait 177
#define SYS_rt_sigsuspend  179
#define SYS_pread64        180
#define SYS_pwrite64       181
#define SYS_getcwd         183
#define SYS_sigaltstack    186
#define SYS_sendfile       187
#define SYS_ugetrlimit     191
#define SYS_truncate64     193
#define SYS_ftruncate64    194
#define SYS_stat64         195
#define SYS_lstat64        196
#define SYS_fstat64        197
#define SYS_mincore        218
#define SYS_madvise        219
#define SYS_getdents64     220
#define SYS_fcntl64        221
#define SYS_sendfile64     239
#define SYS_sched_setaffinity 241
#define SYS_sched_getaffinity 242
#define SYS_statfs64       268
#define SYS_fstatfs64      269
#define SYS_waitid         284
#define SYS_openat         295
#define SYS_mkdirat        296
#define SYS_mknodat        297
#define SYS_fstatat64      300
#define SYS_unlinkat       301
#define SYS_renameat       302
#define SYS_linkat         303
#define SYS_symlinkat      304
#define SYS_readlinkat     305
#define SYS_fchmodat       306
#define SYS_faccessat      307
#define SYS_pselect6       308
#define SYS_ppoll          309
#define SYS_dup3           330
#define SYS_pipe2          331
#define SYS_prlimit64      340
#define SYS_statx          383
#define SYS_pselect6_time64 413
#define SYS_ppoll_time64   414
#define SYS_rt_sigtimedwait_time64 421

/* ---- System calls of abi.md section 9 (both personalities): threads,
 * identity and time, with Linux 6.1 i386's numbers. clone3 435 and rseq
 * 386 stay unimplemented (-ENOSYS): glibc falls back to clone and runs
 * without rseq. ---- */
#define SYS_time                13
#define SYS_times               43
#define SYS_getrusage           77
#define SYS_gettimeofday        78
#define SYS_sysinfo            116
#define SYS_sigreturn          119
#define SYS_uname              122
#define SYS_prctl              172
#define SYS_vfork              190
#define SYS_getuid32           199
#define SYS_getgid32           200
#define SYS_geteuid32          201
#define SYS_getegid32          202
#define SYS_setuid32           213
#define SYS_setgid32           214
#define SYS_getgroups            80
#define SYS_getgroups32         205
#define SYS_tkill              238
#define SYS_set_tid_address    258
#define SYS_clock_getres       266
#define SYS_clock_nanosleep    267
#define SYS_set_robust_list    311
#define SYS_getcpu             318
#define SYS_unshare            310
#define SYS_sync                36
#define SYS_sched_getparam     155
#define SYS_sched_getscheduler 157
#define SYS_sched_get_priority_max 159
#define SYS_sched_get_priority_min 160
#define SYS_getresuid32        209
#define SYS_getresgid32        211
#define SYS_syncfs             344
#define SYS_get_robust_list    312
#define SYS_getrandom          355
#define SYS_rseq               386
#define SYS_clock_gettime64    403
#define SYS_clock_getres_time64 406
#define SYS_clock_nanosleep_time64 407
#define SYS_futex_time64       422
#define SYS_clone3             435
#define SYS_close_range        436

/* ---- files (abi.md section 9; Linux i386's values) ---- */

#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR        0x200   /* unlinkat */
#define AT_EACCESS          0x200   /* faccessat */
#define AT_SYMLINK_FOLLOW   0x400
#define AT_NO_AUTOMOUNT     0x800
#define AT_EMPTY_PATH       0x1000
#define AT_STATX_SYNC_TYPE  0x6000

#define F_DUPFD          0
#define F_GETFD          1
#define F_SETFD          2
#define F_GETFL          3
#define F_SETFL          4
#define F_DUPFD_CLOEXEC  1030
#define FD_CLOEXEC       1

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4

#ifndef FIONREAD
#define FIONREAD 0x541B          /* also lib/termbits.h */
#endif

/* file types and permission bits (st_mode) */
#define S_IFMT   0170000
#define S_IFSOCK 0140000
#define S_IFLNK  0120000
#define S_IFREG  0100000
#define S_IFBLK  0060000
#define S_IFDIR  0040000
#define S_IFCHR  0020000
#define S_IFIFO  0010000
#define S_ISUID  04000
#define S_ISGID  02000
#define S_ISVTX  01000
#define S_ISREG(m)  (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)  (((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)  (((m) & S_IFMT) == S_IFCHR)
#define S_ISLNK(m)  (((m) & S_IFMT) == S_IFLNK)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)

#define NAME_MAX 255            /* a path component, without its NUL */
#define PIPE_BUF 4096           /* pipe writes up to this size are atomic */

/* ---- poll (abi.md section 9; Linux i386's values, compat/linux/fs/poll.c) ---- */
#define SYS_poll            168
#define POLLIN      0x001       /* there is data to read */
#define POLLPRI     0x002
#define POLLOUT     0x004       /* writing will not block */
#define POLLERR     0x008       /* an error (a pipe with no reader); always reported */
#define POLLHUP     0x010       /* hung up (a pipe with no writer); always reported */
#define POLLNVAL    0x020       /* fd is not open; always reported */
#define POLLRDNORM  0x040
#define POLLRDBAND  0x080
#define POLLWRNORM  0x100
#define POLLWRBAND  0x200
struct pollfd {
	int fd;                 /* < 0: ignored, revents 0 */
	short events;
	short revents;
};
_Static_assert(sizeof(struct pollfd) == 8, "i386 struct pollfd is 8 bytes");

/* ---- utimensat (compat/linux/fs/utimes.c) ---- */
#define SYS_utimensat        320
#define SYS_utimensat_time64 412
#define UTIME_NOW  ((1l << 30) - 1l)    /* a tv_nsec: the time now */
#define UTIME_OMIT ((1l << 30) - 2l)    /* a tv_nsec: leave that time */

/* stat64, fstat64, lstat64, fstatat64: i386's struct stat64, packed as
 * Linux declares it (the long longs sit at 4-byte offsets; its longs
 * are written int here so that the host's unit tests agree). */
struct stat64 {
	unsigned long long st_dev;
	unsigned char __pad0[4];
	unsigned int __st_ino;         /* the low 32 bits of st_ino */
	unsigned int st_mode;
	unsigned int st_nlink;
	unsigned int st_uid;
	unsigned int st_gid;
	unsigned long long st_rdev;
	unsigned char __pad3[4];
	long long st_size;
	unsigned int st_blksize;
	unsigned long long st_blocks;   /* 512-byte units */
	unsigned int st_atime_sec;
	unsigned int st_atime_nsec;
	unsigned int st_mtime_sec;
	unsigned int st_mtime_nsec;
	unsigned int st_ctime_sec;
	unsigned int st_ctime_nsec;
	unsigned long long st_ino;
} __attribute__((packed));
_Static_assert(sizeof(struct stat64) == 96, "i386 struct stat64 is 96 bytes");

struct statx_timestamp {
	long long tv_sec;
	unsigned int tv_nsec;
	int __reserved;
};

struct statx {
	unsigned int stx_mask;          /* what was filled in (STATX_*) */
	unsigned int stx_blksize;
	unsigned long long stx_attributes;
	unsigned int stx_nlink;
	unsigned int stx_uid;
	unsigned int stx_gid;
	unsigned short stx_mode;
	unsigned short __spare0;
	unsigned long long stx_ino;
	unsigned long long stx_size;
	unsigned long long stx_blocks;
	unsigned long long stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	unsigned int stx_rdev_major, stx_rdev_minor;
	unsigned int stx_dev_major, stx_dev_minor;
	unsigned long long stx_mnt_id;
	unsigned int stx_dio_mem_align, stx_dio_offset_align;
	unsigned long long __spare3[12];
} __attribute__((aligned(8)));
_Static_assert(sizeof(struct statx) == 256, "struct statx is 256 bytes");

#define STATX_TYPE        0x001
#define STATX_MODE        0x002
#define STATX_NLINK       0x004
#define STATX_UID         0x008
#define STATX_GID         0x010
#define STATX_ATIME       0x020
#define STATX_MTIME       0x040
#define STATX_CTIME       0x080
#define STATX_INO         0x100
#define STATX_SIZE        0x200
#define STATX_BLOCKS      0x400
#define STATX_BASIC_STATS 0x7ff
#define STATX__RESERVED   0x80000000u

/* getdents64's record; d_reclen rounds it up to 8 bytes. */
struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;                /* where the next record starts */
	unsigned short d_reclen;
	unsigned char d_type;           /* DT_* */
	char d_name[];
} __attribute__((packed));
#define DT_UNKNOWN 0
#define DT_FIFO    1
#define DT_CHR     2
#define DT_BLK     6
#define DT_DIR     4
#define DT_REG     8
#define DT_LNK     10
#define DT_SOCK    12

/* ---- resource limits (getrlimit, setrlimit, ugetrlimit, prlimit64) ---- */
#define RLIMIT_CPU     0
#define RLIMIT_FSIZE   1
#define RLIMIT_DATA    2
#define RLIMIT_STACK   3
#define RLIMIT_CORE    4
#define RLIMIT_RSS     5
#define RLIMIT_NPROC   6
#define RLIMIT_NOFILE  7
#define RLIMIT_MEMLOCK 8
#define RLIMIT_AS      9
#define RLIM_NLIMITS   16
#define RLIM64_INFINITY (~0ULL)

struct rlimit {
	unsigned long rlim_cur;
	unsigned long rlim_max;
};

struct rlimit64 {
	unsigned long long rlim_cur;
	unsigned long long rlim_max;
};
/* ---- clone flags of the linux personality (abi.md section 9): Linux
 * 6.1's. Three of the seed's bits mean something else there: 0x00100000
 * is SETTID in both (PARENT_SETTID), 0x00200000 is the seed's DETACHED
 * and Linux's CHILD_CLEARTID, 0x00400000 the seed's RELEASE_VM and
 * Linux's (ignored) DETACHED. compat/linux/clone.c has both tables. ---- */
#define CLONE_PIDFD          0x00001000 /* not supported: -EINVAL */
#define CLONE_PTRACE         0x00002000 /* no ptrace: -EINVAL */
#define CLONE_VFORK          0x00004000 /* parent sleeps until exec/exit */
#define CLONE_PARENT         0x00008000 /* sibling of the caller */
#define CLONE_NEWNS          0x00020000 /* namespaces: -EINVAL */
#define CLONE_SYSVSEM        0x00040000 /* accepted (no SysV semaphores) */
#define CLONE_PARENT_SETTID  0x00100000 /* TID at *ptid */
#define CLONE_CHILD_CLEARTID 0x00200000 /* 0 to *ctid + FUTEX_WAKE at mm release */
#define CLONE_LINUX_DETACHED 0x00400000 /* Linux's CLONE_DETACHED: ignored */
#define CLONE_UNTRACED       0x00800000 /* ignored */
#define CLONE_CHILD_SETTID   0x01000000 /* TID at *ctid, child's memory */
#define CLONE_NEWCGROUP      0x02000000
#define CLONE_NEWUTS         0x04000000
#define CLONE_NEWIPC         0x08000000
#define CLONE_NEWUSER        0x10000000
#define CLONE_NEWPID         0x20000000
#define CLONE_NEWNET         0x40000000
#define CLONE_IO             0x80000000 /* accepted: no I/O contexts here */

/* Section 9's futex ops (Linux's uapi/linux/futex.h). */
#define FUTEX_REQUEUE         3
#define FUTEX_CMP_REQUEUE     4
#define FUTEX_WAKE_OP         5
#define FUTEX_WAIT_BITSET     9
#define FUTEX_WAKE_BITSET    10
#define FUTEX_CLOCK_REALTIME 256
/* FUTEX_WAKE_OP's val3: op 4 bits (8 = oparg is a shift), cmp 4 bits,
 * oparg 12 bits, cmparg 12 bits (both signed). */
#define FUTEX_OP(op, oparg, cmp, cmparg) \
	((((op) & 0xf) << 28) | (((cmp) & 0xf) << 24) | \
	 (((oparg) & 0xfff) << 12) | ((cmparg) & 0xfff))
#define FUTEX_OP_SET   0
#define FUTEX_OP_ADD   1
#define FUTEX_OP_OR    2
#define FUTEX_OP_ANDN  3
#define FUTEX_OP_XOR   4
#define FUTEX_OP_OPARG_SHIFT 8
#define FUTEX_OP_CMP_EQ 0
#define FUTEX_OP_CMP_NE 1
#define FUTEX_OP_CMP_LT 2
#define FUTEX_OP_CMP_LE 3
#define FUTEX_OP_CMP_GT 4
#define FUTEX_OP_CMP_GE 5
/* The robust-futex word (a pthread mutex's owner TID) and the list
 * set_robust_list registers, walked at exit (Linux's exit_robust_list). */
#define FUTEX_WAITERS      0x80000000u
#define FUTEX_OWNER_DIED   0x40000000u
#define FUTEX_TID_MASK     0x3fffffffu
struct robust_list {
	struct robust_list *next;
};
struct robust_list_head {
	struct robust_list list;
	long futex_offset;
	struct robust_list *list_op_pending;
};

struct timeval {
	long tv_sec;
	long tv_usec;
};
struct tms {
	long tms_utime, tms_stime, tms_cutime, tms_cstime;
};

/* uname(2): Linux's struct new_utsname. */
#define UTS_LEN 65
struct utsname {
	char sysname[UTS_LEN], nodename[UTS_LEN], release[UTS_LEN];
	char version[UTS_LEN], machine[UTS_LEN], domainname[UTS_LEN];
};

/* sysinfo(2), i386 layout (64 bytes). */
struct sysinfo {
	long uptime;
	unsigned long loads[3];
	unsigned long totalram, freeram, sharedram, bufferram;
	unsigned long totalswap, freeswap;
	unsigned short procs, pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit;
	char _f[8];
};

#define PR_SET_NAME 15
#define PR_GET_NAME 16
#define GRND_NONBLOCK 1
#define GRND_RANDOM   2
#define GRND_INSECURE 4

/* sigaltstack: i386's stack_t is {ss_sp, ss_flags, ss_size} */
#define SS_ONSTACK   1          /* running on it (what the kernel says) */
#define SS_DISABLE   2
#define MINSIGSTKSZ  2048
#define SIGSTKSZ     8192


#endif
