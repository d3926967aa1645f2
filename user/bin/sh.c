/* user/bin/sh.c - Spindle's shell: one pipeline a line.
 *
 *   sh                  reads commands from the console, prompt "$ "
 *   sh FILE [ARG...]    reads them from FILE (no prompt)
 *   sh -c LINE          runs the one line LINE
 *
 * The grammar, a small subset of the POSIX shell's (user/bin/sh/parse.c):
 *
 *   line     := blank* [ pipeline ] blank* [ '&' blank* ] [ comment ]
 *   pipeline := command ( '|' command )*
 *   command  := ( word | redirect )+   (at least one word)
 *   redirect := '<' word | '>' word | '>>' word
 *   comment  := '#' up to the end of the line (only where a word may start)
 *   word     := one or more of, with nothing between them:
 *                 plain     any bytes but blank, quote, '\', '$', '&', '|', '<', '>'
 *                 '...'     taken as it is
 *                 "..."     with $ expansions; \" \\ \$ stand for " \ $
 *                 \c        the byte c
 *                 $?        the status of the last command
 *                 $$        the shell's pid
 *                 $NAME, ${NAME}   the environment variable (empty if unset)
 *
 * There is no field splitting or globbing; a word that an unquoted
 * expansion left empty is dropped. `< FILE` reads stdin from FILE, `>
 * FILE` writes stdout to it (created, or emptied), `>> FILE` appends.
 * In a pipeline each command is its own process, its stdout the next
 * one's stdin; the pipeline's status is the last command's. A trailing
 * '&' runs the pipeline in the background: the shell prints [PID] (the
 * last command's) and goes on. Finished background jobs are reported as
 * "[PID] Done" (or "[PID] Exit N", or the signal) before the next
 * prompt, or by `wait`.
 *
 * A command is a builtin (help lists them) or a program: a name with a
 * '/' is a path, any other name is looked up in $PATH (default /bin).
 * It runs with fork, execve and wait4. A builtin runs in the shell itself
 * (its redirections last for it only), or in a child process of its own
 * when it is part of a pipeline. The status becomes $?: the exit code,
 * or 128 + the signal that killed it (the shell also prints the
 * signal's name); 127 if it was not found, 126 if it could not run, 1
 * if a redirection failed.
 *
 * End of input (Ctrl-D at the start of a line on the console) ends the
 * shell with the status of the last command, as `exit` does.
 *
 * Job control, when the shell reads the console and is its foreground
 * process group: each pipeline runs in a process group of its own (its
 * first process's pid), made the console's foreground group while the
 * shell waits for it, so Ctrl-C (SIGINT) and Ctrl-\ (SIGQUIT) reach the
 * pipeline and not the shell, which ignores both; the shell takes the
 * console back when the pipeline is done. A background ('&') pipeline
 * gets a group too, but never the console: a read of it stops it
 * (SIGTTIN). Parent and child both call setpgid, so the group exists
 * whichever of them runs first (the classic race, as in every
 * job-control shell). Ctrl-Z (SIGTSTP) stops the foreground pipeline:
 * the shell says "[PID] Stopped" and takes the console back; `fg`
 * continues it in the foreground, `bg` in the background. One stopped
 * pipeline is kept (the last). The shell itself ignores the terminal's
 * stop signals, as every job-control shell does. */
#include "sh/sh.h"
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "errno.h"
#include "fcntl.h"
#include "unistd.h"
#include "signal.h"
#include "sys/wait.h"

#define LINE_MAX 1024       /* a console line is at most 511 bytes */
#define JOBS_MAX 32

int last_status;

/* ---------------------------------------------------------------- jobs */

static bool job_control;    /* we read the console, in its foreground */
static pid_t shell_pgrp;

static void job_control_init(void)
{
	shell_pgrp = getpgrp();
	job_control = isatty(0) && tcgetpgrp(0) == shell_pgrp;
	if (!job_control)
		return;
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
	/* A group of our own, as bash's: a ^C typed before a command's
	 * group has the console then reaches the shell (which ignores it),
	 * never whoever started us (init). */
	if (setpgid(0, 0) == 0 && tcsetpgrp(0, getpid()) == 0)
		shell_pgrp = getpid();
}

/* In a new child: into the pipeline's group (pgid 0: a new one, the
 * child's own), in the foreground unless it runs in the background, and
 * with the terminal's signals back to their default actions (an ignored
 * signal would stay ignored across execve). */
static void job_control_child(pid_t pgid, bool background)
{
	if (!job_control)
		return;
	setpgid(0, pgid);
	if (!background)
		tcsetpgrp(0, getpgrp());
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTSTP, SIG_DFL);
	signal(SIGTTIN, SIG_DFL);
	signal(SIGTTOU, SIG_DFL);
}

static void take_terminal_back(void)
{
	if (job_control)
		tcsetpgrp(0, shell_pgrp);
}

static pid_t jobs[JOBS_MAX];
static int njobs;

/* The last pipeline Ctrl-Z stopped (fg, bg): its processes, its group. */
static struct {
	pid_t pids[PIPE_MAX];
	int n;
	pid_t pgid;
} stopped;

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

/* Opens c's redirections onto fds 0 and 1; false, with a message, if a
 * file cannot be opened (what was done so far stays). */
static bool redirect(const struct command *c)
{
	if (c->in) {
		int fd = open(c->in, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "sh: %s: %s\n", c->in, strerror(errno));
			return false;
		}
		dup2(fd, 0);
		close(fd);
	}
	if (c->out) {
		int fd = open(c->out, O_WRONLY | O_CREAT | (c->append ? O_APPEND : O_TRUNC), 0666);
		if (fd < 0) {
			fprintf(stderr, "sh: %s: %s\n", c->out, strerror(errno));
			return false;
		}
		dup2(fd, 1);
		close(fd);
	}
	return true;
}

static const struct builtin *find_builtin(const char *name);
static int run_builtin(const struct builtin *b, struct command *c);

/* Starts the commands of p, each in a child joined to the next by a
 * pipe; returns how many started (pids[]), the rest were not. */
static int start_pipeline(struct pipeline *p, pid_t *pids)
{
	int in = -1, started = 0;
	pid_t pgid = 0;

	fflush(stdout);         /* the children must not inherit pending output */
	for (int i = 0; i < p->n; i++) {
		int fds[2] = { -1, -1 };
		pid_t pid;

		if (i + 1 < p->n && pipe(fds) < 0) {
			fprintf(stderr, "sh: pipe: %s\n", strerror(errno));
			break;
		}
		pid = fork();
		if (pid < 0) {
			fprintf(stderr, "sh: fork: %s\n", strerror(errno));
			close(fds[0]);
			close(fds[1]);
			break;
		}
		if (pid == 0) {
			const struct builtin *b = find_builtin(p->cmd[i].argv[0]);
			job_control_child(pgid, p->background);
			if (in >= 0) {
				dup2(in, 0);
				close(in);
			}
			if (fds[1] >= 0) {
				dup2(fds[1], 1);
				close(fds[1]);
				close(fds[0]);
			}
			if (!redirect(&p->cmd[i]))
				_exit(1);
			if (b) {
				int st = run_builtin(b, &p->cmd[i]);
				fflush(stdout);
				_exit(st);
			}
			exec_command(p->cmd[i].argv);
		}
		if (job_control) {
			if (!pgid)
				pgid = pid;
			setpgid(pid, pgid);
		}
		pids[started++] = pid;
		if (in >= 0)
			close(in);
		in = fds[0];
		if (fds[1] >= 0)
			close(fds[1]);
	}
	if (in >= 0)
		close(in);
	return started;
}

static int wait_pipeline(pid_t *pids, int n, bool complete);

static int run_pipeline(struct pipeline *p)
{
	pid_t pids[PIPE_MAX];
	int n = start_pipeline(p, pids);

	if (n == 0)
		return 126;
	if (p->background) {
		for (int i = 0; i < n && njobs < JOBS_MAX; i++)
			jobs[njobs++] = pids[i];
		printf("[%d]\n", pids[n - 1]);
		return 0;
	}
	return wait_pipeline(pids, n, n == p->n);
}

/* Waits for a foreground pipeline; if it stops (Ctrl-Z), keeps it for fg
 * and bg. complete: every command of the line started. */
static int wait_pipeline(pid_t *pids, int n, bool complete)
{
	int st = 0, status = 126;

	for (int i = 0; i < n; i++) {
		while (wait4(pids[i], &st, WUNTRACED, NULL) < 0)
			if (errno != EINTR) {
				fprintf(stderr, "sh: wait4: %s\n", strerror(errno));
				take_terminal_back();
				return 126;
			}
		if (WIFSTOPPED(st)) {
			/* The whole group stopped: keep what is left of it. */
			stopped.n = 0;
			stopped.pgid = getpgid(pids[i]);
			for (int k = i; k < n && stopped.n < PIPE_MAX; k++)
				stopped.pids[stopped.n++] = pids[k];
			fprintf(stderr, "\n[%d] Stopped\n", pids[n - 1]);
			take_terminal_back();
			return 128 + WSTOPSIG(st);
		}
		if (i == n - 1) {
			/* After ^C the line ends, as bash does; other deaths
			 * are named. */
			if (!WIFEXITED(st) && WTERMSIG(st) == SIGINT)
				fputc('\n', stderr);
			else if (!WIFEXITED(st))
				fprintf(stderr, "%s\n", strsignal(WTERMSIG(st)));
			status = complete ? status_code(st) : 126;
		}
	}
	take_terminal_back();
	return status;
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


static int b_cd(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("HOME");

	if (argc > 2) {
		fprintf(stderr, "sh: cd: too many arguments\n");
		return 2;
	}
	if (chdir(dir && *dir ? dir : "/") < 0) {
		fprintf(stderr, "sh: cd: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	return 0;
}

static int b_pwd(int argc, char **argv)
{
	char buf[512];

	(void)argc;
	(void)argv;
	if (!getcwd(buf, sizeof(buf))) {
		fprintf(stderr, "sh: pwd: %s\n", strerror(errno));
		return 1;
	}
	printf("%s\n", buf);
	return 0;
}

/* fg and bg: the stopped pipeline continued, in the foreground (the
 * console is its again) or as a background job. */
static int b_fg_bg(int argc, char **argv)
{
	pid_t pids[PIPE_MAX];
	int n = stopped.n;
	bool fg = argv[0][0] == 'f';

	(void)argc;
	if (n == 0) {
		fprintf(stderr, "%s: no stopped job\n", argv[0]);
		return 1;
	}
	memcpy(pids, stopped.pids, (size_t)n * sizeof(pid_t));
	stopped.n = 0;
	if (fg && job_control)
		tcsetpgrp(0, stopped.pgid);
	kill(-stopped.pgid, SIGCONT);
	if (fg) {
		fprintf(stderr, "[%d] Continued\n", pids[n - 1]);
		return wait_pipeline(pids, n, true);
	}
	for (int i = 0; i < n && njobs < JOBS_MAX; i++)
		jobs[njobs++] = pids[i];
	printf("[%d]\n", pids[n - 1]);
	return 0;
}

static const struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
} builtins[] = {
	{ "bg",   b_fg_bg, "bg                    continue the stopped job in the background" },
	{ "cd",   b_cd,   "cd [DIR]              change the working directory (default $HOME)" },
	{ "echo", b_echo, "echo [-n] [WORD...]   print the words" },
	{ "exit", b_exit, "exit [N]              leave the shell with status N (default $?)" },
	{ "fg",   b_fg_bg, "fg                    continue the stopped job (Ctrl-Z) in the foreground" },
	{ "help", b_help, "help                  this list" },
	{ "pwd",  b_pwd,  "pwd                   print the working directory" },
	{ "wait", b_wait, "wait                  wait for every background job" },
};
#define NBUILTINS (int)(sizeof(builtins) / sizeof(builtins[0]))

static int b_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Spindle sh: one pipeline a line; PROGRAM [ARG...] runs /bin/PROGRAM.\n"
	       "  CMD | CMD   a pipe    < FILE  > FILE  >> FILE   redirections\n"
	       "  CMD &    in the background      # comment\n"
	       "  'x y'  \"$NAME\"  \\c  quoting     $? last status, $$ pid, $NAME env\n"
	       "Builtins:\n");
	for (int i = 0; i < NBUILTINS; i++)
		printf("  %s\n", builtins[i].usage);
	printf("Programs: ls /bin (ls, cat, mkdir, rm, mv ...). "
	       "Ctrl-D at the start of a line ends the shell.\n");
	return 0;
}

static const struct builtin *find_builtin(const char *name)
{
	for (int i = 0; i < NBUILTINS; i++)
		if (strcmp(name, builtins[i].name) == 0)
			return &builtins[i];
	return NULL;
}

static int run_builtin(const struct builtin *b, struct command *c)
{
	return b->fn(c->argc, c->argv);
}

/* A builtin alone: in the shell, its redirections undone afterwards. */
static int builtin_here(const struct builtin *b, struct command *c)
{
	int saved_in = dup(0), saved_out = dup(1), st = 1;

	fflush(stdout);
	if (redirect(c))
		st = run_builtin(b, c);
	fflush(stdout);
	dup2(saved_in, 0);
	dup2(saved_out, 1);
	close(saved_in);
	close(saved_out);
	return st;
}

/* ---------------------------------------------------------------- main */

static void run_line(const char *line)
{
	static struct store store;
	static struct pipeline p;
	const struct builtin *b;

	if (!parse(line, &p, &store)) {
		last_status = 2;
		return;
	}
	if (p.n == 0)
		return;                 /* blank, or only a comment */
	/* A builtin alone runs in the shell itself, '&' or not. */
	if (p.n == 1 && (b = find_builtin(p.cmd[0].argv[0])) != NULL)
		last_status = builtin_here(b, &p.cmd[0]);
	else
		last_status = run_pipeline(&p);
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
	if (interactive)
		job_control_init();
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
