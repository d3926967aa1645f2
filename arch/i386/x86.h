/* arch/i386/x86.h - one inline function per i386 instruction the kernel
 * needs from C. Each is a single instruction so GDB's `stepi` matches. */
#ifndef ARCH_I386_X86_H
#define ARCH_I386_X86_H

#include "lib/types.h"

/* CPUID leaf, subleaf: r[] gets EAX, EBX, ECX, EDX (SDM Vol. 2A, CPUID). */
static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(sub));
}

/* The feature bits of leaf 1 in EDX: FPU, APIC, FXSR, SSE ... */
static inline uint32_t cpuid_1_edx(void)
{
	uint32_t r[4];

	cpuid(1, 0, r);
	return r[3];
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline void cli(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void sti(void) { __asm__ volatile("sti" ::: "memory"); }
static inline void hlt(void) { __asm__ volatile("hlt" ::: "memory"); }
static inline void pause(void) { __asm__ volatile("pause"); }

/* Wait for an interrupt with interrupts enabled, atomically: sti only takes
 * effect after the next instruction (SDM Vol. 2B, STI), so no interrupt can
 * slip in between and be missed. */
/* Bochs's magic breakpoint: with `magic_break: enabled=1` in the bochsrc,
 * `xchg %bx,%bx` stops Bochs in its debugger (docs/bochs.md); on a real CPU
 * and in QEMU it does nothing. Only the kernel `make bochs-debug` builds
 * has it (-DBOCHS_MAGIC_BREAK), so no other build pays for it. */
#ifdef BOCHS_MAGIC_BREAK
#define bochs_magic_break() __asm__ volatile("xchgw %%bx, %%bx" ::: "memory")
#else
#define bochs_magic_break() do { } while (0)
#endif

static inline void sti_hlt(void) { __asm__ volatile("sti; hlt" ::: "memory"); }

#define EFLAGS_IF 0x200

static inline uint32_t read_eflags(void)
{
	uint32_t f;
	__asm__ volatile("pushfl; popl %0" : "=r"(f));
	return f;
}

static inline uint32_t read_cr0(void)
{
	uint32_t v;
	__asm__ volatile("movl %%cr0, %0" : "=r"(v));
	return v;
}

static inline void write_cr0(uint32_t v)
{
	__asm__ volatile("movl %0, %%cr0" : : "r"(v) : "memory");
}

/* Clears CR0.TS alone (SDM Vol. 2A, CLTS): the FPU is this task's. */
static inline void clts(void) { __asm__ volatile("clts" ::: "memory"); }

/* DR6, the debug status (SDM Vol. 3B 17.2.3): B0-B3 (bits 0-3) a
 * breakpoint hit, BS (bit 14) a single step. The CPU never clears it:
 * the #DB handler writes DR6_RESET back (Linux's DR6_RESERVED). */
#define DR6_BS     (1u << 14)
#define DR6_B0_B3  0xfu
#define DR6_RESET  0xffff0ff0u

static inline uint32_t read_dr6(void)
{
	uint32_t v;
	__asm__ volatile("movl %%dr6, %0" : "=r"(v));
	return v;
}

static inline void write_dr6(uint32_t v)
{
	__asm__ volatile("movl %0, %%dr6" : : "r"(v));
}

static inline uint32_t read_cr2(void)
{
	uint32_t v;
	__asm__ volatile("movl %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint32_t read_cr3(void)
{
	uint32_t v;
	__asm__ volatile("movl %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(uint32_t v)
{
	__asm__ volatile("movl %0, %%cr3" : : "r"(v) : "memory");
}

static inline uint32_t read_cr4(void)
{
	uint32_t v;
	__asm__ volatile("movl %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr4(uint32_t v)
{
	__asm__ volatile("movl %0, %%cr4" : : "r"(v) : "memory");
}

static inline uint64_t rdtsc(void)
{
	uint64_t v;
	__asm__ volatile("rdtsc" : "=A"(v));
	return v;
}

static inline void invlpg(uintptr_t va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

/* lgdt/lidt take a 6-byte pseudo-descriptor: limit then base
 * (SDM Vol. 3A 3.5.1). The limit is the size minus one (erratum 4). */
struct pseudo_desc {
	uint16_t limit;
	uint32_t base;
} __attribute__((packed));

static inline void lgdt(const void *base, uint16_t size)
{
	struct pseudo_desc pd = { (uint16_t)(size - 1), (uint32_t)base };
	__asm__ volatile("lgdt %0" : : "m"(pd) : "memory");
}

static inline void lidt(const void *base, uint16_t size)
{
	struct pseudo_desc pd = { (uint16_t)(size - 1), (uint32_t)base };
	__asm__ volatile("lidt %0" : : "m"(pd) : "memory");
}

static inline struct pseudo_desc sgdt(void)
{
	struct pseudo_desc pd;
	__asm__ volatile("sgdt %0" : "=m"(pd));
	return pd;
}

static inline void ltr(uint16_t sel)
{
	__asm__ volatile("ltr %0" : : "r"(sel));
}

static inline uint16_t str(void)
{
	uint16_t sel;
	__asm__ volatile("str %0" : "=r"(sel));
	return sel;
}

static inline void lldt(uint16_t sel)
{
	__asm__ volatile("lldt %0" : : "r"(sel));
}

#define read_seg(seg) ({ uint16_t _v; \
	__asm__ volatile("movw %%" #seg ", %0" : "=r"(_v)); _v; })

#endif
