"""tools/gdb/cmd_fpu.py - spindle fpu TID: a task's x87/SSE state as the
kernel keeps it (arch/i386/fpu.h: t->thread.fpu and its fxsave area)."""
import struct

import gdb

import kdata
from kdata import SpindleError

FXSAVE_SIZE = 512
FNSAVE_SIZE = 108


def ext80(raw):
    """An x87 80-bit extended value (SDM Vol. 1 4.2.2) as a Python float,
    or a word for the special ones."""
    mant, se = struct.unpack("<QH", raw[:10])
    sign = -1.0 if se & 0x8000 else 1.0
    exp = se & 0x7fff
    if exp == 0x7fff:
        return "nan" if mant & ((1 << 63) - 1) else ("-inf" if sign < 0 else "inf")
    if exp == 0 and mant == 0:
        return "%s0.0" % ("-" if sign < 0 else "")
    try:
        return "%.17g" % (sign * mant * 2.0 ** (exp - 16383 - 63))
    except OverflowError:
        return "(out of a double's range)"


def read_bytes(addr, n):
    return bytes(gdb.selected_inferior().read_memory(addr, n))


class SpindleFpu(gdb.Command):
    """Print a task's FPU state (abi.md section 10; arch/i386/fpu.h).

Usage: spindle fpu TID

The kernel's bookkeeping first - t->thread.fpu: area (the 512-byte
fxsave image, allocated at the task's first FPU instruction; 0: it never
used the FPU), used (the area holds its state; else its next FPU
instruction starts from fninit's), live (a CPU's registers are newer than
the area: the task is running with CR0.TS clear), last_cpu (a CPU whose
registers still hold an exact copy, or -1) and whether that CPU's
fpu_owner is this task (only then may a lazy restore be skipped). Then
the area decoded: the x87 control, status and abridged tag words, MXCSR,
st0..st7 as numbers and xmm0..xmm7 as hex (SDM Vol. 1 Table 10-2). While
live, the area is older than the registers: `info float` and `p $xmm0`
on the CPU running it show the newer values."""

    def __init__(self):
        super().__init__("spindle fpu", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise SpindleError("usage: spindle fpu TID (spindle tasks lists them)")
        t = kdata.tid_arg(arg)
        f = t["thread"]["fpu"]
        area = int(f["area"])
        last = int(f["last_cpu"])
        print("%s: area 0x%08x used %d live %d last_cpu %d" %
              (kdata.task_name(t), area, int(f["used"]), int(f["live"]), last))
        if 0 <= last < kdata.ncpus():
            owner = int(kdata.static("fpu_owner")[last])
            print("cpu%d's fpu_owner is %s" % (last, "this task" if owner == int(t)
                                                 else "0x%08x" % owner))
        if not area:
            print("no area: this task has never executed an FPU instruction")
            return
        if int(f["live"]):
            print("live: the registers of the CPU it runs on are newer than this area "
                  "(there, `info float` and `p $xmm0` show them)")
        if not int(f["used"]):
            print("(the area is not in use: the next FPU instruction starts from fninit's "
                  "state, control word 0x037f, MXCSR 0x1f80)")
        if not int(kdata.value("fpu_fxsr")):
            self.fnsave(read_bytes(area, FNSAVE_SIZE))
            return
        b = read_bytes(area, FXSAVE_SIZE)
        fcw, fsw, ftw = struct.unpack_from("<HHB", b, 0)
        mxcsr, mask = struct.unpack_from("<II", b, 24)
        top = (fsw >> 11) & 7
        print("fcw 0x%04x  fsw 0x%04x (top %d)  ftw 0x%02x  mxcsr 0x%08x (mask 0x%08x)" %
              (fcw, fsw, top, ftw, mxcsr, mask))
        for i in range(8):
            # st(i) is physical register (top + i) mod 8, whose tag bit
            # says whether it holds a value (abridged tag: 1 = valid).
            valid = (ftw >> ((top + i) & 7)) & 1
            raw = b[32 + 16 * i: 32 + 16 * i + 10]
            print("  st%d  %-26s %s" % (i, ext80(raw) if valid else "(empty)", raw.hex()))
        for i in range(8):
            x = b[160 + 16 * i: 176 + 16 * i]
            print("  xmm%d 0x%s" % (i, x[::-1].hex()))

    @staticmethod
    def fnsave(b):
        """The 108-byte fnsave image (no FXSR; SDM Vol. 1 Figure 8-9)."""
        fcw, fsw, ftw = struct.unpack_from("<HxxHxxHxx", b, 0)
        print("fnsave image (no FXSR): fcw 0x%04x  fsw 0x%04x  ftw 0x%04x" % (fcw, fsw, ftw))
        for i in range(8):
            raw = b[28 + 10 * i: 38 + 10 * i]
            print("  st%d  %-26s %s" % (i, ext80(raw), raw.hex()))


def register():
    SpindleFpu()
