#!/bin/sh
# tools/deps.sh [TARGET...] - check that the commands a make target needs
# are here; install the missing ones where it can; else say what is
# missing and go on.
#
# TARGET is one of the groups below (default: build); `check` is all of
# them. The Makefile calls it first, with the group of what it is about to
# do (make run: run; make iso: iso; make check: check). It is silent when
# everything is present. When something is missing it installs only that,
# with apt-get, as root or through sudo without a password prompt; where
# it cannot (no root, no sudo, no apt-get, or the install fails) it names
# each missing command and its Debian package, and exits 0 all the same:
# the build goes on with what is there, and make check shows a SKIP line
# for a loader it does not have. docs/building.md says why each is needed.
#
# The web group (make web, web/Makefile.inc): SeaBIOS's images shipped
# in build/web, Chromium for the browser test, Node.js and npm for v86 and
# the page. A Node.js that is there already (with its npm) is used as it
# is: its commands satisfy the checks, so Debian's nodejs and npm, which
# would conflict with another vendor's, are installed only when there is
# none.
#
# To add a need: one line in NEEDS, "GROUP CHECK PACKAGE", where CHECK is
# cmd:NAME (a command on PATH), file:PATH (a file), or lib32gcc (the 32-bit
# libgcc). A new group also goes in ALL (what `check` means).
set -eu

NEEDS='
build  cmd:gcc                 gcc
build  cmd:ld                  binutils
build  cmd:make                make
build  cmd:python3             python3
build  cmd:cpio                cpio
build  lib32gcc                lib32gcc-12-dev
build  file:/usr/lib32/libc.a  libc6-dev-i386
build  file:/usr/include/asm   gcc-multilib
run    cmd:qemu-system-i386    qemu-system-x86
iso    cmd:grub-mkrescue       grub-common
iso    file:/usr/lib/grub/i386-pc/moddep.lst grub-pc-bin
iso    cmd:xorriso             xorriso
bochs  cmd:bochs               bochs
bochs  file:/usr/lib/x86_64-linux-gnu/bochs/plugins/libbx_term_gui.so bochs-term
bochs  file:/usr/share/bochs/BIOS-bochs-latest bochsbios
bochs  file:/usr/share/vgabios/vgabios.bin vgabios
gdb    cmd:gdb                 gdb
test   cmd:ccache              ccache
web    file:/usr/share/seabios/bios.bin seabios
web    cmd:chromium            chromium
web    cmd:node                nodejs
web    cmd:npm                 npm
'
ALL="build run iso bochs gdb web test"

groups=""
for t in "${@:-build}"; do
    case $t in
    check) groups="$groups $ALL" ;;
    *) groups="$groups $t" ;;
    esac
done

present() {
    case $1 in
    cmd:*) command -v "${1#cmd:}" >/dev/null 2>&1 ;;
    file:*) [ -e "${1#file:}" ] ;;
    # Without the 32-bit libgcc, gcc -m32 silently names the 64-bit one.
    lib32gcc) case $(gcc -m32 -print-libgcc-file-name 2>/dev/null) in */32/*) true ;; *) false ;; esac ;;
    *) echo "deps.sh: unknown check $1" >&2; false ;;
    esac
}

missing="" what=""
for g in $groups; do
    printf '%s\n' "$NEEDS" | while read -r group check pkg; do
        [ "$group" = "$g" ] || continue
        present "$check" || printf '%s %s %s\n' "$g" "$check" "$pkg"
    done
done > "${TMPDIR:-/tmp}/spindle-deps.$$"
while read -r g check pkg; do
    case " $missing " in *" $pkg "*) ;; *) missing="$missing $pkg" ;; esac
    what="$what
  $check (package $pkg) for make $g"
done < "${TMPDIR:-/tmp}/spindle-deps.$$"
rm -f "${TMPDIR:-/tmp}/spindle-deps.$$"
[ -z "$missing" ] && exit 0

SUDO=
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi
fi
if [ "$SUDO" != none ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps.sh: installing:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    # apt-get update fails as a whole when any one index fails to fetch,
    # which happens while a mirror syncs; the lists it did fetch are still
    # used, so its status is not the verdict: the install's is.
    $SUDO apt-get update -qq >&2 ||
        echo "deps.sh: apt-get update reported a failure; installing anyway" >&2
    # shellcheck disable=SC2086
    if $SUDO apt-get install -y -qq --no-install-recommends $missing >&2; then
        exit 0
    fi
    echo "deps.sh: apt-get could not install them." >&2
fi
echo "deps.sh: missing, going on without:$what" >&2
echo "deps.sh: as root: apt-get install$missing" >&2
exit 0
