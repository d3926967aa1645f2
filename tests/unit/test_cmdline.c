/* tests/unit/test_cmdline.c - lib/cmdline.c against abi.md section 1 and
 * lib/cmdline.h: QEMU and GRUB forms, init=, smp=, ktest=, "--",
 * fpu=, unknown words, truncation. */
#include "tests/unit/unit.h"
#include "lib/cmdline.h"

#include <string.h>

static struct cmdline c;

static void check_defaults_but_unknown(void)
{
	CHECK_STR(c.init, "/bin/init");
	CHECK(c.ktest == NULL);
	CHECK_EQ_I(c.smp, 0);
	CHECK_EQ_I(c.argc, 0);
}

/* Is p inside c.buf (the private copy)? */
static bool in_buf(const char *p)
{
	return p >= c.buf && p < c.buf + sizeof(c.buf);
}

TEST(null_gives_defaults)
{
	memset(&c, 0xa5, sizeof(c));
	cmdline_parse(&c, NULL);
	check_defaults_but_unknown();
	CHECK_EQ_I(c.nunknown, 0);
	CHECK(!c.truncated);
}

TEST(empty_and_blank_give_defaults)
{
	cmdline_parse(&c, "");
	check_defaults_but_unknown();
	CHECK_EQ_I(c.nunknown, 0);
	cmdline_parse(&c, "  \t\n ");
	check_defaults_but_unknown();
	CHECK_EQ_I(c.nunknown, 0);
	CHECK(!c.truncated);
}

TEST(qemu_form_skips_the_kernel_path)
{
	cmdline_parse(&c, "build/kernel.elf init=/bin/sh");
	CHECK_STR(c.init, "/bin/sh");
	CHECK(in_buf(c.init));
	CHECK_EQ_I(c.nunknown, 0);

	cmdline_parse(&c, "/boot/kernel.elf");
	check_defaults_but_unknown();
	CHECK_EQ_I(c.nunknown, 0);
}

TEST(grub_form_has_no_path)
{
	cmdline_parse(&c, "init=/bin/sh smp=2 ktest=sched");
	CHECK_STR(c.init, "/bin/sh");
	CHECK_EQ_I(c.smp, 2);
	CHECK_STR(c.ktest, "sched");
	CHECK_EQ_I(c.nunknown, 0);
}

TEST(only_a_first_word_with_slash_and_no_equals_is_the_path)
{
	cmdline_parse(&c, "quiet init=/x");
	CHECK_STR(c.init, "/x");
	CHECK_EQ_I(c.nunknown, 1);
	CHECK_STR(c.unknown[0], "quiet");

	cmdline_parse(&c, "k.elf/ foo/bar");
	CHECK_EQ_I(c.nunknown, 1);
	CHECK_STR(c.unknown[0], "foo/bar");
}

TEST(init_last_wins_and_empty_is_unknown)
{
	cmdline_parse(&c, "init=/a init=/b");
	CHECK_STR(c.init, "/b");
	cmdline_parse(&c, "init=");
	CHECK_STR(c.init, "/bin/init");
	CHECK_EQ_I(c.nunknown, 1);
	CHECK_STR(c.unknown[0], "init=");
}

TEST(smp_valid)
{
	cmdline_parse(&c, "smp=1");
	CHECK_EQ_I(c.smp, 1);
	cmdline_parse(&c, "smp=8");
	CHECK_EQ_I(c.smp, 8);
	cmdline_parse(&c, "smp=064");
	CHECK_EQ_I(c.smp, 64);
	cmdline_parse(&c, "smp=2147483647");
	CHECK_EQ_I(c.smp, 2147483647);
	CHECK_EQ_I(c.nunknown, 0);
}

TEST(smp_invalid_is_unknown)
{
	static const char *const bad[] = {
		"smp=0", "smp=", "smp=x", "smp=-1", "smp=+2", "smp=1x",
		"smp=2147483648", "smp=99999999999999999999",
		"smp=00",
	};

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cmdline_parse(&c, bad[i]);
		CHECK_EQ_I(c.smp, 0);
		CHECK_EQ_I(c.nunknown, 1);
		CHECK_STR(c.unknown[0], bad[i]);
	}
	cmdline_parse(&c, "smp= 1");            /* two words, both unknown */
	CHECK_EQ_I(c.smp, 0);
	CHECK_EQ_I(c.nunknown, 2);
}

TEST(ktest)
{
	cmdline_parse(&c, "build/kernel.elf ktest=tls");
	CHECK_STR(c.ktest, "tls");
	CHECK(in_buf(c.ktest));
	cmdline_parse(&c, "ktest=");
	CHECK(c.ktest == NULL);
	CHECK_EQ_I(c.nunknown, 1);
}

TEST(words_after_dashdash_are_init_args)
{
	cmdline_parse(&c, "build/kernel.elf init=/bin/t -- a b --c -- smp=2");
	CHECK_STR(c.init, "/bin/t");
	CHECK_EQ_I(c.smp, 0);
	CHECK_EQ_I(c.argc, 5);
	CHECK_STR(c.argv[0], "a");
	CHECK_STR(c.argv[1], "b");
	CHECK_STR(c.argv[2], "--c");
	CHECK_STR(c.argv[3], "--");
	CHECK_STR(c.argv[4], "smp=2");
	CHECK_EQ_I(c.nunknown, 0);

	cmdline_parse(&c, "init=/x --");
	CHECK_EQ_I(c.argc, 0);
	cmdline_parse(&c, "-- /etc/x");     /* GRUB: "--" comes first */
	CHECK_EQ_I(c.argc, 1);
	CHECK_STR(c.argv[0], "/etc/x");
}

TEST(unknown_words_are_kept)
{
	cmdline_parse(&c, "k/k quiet foo=bar -x --=");
	CHECK_EQ_I(c.nunknown, 4);
	CHECK_STR(c.unknown[0], "quiet");
	CHECK_STR(c.unknown[1], "foo=bar");
	CHECK_STR(c.unknown[2], "-x");
	CHECK_STR(c.unknown[3], "--=");
	CHECK(!c.truncated);
}

TEST(lists_are_capped)
{
	cmdline_parse(&c, "u0 u1 u2 u3 u4 u5 u6 u7 u8 u9");
	CHECK_EQ_I(c.nunknown, CMDLINE_MAX_UNKNOWN);
	CHECK_STR(c.unknown[CMDLINE_MAX_UNKNOWN - 1], "u7");
	CHECK(c.truncated);

	cmdline_parse(&c, "-- a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14 a15");
	CHECK_EQ_I(c.argc, CMDLINE_MAX_ARGS);
	CHECK(!c.truncated);
	cmdline_parse(&c, "-- a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14 a15 a16 a17");
	CHECK_EQ_I(c.argc, CMDLINE_MAX_ARGS);
	CHECK_STR(c.argv[CMDLINE_MAX_ARGS - 1], "a15");
	CHECK(c.truncated);
}

TEST(whitespace_of_any_kind_separates)
{
	cmdline_parse(&c, "\t k/k \t init=/y\n\nsmp=3\r\n");
	CHECK_STR(c.init, "/y");
	CHECK_EQ_I(c.smp, 3);
	CHECK_EQ_I(c.nunknown, 0);
}

TEST(results_point_into_a_private_copy)
{
	char line[] = "k/k init=/bin/z ktest=g -- arg";

	cmdline_parse(&c, line);
	memset(line, 'X', sizeof(line) - 1);
	CHECK_STR(c.init, "/bin/z");
	CHECK_STR(c.ktest, "g");
	CHECK_STR(c.argv[0], "arg");
	CHECK(in_buf(c.argv[0]));
}

/* n copies of word (which ends in a space), then tail. */
static char *repeat(char *dst, const char *word, int n, const char *tail)
{
	char *p = dst;

	for (int i = 0; i < n; i++, p += strlen(word))
		memcpy(p, word, strlen(word));
	strcpy(p, tail);
	return dst;
}

TEST(overlong_input_drops_the_cut_word)
{
	char line[2 * CMDLINE_MAX];

	/* 85 * 6 = 510 bytes, then a word that only partly fits. */
	cmdline_parse(&c, repeat(line, "smp=1 ", 85, "init=/bin/shell"));
	CHECK(c.truncated);
	CHECK_EQ_I(c.smp, 1);
	CHECK_STR(c.init, "/bin/init");
	CHECK_EQ_I(c.nunknown, 0);

	/* One huge word: nothing is left of it. */
	memset(line, 'w', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	cmdline_parse(&c, line);
	CHECK(c.truncated);
	CHECK_EQ_I(c.nunknown, 0);
}

TEST(input_that_just_fits_is_whole)
{
	char line[2 * CMDLINE_MAX];

	/* 84 * 6 + 7 = 511 bytes: the most that fits with its NUL. */
	cmdline_parse(&c, repeat(line, "smp=1 ", 84, "smp=222"));
	CHECK_EQ_U(strlen(line), CMDLINE_MAX - 1);
	CHECK(!c.truncated);
	CHECK_EQ_I(c.smp, 222);

	/* 512 bytes ending in a space: every word fits, still truncated. */
	cmdline_parse(&c, repeat(line, "smp=1 ", 84, "smp=333 "));
	CHECK_EQ_U(strlen(line), CMDLINE_MAX);
	CHECK(c.truncated);
	CHECK_EQ_I(c.smp, 333);

	/* 512 bytes: the last word would be cut. */
	cmdline_parse(&c, repeat(line, "smp=1 ", 84, "smp=4444"));
	CHECK_EQ_U(strlen(line), CMDLINE_MAX);
	CHECK(c.truncated);
	CHECK_EQ_I(c.smp, 1);
}

TEST(monitor_word)
{
	struct cmdline c;

	cmdline_parse(&c, "build/kernel.elf monitor init=/bin/sh");
	CHECK(c.monitor);
	CHECK_EQ_U(c.nunknown, 0);
	cmdline_parse(&c, "monitors");
	CHECK(!c.monitor);
	CHECK_EQ_U(c.nunknown, 1);
}

TEST(qemu_form_path_without_a_slash)
{
	struct cmdline c;

	cmdline_parse(&c, "kernel.elf init=/bin/t");
	CHECK_EQ_U(c.nunknown, 0);
	CHECK(strcmp(c.init, "/bin/t") == 0);
}

TEST(fpu_mode_words)
{
	struct cmdline c;

	cmdline_parse(&c, "build/kernel.elf init=/bin/t");
	CHECK(!c.fpu_lazy);                     /* eager by default */
	cmdline_parse(&c, "fpu=lazy");
	CHECK(c.fpu_lazy);
	CHECK_EQ_U(c.nunknown, 0);
	cmdline_parse(&c, "fpu=lazy fpu=eager");
	CHECK(!c.fpu_lazy);                     /* the last word wins */
	cmdline_parse(&c, "fpu=lazier fpu=");
	CHECK(!c.fpu_lazy);
	CHECK_EQ_U(c.nunknown, 2);
}

TEST(trace_word)
{
	struct cmdline c;

	cmdline_parse(&c, "build/kernel.elf init=/bin/t");
	CHECK(!c.trace);                        /* off by default */
	cmdline_parse(&c, "init=/bin/t trace");
	CHECK(c.trace);
	CHECK_EQ_U(c.nunknown, 0);
	cmdline_parse(&c, "trace=1 tracer");
	CHECK(!c.trace);
	CHECK_EQ_U(c.nunknown, 2);
	cmdline_parse(&c, "init=/bin/t -- trace");
	CHECK(!c.trace);                        /* init's argument, not ours */
}

TEST(chaos_word)
{
	struct cmdline c;

	cmdline_parse(&c, "build/kernel.elf init=/bin/t");
	CHECK_EQ_U(c.chaos, 0);                 /* off by default */
	cmdline_parse(&c, "chaos=42 init=/bin/t");
	CHECK_EQ_U(c.chaos, 42);
	CHECK_EQ_U(c.nunknown, 0);
	cmdline_parse(&c, "chaos=2147483647");
	CHECK_EQ_U(c.chaos, 2147483647);
	/* 0, a sign, a non-number, an overflow, no value: unknown words,
	 * chaos stays off. */
	cmdline_parse(&c, "chaos=0 chaos=-1 chaos=x chaos=2147483648 chaos=");
	CHECK_EQ_U(c.chaos, 0);
	CHECK_EQ_U(c.nunknown, 5);
	cmdline_parse(&c, "init=/bin/t -- chaos=3");
	CHECK_EQ_U(c.chaos, 0);                 /* init's argument, not ours */
}
