#!/bin/sh
# tools/mkiso.sh OUT.iso GRUB.CFG KERNEL INITRD [CMDLINE]
#
# A BIOS-bootable GRUB 2 ISO (grub-mkrescue; needs grub-pc-bin and
# xorriso) with the kernel, the initrd and GRUB.CFG, whose @CMDLINE@ is
# replaced by CMDLINE (the tests boot one with ktest=boot).
set -eu
out=$1 cfg=$2 kernel=$3 initrd=$4 cmdline=${5:-}
dir=$out.d
rm -rf "$dir"
mkdir -p "$dir/boot/grub"
cp "$kernel" "$dir/boot/kernel.elf"
cp "$initrd" "$dir/boot/initrd.cpio"
sed "s|@CMDLINE@|$cmdline|" "$cfg" > "$dir/boot/grub/grub.cfg"
# A fixed date makes the ISO's own time stamps repeatable.
SOURCE_DATE_EPOCH=0 grub-mkrescue -o "$out" "$dir" >"$out.log" 2>&1 || {
    cat "$out.log" >&2
    exit 1
}
rm -rf "$dir"
