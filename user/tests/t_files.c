/* user/tests/t_files.c - files and descriptors (abi.md section 3): open,
 * read and close of the initrd's files (unpacked into the RAM file
 * system; t_fs_*.c test writing, directories, pipes), offsets and EOF, the lowest free
 * descriptor, descriptors shared by fork, writev to the console, and the
 * error paths: -ENOENT, -EBADF, -EMFILE, -EINVAL, -ENAMETOOLONG. Booted
 * as init. */
#define T_PROG "t_files"
#include "t.h"
#include "fcntl.h"
#include "sys/uio.h"

#define MOTD "/etc/motd"
#define MOTD_START "Welcome to Spindle"

static long open_motd(void)
{
	return raw_open(MOTD, O_RDONLY);
}

TEST(console_descriptors_are_open)
{
	EXPECT_EQ(raw_write(1, "", 0), 0);
	EXPECT_EQ(raw_write(2, "", 0), 0);
	EXPECT_EQ(raw_read(0, NULL, 0), 0);
}

TEST(open_read_close)
{
	char buf[64];
	long fd = open_motd();

	EXPECT_EQ(fd, 3);                       /* the lowest free descriptor */
	EXPECT_EQ(raw_read(fd, buf, sizeof(MOTD_START) - 1), sizeof(MOTD_START) - 1);
	EXPECT(!memcmp(buf, MOTD_START, sizeof(MOTD_START) - 1), "read \"%.18s\"", buf);
	EXPECT_EQ(raw_close(fd), 0);
}

TEST(reads_continue_at_the_offset)
{
	char a[8] = { 0 }, b[4] = { 0 };
	long fd = open_motd();

	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_read(fd, a, 7), 7);
	EXPECT_EQ(raw_read(fd, b, 3), 3);
	EXPECT(!memcmp(a, "Welcome", 7) && !memcmp(b, " to", 3), "read \"%s\" then \"%s\"", a, b);
	EXPECT_EQ(raw_read(fd, a, 0), 0);       /* a zero-length read */
	EXPECT_EQ(raw_close(fd), 0);
}

TEST(read_to_eof_returns_0)
{
	static char buf[8192];
	long fd = open_motd(), total = 0, r;

	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	while ((r = raw_read(fd, buf + total, 100)) > 0 && total < 8000)
		total += r;
	EXPECT_EQ(r, 0);
	EXPECT(total > (long)sizeof(MOTD_START) && buf[total - 1] == '\n',
	       "read %ld bytes, the last %#x", total, total ? buf[total - 1] : 0);
	EXPECT_EQ(raw_read(fd, buf, 100), 0);   /* and again */
	EXPECT_EQ(raw_close(fd), 0);

	/* One big read returns the whole file at once. */
	fd = open_motd();
	EXPECT_EQ(raw_read(fd, buf + 4096, 4096), total);
	EXPECT(!memcmp(buf, buf + 4096, total), "the two reads differ");
	EXPECT_EQ(raw_close(fd), 0);
}

TEST(open_a_program)
{
	char magic[4];
	long fd = raw_open("/bin/t_files", O_RDONLY);

	EXPECT(fd >= 0, "open(/bin/t_files): %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_read(fd, magic, 4), 4);
	EXPECT(!memcmp(magic, "\177ELF", 4), "not an ELF file");
	EXPECT_EQ(raw_close(fd), 0);
}

TEST(lowest_free_descriptor)
{
	long a = open_motd(), b = open_motd(), c = open_motd();

	EXPECT(a == 3 && b == 4 && c == 5, "open gave %ld %ld %ld, want 3 4 5", a, b, c);
	EXPECT_EQ(raw_close(b), 0);
	EXPECT_EQ(raw_open(MOTD, O_RDONLY), 4);
	EXPECT_EQ(raw_close(a), 0);
	EXPECT_EQ(raw_close(b), 0);
	EXPECT_EQ(raw_close(c), 0);
	EXPECT_EQ(open_motd(), 3);
	EXPECT_EQ(raw_close(3), 0);
}

TEST(descriptors_are_independent)
{
	char a, b;
	long x = open_motd(), y = open_motd();

	EXPECT_EQ(raw_read(x, &a, 1), 1);
	EXPECT_EQ(raw_read(x, &a, 1), 1);
	EXPECT_EQ(raw_read(y, &b, 1), 1);
	EXPECT(a == 'e' && b == 'W', "the second open shares the first one's offset");
	raw_close(x);
	raw_close(y);
}

TEST(missing_file_is_enoent)
{
	EXPECT_EQ(raw_open("/etc/no_such_file", O_RDONLY), -ENOENT);
	EXPECT_EQ(raw_open("/no/such/dir/file", O_RDONLY), -ENOENT);
	EXPECT_EQ(raw_open("", O_RDONLY), -ENOENT);
	EXPECT_EQ(raw_open("/etc/mot", O_RDONLY), -ENOENT);     /* a prefix */
	EXPECT_EQ(raw_open("/etc/motdx", O_RDONLY), -ENOENT);
}

TEST(name_too_long)
{
	static char path[5000];

	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	EXPECT_EQ(raw_open(path, O_RDONLY), -ENAMETOOLONG);
}

TEST(close_twice_is_ebadf)
{
	long fd = open_motd();

	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_close(fd), 0);
	EXPECT_EQ(raw_close(fd), -EBADF);
	char c;
	EXPECT_EQ(raw_read(fd, &c, 1), -EBADF);
}

TEST(writing_a_read_only_file_is_ebadf)
{
	long fd = open_motd();
	struct iovec iov = { "x", 1 };

	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_write(fd, "x", 1), -EBADF);
	EXPECT_EQ(raw_writev(fd, &iov, 1), -EBADF);
	EXPECT_EQ(raw_close(fd), 0);
}

/* Runs out of descriptors: -EMFILE, then every one closes and the table
 * is usable again. */
TEST(descriptor_exhaustion_is_emfile)
{
	long fd, n = 0, last = -1;

	while ((fd = open_motd()) >= 0 && n < 100000) {
		EXPECT(fd == last + 1 || (last == -1 && fd == 3), "open gave %ld after %ld",
		       fd, last);
		last = fd;
		n++;
	}
	EXPECT_EQ(fd, -EMFILE);
	EXPECT(n >= 16, "only %ld files could be opened", n);
	for (long i = 3; i <= last; i++)
		EXPECT(raw_close(i) == 0, "close(%ld) failed", i);
	EXPECT_EQ(open_motd(), 3);
	EXPECT_EQ(raw_close(3), 0);
}

/* After fork both processes share the open file, offset included. */
TEST(fork_shares_the_open_file)
{
	char c = 0;
	int st = -1;
	long fd = open_motd();

	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	long pid = raw_fork();
	if (pid == 0) {
		char buf[7];
		long r = raw_read(fd, buf, 7);          /* "Welcome" */
		raw_close(fd);                          /* the parent's stays open */
		raw_exit_group(r == 7 ? 0 : 1);
	}
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(raw_read(fd, &c, 1), 1);
	EXPECT(c == ' ', "the parent read '%c' after the child's 7 bytes, want ' '", c);
	EXPECT_EQ(raw_close(fd), 0);
}

TEST(writev_to_the_console)
{
	struct iovec iov[4] = {
		{ "t_files: ", 9 }, { "", 0 }, { "writev ", 7 }, { "works\n", 6 },
	};

	EXPECT_EQ(raw_writev(1, iov, 4), 22);
	EXPECT_EQ(raw_writev(2, iov, 0), 0);
	EXPECT_EQ(raw_writev(1, iov + 1, 1), 0);
}

TEST(writev_errors)
{
	struct iovec iov[2] = { { "a", 1 }, { "b", 0x80000000u } };

	EXPECT_EQ(raw_writev(1, iov, -1), -EINVAL);
	EXPECT_EQ(raw_writev(1, iov, 1025), -EINVAL);           /* UIO_MAXIOV */
	EXPECT_EQ(raw_writev(1, iov, 2), -EINVAL);              /* total overflows ssize_t */
	EXPECT_EQ(raw_writev(99, iov, 1), -EBADF);
}

int main(void)
{
	RUN(console_descriptors_are_open);
	RUN(open_read_close);
	RUN(reads_continue_at_the_offset);
	RUN(read_to_eof_returns_0);
	RUN(open_a_program);
	RUN(lowest_free_descriptor);
	RUN(descriptors_are_independent);
	RUN(missing_file_is_enoent);
	RUN(name_too_long);
	RUN(close_twice_is_ebadf);
	RUN(writing_a_read_only_file_is_ebadf);
	RUN(descriptor_exhaustion_is_emfile);
	RUN(fork_shares_the_open_file);
	RUN(writev_to_the_console);
	RUN(writev_errors);
	return t_exit_code();
}
