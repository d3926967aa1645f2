#!/bin/sh
# tools/deps.sh - install the Debian 12 packages Spindle's build and tests need.
#
# Every make target that builds or boots calls this first, so a fresh machine
# needs only `make run` or `make check`. It is quiet and quick when everything
# is already present (one dpkg query), and uses apt-get as root otherwise.
# Package choices are explained in docs/building.md (and ../shared/notes/machine.md).
set -eu

# package            why
PKGS="
lib32gcc-12-dev      32-bit libgcc: __udivdi3 and friends for -m32
qemu-system-x86      qemu-system-i386: make run, make check, make bench
grub-pc-bin          GRUB for BIOS: make iso
grub-common          grub-mkrescue
xorriso              grub-mkrescue writes the ISO with it
bochs                the second emulator: make bochs
bochs-term           Debian's Bochs has no nogui display; term is headless
bochsbios            Bochs' BIOS
vgabios              Bochs' VGA BIOS
cpio                 build/initrd.cpio
"

# The linux test group (user/linux/): glibc programs for Spindle's linux
# personality, built with the host's gcc -m32 -static.
PKGS_LINUX="
libc6-dev-i386       32-bit glibc headers and libc.a: gcc -m32 -static
gcc-multilib         /usr/include/asm for -m32 (<errno.h>, <sys/syscall.h>)
"

names=$(printf '%s\n%s\n' "$PKGS" "$PKGS_LINUX" | awk 'NF {print $1}')
missing=""
for p in $names; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$st" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done
[ -z "$missing" ] && exit 0

echo "deps.sh: installing missing packages:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "deps.sh: not root and no sudo; install as root:$missing" >&2
        exit 1
    fi
else
    SUDO=""
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
