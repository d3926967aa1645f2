/* arch/i386/fpu_signal.c - the FPU state in a signal frame, as Linux i386
 * writes it (arch/x86/kernel/fpu/signal.c and regset.c, Linux 6.1):
 *
 *   fpstate ->    0  struct _fpstate: the 112-byte fnsave-format header
 *                      cw sw tag ipoff cssel dataoff datasel (7 words),
 *                      _st[8] (10 bytes each), status, magic
 *               112  the 512-byte fxsave image (_fxsr_env ... _xmm[8]),
 *                    64-byte aligned                       (FXSR CPUs)
 *
 * magic is X86_FXSR_MAGIC (0x0000) when the fxsave image follows, 0xffff
 * when only the header is there (no FXSR); status repeats the status
 * word (Linux's "status" for old handlers that cleared it). The frame
 * goes above struct rt_sigframe (signal_frame.h), and sigcontext.fpstate
 * points at it. A task that has no FPU state gets no _fpstate and
 * fpstate 0, as in Linux before every task had a state (2.6's
 * used_math()).
 *
 * rt_sigreturn takes, as Linux does for a 32-bit frame, the x87 part from
 * the header (so a handler that edits cw/sw there is obeyed) and MXCSR
 * and the XMM registers from the fxsave image, with MXCSR's reserved bits
 * cleared: fxrstor would #GP on them (SDM Vol. 2A, FXRSTOR). */
#include "arch/i386/fpu_internal.h"
#include "arch/i386/uaccess.h"
#include "arch/i386/x86.h"
#include "kernel/task.h"
#include "lib/errno.h"
#include "lib/string.h"

#define X86_FXSR_MAGIC 0x0000
#define FPSTATE_HEADER 112              /* sizeof(struct _fpstate_32) up to _fxsr_env */

struct user_fpstate {
	uint8_t env[FNSAVE_SIZE];       /* cw sw tag ipoff cssel dataoff datasel _st[8] */
	uint16_t status;
	uint16_t magic;
	uint8_t fx[FXSAVE_SIZE];
} __attribute__((packed));
_Static_assert(__builtin_offsetof(struct user_fpstate, status) == 108, "_fpstate.status");
_Static_assert(__builtin_offsetof(struct user_fpstate, magic) == 110, "_fpstate.magic");
_Static_assert(__builtin_offsetof(struct user_fpstate, fx) == FPSTATE_HEADER,
	       "_fpstate._fxsr_env at 112 (Linux's struct _fpstate_32)");
_Static_assert(sizeof(struct user_fpstate) == 624, "_fpstate is 624 bytes with FXSR");

/* The fnsave header's words (SDM Vol. 1 Figure 8-9) */
#define ENV_CWD 0
#define ENV_SWD 4
#define ENV_TWD 8
#define ENV_FIP 12
#define ENV_FCS 16      /* cs, and the last opcode in bits 16-26 */
#define ENV_FOO 20
#define ENV_FOS 24
/* and the fxsave image's (SDM Vol. 1 Table 10-2) */
#define FX_FOP 6
#define FX_FIP 8
#define FX_FCS 12
#define FX_FOO 16
#define FX_FOS 20

static uint16_t get16(const uint8_t *p, unsigned off)
{
	return (uint16_t)(p[off] | p[off + 1] << 8);
}

static void put16(uint8_t *p, unsigned off, uint16_t v)
{
	p[off] = (uint8_t)v;
	p[off + 1] = (uint8_t)(v >> 8);
}

/* The full tag word from fxsave's abridged one (Linux's
 * twd_fxsr_to_i387; SDM Vol. 1 10.5.1.1): for each non-empty physical
 * register, classify its contents as the x87 would: 0 valid, 1 zero,
 * 2 special (NaN, infinity, denormal, unnormal), 3 empty. */
static uint32_t twd_fxsr_to_i387(const uint8_t *fx)
{
	unsigned top = (get16(fx, FXSAVE_FSW) >> 11) & 7;
	uint32_t twd = 0;

	for (unsigned i = 0; i < 8; i++) {
		unsigned tag = 3;

		if (fx[FXSAVE_FTW] & (1u << i)) {
			/* st(j) is physical register i, j = (i - top) mod 8 */
			const uint8_t *r = fx + FXSAVE_ST0 + 16 * ((i - top) & 7);
			unsigned exp = get16(r, 8) & 0x7fff;
			bool zero = !fx_get32(r, 0) && !fx_get32(r, 4);

			if (exp == 0x7fff)
				tag = 2;
			else if (exp == 0)
				tag = zero ? 1 : 2;
			else
				tag = (r[7] & 0x80) ? 0 : 2;    /* the integer bit */
		}
		twd |= (uint32_t)tag << (2 * i);
	}
	return 0xffff0000u | twd;
}

/* Linux's convert_from_fxsr: the header from an fxsave image. */
static void convert_from_fxsr(uint8_t *env, const uint8_t *fx)
{
	fx_put32(env, ENV_CWD, 0xffff0000u | get16(fx, FXSAVE_FCW));
	fx_put32(env, ENV_SWD, 0xffff0000u | get16(fx, FXSAVE_FSW));
	fx_put32(env, ENV_TWD, twd_fxsr_to_i387(fx));
	fx_put32(env, ENV_FIP, fx_get32(fx, FX_FIP));
	fx_put32(env, ENV_FCS, get16(fx, FX_FCS) | (uint32_t)get16(fx, FX_FOP) << 16);
	fx_put32(env, ENV_FOO, fx_get32(fx, FX_FOO));
	fx_put32(env, ENV_FOS, 0xffff0000u | get16(fx, FX_FOS));
	for (int i = 0; i < 8; i++)
		memcpy(env + FNSAVE_ST0 + 10 * i, fx + FXSAVE_ST0 + 16 * i, 10);
}

/* Linux's convert_to_fxsr: the x87 part of an fxsave image from a
 * header (the abridged tag: a bit for each register not tagged empty). */
static void convert_to_fxsr(uint8_t *fx, const uint8_t *env)
{
	uint32_t twd = fx_get32(env, ENV_TWD);
	uint8_t ftw = 0;

	for (int i = 0; i < 8; i++)
		if (((twd >> (2 * i)) & 3) != 3)
			ftw |= (uint8_t)(1u << i);
	put16(fx, FXSAVE_FCW, (uint16_t)fx_get32(env, ENV_CWD));
	put16(fx, FXSAVE_FSW, (uint16_t)fx_get32(env, ENV_SWD));
	fx[FXSAVE_FTW] = ftw;
	fx[FXSAVE_FTW + 1] = 0;
	put16(fx, FX_FOP, (uint16_t)(fx_get32(env, ENV_FCS) >> 16));
	fx_put32(fx, FX_FIP, fx_get32(env, ENV_FIP));
	put16(fx, FX_FCS, (uint16_t)fx_get32(env, ENV_FCS));
	fx_put32(fx, FX_FOO, fx_get32(env, ENV_FOO));
	put16(fx, FX_FOS, (uint16_t)fx_get32(env, ENV_FOS));
	for (int i = 0; i < 8; i++)
		memcpy(fx + FXSAVE_ST0 + 16 * i, env + FNSAVE_ST0 + 10 * i, 10);
}

static uint32_t frame_size(void)
{
	return fpu_fxsr ? sizeof(struct user_fpstate) : FPSTATE_HEADER;
}

/* Linux's fpu__alloc_mathframe for a 32-bit frame: the fxsave image
 * 64-byte aligned, the header just below it. */
uint32_t fpu_sigframe_alloc(uint32_t sp, uint32_t *fpstate)
{
	if (!current->thread.fpu.used) {
		*fpstate = 0;
		return sp;
	}
	if (fpu_fxsr)
		sp = ((sp - FXSAVE_SIZE) & ~63u) - FPSTATE_HEADER;
	else
		sp = (sp - FPSTATE_HEADER) & ~63u;
	*fpstate = sp;
	return sp;
}

int fpu_save_sigframe(uint32_t fpstate)
{
	struct fpu *f = &current->thread.fpu;
	struct user_fpstate buf;
	uint32_t flags;

	if (!fpstate)
		return 0;
	memset(&buf, 0, sizeof(buf));
	flags = read_eflags();
	cli();
	fpu_sync_current();
	if (fpu_fxsr) {
		memcpy(buf.fx, f->area->fx, FXSAVE_SIZE);
		convert_from_fxsr(buf.env, buf.fx);
		buf.status = get16(buf.fx, FXSAVE_FSW);
		buf.magic = X86_FXSR_MAGIC;
	} else {
		memcpy(buf.env, f->area->fn, FNSAVE_SIZE);
		buf.status = get16(buf.env, ENV_SWD);
		buf.magic = 0xffff;
	}
	if (flags & EFLAGS_IF)
		sti();
	if (copy_to_user(fpstate, &buf, frame_size()))
		return -EFAULT;
	/* Linux's handle_signal -> fpu__clear_user_states: the handler
	 * starts from fninit's state, whatever the interrupted code had on
	 * the x87 stack. */
	cli();
	fpu_drop_live_current();
	f->used = false;
	if (flags & EFLAGS_IF)
		sti();
	return 0;
}

int fpu_restore_sigframe(uint32_t fpstate)
{
	struct fpu *f = &current->thread.fpu;
	struct user_fpstate buf;
	uint32_t flags, mxcsr;

	if (!fpstate) {
		/* A frame without FPU state: none to go back to. */
		flags = read_eflags();
		cli();
		fpu_drop_live_current();
		f->used = false;
		if (flags & EFLAGS_IF)
			sti();
		return 0;
	}
	if (copy_from_user(&buf, fpstate, frame_size()))
		return -EFAULT;
	if (!fpu_ensure_area())
		return -ENOMEM;
	if (fpu_fxsr) {
		convert_to_fxsr(buf.fx, buf.env);
		mxcsr = fx_get32(buf.fx, FXSAVE_MXCSR) & fpu_mxcsr_mask;
		fx_put32(buf.fx, FXSAVE_MXCSR, mxcsr);
	}
	flags = read_eflags();
	cli();
	fpu_drop_live_current();
	if (fpu_fxsr)
		memcpy(f->area->fx, buf.fx, FXSAVE_SIZE);
	else
		memcpy(f->area->fn, buf.env, FNSAVE_SIZE);
	f->used = true;
	if (flags & EFLAGS_IF)
		sti();
	/* Not live: the task's next FPU instruction (#NM) loads it, in
	 * either mode. */
	return 0;
}
