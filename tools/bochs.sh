#!/bin/sh
# tools/bochs.sh - boot a Spindle ISO under Bochs 2.7.
#
#   tools/bochs.sh ISO SERIAL_OUT [CPUS]          COM1 into the file SERIAL_OUT
#   tools/bochs.sh --console TTY ISO [CPUS]       COM1 on the terminal TTY, both ways
#   tools/bochs.sh --debug ISO [CPUS] [COM1]      Bochs's debugger on this terminal,
#                                                 COM1 on the terminal or file COM1
#
# Bochs has no Multiboot loader, so it boots the GRUB ISO. Debian's Bochs
# has no display-less GUI: the VGA screen goes to Bochs's `term` display
# (curses), which is sent to a file here, or, with --debug, to its `rfb`
# (VNC) display on the first free port from 5900, which nobody needs to
# look at. COM1 in `term` mode puts the terminal in raw mode for the
# guest and restores it when Bochs exits; Ctrl-C ends Bochs.
#
# Without --debug, Bochs starts in its debugger anyway: the -rc file says
# "continue", then "quit" once the guest powers off. Bochs exits 1 after
# the guest's shutdown: judge a run by its serial output (docs/bochs.md).
set -eu
mode=file
case ${1-} in
--console) mode=console; tty=$2; shift 2 ;;
--debug) mode=debug; shift ;;
esac
iso=$1
case $mode in
file) out=$2 cpus=${3:-1}; com1="mode=file, dev=$out" ;;
console) cpus=${2:-1}; com1="mode=term, dev=$tty" ;;
debug)
    cpus=${2:-1} dev=${3:-}
    if [ -z "$dev" ]; then com1="mode=null"
    elif [ -c "$dev" ]; then com1="mode=term, dev=$dev"
    else com1="mode=file, dev=$dev"; fi ;;
esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ $mode = debug ]; then
    display='display_library: rfb, options="timeout=0"'
else
    display='display_library: term'
fi
cat > "$dir/bochsrc" <<RC
megs: 128
cpu: count=$cpus, ips=50000000, reset_on_triple_fault=0
clock: sync=none, time0=946684800
$display
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
ata0-master: type=cdrom, path=$iso, status=inserted
boot: cdrom
com1: enabled=1, $com1
port_e9_hack: enabled=1
sound: waveoutdrv=dummy, waveindrv=dummy, midioutdrv=dummy
magic_break: enabled=1
log: $dir/bochs.log
RC
if [ $mode = debug ]; then
    # The debugger reads this terminal; the log keeps its messages apart.
    bochs -q -f "$dir/bochsrc" || true
    exit 0
fi
printf 'c\nquit\n' > "$dir/rc"
bochs -q -f "$dir/bochsrc" -rc "$dir/rc" </dev/null >"$dir/term.txt" 2>&1 || true
