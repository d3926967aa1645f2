#!/bin/sh
# tools/bochs.sh ISO SERIAL_OUT [CPUS]
#
# Boots ISO under Bochs 2.7, headless (display_library: term), with COM1
# written to SERIAL_OUT. Bochs has no multiboot loader, so it boots the
# GRUB ISO. It starts in its own debugger: the -rc file says "continue",
# then "quit" once the guest powers off. Judge a run by SERIAL_OUT:
# Bochs exits 1 after the guest's shutdown (../shared/notes/machine.md).
set -eu
iso=$1 out=$2 cpus=${3:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/bochsrc" <<RC
megs: 128
cpu: count=$cpus, ips=50000000, reset_on_triple_fault=0
clock: sync=none, time0=946684800
display_library: term
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
ata0-master: type=cdrom, path=$iso, status=inserted
boot: cdrom
com1: enabled=1, mode=file, dev=$out
port_e9_hack: enabled=1
sound: waveoutdrv=dummy, waveindrv=dummy, midioutdrv=dummy
magic_break: enabled=1
log: $dir/bochs.log
RC
printf 'c\nquit\n' > "$dir/rc"
bochs -q -f "$dir/bochsrc" -rc "$dir/rc" </dev/null >"$dir/term.txt" 2>&1 || true
