#!/bin/sh
# tools/mkinitrd.sh OUT.cpio STAGE ROOT...
#
# Builds the initrd (a cpio "newc" archive, abi.md section 1) from the
# trees ROOT... (later ones win), staged in STAGE.PID. Reproducible: sorted
# names, owner 0:0, every time stamp set to 0, GNU cpio's --reproducible
# (fixed inode and device numbers).
#
# Two makes may build it at once (make check's jobs run make run, make
# seed and others side by side): each stages in a directory of its own
# and renames its archive into place, so neither sees the other's half
# (both archives are the same, byte for byte).
set -eu
out=$1 stage=$2.$$
shift 2
trap 'rm -rf "$stage" "$out.$$.tmp"' EXIT
rm -rf "$stage"
mkdir -p "$stage"
for root in "$@"; do
    [ -d "$root" ] && cp -R "$root"/. "$stage"/
done
find "$stage" -exec touch -h -d @0 {} +
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
    cpio -o -H newc -R 0:0 --reproducible --quiet) > "$out.$$.tmp"
mv "$out.$$.tmp" "$out"
