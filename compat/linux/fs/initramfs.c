/* compat/linux/fs/initramfs.c - the initrd unpacked into the RAM file system,
 * as Linux's initramfs: every file the loader brought (kernel/initrd.h:
 * the regular files of each cpio archive, and plain modules named by
 * their module string) is copied into a RAM file of the same path, with
 * its archive's permissions; the directories on the way are made
 * (mode 0755). From then on they are ordinary files: programs may
 * change, rename or remove them, and nothing of that survives a boot.
 *
 * The modules themselves stay reserved (kernel/initrd.h keeps pointing
 * at them for the monitor and the ktests): Linux frees its initrd after
 * unpacking (free_initrd_mem); Spindle keeps it, at the cost of the
 * initrd's size in RAM twice. */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "kernel/initrd.h"
#include "kernel/printf.h"
#include "lib/string.h"

/* The directory holding path's last name, made as needed; referenced. */
static struct inode *make_parents(const char *path, const char **last)
{
	struct inode *dir = fs_root, *next;
	const char *p = path;
	long err;

	inode_get(dir);
	for (;;) {
		const char *name;
		size_t len;

		while (*p == '/')
			p++;
		for (name = p; *p && *p != '/'; p++)
			;
		len = (size_t)(p - name);
		if (!*p) {
			*last = name;
			return dir;
		}
		if (len == 0 || (len == 1 && name[0] == '.'))
			continue;
		next = dir->iop->lookup ? dir->iop->lookup(dir, name, len, &err) : NULL;
		if (!next && dir->iop->create &&
		    dir->iop->create(dir, name, len, S_IFDIR | 0755, NULL, &next) < 0)
			next = NULL;
		inode_put(dir);
		if (!next || !S_ISDIR(next->mode)) {
			if (next)
				inode_put(next);
			return NULL;
		}
		dir = next;
	}
}

static long unpack_file(const struct initrd_file *f)
{
	struct iobuf b = { (uintptr_t)f->data, false };
	struct inode *dir, *i;
	struct file *file;
	const char *name;
	uint64_t pos = 0;
	long err;

	if (!(dir = make_parents(f->path, &name)))
		return -ENOTDIR;
	if (!*name || !dir->iop->create)
		err = -EINVAL;
	else
		err = dir->iop->create(dir, name, strlen(name), S_IFREG | (f->mode & 07777), NULL, &i);
	inode_put(dir);
	if (err < 0)
		return err;
	file = file_open_inode(i, O_WRONLY, &err);
	inode_put(i);
	if (!file)
		return err;
	err = f->size ? file->fop->write(file, b, f->size, &pos) : 0;
	file_put(file);
	return err < 0 ? err : (uint32_t)err == f->size ? 0 : -ENOSPC;
}

void initramfs_unpack(void)
{
	for (int k = 0; k < initrd_count(); k++) {
		const struct initrd_file *f = initrd_file(k);
		long err = unpack_file(f);

		if (err < 0)
			kprintf("initramfs: %s not unpacked (error %ld)\n", f->path, -err);
	}
}
