/* kernel/monitor.c - the kernel monitor (monitor.h). */
#include "kernel/monitor.h"
#include "kernel/banner.h"
#include "kernel/clock.h"
#include "kernel/console.h"
#include "kernel/initrd.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/cpu.h"
#include "arch/i386/power.h"
#include "arch/i386/dumpstack.h"
#include "arch/i386/irqflags.h"
#include "lib/string.h"

#define LINE_MAX 128
#define MAX_ARGS 8

struct command {
	const char *name;
	const char *help;
	void (*fn)(int argc, char **argv);
};

static void cmd_help(int argc, char **argv);

static void cmd_info(int argc, char **argv)
{
	(void)argc, (void)argv;
	banner_print();
}

static void cmd_gdt(int argc, char **argv)
{
	(void)argc, (void)argv;
	gdt_print(this_cpu()->id);
}

static void cmd_mem(int argc, char **argv)
{
	(void)argc, (void)argv;
	kprintf("frames: %u free of %u (%u KiB free)\n", pmm_free_frames(),
		pmm_total_frames(), pmm_free_frames() * 4);
	kprintf("%-16s %8s %6s %8s %8s\n", "cache", "objsize", "order", "inuse", "slabs");
	for (struct objcache *c = kmem_caches(); c; c = c->next)
		kprintf("%-16s %8u %6u %8u %8u\n", c->name, c->objsize, c->order,
			c->nr_inuse, c->nr_slabs);
}

static void cmd_ls(int argc, char **argv)
{
	(void)argc, (void)argv;
	for (int i = 0; i < initrd_count(); i++)
		kprintf("%8u %s\n", initrd_file(i)->size, initrd_file(i)->path);
}

static void cmd_cat(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const struct initrd_file *f = initrd_find(argv[i]);
		if (!f) {
			kprintf("cat: %s: no such file\n", argv[i]);
			continue;
		}
		console_lock();
		console_write(f->data, f->size);
		console_unlock();
	}
}

static void cmd_ticks(int argc, char **argv)
{
	(void)argc, (void)argv;
	kprintf("ticks: %llu (%d Hz), uptime %llu ms\n",
		(unsigned long long)clock_ticks(), HZ,
		(unsigned long long)(clock_ns() / 1000000));
}

static void cmd_backtrace(int argc, char **argv)
{
	(void)argc, (void)argv;
	backtrace_from((uint32_t)cmd_backtrace, (uint32_t)__builtin_frame_address(0));
}

static void cmd_poweroff(int argc, char **argv)
{
	int status = argc > 1 ? (int)(argv[1][0] - '0') : 0;
	kprintf("powering off\n");
	power_off(status);
}

static const struct command commands[] = {
	{ "help", "list the commands", cmd_help },
	{ "info", "print the boot banner again", cmd_info },
	{ "gdt", "decode this CPU's GDT", cmd_gdt },
	{ "mem", "free frames and object caches", cmd_mem },
	{ "ls", "list the initrd's files", cmd_ls },
	{ "cat", "cat FILE... print initrd files", cmd_cat },
	{ "ticks", "timer ticks and uptime", cmd_ticks },
	{ "backtrace", "a symbolised backtrace of the monitor", cmd_backtrace },
	{ "poweroff", "poweroff [STATUS] turn the machine off", cmd_poweroff },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void cmd_help(int argc, char **argv)
{
	(void)argc, (void)argv;
	for (size_t i = 0; i < NCOMMANDS; i++)
		kprintf("  %-10s %s\n", commands[i].name, commands[i].help);
}

/* Runs one command line (the words are split in place). */
static void monitor_exec(char *line)
{
	char *argv[MAX_ARGS];
	int argc = 0;
	char *p = line;

	while (*p && argc < MAX_ARGS) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	if (argc == 0)
		return;
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[0], commands[i].name) == 0) {
			commands[i].fn(argc, argv);
			return;
		}
	kprintf("%s: unknown command (try help)\n", argv[0]);
}

/* Sleeps with hlt until the COM1 interrupt brings a byte. safe_halt makes
 * the check-then-sleep atomic: an interrupt between the empty check and
 * the hlt would otherwise be missed and we would sleep with a byte
 * waiting (the lost-wakeup race, here against an interrupt). */
static int read_char(void)
{
	for (;;) {
		int c;

		local_irq_disable();
		c = console_trygetc();
		if (c >= 0) {
			local_irq_enable();
			return c;
		}
		safe_halt();
	}
}

/* Reads a line with echo; backspace/DEL erase, CR or LF ends it. */
static void read_line(char *buf, size_t size)
{
	size_t n = 0;

	for (;;) {
		int c = read_char();
		if (c == '\r' || c == '\n') {
			kprintf("\n");
			break;
		}
		if (c == '\b' || c == 0x7f) {
			if (n > 0) {
				n--;
				kprintf("\b \b");
			}
			continue;
		}
		if (c >= ' ' && c < 0x7f && n + 1 < size) {
			buf[n++] = (char)c;
			kprintf("%c", c);
		}
	}
	buf[n] = '\0';
}

void monitor_run(void)
{
	char line[LINE_MAX];

	kprintf("Spindle kernel monitor; 'help' lists the commands.\n");
	for (;;) {
		kprintf("K> ");
		read_line(line, sizeof(line));
		monitor_exec(line);
	}
}
