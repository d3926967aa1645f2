/* user/bin/race-demo.c - a race planted for `make race` (docs/races.md).
 *
 *     race-demo [THREADS [INCREMENTS]]     (default 2 threads x 1000)
 *
 * The threads add to one counter with no lock: each increment is a load,
 * a little work, and a store, so a thread stopped between its load and
 * its store while another increments writes back a stale value and
 * updates are lost. The threads are short: at the default schedule
 * under QEMU's instruction counting (make race with chaos off, make
 * bench) no CPU is stopped inside that window while the other works,
 * and the program passes; the bug is found by the schedule seeds that do
 * stop one there. Exit status 0 when the count is exact, 1 when updates
 * were lost (the line before says how many). The fix, a pthread mutex
 * around the increment, is mutex-demo's. */
#include "pthread.h"
#include "stdio.h"
#include "stdlib.h"

#define MAX_THREADS 8
#define WORK 20         /* iterations between load and store */

static int increments;
static volatile int counter;
static pthread_barrier_t start_line;

static void *add(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start_line);
	for (int i = 0; i < increments; i++) {
		int v = counter;                        /* load */
		for (volatile int w = 0; w < WORK; w++)
			;                               /* work */
		counter = v + 1;                        /* store: no lock */
	}
	return NULL;
}

/* After the joins: what the threads left in the counter (docs/races.md
 * stops here in GDB, the race over). */
static int check(int n)
{
	int want = n * increments;

	printf("race-demo: %d threads x %d increments: counter = %d, %d lost\n",
	       n, increments, counter, want - counter);
	return counter == want ? 0 : 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pthread_t t[MAX_THREADS];

	increments = argc > 2 ? atoi(argv[2]) : 1000;
	if (n < 2 || n > MAX_THREADS || increments < 1) {
		printf("usage: race-demo [THREADS (2..%d) [INCREMENTS]]\n", MAX_THREADS);
		return 2;
	}
	pthread_barrier_init(&start_line, NULL, (unsigned)n);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, add, NULL) != 0) {
			printf("race-demo: pthread_create failed\n");
			return 2;
		}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return check(n);
}
