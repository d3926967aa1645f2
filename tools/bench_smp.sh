#!/bin/sh
# tools/bench_smp.sh B KERNEL INITRD N [N...] - the SMP benchmarks
# (docs/benchmarks.md, "SMP"): /bin/bench_smp (user/bin/bench_smp.c) as
# init under QEMU -icount at -smp N.
#
#   one N      (make bench SMP=N): its whole table, also in B/bench-smpN.txt
#   several N  (make bench's last table): the scaling table - the rows
#              that compare across CPU counts, one column per N - also
#              appended to B/bench.txt by tools/bench.sh
#
# Under -icount QEMU runs the vCPUs round-robin on one host thread and the
# guest TSC is the one virtual clock, so the figures are instructions of
# all CPUs together and repeat exactly from run to run. As tools/bench.sh
# does, QEMU runs in a scratch directory with fixed file names, so the
# command line (and so the figures) do not depend on B.
#
# Exit status non-zero only when a run could not complete: QEMU failed,
# the kernel panicked, a row FAILED, or the run timed out
# (BENCH_SMP_TIMEOUT seconds a boot, default 300).
set -eu

B=${1:?usage: tools/bench_smp.sh BUILD_DIR KERNEL INITRD N [N...]}
KERNEL=$2
INITRD=$3
shift 3
TIMEOUT=${BENCH_SMP_TIMEOUT:-300}
QEMU=${QEMU:-qemu-system-i386}
ICOUNT=$(cat "$(dirname "$0")/icount.flags")   # the deterministic setup (docs/races.md)

abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/spindle-bench-smp.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
ln -s "$(abs "$KERNEL")" "$TMP/kernel.elf"
ln -s "$(abs "$INITRD")" "$TMP/initrd.cpio"

# run N: boots bench_smp at -smp N; its table in $TMP/tableN.txt.
run() {
    n=$1 rc=0
    echo "  BENCH   $QEMU -smp $n -m 256 $ICOUNT init=/bin/bench_smp (up to ${TIMEOUT}s)" >&2
    (cd "$TMP" && timeout "$TIMEOUT" "$QEMU" -m 256 -smp "$n" -display none -no-reboot \
        -device isa-debug-exit,iobase=0xf4,iosize=0x04 $ICOUNT \
        -kernel kernel.elf -initrd initrd.cpio -append "init=/bin/bench_smp" \
        -serial "file:$TMP/console$n.txt" </dev/null >"$TMP/qemu$n.txt" 2>&1) || rc=$?
    tr -d '\r' < "$TMP/console$n.txt" > "$B/bench-smp$n.console.txt" 2>/dev/null || :
    sed -n '/^==== bench_smp table ====$/,/^==== end of bench_smp table ====$/p' \
        "$B/bench-smp$n.console.txt" | sed '1d;$d' | sed 's/ *$//' > "$TMP/table$n.txt"
    problem=
    if [ "$rc" -eq 124 ]; then
        problem="timed out after ${TIMEOUT}s during: $(grep 'bench: running' \
            "$B/bench-smp$n.console.txt" | tail -n 1 | sed 's/^bench: running //')"
    elif grep -q PANIC "$B/bench-smp$n.console.txt"; then
        problem="kernel panic: $(grep -m1 PANIC "$B/bench-smp$n.console.txt")"
    elif [ ! -s "$TMP/table$n.txt" ]; then
        problem="QEMU exit status $rc and no table"
    elif [ "$rc" -ne 1 ]; then
        problem="a benchmark FAILED (QEMU exit status $rc)"
    fi
    if [ -n "$problem" ]; then
        echo "bench_smp at -smp $n did not complete: $problem" >&2
        tail -n 15 "$B/bench-smp$n.console.txt" | sed 's/^/    | /' >&2
        return 1
    fi
}

# The median of row NAME (its leading words) in the table of -smp N.
fig() {
    awk -v name="$2" 'index($0, name) == 1 { n = split(substr($0, 47), f, " ");
        print (f[1] ~ /^[0-9]+$/ ? f[1] : "-"); exit }' "$TMP/table$1.txt"
}

if [ $# -eq 1 ]; then
    run "$1"
    cat "$TMP/table$1.txt" | tee "$B/bench-smp$1.txt"
    echo "  (written to $B/bench-smp$1.txt; the whole console is $B/bench-smp$1.console.txt)"
    exit 0
fi

status=0
for n in "$@"; do
    run "$n" || status=1
    [ -s "$TMP/table$n.txt" ] || : > "$TMP/table$n.txt"
done
ratio() {   # a / b to two places, or "-"
    case "$1$2" in *-*|"") echo "-" ;; *) awk -v a="$1" -v b="$2" \
        'BEGIN { printf (b > 0 ? "%.2f" : "-"), a / b }' ;; esac
}
row() {     # row LABEL NAME: one figure per CPU count
    printf '%-46s' "$1"
    for n in $CPUS; do printf ' %9s' "$(fig "$n" "$2")"; done
    printf '\n'
}
CPUS="$*"
{
    echo "SMP scaling (/bin/bench_smp): QEMU -icount shift=0 at each -smp N, deterministic;"
    echo "ticks = guest instructions of all CPUs per operation (median of 5 runs)."
    echo
    printf '%-46s' "benchmark"; for n in $CPUS; do printf ' %9s' "smp$n"; done; printf '\n'
    row "futex round trip, same CPU" "futex round trip, same CPU"
    row "futex round trip, across CPUs" "futex round trip, across CPUs"
    row "detached create+exit, every CPU creating" "detached create+exit, every CPU"
    row "munmap 1 page, address space on all CPUs" "munmap 1 page, address space on all"
    row "migration, TLS and LDT reloaded" "migration cpu0"
    last=$(echo "$CPUS" | awk '{ print $NF }')
    first=$(echo "$CPUS" | awk '{ print $1 }')
    cross=$(fig "$last" "futex round trip, across CPUs")
    same=$(fig "$last" "futex round trip, same CPU")
    storm_n=$(fig "$last" "detached create+exit, every CPU")
    storm_1=$(fig "$first" "detached create+exit, every CPU")
    r1=$(ratio "$cross" "$same")
    r2=$(ratio "$storm_n" "$storm_1")
    goal() { awk -v r="$1" -v g="$2" 'BEGIN { print (r == "-" ? "-" : (r + 0 <= g + 0 ? "met" : "NOT MET")) }'; }
    echo
    printf '%-46s %9s  %-8s  %s\n' "across / same CPU round trip at smp$last" "$r1" "<= 2.00" "$(goal "$r1" 2)"
    printf '%-46s %9s  %-8s  %s\n' "create+exit smp$last / smp$first" "$r2" "<= 1.20" "$(goal "$r2" 1.2)"
} > "$TMP/scale.txt"
cat "$TMP/scale.txt"
exit $status
