/* lib/cmdline.c - parse the kernel command line (abi.md section 1,
 * lib/cmdline.h).
 *
 * The loader's string is copied into c->buf and cut into NUL-terminated
 * words in place, so every pointer in struct cmdline points into c->buf
 * (or at a string literal for the defaults) and stays valid as long as
 * the struct does, whatever the loader does with its own copy. */
#include "lib/cmdline.h"
#include "lib/string.h"

#define CMDLINE_DEFAULT_INIT "/bin/init"

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* Does word start with key (which includes its '=')? Returns the value. */
static const char *value_of(const char *word, const char *key)
{
	size_t n = strlen(key);

	return strncmp(word, key, n) == 0 ? word + n : NULL;
}

/* A decimal number of at least 1 without sign, spaces or overflow. */
static bool parse_count(const char *s, int *out)
{
	int v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v > (0x7fffffff - (*s - '0')) / 10)
			return false;
		v = v * 10 + (*s - '0');
	}
	if (v < 1)
		return false;
	*out = v;
	return true;
}

/* QEMU's -kernel puts the kernel's path first, GRUB does not: a first
 * word with a '/' or a '.' and no '=' is that path ("build/kernel.elf",
 * "kernel.elf"; lib/cmdline.h). No option word has either. */
static bool is_kernel_path(const char *word)
{
	return (strchr(word, '/') || strchr(word, '.')) && !strchr(word, '=');
}

static void add_unknown(struct cmdline *c, const char *word)
{
	if (c->nunknown < CMDLINE_MAX_UNKNOWN)
		c->unknown[c->nunknown++] = word;
	else
		c->truncated = true;
}

static void add_init_arg(struct cmdline *c, const char *word)
{
	if (c->argc < CMDLINE_MAX_ARGS)
		c->argv[c->argc++] = word;
	else
		c->truncated = true;
}

/* Words that only the in-kernel tests read, from the raw command line
 * (tests/guest): known, so they draw no warning. */
static const char *const test_words[] = { "expect_cpus=", "extra_size=" };

static bool is_test_word(const char *word)
{
	for (size_t i = 0; i < sizeof(test_words) / sizeof(test_words[0]); i++)
		if (value_of(word, test_words[i]))
			return true;
	return false;
}

/* One word before "--". Empty or bad values make the word unknown. */
static void parse_option(struct cmdline *c, const char *word)
{
	const char *v;
	int n;

	if ((v = value_of(word, "init=")) && *v)
		c->init = v;
	else if ((v = value_of(word, "ktest=")) && *v)
		c->ktest = v;
	else if ((v = value_of(word, "smp=")) && parse_count(v, &n))
		c->smp = n;
	else if (strcmp(word, "monitor") == 0)
		c->monitor = true;
	else if (strcmp(word, "acpi=off") == 0)
		c->acpi_off = true;
	else if (strcmp(word, "fpu=lazy") == 0)
		c->fpu_lazy = true;
	else if (strcmp(word, "fpu=eager") == 0)
		c->fpu_lazy = false;
	else if (strcmp(word, "trace") == 0)
		c->trace = true;
	else if ((v = value_of(word, "chaos=")) && parse_count(v, &n))
		c->chaos = n;
	else if (is_test_word(word))
		;
	else
		add_unknown(c, word);
}

/* Copies s into c->buf. If it does not fit, the word cut in two is
 * dropped too: half of "init=/bin/shell" must not become "init=/bin/sh". */
static void copy_line(struct cmdline *c, const char *s)
{
	size_t len = strnlen(s, CMDLINE_MAX);

	if (len == CMDLINE_MAX) {
		c->truncated = true;
		len = CMDLINE_MAX - 1;
		if (!is_space(s[len]))
			while (len > 0 && !is_space(s[len - 1]))
				len--;
	}
	memcpy(c->buf, s, len);
	c->buf[len] = '\0';
}

void cmdline_parse(struct cmdline *c, const char *s)
{
	bool first = true, init_args = false;
	char *p;

	memset(c, 0, sizeof(*c));
	c->init = CMDLINE_DEFAULT_INIT;
	if (!s)
		return;
	copy_line(c, s);

	for (p = c->buf; *p; ) {
		char *word;

		while (is_space(*p))
			*p++ = '\0';
		if (!*p)
			break;
		word = p;
		while (*p && !is_space(*p))
			p++;
		if (*p)
			*p++ = '\0';

		if (first && is_kernel_path(word))
			;       /* QEMU form: skip the kernel's own path */
		else if (init_args)
			add_init_arg(c, word);
		else if (strcmp(word, "--") == 0)
			init_args = true;
		else
			parse_option(c, word);
		first = false;
	}
}
