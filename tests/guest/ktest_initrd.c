/* tests/guest/ktest_initrd.c - group initrd: the file table built from the
 * loader's modules (kernel/initrd.h, abi.md section 1).
 *
 * build/initrd.cpio holds user/root/ as it is, so /etc/motd is there. Its
 * size is not written here: the test walks the archive's newc headers
 * itself (a dozen lines, independent of lib/cpio.c) and takes the size
 * from the header, so editing the motd does not break the test.
 *
 * tests/run.py boots this group with a second, plain module,
 *     -initrd "build/initrd.cpio,user/root/etc/motd /bin/extra"
 * and appends `extra_size=N` (N = that file's size) to the command line;
 * initrd.plain_module checks /bin/extra against it. Booted without
 * extra_size=, the test checks that there is no /bin/extra. */
#include "tests/guest/ktest.h"
#include "kernel/bootinfo.h"
#include "kernel/initrd.h"
#include "arch/i386/mmu.h"
#include "lib/string.h"

#define MOTD_PATH  "/etc/motd"
#define MOTD_START "Welcome to Spindle"
#define EXTRA_PATH "/bin/extra"
#define EXTRA_WORD "extra_size="

/* ---- an independent reading of newc headers (lib/cpio.h has the
 * layout: "070701", then 13 fields of 8 hex digits) ---- */

#define NEWC_HDR        110
#define NEWC_FILESIZE   (6 + 6 * 8)     /* the 7th field */
#define NEWC_NAMESIZE   (6 + 11 * 8)    /* the 12th field */

static bool hex8(const char *s, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < 8; i++) {
		char c = s[i];
		uint32_t d;
		if (c >= '0' && c <= '9')
			d = (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (uint32_t)(c - 'A' + 10);
		else
			return false;
		*v = *v << 4 | d;
	}
	return true;
}

static uint32_t align4(uint32_t x)
{
	return (x + 3) & ~3u;
}

/* The size the archive's own header gives the entry whose data starts at
 * `data`, or -1 if no entry of any cpio module starts its data there. */
static int64_t header_size_of(const void *data)
{
	for (int m = 0; m < bootinfo.nmods; m++) {
		const char *buf = P2V(bootinfo.mods[m].start);
		uint32_t len = bootinfo.mods[m].end - bootinfo.mods[m].start;
		uint32_t off = 0, namesize, filesize, doff;

		while (off + NEWC_HDR <= len && memcmp(buf + off, "070701", 6) == 0 &&
		       hex8(buf + off + NEWC_FILESIZE, &filesize) &&
		       hex8(buf + off + NEWC_NAMESIZE, &namesize) &&
		       namesize <= len - off - NEWC_HDR) {
			doff = align4(off + NEWC_HDR + namesize);
			if (buf + doff == data)
				return filesize;
			if ((namesize == sizeof("TRAILER!!!") &&
			     memcmp(buf + off + NEWC_HDR, "TRAILER!!!", namesize) == 0) ||
			    doff > len || filesize > len - doff)
				break;
			off = align4(doff + filesize);
		}
	}
	return -1;
}

/* Is [data, data+size) inside one module, as loaded? */
static bool in_a_module(const void *data, uint32_t size)
{
	uint32_t pa = V2P(data);

	for (int m = 0; m < bootinfo.nmods; m++)
		if (pa >= bootinfo.mods[m].start && pa <= bootinfo.mods[m].end &&
		    size <= bootinfo.mods[m].end - pa)
			return true;
	return false;
}

KTEST(initrd, count_at_least_one)
{
	KCHECK(bootinfo.nmods >= 1);
	KCHECK(initrd_count() >= 1);
	KCHECK(initrd_count() <= INITRD_MAX_FILES);
}

KTEST(initrd, motd_found_with_its_size)
{
	const struct initrd_file *f = initrd_find(MOTD_PATH);

	KCHECK(f != NULL);
	KCHECK(strcmp(f->path, MOTD_PATH) == 0);
	KCHECK(f->size >= sizeof(MOTD_START) - 1);
	KCHECK(memcmp(f->data, MOTD_START, sizeof(MOTD_START) - 1) == 0);
	KCHECK(in_a_module(f->data, f->size));
	KCHECK_EQ(header_size_of(f->data), f->size);
	KCHECK_EQ(((const char *)f->data)[f->size - 1], '\n');  /* a text file */
}

KTEST(initrd, missing_paths_give_null)
{
	static const char *const missing[] = {
		"/etc/nosuchfile", "", "/",
		"etc/motd",             /* the table's paths all start with '/' */
		"./etc/motd", "//etc/motd", "/etc/motd/", "/ETC/MOTD",
		"/etc/mot", "/etc/motdx",
		"/etc",                 /* a directory is not a file */
	};

	KCHECK(initrd_find(MOTD_PATH) != NULL);
	for (unsigned i = 0; i < sizeof(missing) / sizeof(missing[0]); i++)
		if (initrd_find(missing[i]) != NULL)
			ktest_fail(__FILE__, __LINE__, "initrd_find(\"%s\") is not NULL",
				   missing[i]);
}

KTEST(initrd, paths_are_normalised)
{
	for (int i = 0; i < initrd_count(); i++) {
		const struct initrd_file *f = initrd_file(i);
		const char *p = f->path;
		size_t n = strnlen(p, CPIO_PATH_MAX);

		KCHECK(n < CPIO_PATH_MAX);
		if (p[0] != '/' || n < 2 || strncmp(p, "/./", 3) == 0 ||
		    strncmp(p, "/../", 4) == 0 || p[n - 1] == '/') {
			ktest_fail(__FILE__, __LINE__, "file %d has path \"%s\"", i, p);
			return;
		}
		for (size_t k = 0; k + 1 < n; k++)
			if (p[k] == '/' && p[k + 1] == '/') {
				ktest_fail(__FILE__, __LINE__, "file %d has path \"%s\"", i, p);
				return;
			}
		/* One entry per path, found by it; its bytes lie in a module. */
		KCHECK(initrd_find(p) == f);
		KCHECK(in_a_module(f->data, f->size));
	}
}

/* The value of the word `extra_size=N` on the command line, or -1. */
static int64_t extra_size_arg(void)
{
	const char *s = bootinfo.raw_cmdline;
	size_t wl = strlen(EXTRA_WORD);

	for (size_t i = 0; s[i]; i++) {
		int64_t v = 0;
		size_t k;

		if ((i > 0 && s[i - 1] != ' ') || strncmp(s + i, EXTRA_WORD, wl) != 0)
			continue;
		for (k = i + wl; s[k] >= '0' && s[k] <= '9' && v < 0x100000000ll; k++)
			v = v * 10 + (s[k] - '0');
		if (k > i + wl && (s[k] == '\0' || s[k] == ' '))
			return v;
	}
	return -1;
}

/* abi.md section 1: a module that is not a cpio archive becomes the file
 * named by its string, the whole module as it was loaded. */
KTEST(initrd, plain_module)
{
	const struct initrd_file *f = initrd_find(EXTRA_PATH);
	int64_t want = extra_size_arg();
	const struct boot_module *m = NULL;

	if (want < 0) {
		KCHECK(f == NULL);
		return;
	}
	if (!f) {
		/* Say what the plain module did become, and from what string. */
		for (int i = 0; i < initrd_count(); i++)
			for (int k = 1; k < bootinfo.nmods; k++)
				if (initrd_file(i)->data == P2V(bootinfo.mods[k].start))
					ktest_fail(__FILE__, __LINE__, "no %s; module %d "
						   "(string \"%s\") became %s", EXTRA_PATH,
						   k, bootinfo.mods[k].string,
						   initrd_file(i)->path);
		KCHECK(f != NULL);
	}
	KCHECK_EQ(f->size, want);
	for (int i = 0; i < bootinfo.nmods; i++)
		if (P2V(bootinfo.mods[i].start) == f->data)
			m = &bootinfo.mods[i];
	KCHECK(m != NULL);
	KCHECK(m != &bootinfo.mods[0]);                 /* not the archive */
	KCHECK_EQ(m->end - m->start, f->size);
	KCHECK(header_size_of(f->data) < 0);            /* not inside one */
	/* The archive's files are all still there. */
	KCHECK(initrd_find(MOTD_PATH) != NULL);
}
