/* user/tests/segs.h - %fs and %gs for the test programs: load a selector,
 * read one back, read the word a segment's base points at.
 *
 * The TLS and LDT tests (abi.md section 5) check a descriptor the way a
 * program uses it: load its selector into %fs or %gs, then read through
 * it. A selector is (entry << 3) | TI | RPL (SDM Vol. 3A 3.4.2): GDT
 * entry 6 with RPL 3 is GDT_SEL(6) = 0x33, LDT entry 1 is LDT_SEL(1) =
 * 0x0f. Loading
 * a selector whose descriptor the CPU refuses is a #GP or #NP, which the
 * kernel turns into the task's SIGSEGV; set_fs(0) and set_gs(0) (the null
 * selector) always load.
 *
 * The word reads have a "memory" clobber: they read memory the compiler
 * cannot see through the segment, so stores before them must be done
 * first. Every function is one or two instructions, inline. */
#ifndef USER_TESTS_SEGS_H
#define USER_TESTS_SEGS_H

#define GDT_SEL(entry) ((unsigned)(entry) * 8 | 3)          /* GDT, RPL 3 */
#define LDT_SEL(entry) ((unsigned)(entry) * 8 | 4 | 3)      /* LDT (TI), RPL 3 */

static inline void set_fs(unsigned sel) { __asm__ volatile("movw %w0, %%fs" : : "r"(sel)); }
static inline void set_gs(unsigned sel) { __asm__ volatile("movw %w0, %%gs" : : "r"(sel)); }

/* The selector in %fs / %gs. A move from a segment register to a 16-bit
 * register leaves the upper half alone, so it starts at 0. */
static inline unsigned get_fs(void)
{
	unsigned v = 0;

	__asm__ volatile("movw %%fs, %w0" : "+r"(v));
	return v;
}

static inline unsigned get_gs(void)
{
	unsigned v = 0;

	__asm__ volatile("movw %%gs, %w0" : "+r"(v));
	return v;
}

/* The 32-bit word at %fs:0 / %gs:0, through whatever is loaded now. */
static inline unsigned fs_word(void)
{
	unsigned v;

	__asm__ volatile("movl %%fs:0, %0" : "=r"(v) : : "memory");
	return v;
}

static inline unsigned gs_word(void)
{
	unsigned v;

	__asm__ volatile("movl %%gs:0, %0" : "=r"(v) : : "memory");
	return v;
}

/* Loads sel, reads the word at its base, and loads 0 again, in one asm
 * statement: nothing of the caller's runs with sel loaded. */
static inline unsigned fs_word_via(unsigned sel)
{
	unsigned v;

	__asm__ volatile("movw %w1, %%fs\n\tmovl %%fs:0, %0\n\tmovw %w2, %%fs"
			 : "=&r"(v) : "r"(sel), "r"(0) : "memory");
	return v;
}

static inline unsigned gs_word_via(unsigned sel)
{
	unsigned v;

	__asm__ volatile("movw %w1, %%gs\n\tmovl %%gs:0, %0\n\tmovw %w2, %%gs"
			 : "=&r"(v) : "r"(sel), "r"(0) : "memory");
	return v;
}

#endif
