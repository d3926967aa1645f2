/* compat/linux/fs/namei.c - path lookup (vfs.h), named after Linux's
 * fs/namei.c.
 *
 * A path is walked one component at a time, from the root if it starts
 * with '/', else from the start directory (the cwd, or an *at call's
 * dirfd). Empty components ("a//b") are skipped, "." stays, ".." goes to
 * the parent (the root's parent is the root). Each step holds a
 * reference on the directory it stands in and asks that directory's file
 * system for the next name, so /proc's names can be made on demand.
 * A symbolic link met before the last component is always followed; the
 * last one only with LOOKUP_FOLLOW, or when a '/' follows it. Its target
 * is walked from the directory holding the link (from the root if
 * absolute); SYMLOOP_MAX links per lookup in all, then -ELOOP. A path
 * ending in '/' must name a directory (-ENOTDIR).
 *
 * Spindle has one user, root, who may search any directory, so there are
 * no permission checks on the way (Linux's CAP_DAC_OVERRIDE). */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

long lookup_start_for(int dirfd, const char *path, struct inode **out)
{
	if (*path == '/') {             /* absolute: dirfd is not even looked at */
		*out = fs_root;
		inode_get(fs_root);
		return 0;
	}
	return lookup_start(dirfd, out);
}

long lookup_start(int dirfd, struct inode **out)
{
	struct file *f;

	if (dirfd == AT_FDCWD) {
		if (current->lx.fs) {
			*out = fs_cwd(current->lx.fs);
		} else {                /* a kernel thread (the ktests): "/" */
			*out = fs_root;
			inode_get(fs_root);
		}
		return 0;
	}
	if (!(f = fd_get(current->files, dirfd)))
		return -EBADF;
	*out = f->inode;
	inode_get(*out);
	file_put(f);
	return 0;
}

/* One step: name (len bytes) in dir, which the caller holds. */
static struct inode *step(struct inode *dir, const char *name, size_t len, long *err)
{
	struct inode *next;

	if (len == 1 && name[0] == '.') {
		inode_get(dir);
		return dir;
	}
	if (len == 2 && name[0] == '.' && name[1] == '.') {
		spin_lock(&fs_lock);
		next = dir->parent ? dir->parent : dir;
		inode_get(next);
		spin_unlock(&fs_lock);
		return next;
	}
	if (len > NAME_MAX) {
		*err = -ENAMETOOLONG;
		return NULL;
	}
	if (!dir->iop || !dir->iop->lookup) {
		*err = -ENOTDIR;
		return NULL;
	}
	return dir->iop->lookup(dir, name, len, err);
}

static long walk(struct inode *start, const char *p, const char *end, unsigned flags,
		 struct inode **out, int *links);

/* link (held by the caller) stands in dir: what it points at. */
static struct inode *follow_link(struct inode *dir, struct inode *link, long *err, int *links)
{
	struct inode *res = NULL;
	char *buf;
	long n;

	if (++*links > SYMLOOP_MAX) {
		*err = -ELOOP;
		return NULL;
	}
	if (link->iop->follow)          /* a magic link: /proc/PID/exe */
		return link->iop->follow(link, err);
	if (!(buf = kmalloc(PATH_MAX))) {
		*err = -ENOMEM;
		return NULL;
	}
	n = link->iop->readlink ? link->iop->readlink(link, buf, PATH_MAX - 1) : -EINVAL;
	if (n == 0)
		n = -ENOENT;
	if (n >= 0) {
		buf[n] = '\0';
		n = walk(dir, buf, buf + n, LOOKUP_FOLLOW, &res, links);
	}
	kfree(buf);
	if (n < 0)
		*err = n;
	return n < 0 ? NULL : res;
}

/* Walks [p, end) from start; *out referenced. */
static long walk(struct inode *start, const char *p, const char *end, unsigned flags,
		 struct inode **out, int *links)
{
	struct inode *cur = *p == '/' ? fs_root : start;
	bool slash = false;

	inode_get(cur);
	for (;;) {
		const char *name;
		struct inode *next;
		size_t len;
		bool last;
		long err = -ENOENT;

		while (p < end && *p == '/')
			p++;
		if (p == end)
			break;
		for (name = p; p < end && *p != '/'; p++)
			;
		len = (size_t)(p - name);
		slash = p < end;
		{
			const char *q = p;
			while (q < end && *q == '/')
				q++;
			last = q == end;
		}
		if (!S_ISDIR(cur->mode)) {
			inode_put(cur);
			return -ENOTDIR;
		}
		if (!(next = step(cur, name, len, &err))) {
			inode_put(cur);
			return err;
		}
		if (S_ISLNK(next->mode) && (!last || slash || (flags & LOOKUP_FOLLOW))) {
			struct inode *target = follow_link(cur, next, &err, links);
			inode_put(next);
			if (!target) {
				inode_put(cur);
				return err;
			}
			next = target;
		}
		inode_put(cur);
		cur = next;
	}
	if ((slash || (flags & LOOKUP_DIRECTORY)) && !S_ISDIR(cur->mode)) {
		inode_put(cur);
		return -ENOTDIR;
	}
	*out = cur;
	return 0;
}

long path_walk(struct inode *start, const char *path, unsigned flags, struct inode **out)
{
	int links = 0;

	if (!*path && !(flags & LOOKUP_EMPTY))
		return -ENOENT;
	return walk(start, path, path + strlen(path), flags, out, &links);
}

long path_parent(struct inode *start, const char *path, struct inode **dir,
		 const char **name, size_t *len, bool *dots, bool *slash)
{
	const char *end = path + strlen(path), *last;
	struct inode *d;
	int links = 0;
	long err;

	if (!*path)
		return -ENOENT;
	*slash = false;
	while (end > path && end[-1] == '/') {
		end--;
		*slash = true;
	}
	if (end == path)
		return -EBUSY;          /* "/": the root has no parent entry */
	for (last = end; last > path && last[-1] != '/'; last--)
		;
	*len = (size_t)(end - last);
	*name = last;
	*dots = (*len == 1 && last[0] == '.') || (*len == 2 && last[0] == '.' && last[1] == '.');
	if (*len > NAME_MAX)
		return -ENAMETOOLONG;
	if ((err = walk(start, path, last, LOOKUP_FOLLOW, &d, &links)) < 0)
		return err;
	if (!S_ISDIR(d->mode)) {
		inode_put(d);
		return -ENOTDIR;
	}
	*dir = d;
	return 0;
}

long user_path_at(int dirfd, uint32_t upath, unsigned flags, struct inode **out)
{
	struct inode *start;
	long err;
	char *path = getname(upath, &err);

	if (!path)
		return err;
	if (!*path && !(flags & LOOKUP_EMPTY))
		err = -ENOENT;
	else if ((err = lookup_start_for(dirfd, path, &start)) == 0) {
		if (!*path) {           /* AT_EMPTY_PATH: dirfd itself */
			*out = start;
			kfree(path);
			return 0;
		}
		if (*path != '/' && !S_ISDIR(start->mode))
			err = -ENOTDIR;
		else
			err = path_walk(start, path, flags, out);
		inode_put(start);
	}
	kfree(path);
	return err;
}

/* The names from dir up to the root, written backwards from the end of
 * buf, then moved to its start. */
long dir_path(struct inode *dir, char *buf, size_t n)
{
	size_t at = n;
	long err = 0;

	if (n < 2)
		return -ERANGE;
	buf[--at] = '\0';
	spin_lock(&fs_lock);
	for (struct inode *d = dir; d != fs_root; d = d->parent) {
		const struct dir_entry *e = d->self;

		if (d->dead || !e || !d->parent) {
			err = -ENOENT;
			break;
		}
		if (at < (size_t)e->len + 1) {
			err = -ERANGE;
			break;
		}
		at -= e->len;
		memcpy(buf + at, e->name, e->len);
		buf[--at] = '/';
	}
	spin_unlock(&fs_lock);
	if (err)
		return err;
	if (at == n - 1)
		buf[--at] = '/';        /* the root itself */
	memmove(buf, buf + at, n - at);
	return (long)(n - at - 1);
}
