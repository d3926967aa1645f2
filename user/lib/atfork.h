/* user/lib/atfork.h - how the library's own locks cross fork() (fork.c).
 *
 * fork(2) copies the whole address space but only the calling thread. A
 * lock that another thread held at that instant would stay held in the
 * child for ever - nobody there will release it - and the child's first
 * malloc or printf would wait for good. So every module of the library
 * that keeps a lock over state the threads share exports one of these
 * triples, and fork() runs it around the system call, as glibc's does:
 *
 *   prepare  takes the module's locks: fork waits until no other thread
 *            is inside the module, so what the child copies is whole
 *   parent   releases them
 *   child    sets them back to their initial state: the child's only
 *            thread is the one that took them, and nobody waits on them
 *
 * They are pthread_atfork handlers that the library registered before
 * main (fork.c says why that order is the right one). fork.c refers to
 * each triple weakly, by the name below: a program gets the handlers of
 * the modules it links and no others, and needs no registration call. */
#ifndef USER_ATFORK_H
#define USER_ATFORK_H

struct __atfork_handlers {
	void (*prepare)(void);
	void (*parent)(void);
	void (*child)(void);
};

extern const struct __atfork_handlers __malloc_atfork;        /* malloc.c: the heap */
extern const struct __atfork_handlers __stdio_atfork;         /* stdio.c: streams */
extern const struct __atfork_handlers __pthread_stack_atfork; /* pthread_stack.c: thread lists */
extern const struct __atfork_handlers __pthread_key_atfork;   /* pthread_key.c: the key table */
extern const struct __atfork_handlers __exit_atfork;          /* exit.c: the atexit table */

#endif
