"""tests/docs_covered.py - which test runs each command the docs show at a
`$ ` prompt (docs/every_command_run, tests/docs_examples.py): a table
apart, as it grows with every doc."""

# (doc, command as written) -> the session that runs it. Spindle's shell
# commands in README's make run block are run by docs/README.make_run.
COVERED = {
    ("README.md", "make run"): "docs/README.make_run",
    ("README.md", "make run-busybox"): "docs/README.run_busybox (make check-linux)",
    ("README.md", "make check-linux"): ".ci/run, after make check",
    ("README.md", "make check"): "this run itself",
    ("README.md", "make seed"): "docs/README.make_seed (tests/seed.py)",
    ("README.md", "make bench"): "docs/benchmarks.make_bench",
    ("README.md", "cat hello.c"): "docs/README.own_program",
    ("README.md", "tools/spindle-cc -o hello hello.c"): "docs/README.own_program",
    ("README.md", "make run EXTRA=hello"): "docs/README.own_program",
    ("README.md", "make run INIT=hello"): "docs/README.own_program",
    ("docs/benchmarks.md", "make bench"): "docs/benchmarks.make_bench",
    ("docs/benchmarks.md", "make bench SMP=4"): "docs/benchmarks.make_bench",
    ("docs/benchmarks.md", 'make profile PROG="bench yield" SYM=sys_sched_yield'):
        "docs/benchmarks.make_profile",
    ("docs/debugging.md", 'make qemu-gdb APPEND="init=/bin/tls-demo"'): "docs/debugging.gdb",
    ("docs/debugging.md", "make gdb"): "docs/debugging.gdb",
    ("docs/bochs.md", "make bochs"): "docs/bochs.make_bochs",
    ("docs/bochs.md", 'make bochs-debug APPEND="init=/bin/tls-demo"'): "docs/bochs.bochs_debug",
    ("docs/web.md", "make web"): "make check builds it; web/node, web/chromium boot it",
    ("docs/web.md", "make serve-web"): "web/chromium (tools/serve-web.py, the same server)",
    ("docs/terminal.md", "sleep 100"): "smpN/shell.intr (Ctrl-C and Ctrl-\\ at the shell)",
    ("docs/terminal.md", "echo $?"): "smpN/shell.intr",
    ("docs/terminal.md", "sleep 100 | sleep 100"): "smpN/shell.intr",
    ("docs/tracing.md", 'make trace PROG="start-detached 1000" CPUS=4'):
        "docs/tracing.make_trace",
    ("docs/tracing.md", 'make trace PROG="tls-demo 2" CPUS=1'): "docs/tracing.make_trace",
    ("docs/tracing.md", "tools/trace2json.py --list build/trace.log"):
        "docs/tracing.make_trace",
    ("docs/tour.md", 'make qemu-gdb APPEND="trace init=/bin/tls-demo -- 2"'): "docs/tour.gdb",
    ("docs/tour.md", "make gdb"): "docs/tour.gdb",
    ("docs/races.md", "make race PROG=race-demo CPUS=2 RUNS=40 SEED=0"): "docs/races.make_race",
    ("docs/races.md", "make replay PROG=race-demo CPUS=2 SEED=2"): "docs/races.make_race",
    ("docs/races.md", "make replay PROG=race-demo CPUS=2 SEED=1"): "docs/races.make_race",
    ("docs/races.md", "make replay-gdb PROG=race-demo CPUS=2 SEED=2"): "docs/races.gdb",
    ("docs/races.md", "make gdb"): "docs/races.gdb",
    # The labs: make lab and make grade in a temporary directory, as a
    # teacher would (tests/labs.py), and each handout's GDB session.
    ("README.md", "make lab LAB=4 DEST=/tmp/lab4 && cd /tmp/lab4 && make grade"):
        "labs/lab4_stripped (make lab LAB=4, then make grade in it)",
    ("docs/labs/README.md", "make lab LAB=4 DEST=/tmp/lab4"): "labs/lab4_stripped",
    ("docs/labs/README.md", "cd /tmp/lab4"): "labs/lab4_stripped",
    ("docs/labs/README.md", "make grade"): "labs/lab4_stripped",
    ("docs/labs/lab1-gdt.md", "make grade LAB=1"): "labs/lab1_full",
    ("docs/labs/lab2-switch.md", "make grade LAB=2"): "labs/lab2_full",
    ("docs/labs/lab3-tls.md", "make grade LAB=3"): "labs/lab3_full",
    ("docs/labs/lab4-clone.md", "make grade LAB=4"): "labs/lab4_full",
    ("docs/labs/lab5-exit.md", "make grade LAB=5"): "labs/lab5_full",
    ("docs/labs/lab6-futex.md", "make grade LAB=6"): "labs/lab6_full",
    ("docs/labs/lab7-pthreads.md", "make grade LAB=7"): "labs/lab7_full",
    ("docs/labs/lab8-tlb.md", "make grade LAB=8"): "labs/lab8_full",
    ("docs/labs/lab1-gdt.md", "make qemu-gdb"): "docs/lab1-gdt.gdb",
    ("docs/labs/lab1-gdt.md", "make gdb"): "docs/lab1-gdt.gdb",
    ("docs/labs/lab2-switch.md", 'make qemu-gdb APPEND="init=/bin/tls-demo"'):
        "docs/lab2-switch.gdb",
    ("docs/labs/lab2-switch.md", "make gdb"): "docs/lab2-switch.gdb",
    ("docs/labs/lab3-tls.md", 'make qemu-gdb APPEND="init=/bin/tls-demo"'): "docs/lab3-tls.gdb",
    ("docs/labs/lab3-tls.md", "make gdb"): "docs/lab3-tls.gdb",
    ("docs/labs/lab4-clone.md", 'make qemu-gdb APPEND="init=/bin/tls-demo"'): "docs/lab4-clone.gdb",
    ("docs/labs/lab4-clone.md", "make gdb"): "docs/lab4-clone.gdb",
    ("docs/labs/lab5-exit.md", 'make qemu-gdb APPEND="init=/bin/start-detached -- 100"'):
        "docs/lab5-exit.gdb",
    ("docs/labs/lab5-exit.md", "make gdb"): "docs/lab5-exit.gdb",
    ("docs/labs/lab6-futex.md", 'make qemu-gdb APPEND="init=/tests/t_futex"'):
        "docs/lab6-futex.gdb",
    ("docs/labs/lab6-futex.md", "make gdb"): "docs/lab6-futex.gdb",
    ("docs/labs/lab7-pthreads.md", 'make qemu-gdb APPEND="init=/tests/t_pthread"'):
        "docs/lab7-pthreads.gdb",
    ("docs/labs/lab7-pthreads.md", "make gdb"): "docs/lab7-pthreads.gdb",
    ("docs/labs/lab8-tlb.md", 'make qemu-gdb SMP=2 APPEND="init=/tests/t_smp_tlb"'):
        "docs/lab8-tlb.gdb",
    ("docs/labs/lab8-tlb.md", "make gdb"): "docs/lab8-tlb.gdb",
}
