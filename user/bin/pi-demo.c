/* user/bin/pi-demo.c - doubles in several threads at once.
 *
 *     pi-demo [THREADS [STEPS]]     (default 4 threads x 2000000 steps)
 *
 * Each thread integrates 4 / (1 + x^2) over its own slice of [0, 1] with
 * the midpoint rule; the slices add up to pi. Every thread keeps its
 * running sum in the x87 registers while the timer switches threads and
 * moves them between CPUs: each task has its own FPU state, which the
 * kernel saves and restores (arch/i386/fpu.c, docs/switch.md section 5).
 * Then printf's %f and %e (user/lib/fmt_float.c) and sqrt (math.h). */
#include "pthread.h"
#include "math.h"
#include "stdio.h"
#include "stdlib.h"

#define MAX_THREADS 16

struct slice {
	int first, count, steps;
	double sum;
};

static void *integrate(void *arg)
{
	struct slice *s = arg;
	double h = 1.0 / s->steps, sum = 0;

	for (int i = s->first; i < s->first + s->count; i++) {
		double x = (i + 0.5) * h;
		sum += 4.0 / (1.0 + x * x);
	}
	s->sum = sum * h;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	int steps = argc > 2 ? atoi(argv[2]) : 2000000;
	struct slice s[MAX_THREADS];
	pthread_t t[MAX_THREADS];
	double pi = 0;

	if (n < 1 || n > MAX_THREADS || steps < n) {
		printf("usage: pi-demo [THREADS (1..%d) [STEPS]]\n", MAX_THREADS);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		s[i] = (struct slice){ i * (steps / n), steps / n, steps, 0 };
		if (i == n - 1)
			s[i].count = steps - i * (steps / n);
		if (pthread_create(&t[i], NULL, integrate, &s[i])) {
			printf("pi-demo: pthread_create failed\n");
			return 1;
		}
	}
	for (int i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		printf("thread %d: [%.4f, %.4f) gives %.10f\n", i, (double)s[i].first / steps,
		       (double)(s[i].first + s[i].count) / steps, s[i].sum);
		pi += s[i].sum;
	}
	printf("pi    ~ %.12f (error %.2e)\n", pi, fabs(pi - M_PI));
	printf("sqrt(pi) = %g, pi^2 = %.6e\n", sqrt(pi), pi * pi);
	return fabs(pi - M_PI) < 1e-9 ? 0 : 1;
}
