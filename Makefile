# Spindle - a teaching micro-kernel for i386.
#
#   make              build/kernel.elf and build/initrd.cpio
#   make run          boot in QEMU, serial console on this terminal (Ctrl-a x quits)
#   make seed         build/seed/kernel.elf: the seed kernel, the core alone
#                     without the Linux layer (compat/linux/), and its size;
#                     make run-seed boots it (docs/architecture.md)
#   make check        every test: host unit tests, in-guest tests under QEMU
#                     at -smp 1, 2, 4 and 8, the GRUB ISO, Bochs, GDB, the docs
#   make check-quick  the few minutes between edits: unit tests, the repository's
#                     rules, everything at -smp 2, the seed kernel's shell
#   make test T=NAME  the tests with that exact name or glob (T='smp*/t_fork')
#   make check-linux  Debian's busybox-static (fetched into build/busybox)
#                     running shell scripts on Spindle (docs/busybox.md);
#                     make run-busybox: make run with /bin/busybox
#   make iso          build/spindle.iso (GRUB 2, BIOS)
#   make qemu-gdb     QEMU stopped at the first instruction, waiting for GDB,
#                     with the debug kernel (build/debug, -Og)
#   make gdb          GDB attached to `make qemu-gdb`, with Spindle's commands
#   make bochs        the ISO under Bochs, serial console on this terminal
#   make bochs-debug  the ISO under Bochs's own debugger (docs/bochs.md)
#   make bench        the speed figures (docs/benchmarks.md)
#   make web          build/web: a static page that boots Spindle in v86, in
#                     a browser (docs/web.md); make serve-web shows it locally
#   make fuzz         the system-call fuzzer: SEED=1 CALLS=100000 CPUS=4
#                     WORKERS=6 (FUZZ_FLAGS=-v prints every call)
#   make fuzz-campaign
#                     SEEDS=10 fuzz sessions from SEED at CAMPAIGN_CPUS="1 4",
#                     CAMPAIGN_CALLS=500000 each, JOBS=4 at a time
#   make stress       the stress run: STRESS_SECONDS=600 at CPUS=4
#                     (STRESS_FLAGS=-e adds the exec race, issue 11 bug 3)
#   make exhaust      t_exhaust with its bombs unbounded, at CPUS=4
#   make trace        a scheduler trace of PROG="start-detached 1000" at
#                     CPUS=4: build/trace.json (Perfetto) and build/trace.svg
#                     (docs/tracing.md)
#   make lab LAB=n DEST=dir
#                     a student tree for lab n in dir: its solutions replaced
#                     by their stubs (LATER=1: later labs' too); docs/labs/
#   make grade [LAB=n]
#                     the labs' tests, points and a score (build/grade.json)
#   make clean
#
# Every target first runs tools/deps.sh with what it needs (build, run,
# iso, bochs, gdb): it installs a missing Debian package if it can, and
# otherwise names it and goes on.

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

B := build

# The kernel's optimisation. The debug build (make qemu-gdb, make gdb) is
# the same code built again with DEBUG_KOPT in $(B)/debug: -Og keeps every
# line and variable where GDB looks for it (at -O2 `break switch_to` lands
# in an inlined helper and `next` jumps about).
KOPT ?= -O2 -g
DEBUG_KOPT := -Og -g3
DEBUG_B := $(B)/debug

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

# Kernel code generation (docs/building.md lists the traps of a modern
# toolchain that each flag avoids):
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
	$(KOPT) -Wall -Wextra -Werror -I. \
	-ffile-prefix-map=$(CURDIR)=.
KASFLAGS := -m32 -D__ASSEMBLER__ -I. -Wa,--noexecstack -g \
	-ffile-prefix-map=$(CURDIR)=.
KLDFLAGS := -m elf_i386 -T linker.ld --build-id=none -z noexecstack \
	-z max-page-size=4096 --no-warn-rwx-segments

# The 32-bit libgcc (__udivdi3 for 64-bit division). Evaluated when used,
# after tools/deps.sh has installed lib32gcc-12-dev: before that gcc
# silently answers with the 64-bit one (machine.md).
LIBGCC = $(shell $(CC) -m32 -print-libgcc-file-name)

# The three kernels (docs/architecture.md):
#   $(KERNEL)       the full kernel: the core and the Linux layer
#                   (compat/linux/), what make run boots;
#   $(SEED_KERNEL)  the seed kernel: the core alone (make seed), built from
#                   the same sources without CONFIG_LINUX, its objects and
#                   their .d files under $(B)/seed/;
#   $(TEST_KERNEL)  the full kernel with the in-kernel test groups
#                   (tests/guest/) linked in: what make check boots for
#                   ktest=GROUP. The other two carry no test code.
# The tracer (kernel/trace.h), the schedule seeds (kernel/chaos.h) and the
# kernel monitor (kernel/monitor.h) are the full kernel's alone.
COURSE_TOOL_SRCS := kernel/trace.c arch/i386/trace_arch.c kernel/chaos.c kernel/monitor.c
CORE_SRCS := $(filter-out $(COURSE_TOOL_SRCS),$(wildcard boot/*.S boot/*.c arch/i386/*.c \
	arch/i386/*.S kernel/*.c kernel/mm/*.c lib/*.c))
LINUX_SRCS := $(wildcard compat/linux/*.c compat/linux/fs/*.c compat/linux/i386/*.c compat/linux/i386/*.S)
KTEST_SRCS := $(wildcard tests/guest/*.c)
objs_of = $(patsubst %,$(1)/%.o,$(basename $(2)))
# boot/entry.S must come first so the multiboot header is near the start.
first_entry = $(1)/boot/entry.o $(filter-out $(1)/boot/entry.o,$(2))
KERNEL_OBJS := $(call first_entry,$(B)/k,$(call objs_of,$(B)/k,$(CORE_SRCS) $(COURSE_TOOL_SRCS) $(LINUX_SRCS)))
KTEST_OBJS := $(call objs_of,$(B)/k,$(KTEST_SRCS))
SEED_OBJS := $(call first_entry,$(B)/seed,$(call objs_of,$(B)/seed,$(CORE_SRCS)))

KERNEL := $(B)/kernel.elf
SEED_KERNEL := $(B)/seed/kernel.elf
TEST_KERNEL := $(B)/kernel-test.elf
INITRD := $(B)/initrd.cpio
ISO := $(B)/spindle.iso

.PHONY: FORCE all deps iso run run-seed seed debug qemu-gdb gdb bochs bochs-debug check test clean unit-tests bench profile check-quick \
	fuzz fuzz-campaign stress exhaust trace lab grade seed race replay replay-gdb
all: $(KERNEL) $(INITRD)

# tools/deps.sh GROUP: what each kind of target needs (build, run, iso,
# bochs, gdb, web, test; check is all). Missing packages are installed if
# it can, else named; the build goes on.
deps: deps-build
deps-%:
	@tools/deps.sh $*

# ---- the kernels ----
# The Linux layer is in when CONFIG_LINUX is defined (kernel/linux_hooks.h
# is the one place the core looks at it); the tracer (kernel/trace.h), the
# schedule seeds (kernel/chaos.h) and the kernel monitor (kernel/monitor.h)
# are the full kernel's too.
FULL_DEFS := -DCONFIG_LINUX -DCONFIG_TRACE -DCONFIG_CHAOS -DCONFIG_MONITOR
# Objects depend on the flags too: $(B)/kflags changes only when they do.
$(B)/kflags: FORCE
	@mkdir -p $(@D)
	@echo '$(KCFLAGS) $(KASFLAGS)' | cmp -s - $@ || echo '$(KCFLAGS) $(KASFLAGS)' > $@
FORCE:

$(B)/k/%.o: %.c $(B)/kflags | deps
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(KCFLAGS) $(FULL_DEFS) -MMD -MP -c -o $@ $<

$(B)/k/%.o: %.S $(B)/kflags | deps
	@mkdir -p $(@D)
	$(call say,AS,$<)
	$(Q)$(CC) $(KASFLAGS) $(FULL_DEFS) -MMD -MP -c -o $@ $<

$(B)/seed/%.o: %.c $(B)/kflags | deps
	@mkdir -p $(@D)
	$(call say,CC,seed/$<)
	$(Q)$(CC) $(KCFLAGS) -MMD -MP -c -o $@ $<

$(B)/seed/%.o: %.S $(B)/kflags | deps
	@mkdir -p $(@D)
	$(call say,AS,seed/$<)
	$(Q)$(CC) $(KASFLAGS) -MMD -MP -c -o $@ $<

# Two links (kernel/ksyms.h): the first with an empty symbol table, whose
# function symbols become the table of the second. .ksyms follows all code,
# so the functions do not move; the cmp proves it on every build.
# $(call kernel_image,OUT,OBJECTS) makes OUT from OBJECTS that way.
define kernel_image
$(1:.elf=.ksyms0.S): tools/mksyms.sh
	@mkdir -p $$(@D)
	$$(Q)tools/mksyms.sh > $$@
$(1:.elf=.pass1.elf): $(2) $(1:.elf=.ksyms0.o) linker.ld
	$$(call say,LD,$$@)
	$$(Q)$$(LD) $$(KLDFLAGS) -o $$@ $(2) $(1:.elf=.ksyms0.o) $$(LIBGCC)
$(1:.elf=.ksyms.S): $(1:.elf=.pass1.elf) tools/mksyms.sh
	$$(call say,KSYMS,$$@)
	$$(Q)tools/mksyms.sh $$< > $$@
$(1): $(2) $(1:.elf=.ksyms.o) linker.ld
	$$(call say,LD,$$@)
	$$(Q)$$(LD) $$(KLDFLAGS) -o $$@ $(2) $(1:.elf=.ksyms.o) $$(LIBGCC)
	@tools/mksyms.sh $$@ | cmp -s - $(1:.elf=.ksyms.S) || \
		{ echo "ksyms: functions moved between the two links" >&2; rm -f $$@; exit 1; }
endef
$(B)/%.o: $(B)/%.S
	$(Q)$(CC) $(KASFLAGS) -c -o $@ $<
$(eval $(call kernel_image,$(KERNEL),$(KERNEL_OBJS)))
$(eval $(call kernel_image,$(TEST_KERNEL),$(KERNEL_OBJS) $(KTEST_OBJS)))
$(eval $(call kernel_image,$(SEED_KERNEL),$(SEED_OBJS)))

# make seed: the seed kernel, and its size: the code lines (not blank, not
# comment) of every source its objects' .d files name, held to the limit
# in tools/seed_size.py (make check fails above it).
seed: $(SEED_KERNEL) $(INITRD)
	@python3 tools/seed_size.py $(B)/seed

# ---- the initrd: user/root/ as it is, with fixed owners and times so the
# archive is byte-identical from build to build ----
ROOT_FILES := $(shell find user/root -type f 2>/dev/null | LC_ALL=C sort)
# The names that go in, rewritten only when they change (as $(B)/kflags):
# a program removed leaves every other input older than the archive, and
# without this the archive would keep it.
$(B)/initrd.list: FORCE
	@mkdir -p $(@D)
	@echo '$(ROOT_FILES) $(USER_ROOT_FILES)' | cmp -s - $@ || echo '$(ROOT_FILES) $(USER_ROOT_FILES)' > $@
$(INITRD): $(ROOT_FILES) $(B)/initrd.list tools/mkinitrd.sh | deps
	@mkdir -p $(@D)
	$(call say,CPIO,$@)
	@# Drop staged files no rule makes any more (a program moved or removed).
	@cd $(USER_ROOT) 2>/dev/null && find . -type f | while read -r f; do \
		case " $(patsubst $(USER_ROOT)/%,./%,$(USER_ROOT_FILES)) " in \
		*" $$f "*) ;; *) rm -f "$$f" ;; esac; done || true
	$(Q)tools/mkinitrd.sh $@ $(B)/root user/root $(USER_ROOT)

# ---- GRUB ISO ----
$(ISO): $(KERNEL) $(INITRD) boot/grub.cfg | deps deps-iso
	$(call say,ISO,$@)
	$(Q)tools/mkiso.sh $@ boot/grub.cfg $(KERNEL) $(INITRD) "$(ISO_CMDLINE)"
iso: $(ISO)
ISO_CMDLINE ?=

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
# make run-seed: the same with the seed kernel (make seed), the core alone.
RUN_KERNEL ?= $(KERNEL)
QEMU_COMMON = -m $(QEMU_MEM) -smp $(SMP) -display none -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-kernel $(RUN_KERNEL) -initrd "$(INITRD)$(RUN_MODULES)" \
	-append "$(if $(INIT),init=/bin/$(notdir $(INIT)) )$(APPEND)"

# isa-debug-exit makes QEMU's own exit status (status << 1) | 1; a
# normal power-off is not an error for make. When stdin is not a terminal
# (`make run < script`, `make run < /dev/null`) it goes to the console
# followed by Ctrl-D (\004), so the shell sees the end of its input and
# the machine powers off.
run: all $(RUN_KERNEL) | deps-run
	@for p in $(INIT) $(EXTRA); do [ -f "$$p" ] || \
		{ echo "run: no program $$p (tools/spindle-cc -o $$p $$p.c builds one)" >&2; exit 1; }; done
	@echo "*** Spindle in QEMU: the serial console is this terminal; Ctrl-a x quits QEMU ***"
	@if [ -t 0 ]; then $(QEMU) $(QEMU_COMMON) -serial mon:stdio; \
	else { cat; printf '\004'; } | $(QEMU) $(QEMU_COMMON) -serial stdio; fi; rc=$$?; \
		if [ $$rc -eq 1 ]; then exit 0; fi; echo "(QEMU exit status $$rc)"

run-seed: $(SEED_KERNEL) | deps-run
	@$(MAKE) --no-print-directory run RUN_KERNEL=$(SEED_KERNEL)

# A free TCP port for this user (machines are shared: never the fixed 1234).
GDBPORT = $(shell python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

# The debug kernel: the same sources at $(DEBUG_KOPT), in $(DEBUG_B).
DEBUG_KERNEL := $(DEBUG_B)/kernel.elf
$(DEBUG_KERNEL): FORCE | deps
	$(Q)$(MAKE) --no-print-directory B=$(DEBUG_B) KOPT="$(DEBUG_KOPT)" $@
debug: $(DEBUG_KERNEL)

# QEMU stopped before the first instruction, waiting for GDB on a free
# port; .gdbinit says where (make gdb reads it). GDB_KERNEL=$(KERNEL)
# debugs the -O2 kernel instead; GDBINIT=FILE writes and reads another
# file than .gdbinit (the docs test does, to leave yours alone).
GDBINIT ?= .gdbinit
GDB_KERNEL ?= $(DEBUG_KERNEL)
QEMU_GDB_FLAGS ?=
qemu-gdb: all $(GDB_KERNEL) | deps-run deps-gdb
	@port=$(GDBPORT); tools/mkgdbinit.sh $$port $(GDB_KERNEL) > $(GDBINIT); \
	echo "*** QEMU waits for GDB on localhost:$$port: run 'make gdb' in another terminal ***"; \
	$(QEMU) $(subst $(KERNEL),$(GDB_KERNEL),$(QEMU_COMMON)) $(QEMU_GDB_FLAGS) -serial mon:stdio -S \
		-gdb tcp:127.0.0.1:$$port; true

# Schedule seeds (docs/races.md, kernel/chaos.h): PROG="name args" (a
# /bin program; your own ones with EXTRA=, as for make run) or T=smpN/t_name
# (a test program, at N CPUs) booted RUNS times at CPUS CPUs under QEMU's
# instruction counting, with chaos=SEED, chaos=SEED+1, ...: one line per
# failing seed, then the count. make replay SEED=n reruns one seed and
# shows its log; make replay-gdb SEED=n runs it under the GDB stub (then
# make gdb), on the same -O2 kernel, so the same interleaving comes back.
# SEED=0 is the default schedule (no chaos= word).
RUNS ?= 100
RACE_TIMEOUT ?= 120
RACE_CPUS = $(if $(T),$(patsubst smp%,%,$(firstword $(subst /, ,$(T)))),$(CPUS))
RACE_INIT = $(if $(T),init=/tests/$(notdir $(T)),init=/bin/$(firstword $(PROG))$(if \
	$(word 2,$(PROG)), -- $(wordlist 2,$(words $(PROG)),$(PROG))))
RACE_ARGS = --kernel $(KERNEL) --initrd "$(INITRD)$(RUN_MODULES)" --cpus $(RACE_CPUS) \
	--init "$(RACE_INIT)" --mem $(QEMU_MEM)
RACE_ICOUNT := $(shell cat tools/icount.flags)
race_usage = @[ -n "$(T)" ] || [ "$(origin PROG)" != file ] || { echo \
	'usage: make $@ PROG="name args" | T=smpN/t_name [CPUS=4]$(1) (docs/races.md)' >&2; exit 2; }
race: all | deps-run
	$(call race_usage, [RUNS=100] [SEED=1])
	@python3 tools/race.py race $(RACE_ARGS) --runs $(RUNS) --seed $(SEED) --timeout $(RACE_TIMEOUT)
replay: all | deps-run
	$(call race_usage, SEED=n)
	@python3 tools/race.py replay $(RACE_ARGS) --seed $(SEED) --timeout $(RACE_TIMEOUT)
replay-gdb: all | deps-run deps-gdb
	$(call race_usage, SEED=n)
	@$(MAKE) --no-print-directory qemu-gdb GDB_KERNEL=$(KERNEL) SMP=$(RACE_CPUS) \
		APPEND="$(if $(filter-out 0,$(SEED)),chaos=$(SEED) )$(RACE_INIT)" \
		QEMU_GDB_FLAGS="$(RACE_ICOUNT)" INIT=

gdb:
	@test -f $(GDBINIT) || { echo "run 'make qemu-gdb' first (in another terminal)" >&2; exit 1; }
	gdb -q -iex "set auto-load local-gdbinit off" -x $(GDBINIT)

# Bochs: the ISO, with COM1 on this terminal both ways (tools/bochs.sh).
bochs: $(ISO) | deps-bochs
	@[ -t 0 ] || { echo "make bochs: the console needs a terminal (stdin is not one)" >&2; exit 1; }
	@echo "*** Spindle under Bochs: the serial console is this terminal; Ctrl-C quits Bochs ***"
	@tools/bochs.sh --console "$$(tty)" $(ISO) $(SMP)

# Bochs's own debugger on this terminal (docs/bochs.md), with a kernel
# that stops in switch_to before load_TLS (bochs_magic_break, x86.h). COM1
# goes to CONSOLE: another terminal (run `tty; sleep 1d` there), or by
# default the file $(BOCHS_B)/com1.txt. APPEND is the kernel's command line.
# Only the kernel is built apart, in $(BOCHS_B); the initrd is this tree's.
# The ISO is made every time: APPEND is in it.
BOCHS_B := $(B)/bochs
BOCHS_KERNEL := $(BOCHS_B)/kernel.elf
CONSOLE ?= $(BOCHS_B)/com1.txt
$(BOCHS_KERNEL): FORCE | deps
	$(Q)$(MAKE) --no-print-directory B=$(BOCHS_B) KOPT="-O2 -g -DBOCHS_MAGIC_BREAK" $@
$(BOCHS_B)/spindle.iso: $(BOCHS_KERNEL) $(INITRD) boot/grub.cfg FORCE | deps deps-iso
	$(call say,ISO,$@)
	$(Q)tools/mkiso.sh $@ boot/grub.cfg $(BOCHS_KERNEL) $(INITRD) "$(APPEND)"
bochs-debug: $(BOCHS_B)/spindle.iso | deps-bochs
	@echo "*** Bochs's debugger: 'c' runs, 'info gdt', 'sreg', 'help'; COM1: $(CONSOLE) ***"
	@tools/bochs.sh --debug $(BOCHS_B)/spindle.iso $(SMP) $(CONSOLE)

# ---- tests ----
include tests/unit/Makefile.inc
include user/Makefile.inc
include web/Makefile.inc
include user/linux/Makefile.inc
include tests/busybox/Makefile.inc

# The ISO the loader tests boot: the test kernel, with ktest=boot.
TEST_ISO := $(B)/spindle-test.iso
$(TEST_ISO): $(TEST_KERNEL) $(INITRD) boot/grub.cfg | deps deps-iso
	$(call say,ISO,$@)
	$(Q)tools/mkiso.sh $@ boot/grub.cfg $(TEST_KERNEL) $(INITRD) ktest=boot

# And one for the SMP group under Bochs with two CPUs.
TEST_ISO_SMP := $(B)/spindle-test-smp.iso
$(TEST_ISO_SMP): $(TEST_KERNEL) $(INITRD) boot/grub.cfg | deps deps-iso
	$(call say,ISO,$@)
	$(Q)tools/mkiso.sh $@ boot/grub.cfg $(TEST_KERNEL) $(INITRD) "ktest=smp expect_cpus=2"

# And one with the FPU fault test as init: Bochs raises the SSE exceptions
# (#XM) that QEMU's TCG does not (user/tests/t_fpu_fault.c).
TEST_ISO_FPU := $(B)/spindle-test-fpu.iso
$(TEST_ISO_FPU): $(KERNEL) $(INITRD) boot/grub.cfg | deps
	$(call say,ISO,$@)
	$(Q)tools/mkiso.sh $@ boot/grub.cfg $(KERNEL) $(INITRD) "init=/tests/t_fpu_fault"

# The seed kernel through GRUB (make check's grub/seed_iso_shell and
# bochs/seed_shell): the core alone, the same initrd.
SEED_ISO := $(B)/seed/spindle-seed.iso
$(SEED_ISO): $(SEED_KERNEL) $(INITRD) boot/grub.cfg | deps deps-iso
	$(call say,ISO,$@)
	$(Q)tools/mkiso.sh $@ boot/grub.cfg $(SEED_KERNEL) $(INITRD) ""

# make check: everything. make test T="NAME ...": the tests with those
# exact names or shell globs (T=smp1/t_clone, T='smp*/t_fork', T='gdb/*',
# T=smp1/t_clone.files_shared). Without grub-mkrescue there is no ISO, and
# the GRUB and Bochs tests print SKIP lines. The page of make web is built
# too; if it cannot be, its tests say why in their FAIL lines.
CHECK_PREREQS := all unit-tests $(DEBUG_KERNEL) $(TEST_KERNEL) $(SEED_KERNEL)
define build_isos
	@if command -v grub-mkrescue >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory $(ISO) $(TEST_ISO) $(TEST_ISO_SMP) $(TEST_ISO_FPU) \
			$(SEED_ISO); \
	else echo "make: no grub-mkrescue, so no ISO: the GRUB and Bochs tests SKIP"; fi
endef
check: $(CHECK_PREREQS) | deps-check
	$(build_isos)
	@$(MAKE) --no-print-directory web || \
		echo "make: make web failed: the web/ tests will FAIL and say why"
	@SPINDLE_BUILD=$(B) python3 tests/run.py

# The few minutes between two edits: the host unit tests, the repository
# rules (seed size, boundaries), everything at -smp 2 (the guest groups,
# the shell and console sessions, every test program) and the seed
# kernel's shell. make check is still what a change must pass.
QUICK_TESTS = unit/* repo/* smp2/* seed/smp2/shell.session
check-quick: $(CHECK_PREREQS) | deps-check
	@SPINDLE_BUILD=$(B) python3 tests/run.py -t "$(QUICK_TESTS)"

test: $(CHECK_PREREQS) | deps-check
	@[ -n "$(T)" ] || { echo 'usage: make test T="NAME|GLOB ..." (T=smp1/t_clone, T="gdb/*")' >&2; exit 2; }
	$(build_isos)
	@SPINDLE_BUILD=$(B) python3 tests/run.py -t "$(T)"

# The speed figures (docs/benchmarks.md): /bin/bench as init under QEMU
# -icount, the table in $(B)/bench.txt. Missed targets never fail it.
bench: all $(SEED_KERNEL) | deps-run
	$(Q)if [ "$(SMP)" = 1 ]; then tools/bench.sh $(B) $(KERNEL) $(INITRD) \
		$(if $(filter $(SEED_KERNEL),$(KERNEL)),,$(SEED_KERNEL)); \
	else tools/bench_smp.sh $(B) $(KERNEL) $(INITRD) $(SMP); fi

# Where a path's instructions go, by kernel function (docs/benchmarks.md):
# PROG runs as init under the same -icount as bench; GDB single-steps
# CYCLES entries of the kernel function SYM after SKIP warm-up entries.
PROG ?= bench yield
SYM ?= sys_sched_yield
SKIP ?= 300
CYCLES ?= 10
profile: all | deps-run deps-gdb
	$(Q)python3 tools/profile.py $(KERNEL) $(INITRD) $(SYM) --skip $(SKIP) \
		--cycles $(CYCLES) --append "init=/bin/$(PROG)" $(if $(DETAIL),--detail $(DETAIL)) \
		$(if $(wildcard $(B)/user/bin/$(firstword $(PROG))),--user $(B)/user/bin/$(firstword $(PROG)))

# Long runs (docs/fuzzing.md): the fuzzer or the stress run booted as
# init at -smp CPUS; they print where they stopped and check the books.
SEED ?= 1
CALLS ?= 100000
CPUS ?= 4
WORKERS ?= 6
FUZZ_FLAGS ?=
STRESS_SECONDS ?= 600
STRESS_FLAGS ?=
fuzz: all | deps-run
	$(Q)tools/fuzz.sh $(KERNEL) $(INITRD) $(CPUS) fuzz -s $(SEED) -n $(CALLS) -w $(WORKERS) $(FUZZ_FLAGS)

stress: all | deps-run
	$(Q)tools/fuzz.sh $(KERNEL) $(INITRD) $(CPUS) stress -t $(STRESS_SECONDS) $(STRESS_FLAGS)

exhaust: all | deps-run
	$(Q)tools/fuzz.sh $(KERNEL) $(INITRD) $(CPUS) /tests/t_exhaust full

# make fuzz-campaign (docs/fuzzing.md, "A campaign"): SEEDS fuzz sessions
# from SEED at each CPU count of CAMPAIGN_CPUS, CAMPAIGN_CALLS calls each
# (by default 10 million calls in all), JOBS QEMUs at a time; one line a
# session, the logs in $(B)/campaign/.
SEEDS ?= 10
CAMPAIGN_CALLS ?= 500000
CAMPAIGN_CPUS ?= 1 4
JOBS ?= 4
fuzz-campaign: all | deps-run
	$(Q)python3 tools/fuzz_campaign.py $(KERNEL) $(INITRD) $(B)/campaign --first $(SEED) \
		--seeds $(SEEDS) --calls $(CAMPAIGN_CALLS) --cpus "$(CAMPAIGN_CPUS)" \
		--jobs $(JOBS) --workers $(WORKERS)

# A scheduler trace (docs/tracing.md): PROG booted as init with `trace`
# under -icount; build/trace.json and build/trace.svg from the console.
# ICOUNT=0: plain TCG instead, every vCPU a host thread (not repeatable).
# Without PROG on the command line: start-detached 1000 (PROG's default
# in this file is make profile's).
TRACE_PROG = $(if $(filter file,$(origin PROG)),start-detached 1000,$(PROG))
ICOUNT ?= 1
trace: all | deps-run
	$(Q)TRACE_ICOUNT=$(ICOUNT) tools/trace.sh $(KERNEL) $(INITRD) $(CPUS) $(TRACE_PROG)
# The labs (docs/labs/README.md): make lab writes a student tree, a plain
# directory (no git history), with lab LAB's marked solutions replaced by
# their stubs (LATER=1: the later labs' too); make grade runs the labs'
# tests (tests/labs.py LAB_TESTS), prints points and `Score: X/Y`, writes
# GRADE_JSON ($(B)/grade.json), and fails below 100%.
LAB ?=
DEST ?=
LATER ?=
lab:
	@[ -n "$(LAB)" ] && [ -n "$(DEST)" ] || \
		{ echo 'usage: make lab LAB=n DEST=dir [LATER=1] (docs/labs/README.md)' >&2; exit 2; }
	@python3 tools/mklab.py $(if $(LATER),--later) $(LAB) $(DEST)

GRADE_JSON ?= $(B)/grade.json
grade: all unit-tests $(TEST_KERNEL) | deps-run
	@SPINDLE_BUILD=$(B) GRADE_JSON=$(GRADE_JSON) python3 tests/labs.py grade $(LAB)

clean:
	rm -rf $(B) .gdbinit

-include $(shell find $(B)/k $(B)/seed -name '*.d' 2>/dev/null)
