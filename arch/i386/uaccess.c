/* arch/i386/uaccess.c - the checked user copies (uaccess.h). */
#include "arch/i386/uaccess.h"
#include "arch/i386/extable.h"

long user_strncpy(char *dst, const char *src, size_t max);

static const uint8_t zeros[256];

int clear_user(uint32_t udst, size_t n)
{
	if (!user_range_ok(udst, n))
		return -EFAULT;
	while (n > 0) {
		size_t k = n < sizeof(zeros) ? n : sizeof(zeros);
		if (user_copy((void *)udst, zeros, k))
			return -EFAULT;
		udst += k;
		n -= k;
	}
	return 0;
}

long strncpy_from_user(char *dst, uint32_t usrc, size_t max)
{
	long n;

	if (max == 0)
		return -ENAMETOOLONG;
	/* Only the part below USER_TOP may be read. */
	if (usrc >= USER_TOP)
		return -EFAULT;
	if (max > USER_TOP - usrc)
		max = USER_TOP - usrc;
	n = user_strncpy(dst, (const char *)usrc, max);
	if (n < 0)
		return -EFAULT;
	if ((size_t)n == max) {
		/* No NUL: either too long, or the string ran into the kernel. */
		return usrc + max == USER_TOP ? -EFAULT : -ENAMETOOLONG;
	}
	return n;
}

extern const struct extable_entry __ex_table_start[], __ex_table_end[];

uint32_t extable_fixup(uint32_t eip)
{
	for (const struct extable_entry *e = __ex_table_start; e < __ex_table_end; e++)
		if (e->insn == eip)
			return e->fixup;
	return 0;
}
