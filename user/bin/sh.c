/* user/bin/sh.c - Spindle's shell: one command a line.
 *
 *   sh                  reads commands from the console, prompt "$ "
 *   sh FILE [ARG...]    reads them from FILE (no prompt)
 *   sh -c LINE          runs the one line LINE
 *
 * The grammar, a small subset of the POSIX shell's:
 *
 *   line    := blank* [ word (blank+ word)* ] blank* [ '&' blank* ] [ comment ]
 *   comment := '#' up to the end of the line (only where a word may start)
 *   word    := one or more of, with nothing between them:
 *                plain     any bytes but blank, quote, '\', '$', '&'
 *                '...'     taken as it is
 *                "..."     with $ expansions; \" \\ \$ stand for " \ $
 *                \c        the byte c
 *                $?        the status of the last command
 *                $$        the shell's pid
 *                $NAME, ${NAME}   the environment variable (empty if unset)
 *
 * There is no field splitting, globbing, redirection or pipe (Spindle
 * has no pipes); a word that an unquoted expansion left empty is
 * dropped. A trailing '&' runs the command in the background: the shell
 * prints [PID] and goes on. Finished background jobs are reported as
 * "[PID] Done" (or "[PID] Exit N", or the signal) before the next
 * prompt, or by `wait`.
 *
 * A command is a builtin (help lists them) or a program: a name with a
 * '/' is a path, any other name is looked up in $PATH (default /bin).
 * It runs with fork, execve and wait4. Its status becomes $?: its exit
 * code, or 128 + the signal that killed it (the shell also prints the
 * signal's name); 127 if it was not found, 126 if it could not run.
 *
 * End of input (Ctrl-D at the start of a line on the console) ends the
 * shell with the status of the last command, as `exit` does. The
 * console has no Ctrl-C (the tty sends no signals): a program that
 * does not end is stopped by exiting QEMU. */
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "ctype.h"
#include "errno.h"
#include "unistd.h"
#include "sys/wait.h"

#define LINE_MAX 1024       /* a console line is at most 511 bytes */
#define WORDS_MAX 64
#define STORE_MAX 4096      /* the words of one line, after expansion */
#define JOBS_MAX 32
#define FILES_LIST "/proc/files"

static int last_status;

/* ---------------------------------------------------------------- parsing */

struct command {
	int argc;
	char *argv[WORDS_MAX + 1];
	bool background;
};

/* Where the words of a line are built. */
struct store {
	char buf[STORE_MAX];
	size_t len;
	bool overflow;
};

static void put(struct store *s, char c)
{
	if (s->len < sizeof(s->buf))
		s->buf[s->len++] = c;
	else
		s->overflow = true;
}

static void put_str(struct store *s, const char *str)
{
	while (*str)
		put(s, *str++);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool name_char(char c, bool first)
{
	return c == '_' || isalpha((unsigned char)c) || (!first && isdigit((unsigned char)c));
}

/* Expands the $ at p into s; returns what follows it. A '$' that starts
 * no expansion stays a '$'. */
static const char *expand(const char *p, struct store *s)
{
	char num[16], name[64];
	size_t n = 0;

	if (p[1] == '?' || p[1] == '$') {
		snprintf(num, sizeof(num), "%d", p[1] == '?' ? last_status : getpid());
		put_str(s, num);
		return p + 2;
	}
	if (p[1] == '{') {
		const char *close = strchr(p + 2, '}');
		if (!close || close == p + 2 || (size_t)(close - p - 2) >= sizeof(name)) {
			put(s, '$');
			return p + 1;
		}
		memcpy(name, p + 2, (size_t)(close - p - 2));
		name[close - p - 2] = '\0';
		p = close + 1;
	} else if (name_char(p[1], true)) {
		for (p++; name_char(*p, false) && n < sizeof(name) - 1; p++)
			name[n++] = *p;
		name[n] = '\0';
	} else {
		put(s, '$');
		return p + 1;
	}
	const char *value = getenv(name);
	if (value)
		put_str(s, value);
	return p;
}

/* Splits line into c's words (in s); false, with a message, on a syntax
 * error. */
static bool parse(const char *line, struct command *c, struct store *s)
{
	const char *p = line;

	c->argc = 0;
	c->background = false;
	s->len = 0;
	s->overflow = false;
	for (;;) {
		while (blank(*p))
			p++;
		if (!*p || *p == '#')
			break;
		if (*p == '&') {
			for (p++; blank(*p); p++)
				;
			if ((*p && *p != '#') || c->argc == 0) {
				fprintf(stderr, "sh: syntax error: '&' ends a command\n");
				return false;
			}
			c->background = true;
			break;
		}
		if (c->argc == WORDS_MAX) {
			fprintf(stderr, "sh: too many words (at most %d)\n", WORDS_MAX);
			return false;
		}

		size_t start = s->len;
		bool quoted = false;
		while (*p && !blank(*p) && *p != '&') {
			if (*p == '\'') {
				const char *close = strchr(p + 1, '\'');
				if (!close) {
					fprintf(stderr, "sh: syntax error: no closing '\n");
					return false;
				}
				for (p++; p < close; p++)
					put(s, *p);
				p++;
				quoted = true;
			} else if (*p == '"') {
				for (p++; *p && *p != '"';) {
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$')) {
						put(s, p[1]);
						p += 2;
					} else if (*p == '$') {
						p = expand(p, s);
					} else {
						put(s, *p++);
					}
				}
				if (!*p) {
					fprintf(stderr, "sh: syntax error: no closing \"\n");
					return false;
				}
				p++;
				quoted = true;
			} else if (*p == '\\') {
				if (p[1] && p[1] != '\n')
					put(s, p[1]);
				p += p[1] ? 2 : 1;
				quoted = true;
			} else if (*p == '$') {
				p = expand(p, s);
			} else {
				put(s, *p++);
			}
		}
		if (s->len == start && !quoted)
			continue;           /* an empty expansion: no word */
		put(s, '\0');
		if (s->overflow) {
			fprintf(stderr, "sh: line too long after expansion\n");
			return false;
		}
		c->argv[c->argc++] = s->buf + start;
	}
	c->argv[c->argc] = NULL;
	return true;
}

/* ---------------------------------------------------------------- jobs */

static pid_t jobs[JOBS_MAX];
static int njobs;

/* A wait status as $?: the exit code, or 128 + the signal. */
static int status_code(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static bool take_job(pid_t pid)
{
	for (int i = 0; i < njobs; i++)
		if (jobs[i] == pid) {
			jobs[i] = jobs[--njobs];
			return true;
		}
	return false;
}

static void report_job(pid_t pid, int st)
{
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		printf("[%d] Done\n", pid);
	else if (WIFEXITED(st))
		printf("[%d] Exit %d\n", pid, WEXITSTATUS(st));
	else
		printf("[%d] %s\n", pid, strsignal(WTERMSIG(st)));
}

/* Reaps finished background jobs and reports them; with block, waits
 * until there are none left. */
static void reap_jobs(bool block)
{
	while (njobs > 0) {
		int st;
		pid_t pid = wait4(-1, &st, block ? 0 : WNOHANG, NULL);

		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0) {          /* ECHILD: they are gone after all */
			njobs = 0;
			break;
		}
		if (pid == 0)
			break;
		if (take_job(pid))
			report_job(pid, st);
	}
}

/* ---------------------------------------------------------------- programs */

/* In the child: execve argv[0] as a path or from $PATH; never returns. */
static void __attribute__((noreturn)) exec_command(char **argv)
{
	const char *name = argv[0];
	int err = ENOENT;

	if (strchr(name, '/')) {
		execve(name, argv, environ);
		err = errno;
	} else {
		const char *path = getenv("PATH");
		char dirs[256], full[256], *save;

		strlcpy(dirs, path && *path ? path : "/bin", sizeof(dirs));
		for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			if ((size_t)snprintf(full, sizeof(full), "%s/%s", d, name) >= sizeof(full))
				continue;
			execve(full, argv, environ);
			if (errno != ENOENT)
				err = errno;    /* found, but it would not run */
		}
	}
	if (err == ENOENT) {
		fprintf(stderr, "sh: %s: not found\n", name);
		_exit(127);
	}
	fprintf(stderr, "sh: %s: %s\n", name, strerror(err));
	_exit(126);
}

static int run_program(struct command *c)
{
	pid_t pid;
	int st;

	fflush(stdout);         /* the child must not inherit pending output */
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "sh: fork: %s\n", strerror(errno));
		return 126;
	}
	if (pid == 0)
		exec_command(c->argv);
	if (c->background) {
		if (njobs < JOBS_MAX)
			jobs[njobs++] = pid;
		printf("[%d]\n", pid);
		return 0;
	}
	while (wait4(pid, &st, 0, NULL) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "sh: wait4: %s\n", strerror(errno));
			return 126;
		}
	if (!WIFEXITED(st))
		fprintf(stderr, "%s\n", strsignal(WTERMSIG(st)));
	return status_code(st);
}

/* ---------------------------------------------------------------- builtins */

static int b_help(int argc, char **argv);

static int b_echo(int argc, char **argv)
{
	bool newline = true;
	int i = 1;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		newline = false;
		i++;
	}
	for (; i < argc; i++)
		printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	if (newline)
		putchar('\n');
	return 0;
}

static int b_exit(int argc, char **argv)
{
	int code = last_status;

	if (argc > 2) {
		fprintf(stderr, "sh: exit: too many arguments\n");
		return 2;
	}
	if (argc == 2) {
		char *end;
		long v = strtol(argv[1], &end, 10);
		if (!*argv[1] || *end) {
			fprintf(stderr, "sh: exit: %s: not a number\n", argv[1]);
			return 2;
		}
		code = (int)(v & 0xff);
	}
	exit(code);
}

static int b_wait(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	reap_jobs(true);
	return 0;
}

/* Does path lie under (or is it) dir? "/" holds everything. */
static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;                    /* "/bin/" is "/bin" */
	if (n == 1 && dir[0] == '/')
		return true;
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The initrd's files ("SIZE PATH" lines of /proc/files): all of them, or
 * those under each PATH argument. Spindle has no directories to read,
 * so this is the only way to see what is there. */
static int b_ls(int argc, char **argv)
{
	char line[320];
	int rc = 0;

	for (int a = argc > 1 ? 1 : 0; a < argc; a++) {
		const char *dir = argc > 1 ? argv[a] : "/";
		FILE *f = fopen(FILES_LIST, "r");
		bool found = false;

		if (!f) {
			fprintf(stderr, "ls: cannot open %s: %s (the kernel lists its files there)\n",
				FILES_LIST, strerror(errno));
			return 1;
		}
		while (fgets(line, sizeof(line), f)) {
			char *end, *path;
			unsigned long size = strtoul(line, &end, 10);

			if (end == line || *end != ' ')
				continue;       /* not a "SIZE PATH" line */
			path = end + 1;
			path[strcspn(path, "\n")] = '\0';
			if (!under(path, dir))
				continue;
			printf("%8lu %s\n", size, path);
			found = true;
		}
		fclose(f);
		if (!found && argc > 1) {
			fprintf(stderr, "ls: %s: %s\n", dir, strerror(ENOENT));
			rc = 1;
		}
	}
	return rc;
}

static const struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
} builtins[] = {
	{ "echo", b_echo, "echo [-n] [WORD...]   print the words" },
	{ "exit", b_exit, "exit [N]              leave the shell with status N (default $?)" },
	{ "help", b_help, "help                  this list" },
	{ "ls",   b_ls,   "ls [PATH...]          the initrd's files (under PATH), with sizes" },
	{ "wait", b_wait, "wait                  wait for every background job" },
};
#define NBUILTINS (int)(sizeof(builtins) / sizeof(builtins[0]))

static int b_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Spindle sh: one command a line; PROGRAM [ARG...] runs /bin/PROGRAM.\n"
	       "  CMD &    in the background      # comment\n"
	       "  'x y'  \"$NAME\"  \\c  quoting     $? last status, $$ pid, $NAME env\n"
	       "Builtins:\n");
	for (int i = 0; i < NBUILTINS; i++)
		printf("  %s\n", builtins[i].usage);
	printf("Programs: ls /bin. Ctrl-D at the start of a line ends the shell.\n");
	return 0;
}

/* ---------------------------------------------------------------- main */

static void run_line(const char *line)
{
	static struct store store;
	struct command c;

	if (!parse(line, &c, &store)) {
		last_status = 2;
		return;
	}
	if (c.argc == 0)
		return;                 /* blank, or only a comment */
	for (int i = 0; i < NBUILTINS; i++)
		if (strcmp(c.argv[0], builtins[i].name) == 0) {
			/* in the shell itself, '&' or not */
			last_status = builtins[i].fn(c.argc, c.argv);
			fflush(stdout);
			return;
		}
	last_status = run_program(&c);
}

int main(int argc, char **argv)
{
	char line[LINE_MAX];
	FILE *in = stdin;
	bool interactive;

	if (argc >= 2 && strcmp(argv[1], "-c") == 0) {
		if (argc < 3) {
			fprintf(stderr, "sh: -c needs a command line\n");
			return 2;
		}
		run_line(argv[2]);
		return last_status;
	}
	if (argc >= 2) {
		in = fopen(argv[1], "r");
		if (!in) {
			fprintf(stderr, "sh: %s: %s\n", argv[1], strerror(errno));
			return 127;
		}
	}
	interactive = in == stdin;
	for (;;) {
		size_t n;

		if (interactive) {
			reap_jobs(false);
			fputs("$ ", stdout);
		}
		if (!fgets(line, sizeof(line), in)) {
			if (ferror(in) && errno == EINTR) {
				clearerr(in);
				continue;
			}
			break;
		}
		n = strlen(line);
		if (n == sizeof(line) - 1 && line[n - 1] != '\n') {
			int ch;
			while ((ch = fgetc(in)) != EOF && ch != '\n')
				;
			fprintf(stderr, "sh: line too long (at most %d bytes)\n", LINE_MAX - 2);
			last_status = 2;
			continue;
		}
		run_line(line);
	}
	if (interactive)
		putchar('\n');          /* end the prompt's line */
	return last_status;
}
