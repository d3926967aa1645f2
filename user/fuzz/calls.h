/* user/fuzz/calls.h - what calls.c and calls_ext.c share: fz_sys (every
 * call goes through it) and the argument builders. */
#ifndef USER_FUZZ_CALLS_H
#define USER_FUZZ_CALLS_H

#include "user/fuzz/fuzz.h"

long fz_sys(struct fz_task *t, unsigned long nr, int n, uint32_t a0, uint32_t a1,
	    uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5);
uint32_t fz_fd(struct fz_task *t);
uint32_t fz_struct_ptr(struct fz_task *t, void **valid, size_t n);
uint32_t fz_path(struct fz_task *t);
bool fz_path_in_sandbox(uint32_t p);     /* one of fz_path's sandbox files */
uint32_t fz_addr(struct fz_task *t);
bool fz_range_ok(struct fz_task *t, uint32_t a, uint32_t len);
void fz_timespec(struct fz_task *t, struct timespec *ts);
void fz_user_desc(struct fz_task *t, struct user_desc *u);

/* calls_ext.c */
void fz_c_futex(struct fz_task *t);
void fz_c_sigaction(struct fz_task *t);
void fz_c_sigprocmask(struct fz_task *t);
void fz_c_ldt(struct fz_task *t);
void fz_c_tls(struct fz_task *t);
void fz_c_execve(struct fz_task *t);

#endif
