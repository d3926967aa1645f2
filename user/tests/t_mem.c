/* user/tests/t_mem.c - memory calls (abi.md sections 3 and 8): brk's
 * Linux semantics, anonymous private mmap2 with and without MAP_FIXED
 * (and MAP_FIXED_NOREPLACE),
 * munmap and mprotect on mappings and on the program's own segments and
 * stack, the faults that follow, -EFAULT for kernel writes into read-only
 * pages, the error paths, and that unmapped memory is given back. Every
 * access that must fault happens in a forked child. Booted as init. */
#define T_PROG "t_mem"
#include "t.h"
#include "signal.h"
#include "sys/mman.h"

#define PAGE_ALIGN(a) (((uintptr_t)(a) + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1))
#define RW (PROT_READ | PROT_WRITE)
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)
#define FIXED_AT 0x50000000u            /* an address nothing else uses */

extern char end[];                      /* user/user.ld: the end of .bss */

/* Addresses are unsigned: mappings may lie above 0x80000000. */
static uintptr_t map(void *addr, size_t len, int prot, int flags)
{
	return (uintptr_t)raw_mmap2(addr, len, prot, flags, -1, 0);
}

/* ---- accesses in a child: the child's wait status ---- */
static int touch_read(long a)  { return *(volatile char *)opaque(a) * 0; }
static int touch_write(long a) { *(volatile char *)opaque(a) = 1; return 0; }

#define EXPECT_READ_FAULTS(a) \
	EXPECT_STATUS(child_status(touch_read, (long)(a)), KILLED(SIGSEGV))
#define EXPECT_WRITE_FAULTS(a) \
	EXPECT_STATUS(child_status(touch_write, (long)(a)), KILLED(SIGSEGV))
#define EXPECT_READ_WORKS(a) \
	EXPECT_STATUS(child_status(touch_read, (long)(a)), EXITED(0))
#define EXPECT_WRITE_WORKS(a) \
	EXPECT_STATUS(child_status(touch_write, (long)(a)), EXITED(0))

static bool all_zero(const volatile char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* ---- brk ---- */
static uintptr_t brk0;          /* the break at start */

TEST(brk_starts_after_bss)
{
	brk0 = (uintptr_t)raw_brk(0);
	EXPECT(brk0 >= (uintptr_t)end && brk0 < USER_TOP,
	       "brk(0) = %#lx, the program ends at %p", (unsigned long)brk0, (void *)end);
	EXPECT_EQ(raw_brk(0), brk0);            /* asking does not move it */
}

TEST(brk_grows)
{
	uintptr_t want = brk0 + 3 * PAGE_SIZE + 100;

	EXPECT_EQ(raw_brk((void *)want), want);
	EXPECT_EQ(raw_brk(0), want);
	EXPECT(all_zero((char *)brk0, want - brk0), "new heap memory is not zeroed");
	memset((char *)brk0, 0xaa, want - brk0);
	EXPECT(((volatile char *)want)[-1] == (char)0xaa, "heap memory does not keep a write");
}

/* Shrinking unmaps the pages past the new break; growing again brings
 * back zeroed pages, not the old contents. */
TEST(brk_shrinks_and_regrows_zeroed)
{
	uintptr_t top = brk0 + 3 * PAGE_SIZE + 100;
	uintptr_t cut = PAGE_ALIGN(brk0) + PAGE_SIZE;

	EXPECT_EQ(raw_brk(0), top);
	EXPECT_EQ(raw_brk((void *)cut), cut);
	EXPECT_READ_WORKS(cut - 1);
	EXPECT_READ_FAULTS(cut);
	EXPECT_READ_FAULTS(cut + PAGE_SIZE);
	EXPECT_EQ(raw_brk((void *)top), top);
	EXPECT(all_zero((char *)cut, top - cut), "regrown heap pages kept their old bytes");
	EXPECT(((volatile char *)cut)[-1] == (char)0xaa, "the kept heap page lost its bytes");
}

TEST(brk_failures_return_the_old_break)
{
	long cur = raw_brk(0);
	static const uintptr_t bad[] = { 1, 0x1000, USER_TOP, 0xC0100000u, 0xfffff000u, 0xffffffffu };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT(raw_brk((void *)bad[i]) == cur, "brk(%#lx) moved the break to %#lx",
		       (unsigned long)bad[i], (unsigned long)raw_brk(0));
	EXPECT(raw_brk((void *)(brk0 - PAGE_SIZE)) == cur, "brk below its start moved it");
	EXPECT_EQ(raw_brk(0), cur);
}

TEST(brk_does_not_overlap_a_mapping)
{
	long cur = raw_brk(0);
	uintptr_t at = PAGE_ALIGN(cur) + 64 * PAGE_SIZE;

	EXPECT_EQ(map((void *)at, PAGE_SIZE, RW, ANON | MAP_FIXED), at);
	*(volatile int *)at = 77;
	EXPECT_EQ(raw_brk((void *)(at + 2 * PAGE_SIZE)), cur);
	EXPECT_EQ(*(volatile int *)at, 77);
	EXPECT_EQ(raw_munmap((void *)at, PAGE_SIZE), 0);
	EXPECT_EQ(raw_brk((void *)brk0), brk0);                 /* back to the start */
}

/* ---- mmap2 ---- */
TEST(mmap_anonymous)
{
	uintptr_t p = map(NULL, 3 * PAGE_SIZE, RW, ANON);

	EXPECT(!RAW_IS_ERR(p), "mmap2: %s", t_val(p, t_b1_));
	EXPECT((p & (PAGE_SIZE - 1)) == 0 && p >= USER_BASE && p + 3 * PAGE_SIZE <= USER_TOP,
	       "mmap2 returned %#lx", (unsigned long)p);
	EXPECT(p >= (uintptr_t)raw_brk(0) || p + 3 * PAGE_SIZE <= 0x08048000u,
	       "mapping %#lx overlaps the program or its heap", (unsigned long)p);
	EXPECT(all_zero((char *)p, 3 * PAGE_SIZE), "anonymous memory is not zeroed");
	memset((char *)p, 0x5c, 3 * PAGE_SIZE);
	EXPECT(((volatile char *)p)[3 * PAGE_SIZE - 1] == 0x5c, "mapping does not keep a write");
	EXPECT_EQ(raw_munmap((void *)p, 3 * PAGE_SIZE), 0);
}

TEST(mappings_do_not_overlap)
{
	uintptr_t a = map(NULL, 2 * PAGE_SIZE, RW, ANON);
	uintptr_t b = map(NULL, 2 * PAGE_SIZE, RW, ANON);

	EXPECT(!RAW_IS_ERR(a) && !RAW_IS_ERR(b), "mmap2: %s %s", t_val(a, t_b1_),
	       t_val(b, t_b2_));
	EXPECT(a + 2 * PAGE_SIZE <= b || b + 2 * PAGE_SIZE <= a,
	       "mappings at %#lx and %#lx overlap", (unsigned long)a, (unsigned long)b);
	raw_munmap((void *)a, 2 * PAGE_SIZE);
	raw_munmap((void *)b, 2 * PAGE_SIZE);
}

TEST(mmap_fixed)
{
	volatile int *p = (volatile int *)FIXED_AT;

	EXPECT_EQ(map((void *)FIXED_AT, 2 * PAGE_SIZE, RW, ANON | MAP_FIXED), FIXED_AT);
	p[0] = 1;
	p[1024] = 2;
	/* MAP_FIXED over an existing mapping replaces it: fresh zero pages. */
	EXPECT_EQ(map((void *)(FIXED_AT + PAGE_SIZE), PAGE_SIZE, RW, ANON | MAP_FIXED),
		  FIXED_AT + PAGE_SIZE);
	EXPECT_EQ(p[0], 1);
	EXPECT_EQ(p[1024], 0);
	EXPECT_EQ(raw_munmap((void *)FIXED_AT, 2 * PAGE_SIZE), 0);
}

/* MAP_FIXED_NOREPLACE (Linux 4.17): there, or -EEXIST if any page of
 * the range is mapped, which then stays as it was. */
TEST(mmap_fixed_noreplace)
{
	volatile int *p = (volatile int *)FIXED_AT;
	const int nr = ANON | MAP_FIXED_NOREPLACE;

	EXPECT_EQ(map((void *)FIXED_AT, 3 * PAGE_SIZE, RW, nr), FIXED_AT);
	p[0] = 1;
	p[2048] = 3;
	EXPECT_EQ(map((void *)FIXED_AT, PAGE_SIZE, RW, nr), -EEXIST);
	EXPECT_EQ(map((void *)(FIXED_AT + 2 * PAGE_SIZE), 2 * PAGE_SIZE, RW, nr), -EEXIST);
	EXPECT_EQ(map((void *)(FIXED_AT - PAGE_SIZE), 2 * PAGE_SIZE, RW, nr), -EEXIST);
	EXPECT(p[0] == 1 && p[2048] == 3, "a refused MAP_FIXED_NOREPLACE changed the pages");
	EXPECT_EQ(raw_munmap((void *)(FIXED_AT + PAGE_SIZE), PAGE_SIZE), 0);
	EXPECT_EQ(map((void *)(FIXED_AT + PAGE_SIZE), PAGE_SIZE, RW, nr), FIXED_AT + PAGE_SIZE);
	EXPECT_EQ(p[1024], 0);
	EXPECT_EQ(map((void *)(FIXED_AT + 123), PAGE_SIZE, RW, nr), -EINVAL);  /* as MAP_FIXED */
	EXPECT_EQ(map(NULL, PAGE_SIZE, RW, nr), -EINVAL);
	EXPECT_EQ(raw_munmap((void *)FIXED_AT, 3 * PAGE_SIZE), 0);
}

TEST(mmap_hint_is_only_a_hint)
{
	uintptr_t p = map((void *)(FIXED_AT + 123), PAGE_SIZE, RW, ANON);

	EXPECT(!RAW_IS_ERR(p) && (p & (PAGE_SIZE - 1)) == 0, "mmap2 with a hint: %s",
	       t_val(p, t_b1_));
	EXPECT_EQ(raw_munmap((void *)p, PAGE_SIZE), 0);
}

TEST(mmap_errors)
{
	EXPECT_EQ(map(NULL, 0, RW, ANON), -EINVAL);
	EXPECT_EQ(map((void *)(FIXED_AT + 1), PAGE_SIZE, RW, ANON | MAP_FIXED), -EINVAL);
	EXPECT_EQ(map(NULL, PAGE_SIZE, RW, MAP_ANONYMOUS), -EINVAL);    /* not private */
}

/* Linux: a range that does not fit below TASK_SIZE is -ENOMEM. */
TEST(mmap_beyond_user_space_is_enomem)
{
	EXPECT_EQ(map(NULL, 0xfffff000u, RW, ANON), -ENOMEM);
	EXPECT_EQ(map((void *)USER_TOP, PAGE_SIZE, RW, ANON | MAP_FIXED), -ENOMEM);
	EXPECT_EQ(map((void *)0xC0100000, PAGE_SIZE, RW, ANON | MAP_FIXED), -ENOMEM);
	EXPECT_EQ(map((void *)(USER_TOP - PAGE_SIZE), 2 * PAGE_SIZE, RW, ANON | MAP_FIXED),
		  -ENOMEM);
}

/* Page 0 is never mapped (abi.md section 2): any error will do. */
TEST(mmap_page_zero_is_refused)
{
	uintptr_t z = map(NULL, PAGE_SIZE, RW, ANON | MAP_FIXED);

	EXPECT(RAW_IS_ERR(z), "MAP_FIXED at page 0 returned %#lx", (unsigned long)z);
	EXPECT_READ_FAULTS(0);
}

/* ---- munmap ---- */
TEST(munmap_then_access_faults)
{
	uintptr_t p = map(NULL, PAGE_SIZE, RW, ANON);

	EXPECT(!RAW_IS_ERR(p), "mmap2: %s", t_val(p, t_b1_));
	*(volatile int *)p = 5;
	EXPECT_READ_WORKS(p);
	EXPECT_EQ(raw_munmap((void *)p, PAGE_SIZE), 0);
	EXPECT_READ_FAULTS(p);
	EXPECT_WRITE_FAULTS(p);
}

TEST(munmap_part_of_a_mapping)
{
	uintptr_t p = map(NULL, 3 * PAGE_SIZE, RW, ANON);

	EXPECT(!RAW_IS_ERR(p), "mmap2: %s", t_val(p, t_b1_));
	((volatile char *)p)[0] = 1;
	((volatile char *)p)[2 * PAGE_SIZE] = 3;
	EXPECT_EQ(raw_munmap((void *)(p + PAGE_SIZE), PAGE_SIZE), 0);
	EXPECT(((volatile char *)p)[0] == 1 && ((volatile char *)p)[2 * PAGE_SIZE] == 3,
	       "the pages around the hole lost their contents");
	EXPECT_READ_FAULTS(p + PAGE_SIZE);
	EXPECT_EQ(raw_munmap((void *)p, 3 * PAGE_SIZE), 0);     /* hole included */
	EXPECT_READ_FAULTS(p);
	EXPECT_READ_FAULTS(p + 2 * PAGE_SIZE);
}

TEST(munmap_errors)
{
	EXPECT_EQ(raw_munmap((void *)(FIXED_AT + 1), PAGE_SIZE), -EINVAL);
	EXPECT_EQ(raw_munmap((void *)FIXED_AT, 0), -EINVAL);
	EXPECT_EQ(raw_munmap((void *)USER_TOP, PAGE_SIZE), -EINVAL);
	EXPECT_EQ(raw_munmap((void *)0xC0100000, PAGE_SIZE), -EINVAL);
	EXPECT_EQ(raw_munmap((void *)(USER_TOP - PAGE_SIZE), 2 * PAGE_SIZE), -EINVAL);
	EXPECT_EQ(raw_munmap((void *)FIXED_AT, PAGE_SIZE), 0);  /* nothing there: fine */
}

/* ---- mprotect ---- */
TEST(mprotect_read_only)
{
	uintptr_t p = map(NULL, PAGE_SIZE, RW, ANON);
	struct timespec *ts = (struct timespec *)p;
	int fd = (int)raw_open("/etc/motd", 0);

	EXPECT(!RAW_IS_ERR(p), "mmap2: %s", t_val(p, t_b1_));
	EXPECT(fd >= 0, "open(/etc/motd): %s", t_val(fd, t_b1_));
	*(volatile int *)p = 9;
	EXPECT_EQ(raw_mprotect((void *)p, PAGE_SIZE, PROT_READ), 0);
	EXPECT_EQ(*(volatile int *)p, 9);
	EXPECT_WRITE_FAULTS(p);
	/* Kernel writes into a read-only page fail too (CR0.WP, abi.md 8). */
	EXPECT_EQ(raw_read(fd, (void *)p, 16), -EFAULT);
	EXPECT_EQ(raw_clock_gettime(CLOCK_MONOTONIC, ts), -EFAULT);
	EXPECT_EQ(*(volatile int *)p, 9);
	EXPECT_EQ(raw_mprotect((void *)p, PAGE_SIZE, RW), 0);
	EXPECT_EQ(raw_read(fd, (void *)p, 7), 7);
	EXPECT(memcmp((void *)p, "Welcome", 7) == 0, "read into the page again: wrong bytes");
	raw_close(fd);
	EXPECT_EQ(raw_munmap((void *)p, PAGE_SIZE), 0);
}

TEST(prot_none_guard_page)
{
	uintptr_t p = map(NULL, 3 * PAGE_SIZE, RW, ANON);

	EXPECT(!RAW_IS_ERR(p), "mmap2: %s", t_val(p, t_b1_));
	EXPECT_EQ(raw_mprotect((void *)(p + PAGE_SIZE), PAGE_SIZE, PROT_NONE), 0);
	EXPECT_READ_FAULTS(p + PAGE_SIZE);
	EXPECT_WRITE_FAULTS(p + PAGE_SIZE + 100);
	EXPECT_WRITE_WORKS(p + PAGE_SIZE - 1);
	EXPECT_WRITE_WORKS(p + 2 * PAGE_SIZE);
	EXPECT_EQ(raw_munmap((void *)p, 3 * PAGE_SIZE), 0);

	uintptr_t q = map(NULL, PAGE_SIZE, PROT_NONE, ANON);
	EXPECT(!RAW_IS_ERR(q), "mmap2 PROT_NONE: %s", t_val(q, t_b1_));
	EXPECT_READ_FAULTS(q);
	EXPECT_EQ(raw_munmap((void *)q, PAGE_SIZE), 0);
}

TEST(mprotect_errors)
{
	uintptr_t p = map(NULL, PAGE_SIZE, RW, ANON);

	EXPECT(!RAW_IS_ERR(p), "mmap2: %s", t_val(p, t_b1_));
	EXPECT_EQ(raw_mprotect((void *)(p + 1), PAGE_SIZE, PROT_READ), -EINVAL);
	EXPECT_EQ(raw_mprotect((void *)p, PAGE_SIZE, 0x10), -EINVAL);
	EXPECT_EQ(raw_mprotect((void *)p, 0, PROT_READ), 0);
	EXPECT_WRITE_WORKS(p);                  /* the failures changed nothing */
	EXPECT_EQ(raw_munmap((void *)p, PAGE_SIZE), 0);
}

/* Linux: pages that are not mapped are -ENOMEM, kernel ones included. */
TEST(mprotect_unmapped_is_enomem)
{
	EXPECT_EQ(raw_mprotect((void *)FIXED_AT, PAGE_SIZE, PROT_READ), -ENOMEM);
	EXPECT_EQ(raw_mprotect((void *)0xC0100000, PAGE_SIZE, RW), -ENOMEM);
	EXPECT_EQ(raw_mprotect((void *)USER_TOP, PAGE_SIZE, RW), -ENOMEM);
}

/* ... and so is a range that runs from a mapping into a hole. */
TEST(mprotect_across_a_hole_is_enomem)
{
	EXPECT_EQ(map((void *)FIXED_AT, PAGE_SIZE, RW, ANON | MAP_FIXED), FIXED_AT);
	raw_munmap((void *)(FIXED_AT + PAGE_SIZE), PAGE_SIZE);
	long r = raw_mprotect((void *)FIXED_AT, 2 * PAGE_SIZE, PROT_READ);
	raw_munmap((void *)FIXED_AT, 2 * PAGE_SIZE);
	EXPECT_EQ(r, -ENOMEM);
}

/* ---- the program's own segments and stack (abi.md section 8) ---- */
static char bss_page[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

static int protect_bss(long prot)
{
	CHECK(raw_mprotect(bss_page, PAGE_SIZE, (int)prot) == 0);
	bss_page[10] = 1;
	return 0;
}

static int unmap_bss(long unused)
{
	(void)unused;
	CHECK(raw_munmap(bss_page, PAGE_SIZE) == 0);
	return *(volatile char *)bss_page * 0;
}

static int protect_stack(long unused)
{
	char buf[3 * PAGE_SIZE];
	volatile char *page = (volatile char *)PAGE_ALIGN(buf);
	(void)unused;
	page[0] = 1;
	CHECK(raw_mprotect((void *)page, PAGE_SIZE, PROT_READ) == 0);
	CHECK(page[0] == 1);                    /* still readable */
	page[1] = 1;
	NOT_REACHED("the write to a read-only stack page should fault");
}

TEST(own_bss_read_only)
{
	EXPECT_STATUS(child_status(protect_bss, PROT_READ), KILLED(SIGSEGV));
	EXPECT_STATUS(child_status(protect_bss, RW), EXITED(0));
}

TEST(own_bss_unmapped)
{
	EXPECT_STATUS(child_status(unmap_bss, 0), KILLED(SIGSEGV));
}

TEST(own_stack_read_only)
{
	EXPECT_STATUS(child_status(protect_stack, 0), KILLED(SIGSEGV));
}

/* ---- fork and mappings ---- */
static int write_then_check(long p)
{
	volatile int *a = (volatile int *)p;
	CHECK(a[0] == 11);                      /* inherited the contents */
	a[0] = 12;
	return 0;
}

TEST(fork_copies_mappings_and_protections)
{
	uintptr_t p = map(NULL, 2 * PAGE_SIZE, RW, ANON);
	volatile int *a = (volatile int *)p;

	EXPECT(!RAW_IS_ERR(p), "mmap2: %s", t_val(p, t_b1_));
	a[0] = 11;
	EXPECT_STATUS(child_status(write_then_check, p), EXITED(0));
	EXPECT_EQ(a[0], 11);                    /* the child's write stayed its own */
	EXPECT_EQ(raw_mprotect((void *)(p + PAGE_SIZE), PAGE_SIZE, PROT_READ), 0);
	EXPECT_WRITE_FAULTS(p + PAGE_SIZE);
	EXPECT_EQ(raw_munmap((void *)p, 2 * PAGE_SIZE), 0);
}

/* ---- memory comes back ---- */
#define MIB (1 << 20)

/* 256 MiB touched through 1 MiB mappings on a 128 MiB machine: only works
 * if munmap gives the frames back. */
TEST(munmap_gives_memory_back)
{
	for (int i = 0; i < 256; i++) {
		uintptr_t p = map(NULL, MIB, RW, ANON);
		EXPECT(!RAW_IS_ERR(p), "round %d: mmap2: %s", i, t_val(p, t_b1_));
		for (long off = 0; off < MIB; off += PAGE_SIZE)
			((volatile char *)p)[off] = (char)i;
		EXPECT(raw_munmap((void *)p, MIB) == 0, "round %d: munmap failed", i);
	}
}

TEST(brk_gives_memory_back)
{
	for (int i = 0; i < 128; i++) {
		uintptr_t top = brk0 + 2 * MIB;
		EXPECT((uintptr_t)raw_brk((void *)top) == top, "round %d: brk did not grow", i);
		for (uintptr_t a = PAGE_ALIGN(brk0); a < top; a += PAGE_SIZE)
			*(volatile char *)a = (char)i;
		EXPECT((uintptr_t)raw_brk((void *)brk0) == brk0, "round %d: brk did not shrink", i);
	}
}

#define NMAPS 200
TEST(many_mappings)
{
	static uintptr_t maps[NMAPS];

	for (int i = 0; i < NMAPS; i++) {
		maps[i] = map(NULL, PAGE_SIZE, i % 2 ? PROT_READ : RW, ANON);
		EXPECT(!RAW_IS_ERR(maps[i]), "mapping %d: %s", i, t_val(maps[i], t_b1_));
		if (!(i % 2))
			*(volatile int *)maps[i] = i;
	}
	for (int i = 0; i < NMAPS; i += 2)
		EXPECT(*(volatile int *)maps[i] == i, "mapping %d lost its contents", i);
	for (int i = 0; i < NMAPS; i++)
		EXPECT(raw_munmap((void *)maps[i], PAGE_SIZE) == 0, "munmap %d", i);
}

int main(void)
{
	RUN(brk_starts_after_bss);
	RUN(brk_grows);
	RUN(brk_shrinks_and_regrows_zeroed);
	RUN(brk_failures_return_the_old_break);
	RUN(brk_does_not_overlap_a_mapping);
	RUN(mmap_anonymous);
	RUN(mappings_do_not_overlap);
	RUN(mmap_fixed);
	RUN(mmap_fixed_noreplace);
	RUN(mmap_hint_is_only_a_hint);
	RUN(mmap_errors);
	RUN(mmap_beyond_user_space_is_enomem);
	RUN(mmap_page_zero_is_refused);
	RUN(munmap_then_access_faults);
	RUN(munmap_part_of_a_mapping);
	RUN(munmap_errors);
	RUN(mprotect_read_only);
	RUN(prot_none_guard_page);
	RUN(mprotect_errors);
	RUN(mprotect_unmapped_is_enomem);
	RUN(mprotect_across_a_hole_is_enomem);
	RUN(own_bss_read_only);
	RUN(own_bss_unmapped);
	RUN(own_stack_read_only);
	RUN(fork_copies_mappings_and_protections);
	RUN(munmap_gives_memory_back);
	RUN(brk_gives_memory_back);
	RUN(many_mappings);
	return t_exit_code();
}
