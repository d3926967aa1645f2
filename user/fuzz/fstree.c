/* user/fuzz/fstree.c - the RAM file system before and after a fuzz run.
 *
 * The workers' random calls legitimately create files and directories
 * (creat, mkdir, symlink, open with O_CREAT on any string they point at)
 * and may grow, shrink or remove existing ones. All of that holds kernel
 * memory (inodes, names, file pages) that is not a leak, yet would make
 * the exact books check fail. So pid 1 lists the tree before the run
 * (fz_fs_snapshot, before the first books reading) and afterwards
 * (fz_fs_restore) removes every entry that was not there, deepest first,
 * and truncates every regular file back to its old size. What cannot be
 * undone - an entry of the old tree removed - is reported: the caller
 * then knows the books can only come back lower, never higher. And when
 * anything was put back, the objects may sit in other slabs than before
 * (books.c slab_growth).
 *
 * /proc and /dev are not walked: their entries are not files of the RAM
 * file system. Both walks use only static memory and the same depth of
 * stack, so the second touches no page the first did not. */
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

static struct fs_entry {
	char path[FS_PATH];
	unsigned mode;
	long size;
} before[FS_MAX];
static int nbefore;
static bool overflow;

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
static void walk(const char *dir, int depth, void (*fn)(const char *, const struct stat *))
{
	static char names[FS_DEPTH][FS_PATH];
	static char bufs[FS_DEPTH][2048] __attribute__((aligned(8)));
	char *path = names[depth], *buf = bufs[depth];
	struct stat st;
	long fd, got;

	if (depth >= FS_DEPTH || (fd = raw_open(dir, O_RDONLY | O_DIRECTORY)) < 0)
		return;
	while ((got = raw_getdents64((int)fd, buf, sizeof(bufs[0]))) > 0) {
		for (long off = 0; off < got;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (snprintf(path, FS_PATH, "%s/%s", strcmp(dir, "/") ? dir : "",
				     d->d_name) >= FS_PATH) {
				overflow = true;
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
	if (nbefore == FS_MAX) {
		overflow = true;
		return;
	}
	strcpy(before[nbefore].path, path);
	before[nbefore].mode = st->st_mode;
	before[nbefore].size = (long)st->st_size;
	nbefore++;
}

void fz_fs_snapshot(void)
{
	nbefore = 0;
	overflow = false;
	walk("/", 0, remember);
}

static int removed, truncated, shrunk;

static void put_back(const char *path, const struct stat *st)
{
	const struct fs_entry *e = find(path);

	if (!e || (e->mode & S_IFMT) != (st->st_mode & S_IFMT)) {
		/* New (or replaced by another kind): remove it. */
		if (S_ISDIR(st->st_mode) ? rmdir(path) == 0 : unlink(path) == 0)
			removed++;
		return;
	}
	if (S_ISREG(st->st_mode) && (long)st->st_size != e->size) {
		/* Grown: the pages past the old end go. Shrunk: its old pages
		 * are gone for good (the books can only be lower). */
		if ((long)st->st_size < e->size)
			shrunk++;
		if (truncate(path, e->size) == 0)
			truncated++;
	}
}

int fz_fs_restore(char *why, size_t n)
{
	struct stat st;
	int lost = 0;

	removed = truncated = shrunk = 0;
	walk("/", 0, put_back);
	for (int i = 0; i < nbefore; i++)
		if (lstat(before[i].path, &st) != 0) {
			if (!lost++)
				snprintf(why, n, "%s was removed", before[i].path);
		}
	if (!lost && shrunk)
		snprintf(why, n, "%d files were shrunk", shrunk);
	printf("fuzz: file system: %d new entries removed, %d files truncated back (%d had "
	       "shrunk), %d old entries gone%s\n", removed, truncated, shrunk, lost,
	       overflow ? " (tree too big to list)" : "");
	if (!lost && !shrunk && (removed || truncated))
		snprintf(why, n, "%d new entries removed, %d files truncated back", removed,
			 truncated);
	return lost || shrunk || overflow || removed || truncated;
}
