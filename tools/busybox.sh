#!/bin/sh
# tools/busybox.sh DIR - Debian's busybox-static for i386 into DIR
# (make check-linux: DIR is build/busybox; docs/busybox.md).
#
# Prints the path of the unpacked binary, DIR/root/bin/busybox, and exits
# 0; or prints one line saying why it cannot and exits 1 (make
# check-linux then SKIPs every busybox test with that line). A binary
# already unpacked there is reused: nothing is fetched twice.
#
# The steps, as root or through a sudo that asks for no password:
#   dpkg --add-architecture i386     (if dpkg does not list it yet)
#   apt-get update                   (only then, or when the download fails;
#                                     its own failure is logged, not fatal)
#   apt-get download busybox-static:i386    (as the calling user, in DIR)
#   dpkg-deb -x busybox-static_*.deb DIR/root
set -eu
dir=$1
bin=$dir/root/bin/busybox
if [ -x "$bin" ]; then
    echo "$bin"
    exit 0
fi
why() { echo "busybox: $*"; exit 1; }

command -v dpkg >/dev/null 2>&1 || why "no dpkg here (not a Debian system): cannot fetch busybox-static:i386"
command -v apt-get >/dev/null 2>&1 || why "no apt-get here: cannot fetch busybox-static:i386"
if [ "$(id -u)" = 0 ]; then
    asroot=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    asroot="sudo -n"
else
    asroot=none
fi

mkdir -p "$dir"
log=$dir/fetch.log
: > "$log"
updated=""
# apt-get update fails as a whole when any one index fails, and one often
# does while a mirror syncs ("File has unexpected size ... Mirror sync in
# progress?", seen for bookworm-security's i386 list while bookworm/main,
# where busybox-static lives, was fine).  So its status is only logged:
# whether the package can be fetched is the download's to say.
update() {
    $asroot apt-get update >>"$log" 2>&1 ||
        echo "busybox.sh: apt-get update reported a failure; trying the download anyway" >>"$log"
    updated=yes
}
if ! dpkg --print-foreign-architectures | grep -qx i386 &&
   [ "$(dpkg --print-architecture)" != i386 ]; then
    [ "$asroot" != none ] ||
        why "the i386 architecture is not enabled and enabling it needs root (run: sudo dpkg --add-architecture i386 && sudo apt-get update)"
    $asroot dpkg --add-architecture i386 >>"$log" 2>&1 ||
        why "dpkg --add-architecture i386 failed (see $log)"
    update
fi

fetch() { (cd "$dir" && rm -f busybox-static_*.deb && apt-get download busybox-static:i386) >>"$log" 2>&1; }
if ! fetch; then
    [ -z "$updated" ] && [ "$asroot" != none ] && update
    [ -n "$updated" ] && fetch ||
        why "apt-get download busybox-static:i386 failed: no network or no package list for i386? (see $log)"
fi
deb=$(ls "$dir"/busybox-static_*_i386.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || why "apt-get download left no busybox-static_*_i386.deb in $dir"
rm -rf "$dir/root"
dpkg-deb -x "$deb" "$dir/root" 2>>"$log" || why "dpkg-deb -x $deb failed (see $log)"
[ -x "$bin" ] || why "$deb has no bin/busybox"
echo "$bin"
