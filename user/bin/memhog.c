/* user/bin/memhog.c - memhog [MIB]: maps MIB MiB (default 1024: more
 * than the machine has) of anonymous memory and writes to every page,
 * printing a dot every 16 MiB. On a machine that runs out first, the
 * kernel's out-of-memory policy kills it (kernel/mm/oom.h): the shell
 * says "Killed" and $? is 137, while init, the shell and everything
 * smaller live on (docs/reliability.md). Exits 0 if it touched it all. */
#include "stdio.h"
#include "stdlib.h"
#include "sys/mman.h"

#define PAGE 4096ul
#define MIB (1024ul * 1024)

int main(int argc, char **argv)
{
	unsigned long mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024;
	volatile char *p = mmap(NULL, mib * MIB, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "memhog: cannot map %lu MiB\n", mib);
		return 1;
	}
	for (unsigned long off = 0; off < mib * MIB; off += PAGE) {
		p[off] = 1;
		if (off % (16 * MIB) == 16 * MIB - PAGE) {
			putchar('.');
			fflush(stdout);
		}
	}
	printf("\nmemhog: touched %lu MiB\n", mib);
	return 0;
}
