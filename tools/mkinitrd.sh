#!/bin/sh
# tools/mkinitrd.sh OUT.cpio STAGE ROOT...
#
# Builds the initrd (a cpio "newc" archive, abi.md section 1) from the
# trees ROOT... (later ones win), staged in STAGE. Reproducible: sorted
# names, owner 0:0, every time stamp set to 0, GNU cpio's --reproducible
# (fixed inode and device numbers).
set -eu
out=$1 stage=$2
shift 2
rm -rf "$stage"
mkdir -p "$stage"
for root in "$@"; do
    [ -d "$root" ] && cp -R "$root"/. "$stage"/
done
find "$stage" -exec touch -h -d @0 {} +
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
    cpio -o -H newc -R 0:0 --reproducible --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
