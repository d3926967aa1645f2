/* user/bin/sh/sh.h - what the shell's two files share: a parsed line
 * (parse.c makes it, sh.c runs it). */
#ifndef USER_BIN_SH_SH_H
#define USER_BIN_SH_SH_H

#include "lib/types.h"

#define WORDS_MAX 64
#define STORE_MAX 4096      /* the words of one line, after expansion */
#define PIPE_MAX 8          /* commands in one pipeline */

/* One command of a pipeline: its words and redirections (NULL: none). */
struct command {
	int argc;
	char *argv[WORDS_MAX + 1];
	char *in;               /* < FILE */
	char *out;              /* > FILE, or >> FILE with append */
	bool append;
};

/* cmd | cmd | ... [&] */
struct pipeline {
	int n;
	struct command cmd[PIPE_MAX];
	bool background;
};

/* Where the words of a line are built. */
struct store {
	char buf[STORE_MAX];
	size_t len;
	bool overflow;
};

extern int last_status;     /* $? */

/* Splits line into p's commands (their words in s); false, with a
 * message on stderr, on a syntax error. A blank line gives p->n == 0. */
bool parse(const char *line, struct pipeline *p, struct store *s);

#endif
