/* user/bin/tls-demo.c - one GDT slot, a different base per thread.
 *
 *     tls-demo [THREADS]        (default 4, at most 32)
 *
 * Every thread, the main one included, prints its %gs selector, the
 * descriptor in that GDT slot as get_thread_area reads it back, where its
 * copy of a __thread counter lives, and the counter after thread i has
 * incremented it i+1 times:
 *
 *     thread 2: %gs=0x33 (entry 6) base=0xaffeeb40 &counter=0xaffeeb38 counter=3
 *
 * All of them run at once (they wait at a barrier before printing), yet
 * every %gs is the same selector: the kernel copies each thread's own
 * descriptor into that slot of its CPU's GDT at every context switch
 * (tls-2.5.31-D9; docs/threads.md). gcc compiles `counter++` to
 * `incl %gs:counter@ntpoff`, an access at a small negative offset from
 * the base: the TLS block sits just below the thread's TCB
 * (user/lib/pthread_impl.h draws it). */
#include "pthread.h"
#include "raw.h"
#include "stdio.h"
#include "stdlib.h"

#define MAX_THREADS 32

static __thread int counter;
static __thread const char *name = "main  ";    /* .tdata: each thread starts with it */
static pthread_barrier_t all_running;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static void show(int id)
{
	struct user_desc d = { 0 };
	unsigned gs;

	__asm__ volatile("movl %%gs, %0" : "=r"(gs));
	gs &= 0xffff;
	d.entry_number = gs >> 3;       /* selector = index << 3 | TI << 2 | RPL */
	raw_get_thread_area(&d);
	pthread_mutex_lock(&print_lock);
	if (id < 0)
		printf("%s  : ", name);
	else
		printf("thread %d: ", id);
	printf("%%gs=%#x (entry %u) base=%#010x &counter=%p counter=%d\n",
	       gs, d.entry_number, d.base_addr, (void *)&counter, counter);
	pthread_mutex_unlock(&print_lock);
}

static void *thread_main(void *arg)
{
	int id = (int)(long)arg;

	for (int i = 0; i <= id; i++)
		counter++;              /* this thread's own counter */
	pthread_barrier_wait(&all_running);
	show(id);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_THREADS];
	int n = argc > 1 ? atoi(argv[1]) : 4;

	if (n < 1 || n > MAX_THREADS) {
		printf("usage: tls-demo [THREADS], 1 to %d\n", MAX_THREADS);
		return 1;
	}
	printf("tls-demo: %d threads and main; one selector, a base each\n", n);
	pthread_barrier_init(&all_running, NULL, (unsigned)n + 1);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, thread_main, (void *)(long)i) != 0) {
			printf("tls-demo: pthread_create failed\n");
			return 1;
		}
	pthread_barrier_wait(&all_running);
	show(-1);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
