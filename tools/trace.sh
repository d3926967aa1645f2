#!/bin/sh
# tools/trace.sh KERNEL INITRD CPUS PROGRAM ARGS... - `make trace`
# (docs/tracing.md).
#
# Boots KERNEL with `trace` on its command line and PROGRAM as init
# (/bin/PROGRAM, or PROGRAM itself if it names a path: /tests/t_futex) at
# -smp CPUS, under QEMU's -icount, so the time-stamp counter counts guest
# instructions and the same build makes the same trace. The console goes
# to B/trace.log (B: the directory of KERNEL); the kernel prints its
# event rings there when init exits, and tools/trace2json.py turns them
# into B/trace.json (Chrome trace-event format: Perfetto,
# chrome://tracing) and B/trace.svg (a per-CPU timeline for a browser).
# Exit status 0 if the trace was written (whatever init's own status:
# the summary line says it), 1 if not.
set -eu
kernel=$1 initrd=$2 cpus=$3 prog=$4
shift 4
B=$(dirname "$kernel")
log=$B/trace.log
case $prog in
*/*) init=$prog ;;
*) init=/bin/$prog ;;
esac
# TRACE_ICOUNT=0 (make trace ICOUNT=0): plain TCG, each vCPU a host thread
# running at once, so threads spread over the CPUs as on hardware; not
# repeatable. Under -icount QEMU runs one vCPU at a time, in turns.
ICOUNT=$(cat "$(dirname "$0")/icount.flags")   # the deterministic setup (docs/races.md)
[ "${TRACE_ICOUNT:-1}" = 0 ] && ICOUNT=
echo "  TRACE   $init $* at -smp $cpus${ICOUNT:+ under -icount} (console: $log)"
set +e
timeout "${TRACE_TIMEOUT:-600}" qemu-system-i386 -m 128 -smp "$cpus" -display none -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 $ICOUNT \
	-kernel "$kernel" -initrd "$initrd" -append "trace init=$init -- $*" \
	-serial "file:$log" < /dev/null
rc=$?
set -e
tr -d '\r' < "$log" | grep -a -m1 '^init exited' || echo "trace: init did not exit (QEMU exit status $rc)"
if tr -d '\r' < "$log" | grep -aq '^PANIC'; then
	echo "trace: the kernel panicked (see $log)" >&2
	exit 1
fi
exec python3 "$(dirname "$0")/trace2json.py" "$log" "$B/trace.json" "$B/trace.svg"
