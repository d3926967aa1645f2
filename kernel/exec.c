/* kernel/exec.c - execve: load a static ELF32 program (abi.md section 2).
 *
 * Everything that can fail happens before the point of no return: the file
 * is found and checked, the argument strings are copied into the kernel,
 * and a whole new address space is built (segments loaded, stack written).
 * Then the other threads of the group are ended and, if the caller is not
 * the group leader, it takes over the leader's pid (de_thread, below).
 * Only then does the task give up its old address space (zeroing its
 * CLONE_RELEASE_VM word, user-vm-unlock-A2), its TLS descriptors and its
 * signal handlers, and its registers are set to the program's start. */
#include "kernel/exec.h"
#include "kernel/elf.h"
#include "kernel/exit.h"
#include "kernel/file.h"
#include "kernel/linux_hooks.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/vm.h"
#include "arch/i386/mmu.h"
#include "arch/i386/mmu_context.h"
#include "arch/i386/process.h"
#include "arch/i386/uaccess.h"
#include "arch/i386/timex.h"
#include "lib/string.h"

/* The program file, and what check_elf read of it. */
struct image {
	struct file *file;
	struct elf32_ehdr eh;
	struct elf32_phdr *ph;      /* kmalloc'd */
	char *page;                 /* a page to copy segments through */
};

/* Exactly n bytes of the file at off, or -ENOEXEC (it is shorter): what
 * a header promises beyond the file's end is caught here. */
static int image_read(struct image *img, void *buf, size_t n, uint32_t off)
{
	long got = kernel_read_at(img->file, buf, n, off);

	return got == (long)n ? 0 : got < 0 ? (int)got : -ENOEXEC;
}
#define AUXV_PAIRS 20           /* the 19 of build_stack, and 1 spare */

/* The argument and environment strings, back to back in one buffer;
 * then, once they are all in (exec_strtab), the path execve was given
 * and the platform name, for AT_EXECFN and AT_PLATFORM, at execfn and
 * platform. */
struct strtab {
	char *buf;
	size_t used;
	int argc, envc;
	size_t execfn, platform;
};

static int strtab_add_kernel(struct strtab *s, const char *str)
{
	size_t n = strlen(str) + 1;

	if (n > EXEC_MAX_STRINGS - s->used)
		return -E2BIG;
	memcpy(s->buf + s->used, str, n);
	s->used += n;
	return 0;
}

/* Copies a user array of string pointers (argv or envp); NULL is empty. */
static int strtab_add_user(struct strtab *s, uint32_t uarray, int *count)
{
	for (*count = 0; uarray; (*count)++) {
		uint32_t p;
		long n;

		if (*count >= EXEC_MAX_ARGS)
			return -E2BIG;
		if (get_user32(&p, uarray + 4u * (uint32_t)*count))
			return -EFAULT;
		if (!p)
			break;
		n = strncpy_from_user(s->buf + s->used, p, EXEC_MAX_STRINGS - s->used);
		if (n == -ENAMETOOLONG)
			return -E2BIG;
		if (n < 0)
			return (int)n;
		s->used += (size_t)n + 1;
	}
	return 0;
}

/* The file's ELF header and program headers, checked against the file's
 * size; anything wrong is -ENOEXEC (never a crash: abi.md section 2). */
static int check_elf(struct image *f, const struct elf32_ehdr **eh,
		     const struct elf32_phdr **ph)
{
	const struct elf32_ehdr *e = &f->eh;
	uint32_t phsize;
	int err;

	if (image_read(f, &f->eh, sizeof(f->eh), 0) < 0 || memcmp(e->e_ident, ELFMAG, 4) != 0)
		return -ENOEXEC;
	if (e->e_ident[EI_CLASS] != ELFCLASS32 || e->e_ident[EI_DATA] != ELFDATA2LSB ||
	    e->e_type != ET_EXEC || e->e_machine != EM_386 ||
	    e->e_phentsize != sizeof(struct elf32_phdr) || e->e_phnum == 0 ||
	    e->e_phnum > 64)
		return -ENOEXEC;
	phsize = (uint32_t)e->e_phnum * sizeof(struct elf32_phdr);
	if (e->e_phoff & 3)
		return -ENOEXEC;
	if (!(f->ph = kmalloc(phsize)))
		return -ENOMEM;
	if ((err = image_read(f, f->ph, phsize, e->e_phoff)) < 0)
		return err;
	*eh = e;
	*ph = f->ph;
	/* Static programs only (abi.md section 2): one that names a dynamic
	 * loader (PT_INTERP) or carries dynamic-linking data would start
	 * without the relocations it needs, so it is refused, not run. */
	for (int i = 0; i < e->e_phnum; i++)
		if ((*ph)[i].p_type == PT_INTERP || (*ph)[i].p_type == PT_DYNAMIC)
			return -ENOEXEC;
	return 0;
}

static uint32_t page_down(uint32_t a) { return a & ~(uint32_t)(PAGE_SIZE - 1); }
static uint32_t page_up(uint32_t a) { return (a + PAGE_SIZE - 1) & ~(uint32_t)(PAGE_SIZE - 1); }

static uint32_t elf_prot(uint32_t pflags)
{
	return ((pflags & PF_R) ? PROT_READ : 0) | ((pflags & PF_W) ? PROT_WRITE : 0) |
	       ((pflags & PF_X) ? PROT_EXEC : 0);
}

/* Maps one PT_LOAD segment into mm and copies its file bytes; the rest of
 * its memory (.bss) is fresh zeroed pages. Two segments may share a page
 * (the end of one, the start of the next): that page gets both
 * protections. */
static int load_segment(struct mm *mm, struct image *f,
			const struct elf32_phdr *p, uint32_t *prev_end)
{
	uint32_t start = page_down(p->p_vaddr), end, prot = elf_prot(p->p_flags);
	int err;

	if (p->p_filesz > p->p_memsz || p->p_memsz == 0 ||
	    p->p_vaddr < USER_BASE || p->p_vaddr >= USER_STACK_TOP - USER_STACK_SIZE ||
	    p->p_memsz > USER_STACK_TOP - USER_STACK_SIZE - p->p_vaddr)
		return -ENOEXEC;
	end = page_up(p->p_vaddr + p->p_memsz);
	if (start < *prev_end) {
		if (start + PAGE_SIZE != *prev_end)
			return -ENOEXEC;        /* overlapping segments */
		err = vm_mprotect(mm, start, PAGE_SIZE, prot | PROT_READ | PROT_WRITE | PROT_EXEC);
		if (err < 0)
			return err;
		start += PAGE_SIZE;
	}
	if (end > start && (err = vm_add_area(mm, start, end - start, prot, 0)) < 0)
		return err;
	*prev_end = end;
	/* The file's bytes, a page at a time through the kernel. */
	for (uint32_t off = 0; off < p->p_filesz; off += PAGE_SIZE) {
		uint32_t k = p->p_filesz - off < PAGE_SIZE ? p->p_filesz - off : PAGE_SIZE;
		if ((err = image_read(f, f->page, k, p->p_offset + off)) < 0 ||
		    (err = vm_load(mm, p->p_vaddr + off, (const uint8_t *)f->page, k)) < 0)
			return err;
	}
	return 0;
}

/* The initial stack (abi.md section 2, as Linux's create_elf_tables):
 *   sp -> argc, argv[0..argc-1], NULL, envp[..], NULL, auxv pairs, then
 *   the 16 AT_RANDOM bytes and the strings up to USER_STACK_TOP (the
 *   arguments, the environment, AT_EXECFN's path, AT_PLATFORM's name).
 * The auxv is Linux 6.1 i386's, in its order, less what needs a vDSO
 * (AT_SYSINFO) or an interpreter. It is built in a kernel buffer and
 * copied in with vm_load. */
static int build_stack(struct mm *mm, const struct strtab *s, const struct elf32_ehdr *e,
		       uint32_t phdr_addr, uint32_t *sp_out)
{
	uint32_t top = USER_STACK_TOP;
	uint32_t strings = top - (uint32_t)((s->used + 15) & ~15u);
	uint32_t random = strings - 16;
	uint32_t nwords = 1 + (uint32_t)s->argc + 1 + (uint32_t)s->envc + 1 + 2 * AUXV_PAIRS;
	uint32_t sp = (random - nwords * 4) & ~15u;
	uint32_t size = top - sp, *w;
	uint8_t *img = kzalloc(size);
	uint32_t str = strings;
	int i, n = 0, err;

	if (!img)
		return -ENOMEM;
	w = (uint32_t *)img;
	w[n++] = (uint32_t)s->argc;
	mm->arg_start = mm->arg_end = strings;
	for (i = 0; i < s->argc + s->envc; i++) {
		if (i == s->argc)
			w[n++] = 0;             /* end of argv */
		w[n++] = str;
		if (i < s->argc)
			mm->arg_end = str + (uint32_t)strlen(s->buf + (str - strings)) + 1;
		str += (uint32_t)strlen(s->buf + (str - strings)) + 1;
	}
	if (s->envc == 0)
		w[n++] = 0;                 /* end of argv */
	w[n++] = 0;                     /* end of envp */
	w[n++] = AT_HWCAP;    w[n++] = elf_hwcap();
	w[n++] = AT_PAGESZ;   w[n++] = PAGE_SIZE;
	w[n++] = AT_CLKTCK;   w[n++] = 100;             /* USER_HZ */
	w[n++] = AT_PHDR;     w[n++] = phdr_addr;
	w[n++] = AT_PHENT;    w[n++] = sizeof(struct elf32_phdr);
	w[n++] = AT_PHNUM;    w[n++] = e->e_phnum;
	w[n++] = AT_BASE;     w[n++] = 0;               /* no interpreter */
	w[n++] = AT_FLAGS;    w[n++] = 0;
	w[n++] = AT_ENTRY;    w[n++] = e->e_entry;
	w[n++] = AT_UID;      w[n++] = 0;               /* one user: root */
	w[n++] = AT_EUID;     w[n++] = 0;
	w[n++] = AT_GID;      w[n++] = 0;
	w[n++] = AT_EGID;     w[n++] = 0;
	w[n++] = AT_SECURE;   w[n++] = 0;
	w[n++] = AT_RANDOM;   w[n++] = random;
	w[n++] = AT_HWCAP2;   w[n++] = 0;
	w[n++] = AT_EXECFN;   w[n++] = strings + (uint32_t)s->execfn;
	w[n++] = AT_PLATFORM; w[n++] = strings + (uint32_t)s->platform;
	w[n++] = AT_NULL;     w[n++] = 0;
	ASSERT(n <= (int)nwords);
	/* AT_RANDOM's bytes: the TSC stirred; good enough for a stack canary
	 * seed in a teaching kernel, and not reproducible by accident. */
	for (i = 0; i < 16; i++)
		img[random - sp + (uint32_t)i] = (uint8_t)(get_cycles() >> (i % 8));
	memcpy(img + (strings - sp), s->buf, s->used);
	err = vm_load(mm, sp, img, size);
	kfree(img);
	*sp_out = sp;
	return err;
}

/* Where the program headers are in the program's memory (AT_PHDR). */
static uint32_t phdr_address(const struct elf32_ehdr *e, const struct elf32_phdr *ph)
{
	for (int i = 0; i < e->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset <= e->e_phoff &&
		    e->e_phoff - ph[i].p_offset < ph[i].p_filesz)
			return ph[i].p_vaddr + (e->e_phoff - ph[i].p_offset);
	return 0;
}

/* Is it a Linux program (abi.md section 9)? Each PT_NOTE segment of at
 * most a page is read into f->page and looked at for the GNU ABI note
 * (kernel/elf_note.c); an unreadable or bigger one says nothing. */
static bool image_is_linux(struct image *f, const struct elf32_ehdr *e,
			   const struct elf32_phdr *ph)
{
	for (int i = 0; i < e->e_phnum; i++)
		if (ph[i].p_type == PT_NOTE && ph[i].p_filesz <= PAGE_SIZE &&
		    image_read(f, f->page, ph[i].p_filesz, ph[i].p_offset) == 0 &&
		    elf_notes_say_linux((const uint8_t *)f->page, ph[i].p_filesz))
			return true;
	return false;
}

/* Builds the new address space; 0 and *mmp, *entry, *sp, *is_linux, or
 * -errno. */
static int build_mm(struct image *f, const struct strtab *s,
		    struct mm **mmp, uint32_t *entry, uint32_t *sp, bool *is_linux)
{
	const struct elf32_ehdr *e;
	const struct elf32_phdr *ph;
	struct mm *mm;
	uint32_t prev_end = 0;
	int err;

	uint32_t stack;

	if ((err = check_elf(f, &e, &ph)) < 0)
		return err;
	/* The seed kernel has no Linux layer to run it: a clear refusal,
	 * as Linux gives a binary no handler knows (abi.md section 9). */
	if ((*is_linux = image_is_linux(f, e, ph)) && !linux_layer_present()) {
		kprintf("execve: %s is a Linux program (GNU ABI note): this kernel has "
			"no Linux layer\n", s->buf + s->execfn);
		return -ENOEXEC;
	}
	if (!(mm = mm_create()))
		return -ENOMEM;
	for (int i = 0; i < e->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;               /* PT_TLS is user space's (abi.md) */
		if ((err = load_segment(mm, f, &ph[i], &prev_end)) < 0)
			goto fail;
	}
	err = -ENOEXEC;
	if (prev_end == 0 || e->e_entry < USER_BASE || e->e_entry >= prev_end)
		goto fail;
	mm->brk_start = mm->brk = prev_end;
	/* USER_STACK_SIZE, or the caller's RLIMIT_STACK with the layer. */
	stack = linux_exec_stack_size(USER_STACK_SIZE);
	err = vm_add_area(mm, USER_STACK_TOP - stack, stack, PROT_READ | PROT_WRITE, VMA_STACK);
	if (err < 0 || (err = build_stack(mm, s, e, phdr_address(e, ph), sp)) < 0)
		goto fail;
	*mmp = mm;
	*entry = e->e_entry;
	return 0;
fail:
	mm_put(mm);
	return err;
}

/* ---- de_thread: execve in a multi-threaded process (Linux's fs/exec.c) ----
 *
 * After execve the process is one thread with the same pid. Linux (2.6
 * on) goes further than killing the other threads: when the caller is
 * not the group leader, it becomes the leader, under the leader's pid, so
 * that the parent sees its child still running (now the new program),
 * and wait4(pid) reports the new program's exit. Step by step:
 *   1. every other thread gets SIGKILL, and group_exec_task = current,
 *      which makes its exit silent (kernel/exit.c): a thread reaps
 *      itself, through the per-CPU task cache like a detached one; the
 *      leader becomes a zombie that its parent is not told about, and
 *      its children come to current;
 *   2. current sleeps until they are gone. Threads that were zombies
 *      already (exited, not yet waited for) are released here: in Linux
 *      a thread is never a zombie, and the new program would not know
 *      to wait for them;
 *   3. current swaps identity with the zombie leader: the leader's pid,
 *      parent, exit signal and place in the task list, then the leader
 *      is released (release_task) without any wait4 or signal of its own.
 * Another group action under way (exit_group, a fatal signal, another
 * execve) wins, as in Linux: -EAGAIN, and the SIGKILL that action sent
 * ends us on the way out. */

/* Step 3, under tasklist_lock; every other task of the group is gone but
 * the leader, a zombie: a leader never leaves while a thread of its
 * group lives (exit.c), detached or not. */
static void take_over_leader_locked(struct task *t, struct task *leader)
{
	ASSERT(leader->state == TASK_ZOMBIE && leader->tid == t->tgid);
	/* Linux: "Become a process group leader with the old leader's pid."
	 * task_unhash_locked(leader) then leaves the id to us. */
	task_change_tid_locked(t, leader->tid);
	/* Its place in the task list (list_replace_rcu(&leader->tasks)) and
	 * under its parent (list_replace_init(&leader->sibling)): put us
	 * right after it, it is unlinked below. Our own children stay ours;
	 * a zombie has none left (reparent_children gave them to us). */
	list_del(&t->all_link);
	list_add(&t->all_link, &leader->all_link);
	list_del(&t->sibling);
	list_add(&t->sibling, &leader->sibling);
	t->parent = leader->parent;
	/* Linux sets SIGCHLD here and at every execve ("we have changed
	 * execution domain"); Spindle keeps a process's exit signal across
	 * execve, so the process keeps the one it had: the leader's. */
	t->exit_signal = leader->exit_signal;
	t->group_leader = t;
	leader->group_leader = t;
	leader->state = TASK_DEAD;      /* EXIT_DEAD: no wait4 can take it */
	/* The Linux layer's: the process's alarm goes on, and its CPU-time
	 * books (the leader's own time is ours now: t leads the group). */
	linux_exec_take_over_locked(leader, t);
	release_task_unlink_locked(leader);
}

static int de_thread(void)
{
	struct task *t = current, *leader = NULL;
	bool first = true;
	uint32_t flags;

	for (;;) {
		struct task *zombie = NULL;
		bool waiting = false;
		struct list *pos;

		flags = spin_lock_irqsave(&tasklist_lock);
		if (list_empty(&t->thread_group))
			break;                  /* alone: nothing to do */
		/* Linux: "Another group action in progress, just return so
		 * that the signal is processed." Only before we start: once
		 * the others are told to die, we see it through. */
		if (first && t->group_exiting) {
			spin_unlock_irqrestore(&tasklist_lock, flags);
			return -EAGAIN;
		}
		first = false;
		list_for_each(pos, &t->thread_group) {
			struct task *o = list_entry(pos, struct task, thread_group);
			o->group_exec_task = t;
			if (o->state == TASK_ZOMBIE) {
				if (o != t->group_leader && !zombie)
					zombie = o;
				continue;
			}
			/* Alive, or a zombie a wait4 has taken (TASK_DEAD):
			 * release_task wakes us when it is gone. */
			waiting = true;
			/* Every round: a thread may have cloned another
			 * before it died. */
			if (o->state != TASK_DEAD && !o->group_exiting) {
				o->group_exiting = true;
				o->group_exit_code = SIGKILL;
				send_signal_task(o, SIGKILL);
			}
		}
		if (zombie) {
			/* It exited before we came: reap it silently. */
			zombie->state = TASK_DEAD;
			release_task_unlink_locked(zombie);
			spin_unlock_irqrestore(&tasklist_lock, flags);
			release_task_free(zombie);
			continue;
		}
		if (!waiting)
			break;                  /* only a zombie leader is left */
		/* Announced under tasklist_lock, where exiting threads change
		 * their state and then wake us: no wake-up is lost. Not
		 * interruptible: the threads are dying, so this ends. */
		t->state = TASK_UNINTERRUPTIBLE;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		schedule();
	}
	if (t->group_leader != t) {
		leader = t->group_leader;
		take_over_leader_locked(t, leader);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (leader)
		release_task_free(leader);
	return 0;
}

/* The point of no return: current becomes the new program. */
static void commit_exec(const char *path, struct mm *mm, uint32_t entry, uint32_t sp)
{
	struct task *t = current;
	struct mm *old = t->mm;
	const char *base = strrchr(path, '/');

	if (old)
		mm_release(t);          /* CLONE_RELEASE_VM: "by execve" */
	t->mm = mm;
	switch_mm(old, mm);
	if (old)
		mm_put(old);
	/* No TLS descriptor nor FPU state survives exec (process.h). */
	flush_thread();
	(void)signals_exec_reset(t);     /* cannot fail: already unshared */
	strlcpy(t->comm, base ? base + 1 : path, sizeof(t->comm));
	if (t->files)
		files_close_on_exec(t->files);  /* O_CLOEXEC, FD_CLOEXEC */
	start_user_frame(t->tf, entry, sp);
}

static int exec_strtab(const char *path, struct strtab *s)
{
	struct image img = { 0 };
	struct exe_link *exe = NULL;
	struct mm *mm = NULL;
	bool is_linux = false;
	uint32_t entry = 0, sp = 0;
	long err;

	/* AT_EXECFN's and AT_PLATFORM's strings go after the others, and
	 * count against the same limit (Linux copies the path first). */
	s->execfn = s->used;
	if ((err = strtab_add_kernel(s, path)) < 0)
		return err;
	s->platform = s->used;
	if ((err = strtab_add_kernel(s, ELF_PLATFORM)) < 0)
		return err;
	if (!*path)
		return -ENOENT;
	if (!(img.file = file_open_exec(path, &err)))
		return (int)err;
	/* The Linux layer's /proc/PID/exe link, made while it can fail. */
	if (!(img.page = kmalloc(PAGE_SIZE)) || (err = linux_exec_prepare(path, img.file, &exe)) < 0)
		err = err < 0 ? err : -ENOMEM;
	else
		err = build_mm(&img, s, &mm, &entry, &sp, &is_linux);
	kfree(img.page);
	kfree(img.ph);
	file_put(img.file);
	if (err < 0) {
		linux_exec_abandon(exe);
		return (int)err;
	}
	/* Linux's flush_old_exec order: de_thread first, then a handler
	 * table of our own, unshared only after the threads are gone, so
	 * that no signal sent to the group meanwhile is lost. It is then
	 * ours alone unless a CLONE_SIGHAND process that is not a thread
	 * shares it; only then can the copy fail (-ENOMEM), as in Linux,
	 * with the other threads already gone. */
	if ((err = de_thread()) < 0 || (err = sighand_unshare(current)) < 0 ||
	    (err = files_unshare(current)) < 0) {
		mm_put(mm);
		linux_exec_abandon(exe);
		return (int)err;
	}
	commit_exec(path, mm, entry, sp);
	/* The layer's: the personality (abi.md section 9: the GNU ABI note
	 * makes it a Linux program; the group is this one task now,
	 * de_thread), the exe link, no alternate signal stack. */
	linux_exec_commit(current, is_linux, exe);
	return 0;
}

int kernel_execve(const char *path, const char *const *argv, const char *const *envp)
{
	struct strtab s = { .buf = kmalloc(EXEC_MAX_STRINGS) };
	int err = s.buf ? 0 : -ENOMEM;

	for (; argv && argv[s.argc] && !err; s.argc++)
		err = strtab_add_kernel(&s, argv[s.argc]);
	for (; envp && envp[s.envc] && !err; s.envc++)
		err = strtab_add_kernel(&s, envp[s.envc]);
	if (!err)
		err = exec_strtab(path, &s);
	kfree(s.buf);
	return err;
}

SYSCALL(SYS_execve, execve)
{
	char *path;
	struct strtab s = { .buf = NULL };
	long n;
	int err;

	if (!(path = getname(arg[0], &n)))
		return n;
	if (!(s.buf = kmalloc(EXEC_MAX_STRINGS))) {
		kfree(path);
		return -ENOMEM;
	}
	err = strtab_add_user(&s, arg[1], &s.argc);
	/* An empty argv gets "" as argv[0], as Linux's since 5.18 (fs/exec.c
	 * do_execveat_common): a program that starts reading at argv[1]
	 * would otherwise walk into envp (CVE-2021-4034). */
	if (!err && s.argc == 0 && !(err = strtab_add_kernel(&s, "")))
		s.argc = 1;
	if (!err)
		err = strtab_add_user(&s, arg[2], &s.envc);
	if (!err)
		err = exec_strtab(path, &s);
	kfree(s.buf);
	kfree(path);
	return err;
}
