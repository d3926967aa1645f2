"""tools/gdb/desc.py - segment descriptors decoded, for the spindle
commands (and for tests, which import it without GDB).

A descriptor is two 32-bit words, a (low) and b (high), laid out as in
Intel SDM Vol. 3A section 3.4.5, Figure 3-8, and arch/i386/desc.h:

  a: base[15:0] << 16 | limit[15:0]
  b: base[31:24] << 24 | G D/B L AVL limit[19:16] | P DPL S type | base[23:16]

base = (b & 0xff000000) | (b & 0xff) << 16 | a >> 16
limit = (b & 0x000f0000) | (a & 0xffff), in 4 KiB units when G is set.
"""

# The seed's 24-entry GDT (arch/i386/segment.h): entry -> name.
GDT_NAMES = {
    0: "null", 4: "user code __USER_CS", 5: "user data __USER_DS",
    6: "TLS #1 (glibc)", 7: "TLS #2 (Wine)", 8: "TLS #3",
    12: "kernel code __KERNEL_CS", 13: "kernel data __KERNEL_DS",
    14: "TSS", 15: "LDT",
}
GDT_ENTRIES = 24
GDT_ENTRY_TLS_MIN = 6
GDT_ENTRY_TLS_ENTRIES = 3

# System descriptor types (S = 0), SDM Vol. 3A Table 3-2.
SYSTEM_TYPES = {
    0x1: "16-bit TSS (available)", 0x2: "LDT", 0x3: "16-bit TSS (busy)",
    0x4: "16-bit call gate", 0x5: "task gate", 0x6: "16-bit interrupt gate",
    0x7: "16-bit trap gate", 0x9: "32-bit TSS (available)",
    0xb: "32-bit TSS (busy)", 0xc: "32-bit call gate",
    0xe: "32-bit interrupt gate", 0xf: "32-bit trap gate",
}


def split(value):
    """An 8-byte descriptor as one integer -> (a, b)."""
    return value & 0xffffffff, (value >> 32) & 0xffffffff


def base(a, b):
    return (b & 0xff000000) | ((b & 0xff) << 16) | (a >> 16)


def raw_limit(a, b):
    return (b & 0x000f0000) | (a & 0xffff)


def fields(a, b):
    """Every field of a descriptor, as a dict."""
    typ = (b >> 8) & 0xf
    s = (b >> 12) & 1
    g = (b >> 23) & 1
    lim = raw_limit(a, b)
    f = {
        "a": a, "b": b, "empty": a == 0 and b == 0,
        "base": base(a, b), "limit": lim,
        "bytes": ((lim << 12) | 0xfff) if g else lim,
        "G": g, "DB": (b >> 22) & 1, "L": (b >> 21) & 1, "AVL": (b >> 20) & 1,
        "P": (b >> 15) & 1, "DPL": (b >> 13) & 3, "S": s, "type": typ,
        "accessed": None,
    }
    if s:
        code = typ & 0x8
        f["accessed"] = typ & 1
        if code:
            f["kind"] = "code, %s%s" % ("execute/read" if typ & 2 else "execute-only",
                                       ", conforming" if typ & 4 else "")
        else:
            f["kind"] = "data, %s%s" % ("read/write" if typ & 2 else "read-only",
                                       ", expand-down" if typ & 4 else "")
    else:
        f["kind"] = SYSTEM_TYPES.get(typ, "reserved system type %#x" % typ)
    return f


def describe(a, b):
    """One line: base, limit, flags, type, Accessed."""
    f = fields(a, b)
    if f["empty"]:
        return "empty (0): not present; loading its selector faults"
    acc = "" if f["accessed"] is None else " A=%d" % f["accessed"]
    return ("base=%#010x limit=%#07x (%s) G=%d D/B=%d DPL=%d S=%d P=%d type=%#x %s%s"
            % (f["base"], f["limit"], size_text(f["bytes"]), f["G"], f["DB"], f["DPL"],
               f["S"], f["P"], f["type"], f["kind"], acc))


def size_text(n):
    n += 1
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d %s" % (n >> shift, unit)
    return "%d bytes" % n


def selector(entry, rpl=None):
    """The selector of a GDT entry: index * 8 + RPL (3 for user entries)."""
    if rpl is None:
        rpl = 3 if entry in (4, 5, 6, 7, 8) else 0
    return entry * 8 + rpl
