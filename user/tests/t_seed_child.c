/* user/tests/t_seed_child.c - the program t_seed and t_seed_vm execve.
 *
 *   t_seed_child tls    exit status: 0 if this freshly exec'd process has
 *                       the three empty TLS slots and %fs = %gs = 0 of
 *                       abi.md sections 2 and 5 (erratum 3: nothing from
 *                       boot or from the exec'ing process shows), else a
 *                       bit per problem: 1, 2, 4 slot 6, 7, 8 not empty;
 *                       8 get_thread_area failed; 16 %gs, 32 %fs not 0
 *   t_seed_child sleep  sleeps until killed (CLONE_RELEASE_VM's execve)
 *   t_seed_child        exits with 0x5e */
#include "raw.h"
#include "string.h"
#include "segs.h"

static int tls_check(unsigned fs, unsigned gs)
{
	int bad = 0;

	for (unsigned e = 6; e <= 8; e++) {
		struct user_desc d, empty;
		/* Every bit compared, the unused ones too (erratum 5). */
		memset(&empty, 0, sizeof(empty));
		empty.entry_number = e;
		empty.read_exec_only = 1;
		empty.seg_not_present = 1;
		memset(&d, 0xff, sizeof(d));
		d.entry_number = e;
		if (raw_get_thread_area(&d) != 0)
			bad |= 8;
		else if (memcmp(&d, &empty, sizeof(d)) != 0)
			bad |= 1 << (e - 6);
	}
	if (gs)
		bad |= 16;
	if (fs)
		bad |= 32;
	return bad;
}

int main(int argc, char **argv)
{
	unsigned fs, gs;

	fs = get_fs();
	gs = get_gs();
	if (argc > 1 && strcmp(argv[1], "tls") == 0)
		return tls_check(fs, gs);
	if (argc > 1 && strcmp(argv[1], "sleep") == 0) {
		struct timespec ts = { 1, 0 };
		for (;;)
			raw_nanosleep(&ts, NULL);
	}
	return 0x5e;
}
