/* kernel/initrd.c - the initrd file table, and the seed kernel's files
 * (initrd.h). */
#include "kernel/initrd.h"
#include "kernel/bootinfo.h"
#include "kernel/file.h"
#include "kernel/kinfo.h"
#include "kernel/mm/pmm.h"
#include "kernel/printf.h"
#include "arch/i386/mmu.h"
#include "lib/string.h"

static struct initrd_file files[INITRD_MAX_FILES];
static int nfiles;

/* A later module's file of the same name replaces the earlier one, so
 * `-initrd "build/initrd.cpio,t.elf /bin/init"` overrides /bin/init. */
static void add_file(const char *path, const void *data, uint32_t size, uint32_t mode)
{
	struct initrd_file *f = NULL;

	for (int i = 0; i < nfiles; i++)
		if (strcmp(files[i].path, path) == 0)
			f = &files[i];
	if (!f) {
		if (nfiles == INITRD_MAX_FILES) {
			kprintf("initrd: more than %d files, %s dropped\n",
				INITRD_MAX_FILES, path);
			return;
		}
		f = &files[nfiles++];
	}
	strlcpy(f->path, path, sizeof(f->path));
	f->data = data;
	f->size = size;
	f->mode = mode;
}

static void add_archive(const void *buf, uint32_t len, const char *what)
{
	struct cpio_entry e;
	size_t off = 0;
	int r;

	while ((r = cpio_next(buf, len, &off, &e)) > 0)
		if ((e.mode & CPIO_MODE_TYPE) == CPIO_MODE_REG)
			add_file(e.path, e.data, e.size, e.mode);
	if (r < 0)
		kprintf("initrd: %s: malformed cpio archive at offset %u; "
			"kept the files before it\n", what, (unsigned)off);
}

/* abi.md: a plain module "becomes the file named by the first word of the
 * module's string" after the file's own path: QEMU passes the whole
 * "prog.elf /bin/t", GRUB only what follows its path ("/bin/t"). So with
 * two words or more the name is the second, with one it is that one. A
 * leading '/' is implied. */
static void add_plain(const struct boot_module *m, const void *buf, uint32_t len)
{
	char path[CPIO_PATH_MAX];
	const char *w = m->string, *second;
	size_t n;

	while (*w == ' ')
		w++;
	second = w;
	while (*second && *second != ' ')
		second++;
	while (*second == ' ')
		second++;
	if (*second)
		w = second;
	for (n = 0; w[n] && w[n] != ' '; n++)
		;
	if (n == 0 || n + 2 > sizeof(path)) {
		kprintf("initrd: module at %#x has no usable name, ignored\n", m->start);
		return;
	}
	path[0] = '/';
	memcpy(path + (w[0] == '/' ? 0 : 1), w, n);
	path[n + (w[0] == '/' ? 0 : 1)] = '\0';
	add_file(path, buf, len, CPIO_MODE_REG | 0755);    /* a program, most likely */
}

void initrd_init(void)
{
	for (int i = 0; i < bootinfo.nmods; i++) {
		const struct boot_module *m = &bootinfo.mods[i];
		uint32_t len = m->end - m->start;
		const void *buf = P2V(m->start);

		if (m->end < m->start || m->end > pmm_ram_top()) {
			kprintf("initrd: module %d at %#x-%#x is outside RAM, ignored\n",
				i, m->start, m->end);
			continue;
		}
		if (cpio_is_newc(buf, len))
			add_archive(buf, len, m->string[0] ? m->string : "module");
		else
			add_plain(m, buf, len);
	}
}

const struct initrd_file *initrd_find(const char *path)
{
	for (int i = 0; i < nfiles; i++)
		if (strcmp(files[i].path, path) == 0)
			return &files[i];
	return NULL;
}

int initrd_count(void)
{
	return nfiles;
}

const struct initrd_file *initrd_file(int i)
{
	return &files[i];
}

/* ---- the seed kernel's open files: an initrd file or a /proc snapshot,
 * read from memory ---- */

static long mem_read(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	const struct initrd_file *m = f->private;
	size_t got;

	if (*pos >= m->size)
		return 0;
	if (n > m->size - *pos)
		n = (size_t)(m->size - *pos);
	got = iob_put(b, 0, (const char *)m->data + *pos, n);
	if (got == 0 && n > 0)
		return -EFAULT;
	*pos += got;
	return (long)got;
}

static void snapshot_release(struct file *f)
{
	kinfo_release(f->private);
}

static const struct file_ops initrd_fops = { .read = mem_read, .seekable = true };
static const struct file_ops snapshot_fops = {
	.read = mem_read, .release = snapshot_release, .seekable = true,
};

struct file *initrd_open(const char *path, int flags, long *err)
{
	const struct initrd_file *m;
	struct initrd_file *snap = NULL;
	struct file *f;
	char abs[CPIO_PATH_MAX];

	/* The seed kernel has no working directory but the root. */
	if (path[0] != '/') {
		abs[0] = '/';
		strlcpy(abs + 1, path, sizeof(abs) - 1);
		path = abs;
	}
	if (kinfo_is_proc_path(path))
		m = snap = kinfo_open(path, err);
	else if (!(m = initrd_find(path)))
		*err = -ENOENT;
	if (!m) {
		/* Nothing to create a file in: a read-only file system. */
		if (*err == -ENOENT && (flags & O_CREAT))
			*err = -EROFS;
		return NULL;
	}
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC)) {
		*err = -EROFS;
	} else if ((f = file_new(snap ? &snapshot_fops : &initrd_fops, flags, err))) {
		f->private = (void *)m;
		return f;
	}
	if (snap)
		kinfo_release(snap);
	return NULL;
}
