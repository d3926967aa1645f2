/* user/tests/t_madvise.c - madvise 219 (abi.md section 9,
 * compat/linux/madvise.c vm_madvise): MADV_DONTNEED drops a private
 * area's pages (they read as zeros again and their frames are free), a
 * copy-on-write child's drop leaves its parent's data, a shared area
 * keeps its data, the hints change nothing, and the errors are Linux's:
 * EINVAL (unknown or unsupported advice, unaligned start, a range that
 * wraps), ENOMEM (a hole, after the mapped part is done). And mincore 218,
 * which says which pages those are. Booted as init. */
#define T_PROG "t_madvise"
#include "t.h"
#include "thr.h"
#include "sys/mman.h"

#define MADV_NORMAL     0
#define MADV_WILLNEED   3
#define MADV_DONTNEED   4
#define MADV_FREE       8
#define MADV_DONTFORK   10
#define RW (PROT_READ | PROT_WRITE)
#define NPAGES 16

static long sys_madvise(void *a, unsigned long len, int advice)
{
	return RAW3(SYS_madvise, a, len, advice);
}

static char *map(int flags)
{
	long a = raw_mmap2(NULL, NPAGES * PAGE_SIZE, RW, flags | MAP_ANONYMOUS, -1, 0);

	return RAW_IS_ERR(a) ? NULL : (char *)a;
}

static void fill(char *p, int pages, char c)
{
	for (int i = 0; i < pages; i++)
		memset(p + i * PAGE_SIZE, c, PAGE_SIZE);
}

static bool is(const char *p, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != c)
			return false;
	return true;
}

TEST(dontneed_drops_private_pages)
{
	struct thr_kstat k0, k1;
	char *p = map(MAP_PRIVATE);

	EXPECT(p != NULL, "mmap2 failed");
	fill(p, NPAGES, 'a');
	EXPECT_EQ(thr_kstat(&k0), 0);
	EXPECT_EQ(sys_madvise(p + 4 * PAGE_SIZE, 8 * PAGE_SIZE, MADV_DONTNEED), 0);
	EXPECT_EQ(thr_kstat(&k1), 0);
	EXPECT(k1.frames_free >= k0.frames_free + 8, "free frames %lu -> %lu after dropping 8",
	       k0.frames_free, k1.frames_free);
	EXPECT(is(p, 4 * PAGE_SIZE, 'a'), "the pages before the range changed");
	EXPECT(is(p + 4 * PAGE_SIZE, 8 * PAGE_SIZE, 0), "a dropped page is not zero");
	EXPECT(is(p + 12 * PAGE_SIZE, 4 * PAGE_SIZE, 'a'), "the pages after the range changed");
	/* Usable again, and MADV_FREE does the same. */
	fill(p, NPAGES, 'b');
	EXPECT_EQ(sys_madvise(p, NPAGES * PAGE_SIZE, MADV_FREE), 0);
	EXPECT(is(p, NPAGES * PAGE_SIZE, 0), "MADV_FREE left data");
	/* A length is rounded up to whole pages. */
	fill(p, 2, 'c');
	EXPECT_EQ(sys_madvise(p, 1, MADV_DONTNEED), 0);
	EXPECT(is(p, PAGE_SIZE, 0) && is(p + PAGE_SIZE, PAGE_SIZE, 'c'), "len 1 dropped %s",
	       p[0] ? "nothing" : "too much");
	raw_munmap(p, NPAGES * PAGE_SIZE);
}

static char *cow;

static int child_drops(long arg)
{
	(void)arg;
	if (sys_madvise(cow, NPAGES * PAGE_SIZE, MADV_DONTNEED) != 0)
		return 1;
	return is(cow, NPAGES * PAGE_SIZE, 0) ? 0 : 2;
}

TEST(a_childs_drop_leaves_the_parents_copy)
{
	cow = map(MAP_PRIVATE);
	EXPECT(cow != NULL, "mmap2 failed");
	fill(cow, NPAGES, 'p');
	EXPECT_STATUS(child_status(child_drops, 0), EXITED(0));
	EXPECT(is(cow, NPAGES * PAGE_SIZE, 'p'), "the parent's data changed");
	raw_munmap(cow, NPAGES * PAGE_SIZE);
}

TEST(shared_and_hinted_pages_keep_their_data)
{
	char *s = map(MAP_SHARED), *p = map(MAP_PRIVATE);

	EXPECT(s && p, "mmap2 failed");
	fill(s, NPAGES, 's');
	fill(p, NPAGES, 'h');
	EXPECT_EQ(sys_madvise(s, NPAGES * PAGE_SIZE, MADV_DONTNEED), 0);
	EXPECT(is(s, NPAGES * PAGE_SIZE, 's'), "a shared area lost its data");
	EXPECT_EQ(sys_madvise(p, NPAGES * PAGE_SIZE, MADV_NORMAL), 0);
	EXPECT_EQ(sys_madvise(p, NPAGES * PAGE_SIZE, MADV_WILLNEED), 0);
	EXPECT(is(p, NPAGES * PAGE_SIZE, 'h'), "a hint changed the data");
	raw_munmap(s, NPAGES * PAGE_SIZE);
	raw_munmap(p, NPAGES * PAGE_SIZE);
}

TEST(errors)
{
	char *p = map(MAP_PRIVATE);
	static const int bad[] = { MADV_DONTFORK, 5, 7, 100, 101, -1, 0x7fffffff };

	EXPECT(p != NULL, "mmap2 failed");
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(sys_madvise(p, PAGE_SIZE, bad[i]), -EINVAL);
	EXPECT_EQ(sys_madvise(p + 1, PAGE_SIZE, MADV_DONTNEED), -EINVAL);
	EXPECT_EQ(sys_madvise(p + 1, 0, MADV_DONTNEED), -EINVAL);
	EXPECT_EQ(sys_madvise(p, 0, MADV_DONTNEED), 0);
	EXPECT_EQ(sys_madvise(p, 0xfffff001ul, MADV_DONTNEED), -EINVAL);       /* rounds to 0 */
	EXPECT_EQ(sys_madvise((void *)0xfffff000ul, 2 * PAGE_SIZE, MADV_DONTNEED), -EINVAL);
	EXPECT_EQ(sys_madvise((void *)0xc0000000ul, PAGE_SIZE, MADV_DONTNEED), -ENOMEM);
	EXPECT_EQ(sys_madvise((void *)0x1000ul, PAGE_SIZE, MADV_DONTNEED), -ENOMEM);
	/* A hole after the area: ENOMEM, but the area's pages are dropped. */
	raw_munmap(p + 8 * PAGE_SIZE, 8 * PAGE_SIZE);
	fill(p, 8, 'e');
	EXPECT_EQ(sys_madvise(p, NPAGES * PAGE_SIZE, MADV_DONTNEED), -ENOMEM);
	EXPECT(is(p, 8 * PAGE_SIZE, 0), "the mapped part was not dropped");
	raw_munmap(p, 8 * PAGE_SIZE);
}

static long sys_mincore(void *a, unsigned long len, unsigned char *vec)
{
	return RAW3(SYS_mincore, a, len, vec);
}

/* mincore: 1 for each page with a frame (touched, not dropped since). */
TEST(mincore_says_which_pages_are_in_memory)
{
	unsigned char vec[NPAGES + 1];
	char *p = map(MAP_PRIVATE);
	int i;

	EXPECT(p != NULL, "mmap2 failed");
	memset(vec, 0xee, sizeof(vec));
	EXPECT_EQ(sys_mincore(p, NPAGES * PAGE_SIZE, vec), 0);
	for (i = 0; i < NPAGES; i++)
		EXPECT(vec[i] == 0, "untouched page %d: %#x", i, vec[i]);
	EXPECT_EQ(vec[NPAGES], 0xee);           /* one byte a page, no more */
	p[0] = p[3 * PAGE_SIZE] = p[4 * PAGE_SIZE + 100] = 1;
	EXPECT_EQ(sys_madvise(p + 4 * PAGE_SIZE, PAGE_SIZE, MADV_DONTNEED), 0);
	EXPECT_EQ(sys_mincore(p, NPAGES * PAGE_SIZE - 1, vec), 0);     /* len rounds up */
	for (i = 0; i < NPAGES; i++)
		EXPECT(vec[i] == (i == 0 || i == 3), "page %d: %#x", i, vec[i]);
	EXPECT_EQ(sys_mincore(p, 0, vec), 0);
	EXPECT_EQ(sys_mincore(p + 1, PAGE_SIZE, vec), -EINVAL);
	EXPECT_EQ(sys_mincore(p, PAGE_SIZE, (unsigned char *)16), -EFAULT);
	EXPECT_EQ(sys_mincore((void *)0xc0000000ul, PAGE_SIZE, vec), -ENOMEM);
	/* A hole: ENOMEM, the bytes before it written. */
	raw_munmap(p + 8 * PAGE_SIZE, 8 * PAGE_SIZE);
	memset(vec, 0xee, sizeof(vec));
	EXPECT_EQ(sys_mincore(p, NPAGES * PAGE_SIZE, vec), -ENOMEM);
	EXPECT(vec[0] == 1 && vec[7] == 0 && vec[8] == 0xee, "bytes %#x %#x %#x",
	       vec[0], vec[7], vec[8]);
	raw_munmap(p, 8 * PAGE_SIZE);
}

int main(void)
{
	RUN(dontneed_drops_private_pages);
	RUN(a_childs_drop_leaves_the_parents_copy);
	RUN(shared_and_hinted_pages_keep_their_data);
	RUN(errors);
	RUN(mincore_says_which_pages_are_in_memory);
	return t_exit_code();
}
