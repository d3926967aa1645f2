/* user/lib/pthread_tls.c - static TLS: the program's PT_TLS segment, each
 * thread's TLS block and TCB, and the main thread's set_thread_area.
 *
 * The layout (i386 variant II) is drawn in pthread_impl.h. The kernel
 * leaves PT_TLS to user space (abi.md section 2): this file finds it
 * through the auxiliary vector (AT_PHDR, AT_PHNUM), makes one block for
 * the main thread before main runs, and makes the block that
 * pthread_create puts above every new thread's stack.
 *
 * No __thread variable may live in this file: start.c links it into
 * every program, and a program that uses no TLS must not get a PT_TLS
 * segment, so that it starts as abi.md section 2 says (%gs = 0, the three
 * TLS slots empty; t_seed's erratum 3 checks exactly that). Every
 * program that uses pthreads has one (pthread_misc.c's errno). */
#include "pthread_impl.h"
#include "elf.h"
#include "raw.h"
#include "stdio.h"
#include "string.h"
#include "sys/mman.h"

#ifndef PT_TLS
#define PT_TLS 7
#endif

/* The TCB's own alignment: tp is aligned to max(p_align, this). */
#define TCB_ALIGN 16

struct pthread_tls_image __pthread_tls;
int __pthread_tls_entry = -1;
struct pthread *__pthread_main;

static int main_release_word;           /* 0: there is no stack to free */

static size_t round_up(size_t x, size_t a)
{
	return (x + a - 1) & ~(a - 1);
}

static size_t tcb_align(void)
{
	return __pthread_tls.align > TCB_ALIGN ? __pthread_tls.align : TCB_ALIGN;
}

size_t __pthread_tls_area_size(void)
{
	/* The TCB, the block below it, slack to align tp, and 16 bytes for
	 * newsp's own rounding and the RELEASE_VM word. */
	return sizeof(struct pthread) + __pthread_tls.offset + tcb_align() + 16;
}

struct pthread *__pthread_tls_setup(void *area_end)
{
	uintptr_t tp = ((uintptr_t)area_end - sizeof(struct pthread)) & ~(tcb_align() - 1);
	char *block = (char *)tp - __pthread_tls.offset;
	struct pthread *self = (struct pthread *)tp;

	memcpy(block, __pthread_tls.init, __pthread_tls.filesz);        /* .tdata */
	memset(block + __pthread_tls.filesz, 0,                         /* .tbss */
	       __pthread_tls.offset - __pthread_tls.filesz);
	*self = (struct pthread){ .self = self };
	return self;
}

/* A flat 32-bit data segment with base tp: limit 0xfffff pages = 4 GiB,
 * so %gs:-n wraps around to tp - n. useable is the AVL bit; glibc sets it
 * too. */
void __pthread_tls_desc(struct user_desc *d, struct pthread *tp)
{
	*d = (struct user_desc){
		.entry_number = (unsigned)__pthread_tls_entry,
		.base_addr = (unsigned)(uintptr_t)tp,
		.limit = 0xfffff,
		.seg_32bit = 1,
		.limit_in_pages = 1,
		.useable = 1,
	};
}

/* Before main, so nothing here may touch errno (it is a __thread
 * variable in a program with TLS): raw calls only. */
static void __attribute__((noreturn)) tls_fail(const char *what, long err)
{
	char msg[96];
	int n = snprintf(msg, sizeof(msg), "libc: cannot set up TLS: %s failed (%ld)\n",
			 what, err);

	raw_write(2, msg, (size_t)n);
	raw_exit_group(127);
	__builtin_trap();
}

static const Elf32_Phdr *find_tls_phdr(const unsigned long *auxv)
{
	const Elf32_Phdr *ph = NULL;
	unsigned long phnum = 0;

	for (const unsigned long *a = auxv; a && a[0] != AT_NULL; a += 2) {
		if (a[0] == AT_PHDR)
			ph = (const Elf32_Phdr *)a[1];
		else if (a[0] == AT_PHNUM)
			phnum = a[1];
	}
	for (unsigned long i = 0; ph && i < phnum; i++)
		if (ph[i].p_type == PT_TLS)
			return &ph[i];
	return NULL;
}

void __pthread_init_main(const unsigned long *auxv)
{
	const Elf32_Phdr *ph = find_tls_phdr(auxv);
	struct pthread *self;
	struct user_desc d;
	long r, size;

	/* user/user.ld always emits a PT_TLS header; it is empty when no
	 * object has a __thread variable. */
	if (!ph || ph->p_memsz == 0)
		return;
	__pthread_tls.init = (const void *)ph->p_vaddr;
	__pthread_tls.filesz = ph->p_filesz;
	__pthread_tls.memsz = ph->p_memsz;
	__pthread_tls.align = ph->p_align ? ph->p_align : 1;
	if (__pthread_tls.align & (__pthread_tls.align - 1))
		tls_fail("PT_TLS p_align is not a power of two: the check", (long)ph->p_align);
	__pthread_tls.offset = round_up(ph->p_memsz, __pthread_tls.align);

	/* The main thread's block and TCB: a mapping of their own (there is
	 * no malloc), never freed. */
	size = (long)round_up(__pthread_tls_area_size(), PAGE_SIZE);
	r = raw_mmap2(NULL, (size_t)size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (RAW_IS_ERR(r))
		tls_fail("mmap2", r);
	self = __pthread_tls_setup((char *)r + size);

	/* set_thread_area(-1): the kernel picks the lowest free slot of 6..8
	 * and writes its number back (abi.md section 5). Then %gs names it:
	 * selector = index * 8 + RPL 3 (TI = 0: the GDT). */
	__pthread_tls_desc(&d, self);
	d.entry_number = (unsigned)-1;
	if ((r = raw_set_thread_area(&d)) < 0)
		tls_fail("set_thread_area", r);
	__pthread_tls_entry = (int)d.entry_number;
	__asm__ volatile("movw %w0, %%gs" : : "r"(d.entry_number * 8 + 3) : "memory");

	self->tid = (pid_t)raw_gettid();
	self->detach_state = PT_JOINABLE;
	self->release_word = &main_release_word;
	__pthread_main = self;
}
