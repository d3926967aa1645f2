#!/bin/sh
# tools/bench.sh B [KERNEL [INITRD [SEED_KERNEL]]] - `make bench` (docs/benchmarks.md).
#
# Boots KERNEL (default B/kernel.elf) with INITRD (default B/initrd.cpio)
# in QEMU with init=/bin/bench (user/bin/bench.c) under instruction
# counting, so the guest TSC advances one tick per guest instruction and
# every run of the same image prints the same figures
# (docs/benchmarks.md explains why), with the flags of tools/icount.flags:
#
#     -icount shift=0,align=off,sleep=off -rtc base=2024-01-01T00:00:00,clock=vm
#
# at -smp 1, collects the table bench prints between its markers, adds
# the disassembly of load_TLS from the kernel (the function in
# arch/i386/process.c, or the inline of arch/i386/process.h as it landed
# in switch_to) with its instruction count and whether it has a branch,
# prints it all and writes it to B/bench.txt. Then /bin/bench_pt (the
# same through pthreads) and /bin/bench_fpu in both FPU switching modes.
#
# With SEED_KERNEL (make seed's build/seed/kernel.elf: the core alone),
# /bin/bench boots on it too, and a second table sets its figures beside
# KERNEL's: what the Linux layer adds to a seed program's paths.
#
# Missed targets are reported, never an error. The exit status is non-zero
# only when the benchmark could not run: QEMU failed, the kernel panicked,
# the run timed out (BENCH_TIMEOUT seconds, default 300; the last
# "bench: running" line names the benchmark that hung), the table is
# incomplete, or a benchmark reported FAILED (a system call failed).
#
# QEMU runs in a scratch directory where the kernel and initrd are linked
# as kernel.elf and initrd.cpio: the kernel's command line (QEMU puts the
# kernel's path first) is then the same whatever B is, so two builds of
# the same sources boot byte-identical images with byte-identical command
# lines and print identical figures.
set -eu

B=${1:?usage: tools/bench.sh BUILD_DIR [KERNEL [INITRD [SEED_KERNEL]]]}
KERNEL=${2:-$B/kernel.elf}
INITRD=${3:-$B/initrd.cpio}
SEED_KERNEL=${4:-}
TIMEOUT=${BENCH_TIMEOUT:-300}
QEMU=${QEMU:-qemu-system-i386}
MEM=256                 # 10,000 threads: 8 KiB of kernel stack each
OUT=$B/bench.txt
RAW=$B/bench.console.txt
RUNS_PT=5

for f in "$KERNEL" "$INITRD"; do
    [ -f "$f" ] || { echo "bench: $f is missing (make first)" >&2; exit 1; }
done
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
KERNEL_ABS=$(abs "$KERNEL")
INITRD_ABS=$(abs "$INITRD")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/spindle-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# Fixed names: the command line QEMU builds is "kernel.elf init=/bin/bench".
ln -s "$KERNEL_ABS" "$TMP/kernel.elf"
ln -s "$INITRD_ABS" "$TMP/initrd.cpio"

ICOUNT=$(cat "$(dirname "$0")/icount.flags")   # the deterministic setup (docs/races.md)
echo "  BENCH   $QEMU -smp 1 -m $MEM $ICOUNT (up to ${TIMEOUT}s)"
rc=0
(cd "$TMP" && timeout "$TIMEOUT" "$QEMU" -m "$MEM" -smp 1 -display none -no-reboot \
    -device isa-debug-exit,iobase=0xf4,iosize=0x04 $ICOUNT \
    -kernel kernel.elf -initrd initrd.cpio -append "init=/bin/bench" \
    -serial "file:$TMP/console.txt" </dev/null >"$TMP/qemu.txt" 2>&1) || rc=$?
# The console ends its lines with \r\n.
tr -d '\r' < "$TMP/console.txt" > "$RAW" 2>/dev/null || : >"$RAW"

# What went wrong with the run, if anything. isa-debug-exit makes QEMU exit
# with (status << 1) | 1: 1 is init's exit(0), 5 its exit(2) (a benchmark
# FAILED, the table is still complete).
problem=
if [ "$rc" -eq 124 ]; then
    last=$(grep 'bench: running' "$RAW" | tail -n 1 | sed 's/^bench: running //')
    problem="timed out after ${TIMEOUT}s${last:+ during: $last} (a hang: kernel bug?)"
elif grep -q PANIC "$RAW"; then
    problem="kernel panic: $(grep -m1 PANIC "$RAW")"
elif ! grep -q '^==== end of bench table ====$' "$RAW"; then
    problem="QEMU exit status $rc and no complete table$( [ -s "$TMP/qemu.txt" ] && printf ': %s' "$(head -n 3 "$TMP/qemu.txt")")"
elif [ "$rc" -ne 1 ] && [ "$rc" -ne 5 ]; then
    problem="QEMU exit status $rc (init's status $(( (rc - 1) / 2 )))"
fi

# load_TLS as the compiler made it: D9's "3 TLS entries, 9 cycles copying
# and no branches in the context-switch path". If the kernel has a load_TLS
# function (arch/i386/process.c), all of it is counted; if load_TLS is an
# inline (arch/i386/process.h), the instructions of switch_to that the
# line table attributes to it (objdump -l --inlines) are counted, marked
# "=>".
# Branches: jumps, loops and calls; a function's final ret is not one.
if nm "$KERNEL" | grep -q ' [Tt] load_TLS$'; then
    tls_where="the function load_TLS"
    objdump -d --no-show-raw-insn --disassemble=load_TLS "$KERNEL" |
        awk '/^ *[0-9a-f]+:\t/ { print "=> " $0 }' > "$TMP/load_tls.txt"
else
    tls_where="load_TLS inlined in switch_to"
    objdump -d -l --inlines --no-show-raw-insn --disassemble=switch_to "$KERNEL" |
        awk '/^[A-Za-z_][A-Za-z0-9_.]*\(\):$/ { fn = substr($0, 1, length($0) - 3); next }
             /^ *[0-9a-f]+:\t/ { print (fn == "load_TLS" ? "=> " : "   ") $0 }' \
        > "$TMP/load_tls.txt"
fi
ninsn=$(grep -c '^=>' "$TMP/load_tls.txt" || true)
branches=$(grep '^=>' "$TMP/load_tls.txt" | awk -F'\t' '{ split($2, m, " ");
                  if (m[1] ~ /^(j|loop|call)/) print m[1] }' |
           sort -u | tr '\n' ' ' | sed 's/ $//')

# The two load_TLS rows, which go right after bench's last row.
{
    if [ "$ninsn" -gt 0 ]; then
        if [ "$ninsn" -le 12 ]; then r1=met; else r1="NOT MET"; fi
        if [ -z "$branches" ]; then r2=met; b=none; else r2="NOT MET"; b=$branches; fi
        printf '%-46s %9s  %-8s  %-7s  %s\n' "load_TLS: instructions" \
            "$ninsn" "<= 12" "$r1" "$tls_where (below)"
        printf '%-46s %9s  %-8s  %-7s\n' "load_TLS: jump/branch/call instructions" \
            "$b" "none" "$r2"
    else
        printf '%-46s %9s  %-8s  %s\n' "load_TLS" "-" "<= 12" \
            "FAILED: neither a load_TLS function nor an inlined one in switch_to"
    fi
} > "$TMP/tls_rows.txt"
if [ "$ninsn" -eq 0 ]; then
    problem=${problem:-"load_TLS not found in $KERNEL"}
fi

{
    sed -n '/^==== bench table ====$/,/^==== end of bench table ====$/p' "$RAW" |
        sed '1d;$d' | awk -v rows="$TMP/tls_rows.txt" '
            { print }
            /^create\+exit spread/ { while ((getline l < rows) > 0) print l; done = 1 }
            END { if (!done) while ((getline l < rows) > 0) print l }' | sed 's/ *$//'
    if [ -n "$problem" ]; then
        echo
        echo "BENCHMARK DID NOT COMPLETE: $problem"
        echo "last console lines ($RAW):"
        tail -n 15 "$RAW" | sed 's/^/    | /'
    fi
    echo
    echo "$tls_where: objdump -d --no-show-raw-insn of $(basename "$KERNEL")" \
        "(=> marks load_TLS's instructions):"
    cat "$TMP/load_tls.txt"
} > "$OUT"

# ---- the seed kernel (make seed): the same /bin/bench on the core alone,
# its figures beside the full kernel's; the difference is what the Linux
# layer's hooks cost a seed program (docs/benchmarks.md, "The seed kernel").
if [ -n "$SEED_KERNEL" ]; then
    ln -s "$(abs "$SEED_KERNEL")" "$TMP/seed.elf"
    echo "  BENCH   $QEMU -smp 1 -m $MEM $ICOUNT seed kernel init=/bin/bench (up to ${TIMEOUT}s)"
    seed_rc=0
    (cd "$TMP" && timeout "$TIMEOUT" "$QEMU" -m "$MEM" -smp 1 -display none -no-reboot \
        -device isa-debug-exit,iobase=0xf4,iosize=0x04 $ICOUNT \
        -kernel seed.elf -initrd initrd.cpio -append "init=/bin/bench" \
        -serial "file:$TMP/seed_console.txt" </dev/null >"$TMP/seed_qemu.txt" 2>&1) || seed_rc=$?
    tr -d '\r' < "$TMP/seed_console.txt" > "$TMP/seed.txt" 2>/dev/null || : >"$TMP/seed.txt"
    {
        echo
        echo "The seed kernel (make seed: the core alone, no Linux layer), the same /bin/bench;"
        echo "the last column is what the full kernel adds (its figure minus the seed's)."
        echo
        if grep -q '^==== end of bench table ====$' "$TMP/seed.txt" && [ "$seed_rc" -eq 1 ]; then
            # The two tables' medians, row by row: a row is its name,
            # two spaces or more, and the median.
            for f in full:"$RAW" seed:"$TMP/seed.txt"; do
                sed -n '/^==== bench table ====$/,/^==== end of bench table ====$/p' "${f#*:}" |
                    awk -F'  +' '$2 ~ /^ *[0-9]+$/ { print $1 "\t" ($2 + 0) }' > "$TMP/${f%%:*}.rows"
            done
            awk -F'\t' 'FNR == NR { full[$1] = $2; next }
                FNR == 1 { printf "%-46s %12s %12s %8s\n", "benchmark", "full kernel", "seed kernel", "layer" }
                $1 in full { printf "%-46s %12d %12d %8d\n", $1, full[$1], $2, full[$1] - $2 }' \
                "$TMP/full.rows" "$TMP/seed.rows"
        else
            echo "seed kernel: INCOMPLETE (QEMU status $seed_rc)"
            problem=${problem:-"/bin/bench on the seed kernel did not complete"}
        fi
    } >> "$OUT"
    cat "$TMP/seed.txt" >> "$RAW"
fi

# ---- /bin/bench_pt (user/bin/bench_pt.c): the same costs through the
# libc and pthreads, appended to B/bench.txt, at -smp 1 under icount (as
# above, deterministic). The SMP figures come last, from tools/bench_smp.sh.
PT_MEM=512              # 10,000 pthreads: 16 KiB stacks + 8 KiB kernel stacks
pt_run() {  # pt_run SMP TIMEOUT FLAGS [ARG] -> $TMP/pt.txt, sets pt_rc
    pt_rc=0
    (cd "$TMP" && timeout "$2" "$QEMU" -m "$PT_MEM" -smp "$1" -display none -no-reboot \
        -device isa-debug-exit,iobase=0xf4,iosize=0x04 $3 \
        -kernel kernel.elf -initrd initrd.cpio -append "init=/bin/bench_pt${4:+ -- $4}" \
        -serial "file:$TMP/pt_console.txt" </dev/null >"$TMP/pt_qemu.txt" 2>&1) || pt_rc=$?
    tr -d '\r' < "$TMP/pt_console.txt" > "$TMP/pt.txt" 2>/dev/null || : >"$TMP/pt.txt"
    cat "$TMP/pt.txt" >> "$RAW"
}
pt_table() {  # the table bench_pt printed, or the rows it finished
    if grep -q '^==== end of bench_pt table ====$' "$TMP/pt.txt"; then
        sed -n '/^==== bench_pt table ====$/,/^==== end of bench_pt table ====$/p' \
            "$TMP/pt.txt" | sed '1d;$d' | sed 's/ *$//'
        return 0
    fi
    echo "INCOMPLETE (QEMU status $pt_rc$([ "$pt_rc" -eq 124 ] && echo ", timed out")): the rows finished:"
    grep -E '^bench(_pt)?: .*(ticks/op|ticks, at most|FAILED)' "$TMP/pt.txt" | sed 's/^/    /'
    return 1
}
echo "  BENCH   $QEMU -smp 1 -m $PT_MEM $ICOUNT init=/bin/bench_pt (up to ${TIMEOUT}s)"
pt_run 1 "$TIMEOUT" "$ICOUNT"
{
    echo
    echo "Userland (pthreads, /bin/bench_pt): QEMU -icount shift=0 -smp 1, deterministic;"
    echo "ticks = guest instructions per operation, median of $RUNS_PT runs."
    echo
    pt_table || problem=${problem:-"/bin/bench_pt at -smp 1 did not complete"}
} > "$TMP/pt1.txt" 2>&1 || :
if grep -q 'FAILED' "$OUT"; then
    problem=${problem:-"a benchmark could not run (FAILED above)"}
fi
cat "$TMP/pt1.txt" >> "$OUT"
if grep -q '^FAILED\|FAILED:' "$TMP/pt1.txt"; then
    problem=${problem:-"/bin/bench_pt: a benchmark FAILED at -smp 1"}
fi

# ---- /bin/bench_lx (user/linux/bench_lx.c): the same paths as a static
# glibc program pays them (the linux personality), -smp 1 under icount.
echo "  BENCH   $QEMU -smp 1 -m $PT_MEM $ICOUNT init=/bin/bench_lx (up to ${TIMEOUT}s)"
lx_rc=0
(cd "$TMP" && timeout "$TIMEOUT" "$QEMU" -m "$PT_MEM" -smp 1 -display none -no-reboot \
    -device isa-debug-exit,iobase=0xf4,iosize=0x04 $ICOUNT \
    -kernel kernel.elf -initrd initrd.cpio -append "init=/bin/bench_lx" \
    -serial "file:$TMP/lx_console.txt" </dev/null >"$TMP/lx_qemu.txt" 2>&1) || lx_rc=$?
tr -d '\r' < "$TMP/lx_console.txt" > "$TMP/lx.txt" 2>/dev/null || : >"$TMP/lx.txt"
cat "$TMP/lx.txt" >> "$RAW"
{
    echo
    echo "Linux programs (static glibc, /bin/bench_lx): QEMU -icount shift=0 -smp 1;"
    echo "ticks = guest instructions per operation, median of 5 runs."
    echo
    if grep -q '^==== end of bench_lx table ====$' "$TMP/lx.txt" && [ "$lx_rc" -eq 1 ]; then
        sed -n '/^==== bench_lx table ====$/,/^==== end of bench_lx table ====$/p' \
            "$TMP/lx.txt" | sed '1d;$d' | sed 's/ *$//'
    else
        echo "/bin/bench_lx: INCOMPLETE (QEMU status $lx_rc)"
        problem=${problem:-"/bin/bench_lx did not complete"}
    fi
} >> "$OUT"

# ---- /bin/bench_fpu (user/bin/bench_fpu.c): a switch with and without
# FPU state, once in each switching mode (arch/i386/fpu.h: fpu=eager, the
# default, and fpu=lazy), -smp 1 under icount.
for mode in eager lazy; do
    echo "  BENCH   $QEMU -smp 1 $ICOUNT init=/bin/bench_fpu fpu=$mode (up to ${TIMEOUT}s)"
    fpu_rc=0
    (cd "$TMP" && timeout "$TIMEOUT" "$QEMU" -m "$MEM" -smp 1 -display none -no-reboot \
        -device isa-debug-exit,iobase=0xf4,iosize=0x04 $ICOUNT \
        -kernel kernel.elf -initrd initrd.cpio -append "init=/bin/bench_fpu fpu=$mode" \
        -serial "file:$TMP/fpu_console.txt" </dev/null >"$TMP/fpu_qemu.txt" 2>&1) || fpu_rc=$?
    tr -d '\r' < "$TMP/fpu_console.txt" > "$TMP/fpu.txt" 2>/dev/null || : >"$TMP/fpu.txt"
    cat "$TMP/fpu.txt" >> "$RAW"
    echo >> "$OUT"
    if grep -q '^==== end of bench_fpu table ====$' "$TMP/fpu.txt" && [ "$fpu_rc" -eq 1 ]; then
        sed -n '/^==== bench_fpu table ====$/,/^==== end of bench_fpu table ====$/p' \
            "$TMP/fpu.txt" | sed '1d;$d' | sed 's/ *$//' >> "$OUT"
    else
        echo "/bin/bench_fpu fpu=$mode: INCOMPLETE (QEMU status $fpu_rc)" >> "$OUT"
        problem=${problem:-"/bin/bench_fpu fpu=$mode did not complete"}
    fi
done
# ---- the SMP scaling table: /bin/bench_smp at 1, 2, 4 and 8 CPUs under
# icount (tools/bench_smp.sh; `make bench SMP=N` shows one whole table).
echo >> "$OUT"
tools/bench_smp.sh "$B" "$KERNEL" "$INITRD" 1 2 4 8 >> "$OUT" ||
    problem=${problem:-"/bin/bench_smp did not complete (above)"}

cat "$OUT"
echo "  (written to $OUT; the whole console is $RAW)"
if [ -n "$problem" ]; then
    echo "bench: $problem" >&2
    exit 1
fi
exit 0
