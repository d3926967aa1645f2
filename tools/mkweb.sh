#!/bin/sh
# tools/mkweb.sh OUT NPM KERNEL INITRD ISO - build/web, the static page of
# `make web` (docs/web.md): the page (web/), v86 and xterm.js from NPM (the
# packages `npm ci` installed from web/package-lock.json), SeaBIOS and its
# VGA BIOS from Debian's seabios package, the kernel, the initrd and the
# ISO, the docs as HTML, and each shipped file's licence.
set -eu
out=$1 npm=$2/node_modules kernel=$3 initrd=$4 iso=$5
bios=/usr/share/seabios

rm -rf "$out"
mkdir -p "$out/v86" "$out/xterm" "$out/bios" "$out/docs" "$out/licences"
cp web/index.html web/style.css web/spindle.mjs web/status.mjs "$out/"
cp "$npm/v86/build/libv86.mjs" "$npm/v86/build/v86.wasm" "$out/v86/"
cp "$npm/@xterm/xterm/lib/xterm.mjs" "$npm/@xterm/xterm/css/xterm.css" "$out/xterm/"
# bios.bin is SeaBIOS built for QEMU (128 KiB), which v86 runs as it is;
# vgabios-stdvga.bin drives the Bochs VBE card v86 emulates.
cp "$bios/bios.bin" "$bios/vgabios-stdvga.bin" "$out/bios/"
cp "$kernel" "$out/kernel.elf"
cp "$initrd" "$out/initrd.cpio"
cp "$iso" "$out/spindle.iso"

# The docs, so the side panel's links work on any static host.
node tools/mkweb_docs.mjs "$2" "$out/docs" README.md docs/*.md
cp docs/*.png "$out/docs/"

# Licences: each file shipped and the terms it comes under.
cp "$npm/v86/LICENSE" "$out/licences/v86-LICENSE.txt"
cp "$npm/@xterm/xterm/LICENSE" "$out/licences/xterm-LICENSE.txt"
cp /usr/share/doc/seabios/copyright "$out/licences/seabios-copyright.txt"
cp /usr/share/common-licenses/LGPL-3 "$out/licences/LGPL-3.txt"
cp /usr/share/common-licenses/GPL-3 "$out/licences/GPL-3.txt"
v86_version=$(sed -n 's/^ *"version": "\([^"]*\)".*/\1/p' "$npm/v86/package.json" | head -1)
xterm_version=$(sed -n 's/^ *"version": "\([^"]*\)".*/\1/p' "$npm/@xterm/xterm/package.json" | head -1)
seabios_version=$(dpkg-query -W -f='${Version}' seabios)
grub_version=$(dpkg-query -W -f='${Version}' grub-pc-bin)
cat > "$out/licences/README.txt" <<END
The files of this page and their licences (docs/web.md):

index.html, style.css, spindle.mjs, status.mjs, docs/,
kernel.elf, initrd.cpio, spindle.iso
    Spindle itself. The GRUB 2 files inside spindle.iso are GRUB's, from
    Debian's grub-pc-bin $grub_version: GPL-3.0-or-later (GPL-3.txt); the
    corresponding source is Debian's grub2 source package of that version.
v86/libv86.mjs, v86/v86.wasm
    v86 $v86_version from the npm registry: BSD-2-Clause (v86-LICENSE.txt).
xterm/xterm.mjs, xterm/xterm.css
    @xterm/xterm $xterm_version from the npm registry: MIT (xterm-LICENSE.txt).
bios/bios.bin, bios/vgabios-stdvga.bin
    SeaBIOS and its VGA BIOS, from Debian's seabios package $seabios_version:
    LGPL-3.0 (LGPL-3.txt, which builds on GPL-3.txt), some parts LGPL-2 or
    public domain as seabios-copyright.txt details. The corresponding source
    is Debian's seabios source package, version $seabios_version
    (apt-get source seabios=$seabios_version).
END
