/* user/fuzz/fstree.c - the RAM file system before and after a fuzz run.
 *
 * The workers' random calls legitimately create files and directories
 * (creat, mkdir, symlink, open with O_CREAT on any string they point at)
 * and grow, shrink and truncate the files they open. All of that holds
 * kernel memory (inodes, names, file pages) that is not a leak, yet
 * would make the exact books check fail. So:
 *
 * - The files the workers may open by name are copies in a sandbox,
 *   FZ_SANDBOX (calls.c, paths[]): pid 1 makes it before the run
 *   (fz_fs_snapshot) and makes it again afterwards (fz_fs_restore):
 *   each copy truncated to nothing and copied anew, so it holds the same
 *   pages and the same slot array as before (compat/linux/fs/ramfs_file.c).
 * - pid 1 lists the tree before the run and afterwards removes every
 *   entry that was not there, deepest first.
 * - A file outside the sandbox whose size changed, or an old entry that
 *   is gone, fails the run: nothing in the fuzzer names them, so a
 *   change there is the kernel's doing.
 *
 * Then the books must come back exactly (books.c). /proc and /dev are not
 * walked: their entries are not files of the RAM file system. Both walks
 * use only static memory and the same depth of stack, so the second
 * touches no page the first did not. */
#include "fuzz.h"
#include "stdio.h"
#include "string.h"
#include "fcntl.h"
#include "raw.h"
#include "sys/stat.h"
#include "unistd.h"

#define FS_MAX 1024                     /* entries remembered */
#define FS_PATH 160
#define FS_DEPTH 12
#define WALK_PATH 1024                  /* a path the walks can build */

static struct fs_entry {
	char path[FS_PATH];
	unsigned mode;
	long size;
} before[FS_MAX];
static int nbefore;
static bool overflow;
static int unlisted;                    /* entries a walk could not name */

static bool skipped(const char *path)
{
	return !strcmp(path, "/proc") || !strcmp(path, "/dev");
}

static const struct fs_entry *find(const char *path)
{
	for (int i = 0; i < nbefore; i++)
		if (!strcmp(before[i].path, path))
			return &before[i];
	return NULL;
}

/* Calls fn(path, st) for every entry under dir, children before their
 * directory (so a new directory is empty when fn sees it). Raw open and
 * getdents64 into static buffers, one per level: no malloc, so a walk
 * of a deeper tree than before touches no new heap page. */
static char names[FS_DEPTH][WALK_PATH];
static char bufs[FS_DEPTH][2048] __attribute__((aligned(8)));

static void walk(const char *dir, int depth, void (*fn)(const char *, const struct stat *))
{
	char *path = names[depth], *buf = bufs[depth];
	struct stat st;
	long fd, got;

	if (depth >= FS_DEPTH) {
		unlisted++;
		return;
	}
	if ((fd = raw_open(dir, O_RDONLY | O_DIRECTORY)) < 0)
		return;
	while ((got = raw_getdents64((int)fd, buf, sizeof(bufs[0]))) > 0) {
		for (long off = 0; off < got;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (snprintf(path, WALK_PATH, "%s/%s", strcmp(dir, "/") ? dir : "",
				     d->d_name) >= WALK_PATH) {
				unlisted++;
				continue;
			}
			if (skipped(path) || lstat(path, &st) != 0)
				continue;
			if (S_ISDIR(st.st_mode))
				walk(path, depth + 1, fn);  /* uses names[depth + 1] */
			fn(path, &st);
		}
	}
	raw_close((int)fd);
}

static void remember(const char *path, const struct stat *st)
{
	if (nbefore == FS_MAX || strlen(path) >= FS_PATH) {
		overflow = true;
		return;
	}
	strcpy(before[nbefore].path, path);
	before[nbefore].mode = st->st_mode;
	before[nbefore].size = (long)st->st_size;
	nbefore++;
}

/* The sandbox's files: copies of two programs, and a short text made
 * from the one in text[] (paths[] in calls.c also names two that do not
 * exist and may be created). */
static const char text[] = "Spindle's fuzzer writes here.\n";
static const struct {
	const char *path, *from;
} copies[] = {
	{ FZ_SANDBOX "/fuzz", "/bin/fuzz" },
	{ FZ_SANDBOX "/init", "/bin/init" },
	{ FZ_SANDBOX "/motd", NULL },
};
#define NCOPIES (sizeof(copies) / sizeof(copies[0]))

/* path, made anew as a copy of from (or of text): 0 or -errno. Truncating to nothing
 * first frees every page and the slot array, and the 4 KiB writes then
 * build them as they were. */
static long copy_file(const char *path, const char *from)
{
	static char buf[4096];
	long in = from ? raw_open(from, O_RDONLY) : 0, out, r = 0, w;

	if (in < 0)
		return in;
	if ((out = raw_open3(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) {
		if (from)
			raw_close((int)in);
		return out;
	}
	if (!from) {
		w = raw_write((int)out, text, sizeof(text) - 1);
		raw_close((int)out);
		return w == sizeof(text) - 1 ? 0 : w < 0 ? w : -EIO;
	}
	while ((r = raw_read((int)in, buf, sizeof(buf))) > 0)
		if ((w = raw_write((int)out, buf, (size_t)r)) != r) {
			r = w < 0 ? w : -EIO;
			break;
		}
	raw_close((int)in);
	raw_close((int)out);
	return r;
}

static long make_sandbox(void)
{
	long r = raw_mkdir(FZ_SANDBOX, 0755);

	if (r != 0 && r != -EEXIST)
		return r;
	for (size_t i = 0; i < NCOPIES; i++)
		if ((r = copy_file(copies[i].path, copies[i].from)) < 0)
			return r;
	return 0;
}

static bool in_sandbox(const char *path)
{
	size_t n = strlen(FZ_SANDBOX);

	return !strncmp(path, FZ_SANDBOX, n) && (path[n] == '/' || path[n] == 0);
}

void fz_fs_snapshot(void)
{
	long r = make_sandbox();

	if (r < 0)
		printf("fuzz: cannot make the sandbox %s: %ld\n", FZ_SANDBOX, r);
	nbefore = 0;
	overflow = false;
	unlisted = 0;
	/* The walk after the run may go deeper than this one (the workers
	 * make directories in directories): its buffers are touched now,
	 * so that it faults in no page of ours between the two books. */
	memset(names, 0, sizeof(names));
	memset(bufs, 0, sizeof(bufs));
	/* So is the code of the calls only the restore makes (a program's
	 * pages are faulted in at their first use): both fail, ENOENT. */
	unlink(FZ_SANDBOX "/.none");
	rmdir(FZ_SANDBOX "/.none");
	walk("/", 0, remember);
	if (unlisted)
		overflow = true;
}

static int removed, changed;
static char *change_why;
static size_t change_n;

static void put_back(const char *path, const struct stat *st)
{
	const struct fs_entry *e = find(path);

	if (!e || (e->mode & S_IFMT) != (st->st_mode & S_IFMT)) {
		/* New (or replaced by another kind): remove it. */
		if (S_ISDIR(st->st_mode) ? rmdir(path) == 0 : unlink(path) == 0)
			removed++;
		return;
	}
	if (S_ISREG(st->st_mode) && (long)st->st_size != e->size && !in_sandbox(path) &&
	    !changed++)
		snprintf(change_why, change_n, "%s: %ld bytes, %ld before the run", path,
			 (long)st->st_size, e->size);
}

int fz_fs_restore(char *why, size_t n)
{
	struct stat st;
	int lost = 0;
	long r;

	removed = changed = unlisted = 0;
	change_why = why;
	change_n = n;
	walk("/", 0, put_back);
	if ((r = make_sandbox()) < 0)
		return snprintf(why, n, "cannot make the sandbox again: %ld", r), -1;
	for (int i = 0; i < nbefore; i++)
		if (lstat(before[i].path, &st) != 0 && !lost++ && !changed)
			snprintf(why, n, "%s was removed", before[i].path);
	printf("fuzz: file system: %d new entries removed, the sandbox made again, %d files "
	       "outside it changed, %d old entries gone, %d entries too deep to name\n",
	       removed, changed, lost, unlisted);
	if (overflow)
		snprintf(why, n, "the tree before the run was too big to list (%d entries of "
			 "at most %d bytes)", FS_MAX, FS_PATH);
	return changed || lost || overflow ? -1 : 0;
}
