/* user/tests/t_exec.h - what t_exec passes to t_exec_child and what
 * t_exec_child checks it received. Not a program: a header. */
#ifndef USER_TESTS_T_EXEC_H
#define USER_TESTS_T_EXEC_H

#define EXEC_CHILD "/tests/t_exec_child"

#define X10  "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10

/* argv[1] picks what the child does (see t_exec_child.c). */
static char *const exec_args_argv[] __attribute__((unused)) = {
	"t_exec_child", "args", "alpha", "two words", "", NULL
};
static char *const exec_args_envp[] __attribute__((unused)) = {
	"SPINDLE=1", "EMPTY=", "LONG=" X100 X100 X100, NULL
};

/* Exit codes of the non-printing modes, besides 0 = all as expected. */
#define CHILD_USAGE 99          /* unknown mode: started without arguments? */
#define CHILD_EMPTY_ARGV 98     /* argc 1, argv[0] "", envp after it: the
				 * execve gave no argv (Linux adds "") */

/* "leader N P C": which identity was wrong after execve in a thread. */
#define LEADER_BAD_PID  91      /* getpid() != N */
#define LEADER_BAD_TID  92      /* gettid() != N: the thread kept its tid */
#define LEADER_BAD_PPID 93      /* getppid() != P */
#define LEADER_NO_USR1  94      /* rt_sigaction(SIGUSR1) failed */

/* "many N": the length of each of the N arguments that follow. */
#define MANY_ARG_LEN 100

#endif
