/* user/bin/ps.c - every task of the machine, from /proc/tasks.
 *
 * The kernel writes one line per task (kernel/kinfo.h):
 *     TID TGID PPID STATE CPU EXITSIG COMM TLS6 TLS7 TLS8 PERS
 *     1 1 0 S 0 17 init 0x00000000 0x00000000 0x00000000 seed
 * ps prints the same columns aligned under their header, numbers to
 * the right and words to the left. PERS is the personality: seed for
 * Spindle's programs, linux for glibc's (abi.md section 9). COMM is
 * whatever sits between the sixth field and the last four, so a name
 * with a space in it cannot shift the columns. A thread shows as its own line: same TGID, its own
 * TID. */
#include "stdio.h"
#include "string.h"
#include "errno.h"

#define TASKS_FILE "/proc/tasks"
#define NCOLS 11
#define TAIL_COLS 4              /* TLS6 TLS7 TLS8 PERS */
#define COMM_COL 6
#define MAX_ROWS 512
#define LINE 256

static char lines[MAX_ROWS][LINE];
static char *cells[MAX_ROWS][NCOLS];
static int widths[NCOLS];

/* Splits line into NCOLS cells in place; false if it has too few words. */
static bool split(char *line, char **cell)
{
	char *words[LINE / 2], *save;
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	for (char *w = strtok_r(line, " ", &save); w && n < LINE / 2;
	     w = strtok_r(NULL, " ", &save))
		words[n++] = w;
	if (n < NCOLS)
		return false;
	for (int i = 0; i < COMM_COL; i++)
		cell[i] = words[i];
	/* COMM: words[6 .. n-5], joined again by single spaces. */
	cell[COMM_COL] = words[COMM_COL];
	for (int i = COMM_COL + 1; i < n - TAIL_COLS; i++)
		words[i][-1] = ' ';
	for (int i = 0; i < TAIL_COLS; i++)
		cell[COMM_COL + 1 + i] = words[n - TAIL_COLS + i];
	return true;
}

static bool numeric(int col)
{
	return col < COMM_COL && col != 3;      /* all but STATE and the words */
}

int main(void)
{
	FILE *f = fopen(TASKS_FILE, "r");
	int rows = 0;

	if (!f) {
		fprintf(stderr, "ps: cannot open %s: %s\n", TASKS_FILE, strerror(errno));
		return 1;
	}
	while (rows < MAX_ROWS && fgets(lines[rows], LINE, f))
		if (split(lines[rows], cells[rows]))
			rows++;
	fclose(f);
	if (rows == 0) {
		fprintf(stderr, "ps: %s is empty\n", TASKS_FILE);
		return 1;
	}
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < NCOLS; c++) {
			int w = (int)strlen(cells[r][c]);
			if (w > widths[c])
				widths[c] = w;
		}
	/* Row 0 is the kernel's header line. */
	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < NCOLS; c++) {
			const char *sep = c + 1 < NCOLS ? " " : "\n";
			if (c + 1 == NCOLS)
				printf("%s%s", cells[r][c], sep);
			else if (numeric(c))
				printf("%*s%s", widths[c], cells[r][c], sep);
			else
				printf("%-*s%s", widths[c], cells[r][c], sep);
		}
	}
	return 0;
}
