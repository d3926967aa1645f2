# Spindle - a teaching micro-kernel for i386.
#
#   make            build/kernel.elf and build/initrd.cpio
#   make run        boot in QEMU, serial console on this terminal (Ctrl-a x quits)
#   make check      every test: host unit tests, then in-guest tests under
#                   QEMU at -smp 1 and -smp 4, the GRUB ISO, Bochs and GDB
#   make iso        build/spindle.iso (GRUB 2, BIOS)
#   make qemu-gdb   QEMU stopped at the first instruction, waiting for GDB
#   make gdb        GDB attached to `make qemu-gdb` with the kernel's symbols
#   make bochs      the ISO under Bochs, headless, serial on this terminal
#   make clean
#
# Every target first runs tools/deps.sh, which installs missing Debian
# packages (quietly does nothing when all are present).

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

B := build

# Quiet by default, one short line a step; `make V=1` shows whole commands.
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-7s %s\n' $(1) $(2)
endif

CC := gcc
LD := ld
HOSTCC := gcc

# Kernel code generation (../shared/notes/machine.md lists the traps):
# freestanding 32-bit, no SSE/x87 (the kernel never saves FPU state), no PIE,
# no CET notes, frame pointers kept for panic()'s backtrace, no sibling-call
# optimisation so every caller stays in the backtrace, and (as Linux) no
# deleting of code that dereferences NULL: it must fault, not vanish.
KCFLAGS := -m32 -march=i686 -std=gnu11 -ffreestanding -fno-pie -fno-pic \
	-fno-stack-protector -fno-builtin -nostdlib -nostdinc \
	-isystem $(shell $(CC) -print-file-name=include) \
	-mno-sse -mno-mmx -mno-80387 -fcf-protection=none \
	-fno-omit-frame-pointer \
	-fno-optimize-sibling-calls -fno-delete-null-pointer-checks \
	-fno-asynchronous-unwind-tables -fno-strict-aliasing \
	-O2 -g -Wall -Wextra -Werror -I. \
	-ffile-prefix-map=$(CURDIR)=.
KASFLAGS := -m32 -D__ASSEMBLER__ -I. -Wa,--noexecstack -g \
	-ffile-prefix-map=$(CURDIR)=.
KLDFLAGS := -m elf_i386 -T linker.ld --build-id=none -z noexecstack \
	-z max-page-size=4096 --no-warn-rwx-segments

# The 32-bit libgcc (__udivdi3 for 64-bit division). Evaluated when used,
# after tools/deps.sh has installed lib32gcc-12-dev: before that gcc
# silently answers with the 64-bit one (machine.md).
LIBGCC = $(shell $(CC) -m32 -print-libgcc-file-name)

KERNEL_SRCS := $(wildcard boot/*.S boot/*.c arch/i386/*.c arch/i386/*.S \
	kernel/*.c kernel/mm/*.c lib/*.c tests/guest/*.c)
KERNEL_OBJS := $(patsubst %,$(B)/k/%.o,$(basename $(KERNEL_SRCS)))
# boot/entry.S must come first so the multiboot header is near the start.
KERNEL_OBJS := $(B)/k/boot/entry.o $(filter-out $(B)/k/boot/entry.o,$(KERNEL_OBJS))

KERNEL := $(B)/kernel.elf
INITRD := $(B)/initrd.cpio
ISO := $(B)/spindle.iso

.PHONY: FORCE all deps iso run qemu-gdb gdb bochs check clean unit-tests bench
all: $(KERNEL) $(INITRD)

deps:
	@tools/deps.sh

# ---- the kernel ----
# Objects depend on the flags too: build/kflags changes only when they do.
$(B)/kflags: FORCE
	@mkdir -p $(@D)
	@echo '$(KCFLAGS) $(KASFLAGS)' | cmp -s - $@ || echo '$(KCFLAGS) $(KASFLAGS)' > $@
FORCE:

$(B)/k/%.o: %.c $(B)/kflags | deps
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(KCFLAGS) -MMD -MP -c -o $@ $<

$(B)/k/%.o: %.S $(B)/kflags | deps
	@mkdir -p $(@D)
	$(call say,AS,$<)
	$(Q)$(CC) $(KASFLAGS) -MMD -MP -c -o $@ $<

# Two links (kernel/ksyms.h): the first with an empty symbol table, whose
# function symbols become the table of the second. .ksyms follows all code,
# so the functions do not move; the cmp proves it on every build.
$(B)/ksyms0.S: tools/mksyms.sh
	@mkdir -p $(@D)
	$(Q)tools/mksyms.sh > $@
$(B)/ksyms.S: $(B)/kernel.pass1.elf tools/mksyms.sh
	$(call say,KSYMS,$@)
	$(Q)tools/mksyms.sh $< > $@
$(B)/%.o: $(B)/%.S
	$(Q)$(CC) $(KASFLAGS) -c -o $@ $<

$(B)/kernel.pass1.elf: $(KERNEL_OBJS) $(B)/ksyms0.o linker.ld
	$(call say,LD,$@)
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KERNEL_OBJS) $(B)/ksyms0.o $(LIBGCC)

$(KERNEL): $(KERNEL_OBJS) $(B)/ksyms.o linker.ld
	$(call say,LD,$@)
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KERNEL_OBJS) $(B)/ksyms.o $(LIBGCC)
	@tools/mksyms.sh $@ | cmp -s - $(B)/ksyms.S || \
		{ echo "ksyms: functions moved between the two links" >&2; rm -f $@; exit 1; }

# ---- the initrd: user/root/ as it is, with fixed owners and times so the
# archive is byte-identical from build to build ----
ROOT_FILES := $(shell find user/root -type f 2>/dev/null | LC_ALL=C sort)
$(INITRD): $(ROOT_FILES) tools/mkinitrd.sh | deps
	@mkdir -p $(@D)
	$(call say,CPIO,$@)
	$(Q)tools/mkinitrd.sh $@ $(B)/root user/root $(USER_ROOT)

# ---- GRUB ISO ----
$(ISO): $(KERNEL) $(INITRD) boot/grub.cfg | deps
	$(call say,ISO,$@)
	$(Q)tools/mkiso.sh $@ boot/grub.cfg $(KERNEL) $(INITRD)
iso: $(ISO)

# ---- running ----
QEMU := qemu-system-i386
QEMU_MEM ?= 128
SMP ?= 1
APPEND ?=
# Your own programs (tools/spindle-cc): `make run EXTRA="prog ..."` adds
# each host file as /bin/NAME, an extra multiboot module "FILE /bin/NAME"
# (abi.md section 1); `make run INIT=prog` does that and boots it as init.
# QEMU's -initrd separates modules with commas, so a comma in a file name
# is written twice.
INIT ?=
EXTRA ?=
comma := ,
RUN_MODULES = $(foreach p,$(INIT) $(EXTRA),$(comma)$(subst $(comma),$(comma)$(comma),$(p) /bin/$(notdir $(p))))
QEMU_COMMON = -m $(QEMU_MEM) -smp $(SMP) -display none -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-kernel $(KERNEL) -initrd "$(INITRD)$(RUN_MODULES)" \
	-append "$(if $(INIT),init=/bin/$(notdir $(INIT)) )$(APPEND)"

# isa-debug-exit makes QEMU's own exit status (status << 1) | 1; a
# normal power-off is not an error for make. When stdin is not a terminal
# (`make run < script`, `make run < /dev/null`) it goes to the console
# followed by Ctrl-D (\004), so the shell sees the end of its input and
# the machine powers off.
run: all
	@for p in $(INIT) $(EXTRA); do [ -f "$$p" ] || \
		{ echo "run: no program $$p (tools/spindle-cc -o $$p $$p.c builds one)" >&2; exit 1; }; done
	@echo "*** Spindle in QEMU: the serial console is this terminal; Ctrl-a x quits QEMU ***"
	@if [ -t 0 ]; then $(QEMU) $(QEMU_COMMON) -serial mon:stdio; \
	else { cat; printf '\004'; } | $(QEMU) $(QEMU_COMMON) -serial stdio; fi; rc=$$?; \
		if [ $$rc -eq 1 ]; then exit 0; fi; echo "(QEMU exit status $$rc)"

# A free TCP port for this user (machines are shared: never the fixed 1234).
GDBPORT = $(shell python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

qemu-gdb: all
	@port=$(GDBPORT); tools/mkgdbinit.sh $$port > .gdbinit; \
	echo "*** QEMU waits for GDB on localhost:$$port: run 'make gdb' in another terminal ***"; \
	$(QEMU) $(QEMU_COMMON) -serial mon:stdio -S -gdb tcp:127.0.0.1:$$port; true

gdb:
	@test -f .gdbinit || { echo "run 'make qemu-gdb' first" >&2; exit 1; }
	gdb -q -x .gdbinit

bochs: $(ISO)
	tools/bochs.sh $(ISO) /dev/stdout

# ---- tests ----
include tests/unit/Makefile.inc
include user/Makefile.inc
include user/linux/Makefile.inc

# The ISO the loader tests boot: the same kernel, with ktest=boot.
TEST_ISO := $(B)/spindle-test.iso
$(TEST_ISO): $(KERNEL) $(INITRD) boot/grub.cfg | deps
	$(call say,ISO,$@)
	$(Q)tools/mkiso.sh $@ boot/grub.cfg $(KERNEL) $(INITRD) ktest=boot

# And one for the SMP group under Bochs with two CPUs.
TEST_ISO_SMP := $(B)/spindle-test-smp.iso
$(TEST_ISO_SMP): $(KERNEL) $(INITRD) boot/grub.cfg | deps
	$(call say,ISO,$@)
	$(Q)tools/mkiso.sh $@ boot/grub.cfg $(KERNEL) $(INITRD) "ktest=smp expect_cpus=2"

# And one with the FPU fault test as init: Bochs raises the SSE exceptions
# (#XM) that QEMU's TCG does not (user/tests/t_fpu_fault.c).
TEST_ISO_FPU := $(B)/spindle-test-fpu.iso
$(TEST_ISO_FPU): $(KERNEL) $(INITRD) boot/grub.cfg | deps
	$(call say,ISO,$@)
	$(Q)tools/mkiso.sh $@ boot/grub.cfg $(KERNEL) $(INITRD) "init=/bin/t_fpu_fault"

check: all $(ISO) $(TEST_ISO) $(TEST_ISO_SMP) $(TEST_ISO_FPU) unit-tests
	@SPINDLE_BUILD=$(B) python3 tests/run.py

# The speed figures (docs/benchmarks.md): /bin/bench as init under QEMU
# -icount, the table in $(B)/bench.txt. Missed targets never fail it.
bench: all
	$(Q)if [ "$(SMP)" = 1 ]; then tools/bench.sh $(B) $(KERNEL) $(INITRD); \
	else tools/bench_smp.sh $(B) $(KERNEL) $(INITRD) $(SMP); fi

clean:
	rm -rf $(B) .gdbinit

-include $(shell find $(B)/k -name '*.d' 2>/dev/null)
