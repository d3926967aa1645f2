/* arch/i386/task_entry.S - where new tasks begin.
 *
 * switch_context "returns" into these the first time a task runs: the
 * context copy_thread/copy_kthread built has eip pointing here, and the
 * run-queue lock of this CPU is still held (sched.h), so each first calls
 * finish_task_switch. */
	.text
	.globl ret_from_fork
	.type ret_from_fork, @function
ret_from_fork:
	call finish_task_switch   /* void: it finds prev in the run queue */
	/* %esp now points at the child's trapframe (copy_thread put it at
	 * the top of the stack, right above the context). */
	pushl %esp
	call return_to_user_prepare
	addl $4, %esp
	jmp trap_ret
	.size ret_from_fork, . - ret_from_fork

	.globl kthread_start
	.type kthread_start, @function
kthread_start:
	call finish_task_switch
	pushl %esi                /* arg */
	call *%ebx                /* fn, from copy_kthread */
	addl $4, %esp
	pushl $0
	call do_exit              /* a kernel thread that returns exits */
	.size kthread_start, . - kthread_start

	.globl return_to_user
	.type return_to_user, @function
/* void return_to_user(struct trapframe *tf): leaves through trap_ret with
 * %esp at tf (which must be at the top of the current kernel stack). */
return_to_user:
	movl 4(%esp), %esp
	pushl %esp
	call return_to_user_prepare
	addl $4, %esp
	jmp trap_ret
	.size return_to_user, . - return_to_user

	.section .note.GNU-stack, "", @progbits
