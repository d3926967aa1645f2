/* user/tests/t_abi_mem.c - abi.md section 8 ("mmap2 (anonymous, private;
 * MAP_FIXED honoured), munmap and mprotect work on any page-aligned user
 * range, the program's own segments and stack included; mprotect to
 * read-only makes later kernel writes there fail with -EFAULT") and
 * section 2 ("User space is [0x1000, 0xC0000000)"), where t_mem does not
 * look:
 *   - MAP_FIXED at 0x1000, the lowest user page;
 *   - MAP_FIXED over the program's own text, .bss and stack pages (the
 *     new page is zeroed, usable, and text made that way runs), mprotect
 *     of its own text to write new code into it, munmap of a text page;
 *   - every kernel write into a read-only page fails with -EFAULT and
 *     changes nothing: wait4's status, rt_sigaction's old action,
 *     rt_sigprocmask's old mask, get_thread_area's answer, clock_gettime
 *     on either clock; kernel reads and writes of a PROT_NONE page do too
 *     ("bad pointers give -EFAULT", section 3);
 *   - kernel writes that must work: into pages shared copy-on-write
 *     after fork (each side gets its own copy) and into anonymous pages
 *     never touched before (demand zero).
 * Every access that may fault is made in a forked child. Booted as init. */
#define T_PROG "t_abi_mem"
#include "t.h"
#include "signal.h"
#include "sys/mman.h"

#define RW (PROT_READ | PROT_WRITE)
#define RWX (PROT_READ | PROT_WRITE | PROT_EXEC)
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)

static unsigned long map(unsigned long addr, size_t len, int prot, int flags)
{
	return (unsigned long)raw_mmap2((void *)addr, len, prot, flags, -1, 0);
}

/* ---- the lowest user page ---- */

static int use_page_0x1000(long unused)
{
	(void)unused;
	CHECK(map(0x1000, PAGE_SIZE, RW, ANON | MAP_FIXED) == 0x1000);
	volatile int *p = (volatile int *)opaque(0x1000);
	CHECK(*p == 0);                         /* zeroed */
	*p = 42;
	p[1023] = 43;
	CHECK(*p == 42 && p[1023] == 43);       /* usable */
	CHECK(raw_munmap((void *)0x1000, PAGE_SIZE) == 0);
	return 0;
}

TEST(map_fixed_at_0x1000_the_lowest_user_page)
{
	EXPECT_STATUS(child_status(use_page_0x1000, 0), EXITED(0));
}

/* ---- the program's own segments and stack ---- */

/* A text page of its own: returns 1. movl $1, %eax (5 bytes); ret. */
int abi_text_page(void);
__asm__(
	"	.text\n"
	"	.balign 4096\n"
	"	.globl abi_text_page\n"
	"	.type abi_text_page, @function\n"
	"abi_text_page:\n"
	"	movl $1, %eax\n"
	"	ret\n"
	"	.fill 4096 - 6, 1, 0xcc\n"
	"	.size abi_text_page, . - abi_text_page\n");

static const unsigned char ret_42[6] = { 0xb8, 42, 0, 0, 0, 0xc3 };   /* movl $42; ret */

static int patch_text(long unused)
{
	(void)unused;
	CHECK(abi_text_page() == 1);
	CHECK(raw_mprotect((void *)abi_text_page, PAGE_SIZE, RWX) == 0);
	memcpy((void *)abi_text_page, ret_42, sizeof(ret_42));
	CHECK(abi_text_page() == 42);
	return 0;
}

static int map_over_text(long unused)
{
	(void)unused;
	CHECK(map((unsigned long)abi_text_page, PAGE_SIZE, RWX, ANON | MAP_FIXED) ==
	      (unsigned long)abi_text_page);
	/* a new page: not the old code */
	CHECK(((volatile unsigned char *)abi_text_page)[0] == 0);
	memcpy((void *)abi_text_page, ret_42, sizeof(ret_42));
	CHECK(abi_text_page() == 42);
	return 0;
}

static int unmap_text(long unused)
{
	(void)unused;
	CHECK(raw_munmap((void *)abi_text_page, PAGE_SIZE) == 0);
	return abi_text_page() + 100;           /* SIGSEGV */
}

TEST(own_text_mprotect_map_fixed_and_munmap)
{
	EXPECT_STATUS(child_status(patch_text, 0), EXITED(0));
	EXPECT_STATUS(child_status(map_over_text, 0), EXITED(0));
	EXPECT_STATUS(child_status(unmap_text, 0), KILLED(SIGSEGV));
	EXPECT_EQ(abi_text_page(), 1);          /* ours is untouched */
}

static char bss_page[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

static int map_over_bss(long unused)
{
	(void)unused;
	bss_page[100] = 7;
	CHECK(map((unsigned long)bss_page, PAGE_SIZE, RW, ANON | MAP_FIXED) ==
	      (unsigned long)bss_page);
	CHECK(bss_page[100] == 0);
	bss_page[100] = 8;
	CHECK(bss_page[100] == 8);
	return 0;
}

static int map_over_stack(long unused)
{
	char here;
	unsigned long page = ((unsigned long)&here & ~(PAGE_SIZE - 1ul)) - 16 * PAGE_SIZE;

	(void)unused;
	*(volatile char *)page = 9;             /* a stack page below us */
	CHECK(map(page, PAGE_SIZE, RW, ANON | MAP_FIXED) == page);
	CHECK(*(volatile char *)page == 0);
	*(volatile char *)page = 10;
	CHECK(raw_munmap((void *)page, PAGE_SIZE) == 0);
	return *(volatile char *)page + 100;    /* SIGSEGV: a hole in the stack */
}

TEST(own_bss_and_stack_map_fixed)
{
	EXPECT_STATUS(child_status(map_over_bss, 0), EXITED(0));
	EXPECT_STATUS(child_status(map_over_stack, 0), KILLED(SIGSEGV));
}

/* ---- kernel writes into read-only pages ---- */

TEST(kernel_writes_into_a_read_only_page_are_efault)
{
	unsigned long p = map(0, PAGE_SIZE, RW, ANON);
	int st = -1;

	EXPECT(!RAW_IS_ERR(p), "mmap2: %ld", (long)p);
	memset((void *)p, 0x5a, PAGE_SIZE);
	((struct user_desc *)p)->entry_number = 6;
	EXPECT_EQ(raw_mprotect((void *)p, PAGE_SIZE, PROT_READ), 0);

	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(3);
	EXPECT(pid > 0, "fork: %ld", pid);
	long r = raw_wait4(pid, (int *)p, 0, NULL);
	if (r != pid)
		raw_wait4(pid, &st, 0, NULL);           /* still there: reap it */
	EXPECT_EQ(r, -EFAULT);
	EXPECT_EQ(raw_rt_sigaction(SIGUSR1, NULL, (struct k_sigaction *)(p + 16), 8), -EFAULT);
	EXPECT_EQ(raw_rt_sigprocmask(SIG_BLOCK, NULL, (void *)(p + 64), 8), -EFAULT);
	EXPECT_EQ(raw_get_thread_area((struct user_desc *)p), -EFAULT);
	EXPECT_EQ(raw_clock_gettime(CLOCK_REALTIME, (struct timespec *)(p + 128)), -EFAULT);
	EXPECT_EQ(raw_clock_gettime(CLOCK_MONOTONIC, (struct timespec *)(p + 128)), -EFAULT);
	for (int i = 16; i < PAGE_SIZE; i++)
		EXPECT(((volatile unsigned char *)p)[i] == 0x5a, "byte %d of the read-only page "
		       "changed to %#x", i, ((volatile unsigned char *)p)[i]);
	EXPECT_EQ(((volatile unsigned *)p)[0], 6);
	EXPECT_EQ(((volatile unsigned *)p)[1], 0x5a5a5a5a);
	EXPECT_EQ(raw_munmap((void *)p, PAGE_SIZE), 0);
}

TEST(kernel_reads_and_writes_of_a_prot_none_page_are_efault)
{
	static int word;
	unsigned long p = map(0, PAGE_SIZE, RW, ANON);
	struct timespec ms = { 0, 1000000 };

	EXPECT(!RAW_IS_ERR(p), "mmap2: %ld", (long)p);
	((struct user_desc *)p)->entry_number = 6;
	EXPECT_EQ(raw_mprotect((void *)p, PAGE_SIZE, PROT_NONE), 0);
	long fd = raw_open("/etc/motd", 0);
	EXPECT(fd >= 0, "open: %ld", fd);
	EXPECT_EQ(raw_read((int)fd, (void *)p, 16), -EFAULT);           /* kernel write */
	EXPECT_EQ(raw_write(1, (void *)p, 16), -EFAULT);                /* kernel read */
	EXPECT_EQ(raw_set_thread_area((struct user_desc *)p), -EFAULT);
	EXPECT_EQ(raw_futex((int *)p, FUTEX_WAIT, 0, &ms), -EFAULT);
	EXPECT_EQ(raw_futex(&word, FUTEX_WAIT, 0, (struct timespec *)p), -EFAULT);
	EXPECT_EQ(raw_clock_gettime(CLOCK_MONOTONIC, (struct timespec *)p), -EFAULT);
	raw_close((int)fd);
	EXPECT_EQ(raw_mprotect((void *)p, PAGE_SIZE, PROT_READ), 0);
	EXPECT_EQ(((volatile unsigned *)p)[0], 6);
	EXPECT_EQ(raw_munmap((void *)p, PAGE_SIZE), 0);
}

/* ---- kernel writes that must work ---- */

static char cow_buf[2 * PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

/* Both sides of a fork, each without touching cow_buf first: read() the
 * motd into it across the page boundary, and clock_gettime into it. */
static int kernel_writes_cow(long side)
{
	char *at = cow_buf + PAGE_SIZE - 3;
	struct timespec *ts = (struct timespec *)(cow_buf + 64);
	long fd = raw_open("/etc/motd", 0);

	if (fd < 0 || raw_read((int)fd, at, 7) != 7)
		return 1;
	raw_close((int)fd);
	if (memcmp(at, "Welcome", 7) != 0)
		return 2;
	if (raw_clock_gettime(CLOCK_MONOTONIC, ts) != 0 || ts->tv_sec == 0x5a5a5a5a)
		return 3;
	cow_buf[0] = (char)side;
	return 0;
}

TEST(kernel_writes_into_copy_on_write_pages_work_and_stay_private)
{
	memset(cow_buf, 0x5a, sizeof(cow_buf));
	EXPECT_STATUS(child_status(kernel_writes_cow, 'c'), EXITED(0));
	EXPECT(cow_buf[PAGE_SIZE - 3] == 0x5a && cow_buf[PAGE_SIZE] == 0x5a &&
	       cow_buf[64] == 0x5a && cow_buf[0] == 0x5a,
	       "the child's kernel writes reached the parent's pages");
	/* Now our pages are the shared ones (the child is gone, but they
	 * were shared while it lived): the parent's side. */
	long pid = raw_fork();
	if (pid == 0) {
		for (int i = 0; i < 50; i++)
			raw_sched_yield();
		/* our copy must still be the old one */
		CHECK(cow_buf[PAGE_SIZE - 3] == 0x5a && cow_buf[0] == 0x5a);
		raw_exit_group(0);
	}
	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT_EQ(kernel_writes_cow('p'), 0);
	int st = -1;
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(cow_buf[0], 'p');
}

TEST(kernel_writes_into_untouched_anonymous_pages_work)
{
	unsigned long p = map(0, 3 * PAGE_SIZE, RW, ANON);
	long fd = raw_open("/etc/motd", 0);

	EXPECT(!RAW_IS_ERR(p), "mmap2: %ld", (long)p);
	EXPECT(fd >= 0, "open: %ld", fd);
	/* straddles the first two pages, both never touched */
	EXPECT_EQ(raw_read((int)fd, (void *)(p + PAGE_SIZE - 4), 7), 7);
	EXPECT(memcmp((void *)(p + PAGE_SIZE - 4), "Welcome", 7) == 0, "read: wrong bytes");
	EXPECT_EQ(raw_clock_gettime(CLOCK_REALTIME, (struct timespec *)(p + 2 * PAGE_SIZE)), 0);
	EXPECT(((struct timespec *)(p + 2 * PAGE_SIZE))->tv_sec > 1000000000l,
	       "clock_gettime into an untouched page: %ld", ((struct timespec *)(p + 2 * PAGE_SIZE))->tv_sec);
	EXPECT_EQ(((volatile char *)p)[0], 0);
	raw_close((int)fd);
	EXPECT_EQ(raw_munmap((void *)p, 3 * PAGE_SIZE), 0);
}

int main(void)
{
	RUN(map_fixed_at_0x1000_the_lowest_user_page);
	RUN(own_text_mprotect_map_fixed_and_munmap);
	RUN(own_bss_and_stack_map_fixed);
	RUN(kernel_writes_into_a_read_only_page_are_efault);
	RUN(kernel_reads_and_writes_of_a_prot_none_page_are_efault);
	RUN(kernel_writes_into_copy_on_write_pages_work_and_stay_private);
	RUN(kernel_writes_into_untouched_anonymous_pages_work);
	return t_exit_code();
}
