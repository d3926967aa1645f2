/* compat/linux/fs/ramfs.c - the RAM file system's name space: directories and
 * symbolic links (regular files' data is ramfs_file.c).
 *
 * A directory is a list of entries (struct dir_entry), oldest first,
 * each holding a reference on its inode; everything here is under
 * fs_lock. Link counts are Unix's: a file's is its number of names
 * (link(2) adds one, unlink takes one away; the data goes with the last
 * name and the last open file), a directory's 2 + its subdirectories
 * (its entry, its own ".", each child's ".."): a directory has no hard
 * links. Besides directories, files and symbolic links, a name may be a
 * FIFO (pipe.c's fifo_fops) or a socket (which nothing here can open:
 * -ENXIO, as Linux says of a socket without its address family's
 * help). Nothing is ever written back:
 * like Linux's ramfs (and the initramfs it is), the files live only in
 * memory, and are gone at power-off. */
#include "compat/linux/fs/vfs.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/pmm.h"
#include "lib/string.h"

static const struct inode_ops ramfs_dir_iops, ramfs_link_iops, ramfs_reg_iops;
static const struct file_ops ramfs_sock_fops;
static const struct inode_ops ramfs_sock_iops;  /* nothing to do */
long ramfs_truncate(struct inode *inode, uint64_t size);
void ramfs_reg_evict(struct inode *inode);

/* An entry named name in dir, or NULL; fs_lock held. */
static struct dir_entry *find(struct inode *dir, const char *name, size_t len)
{
	struct list *pos;

	fs_lock_assert_held();
	list_for_each(pos, &dir->u.dir.entries) {
		struct dir_entry *e = list_entry(pos, struct dir_entry, link);
		if (e->len == len && memcmp(e->name, name, len) == 0)
			return e;
	}
	return NULL;
}

static struct dir_entry *entry_new(const char *name, size_t len)
{
	struct dir_entry *e = kzalloc(sizeof(*e) + len + 1);

	if (e) {
		list_init(&e->link);
		e->len = (uint16_t)len;
		memcpy(e->name, name, len);
	}
	return e;
}

/* Links e (naming inode, whose reference it takes over) into dir;
 * fs_lock held. */
static void link_entry(struct inode *dir, struct dir_entry *e, struct inode *inode)
{
	fs_lock_assert_held();
	e->inode = inode;
	e->pos = dir->u.dir.next_pos++;
	list_add_tail(&e->link, &dir->u.dir.entries);
	if (S_ISDIR(inode->mode)) {
		inode->self = e;
		dir->nlink++;
	}
	dir->mtime = dir->ctime = fs_now();
}

/* Takes e out of dir; its inode's reference goes to the caller. */
static struct inode *unlink_entry(struct inode *dir, struct dir_entry *e)
{
	struct inode *inode = e->inode;

	fs_lock_assert_held();
	list_del(&e->link);
	if (S_ISDIR(inode->mode)) {
		dir->nlink--;
		inode->nlink = 0;
		inode->self = NULL;
		inode->dead = true;
	} else {
		inode->nlink--;
	}
	inode->ctime = dir->mtime = dir->ctime = fs_now();
	return inode;
}

static struct inode *ramfs_new(uint32_t mode)
{
	const struct inode_ops *iop;
	const struct file_ops *fop;
	struct inode *i;

	switch (mode & S_IFMT) {
	case S_IFDIR: iop = &ramfs_dir_iops; fop = &dir_fops; break;
	case S_IFLNK: iop = &ramfs_link_iops; fop = NULL; break;
	case S_IFIFO: iop = &fifo_iops; fop = &fifo_fops; break;
	case S_IFSOCK: iop = &ramfs_sock_iops; fop = &ramfs_sock_fops; break;
	default: iop = &ramfs_reg_iops; fop = &ramfs_reg_fops; break;
	}
	if (!(i = inode_new(DEV_RAMFS, mode, iop, fop)))
		return NULL;
	if (S_ISDIR(mode)) {
		list_init(&i->u.dir.entries);
		i->u.dir.next_pos = 2;  /* 0 and 1 are "." and ".." */
		i->nlink = 2;
	}
	return i;
}

struct inode *ramfs_new_root(void)
{
	struct inode *root = ramfs_new(S_IFDIR | 0755);

	if (root)
		root->parent = root;    /* ".." of "/" is "/" (no reference) */
	return root;
}

static struct inode *ramfs_lookup(struct inode *dir, const char *name, size_t len, long *err)
{
	struct dir_entry *e;
	struct inode *i = NULL;

	spin_lock(&fs_lock);
	if ((e = find(dir, name, len)) != NULL) {
		i = e->inode;
		inode_get(i);
	}
	spin_unlock(&fs_lock);
	if (!i)
		*err = -ENOENT;
	return i;
}

static long ramfs_create(struct inode *dir, const char *name, size_t len, uint32_t mode,
			 const char *target, struct inode **out)
{
	struct inode *i;
	struct dir_entry *e;
	char *t = NULL;
	long err = 0;

	if (pmm_free_frames() < ramfs_reserve_frames())
		return -ENOSPC;
	i = ramfs_new(mode);
	e = entry_new(name, len);
	if (target && (t = kmalloc(strlen(target) + 1)))
		memcpy(t, target, strlen(target) + 1);
	if (!i || !e || (target && !t)) {
		kfree(t);
		kfree(e);
		if (i)
			inode_put(i);
		return -ENOSPC;         /* Linux's ramfs says so too */
	}
	if (S_ISLNK(mode)) {
		i->u.symlink = t;
		i->size = strlen(t);
	}
	spin_lock(&fs_lock);
	if (dir->dead)
		err = -ENOENT;          /* created in a removed directory */
	else if (find(dir, name, len))
		err = -EEXIST;
	else {
		if (S_ISDIR(mode)) {
			i->parent = dir;
			inode_get(dir);
		}
		inode_get(i);           /* the entry's; the caller keeps one */
		link_entry(dir, e, i);
	}
	spin_unlock(&fs_lock);
	if (err) {
		kfree(e);
		inode_put(i);
		return err;
	}
	*out = i;
	return 0;
}

long ramfs_attach(struct inode *dir, const char *name, struct inode *inode)
{
	struct dir_entry *e = entry_new(name, strlen(name)), *old;
	struct inode *gone = NULL;

	if (!e)
		return -ENOMEM;
	spin_lock(&fs_lock);
	/* The initrd may have brought a /proc or /dev of its own: the
	 * mounted one goes on top, as a mount hides what is beneath. */
	if ((old = find(dir, name, e->len)) != NULL)
		gone = unlink_entry(dir, old);
	if (S_ISDIR(inode->mode)) {
		inode->parent = dir;
		inode_get(dir);
	}
	inode_get(inode);
	link_entry(dir, e, inode);
	spin_unlock(&fs_lock);
	if (old) {
		kfree(old);
		inode_put(gone);
	}
	return 0;
}

/* A second name for inode (not a directory: link.c refuses those) in
 * dir. An inode whose names are all gone (open, unlinked) can not get a
 * new one: -ENOENT, as Linux says. */
static long ramfs_link(struct inode *dir, const char *name, size_t len, struct inode *inode)
{
	struct dir_entry *e;
	long err = 0;

	ASSERT(!S_ISDIR(inode->mode));
	if (pmm_free_frames() < ramfs_reserve_frames())
		return -ENOSPC;
	if (!(e = entry_new(name, len)))
		return -ENOSPC;
	spin_lock(&fs_lock);
	if (dir->dead)
		err = -ENOENT;
	else if (find(dir, name, len))
		err = -EEXIST;
	else if (inode->nlink == 0)
		err = -ENOENT;
	else {
		inode_get(inode);       /* the new entry's */
		inode->nlink++;
		link_entry(dir, e, inode);
		inode->ctime = dir->mtime;
	}
	spin_unlock(&fs_lock);
	if (err)
		kfree(e);
	return err;
}

static bool dir_empty(struct inode *dir)
{
	return list_empty(&dir->u.dir.entries);
}

/* Only the RAM file system's own directories can be removed: another
 * file system's root in it is a mount point (-EBUSY). */
static bool is_mount(struct inode *inode)
{
	return inode->dev != DEV_RAMFS;
}

static long ramfs_remove(struct inode *dir, const char *name, size_t len, bool rmdir)
{
	struct dir_entry *e;
	struct inode *gone = NULL;
	long err = 0;

	spin_lock(&fs_lock);
	if (!(e = find(dir, name, len)))
		err = -ENOENT;
	else if (rmdir && !S_ISDIR(e->inode->mode))
		err = -ENOTDIR;
	else if (!rmdir && S_ISDIR(e->inode->mode))
		err = -EISDIR;
	else if (rmdir && is_mount(e->inode))
		err = -EBUSY;
	else if (rmdir && !dir_empty(e->inode))
		err = -ENOTEMPTY;
	else
		gone = unlink_entry(dir, e);
	spin_unlock(&fs_lock);
	if (gone) {
		kfree(e);
		inode_put(gone);        /* the entry's reference */
	}
	return err;
}

/* POSIX rename: the old name's inode takes the new name; an entry there
 * already is replaced (a file by a non-directory, an empty directory by
 * a directory) and its inode loses that name. A directory may not move
 * under itself (-EINVAL). Renaming a name to the same inode does
 * nothing. */
static long ramfs_rename(struct inode *odir, const char *oname, size_t olen,
			 struct inode *ndir, const char *nname, size_t nlen)
{
	struct dir_entry *ne = entry_new(nname, nlen), *oe, *victim;
	struct inode *inode, *replaced = NULL, *old_parent = NULL;
	long err = 0;

	if (!ne)
		return -ENOMEM;
	spin_lock(&fs_lock);
	if (!(oe = find(odir, oname, olen))) {
		err = -ENOENT;
		goto out;
	}
	inode = oe->inode;
	victim = find(ndir, nname, nlen);
	if (victim && victim->inode == inode)
		goto out;               /* POSIX: nothing to do */
	if (ndir->dead)
		err = -ENOENT;
	else if (is_mount(inode) || (victim && is_mount(victim->inode)))
		err = -EBUSY;
	else if (S_ISDIR(inode->mode) && inode_is_ancestor(inode, ndir))
		err = -EINVAL;
	else if (victim && S_ISDIR(inode->mode) && !S_ISDIR(victim->inode->mode))
		err = -ENOTDIR;
	else if (victim && !S_ISDIR(inode->mode) && S_ISDIR(victim->inode->mode))
		err = -EISDIR;
	else if (victim && S_ISDIR(victim->inode->mode) && !dir_empty(victim->inode))
		err = -ENOTEMPTY;
	if (err)
		goto out;
	if (victim) {
		replaced = unlink_entry(ndir, victim);
		kfree(victim);
	}
	list_del(&oe->link);
	if (S_ISDIR(inode->mode)) {
		odir->nlink--;
		old_parent = inode->parent;
		inode->parent = ndir;
		inode_get(ndir);
	}
	odir->mtime = odir->ctime = fs_now();
	link_entry(ndir, ne, inode);    /* takes over oe's reference */
	inode->ctime = ndir->mtime;
	kfree(oe);
	ne = NULL;
out:
	spin_unlock(&fs_lock);
	kfree(ne);
	if (replaced)
		inode_put(replaced);
	if (old_parent)
		inode_put(old_parent);
	return err;
}

/* Entries from *pos on: "." at 0, ".." at 1, then each entry at its own
 * pos. The entry is copied out before fn runs (fn copies to user memory,
 * not under fs_lock), so the list may change between two of them. */
static long ramfs_readdir(struct inode *dir, uint64_t *pos, readdir_fn fn, void *ctx)
{
	char name[NAME_MAX + 1];

	while (*pos < 2) {
		uint32_t ino;

		spin_lock(&fs_lock);
		ino = *pos == 0 ? dir->ino : dir->parent->ino;
		spin_unlock(&fs_lock);
		if (!fn(ctx, "..", (size_t)(*pos + 1), ino, DT_DIR, *pos + 1))
			return 0;
		(*pos)++;
	}
	for (;;) {
		struct dir_entry *e = NULL;
		struct list *p;
		uint32_t ino = 0;
		unsigned type = 0;
		uint64_t epos = 0;
		size_t len = 0;

		spin_lock(&fs_lock);
		list_for_each(p, &dir->u.dir.entries) {
			struct dir_entry *c = list_entry(p, struct dir_entry, link);
			if (c->pos >= *pos) {
				e = c;
				break;
			}
		}
		if (e) {
			len = e->len;
			memcpy(name, e->name, len);
			ino = e->inode->ino;
			type = inode_dtype(e->inode);
			epos = e->pos;
		}
		spin_unlock(&fs_lock);
		if (!e)
			return 0;
		if (!fn(ctx, name, len, ino, type, epos + 1))
			return 0;
		*pos = epos + 1;
	}
}

static void ramfs_dir_evict(struct inode *dir)
{
	(void)dir;              /* removed, so empty: nothing of its own */
}

static long ramfs_readlink(struct inode *link, char *buf, size_t n)
{
	size_t len = strlen(link->u.symlink);

	if (len > n)
		len = n;
	memcpy(buf, link->u.symlink, len);
	return (long)len;
}

static void ramfs_link_evict(struct inode *link)
{
	kfree(link->u.symlink);
}

static long ramfs_sock_open(struct file *f)
{
	(void)f;
	return -ENXIO;
}

static const struct file_ops ramfs_sock_fops = { .open = ramfs_sock_open };
static const struct inode_ops ramfs_sock_iops = { .evict = NULL };

static const struct inode_ops ramfs_dir_iops = {
	.lookup = ramfs_lookup,
	.readdir = ramfs_readdir,
	.create = ramfs_create,
	.remove = ramfs_remove,
	.rename = ramfs_rename,
	.link = ramfs_link,
	.evict = ramfs_dir_evict,
};

static const struct inode_ops ramfs_link_iops = {
	.readlink = ramfs_readlink,
	.evict = ramfs_link_evict,
};

static const struct inode_ops ramfs_reg_iops = {
	.truncate = ramfs_truncate,
	.evict = ramfs_reg_evict,
};
