/* tests/unit/test_personality.c - kernel/elf_note.c's reading of the
 * GNU ABI note (abi.md section 9) on ELF images built here: the note as
 * glibc links it, other notes before it, a non-Linux OS word, and
 * malformed notes whose sizes run past the segment or wrap. Each image is
 * a heap copy of exactly its size, so ASan reports any read past it. */
#include "tests/unit/unit.h"
#include "kernel/elf.h"

#include <stdlib.h>
#include <string.h>

#define NOTE_OFF 128            /* the PT_NOTE segment's file offset */

struct image {
	unsigned char b[512];
	uint32_t len;           /* the notes' end */
};

static void put_note(struct image *im, uint32_t namesz, uint32_t descsz, uint32_t type,
		     const char *name, const uint32_t *desc, uint32_t desc_words)
{
	struct elf32_note n = { namesz, descsz, type };

	memcpy(im->b + im->len, &n, sizeof(n));
	im->len += sizeof(n);
	memcpy(im->b + im->len, name, strlen(name) + 1);
	im->len += (namesz + 3) & ~3u;
	memcpy(im->b + im->len, desc, desc_words * 4);
	im->len += desc_words * 4;
}

enum { PERSONALITY_SEED, PERSONALITY_LINUX };

/* The personality the notes over [NOTE_OFF, im->len) give, or those over
 * filesz bytes when filesz is not 0 (execve reads a PT_NOTE segment's
 * p_filesz bytes; a segment that runs past the file is never read). */
static int personality_of(struct image *im, uint32_t filesz)
{
	uint32_t len = filesz ? filesz : im->len - NOTE_OFF;
	unsigned char *copy;
	int p;

	if (NOTE_OFF + len > im->len)
		return PERSONALITY_SEED;
	copy = malloc(len ? len : 1);
	memcpy(copy, im->b + NOTE_OFF, len);
	p = elf_notes_say_linux(copy, len) ? PERSONALITY_LINUX : PERSONALITY_SEED;
	free(copy);
	return p;
}

static const uint32_t linux_abi[4] = { 0, 3, 2, 0 };   /* Linux 3.2.0 */

static void start(struct image *im)
{
	memset(im, 0, sizeof(*im));
	im->len = NOTE_OFF;
}

TEST(glibc_note_is_linux)
{
	struct image im;

	start(&im);
	put_note(&im, 4, 16, NT_GNU_ABI_TAG, "GNU", linux_abi, 4);
	CHECK_EQ_I(personality_of(&im, 0), PERSONALITY_LINUX);
}

TEST(after_other_notes)
{
	static const uint32_t id[5] = { 1, 2, 3, 4, 5 };
	struct image im;

	start(&im);
	put_note(&im, 4, 20, 3 /* NT_GNU_BUILD_ID */, "GNU", id, 5);
	put_note(&im, 8, 4, 1, "Spindle", id, 1);
	put_note(&im, 4, 16, NT_GNU_ABI_TAG, "GNU", linux_abi, 4);
	CHECK_EQ_I(personality_of(&im, 0), PERSONALITY_LINUX);
}

TEST(no_note_or_other_os_is_seed)
{
	static const uint32_t hurd[4] = { 1, 0, 0, 6 };
	struct image im;

	start(&im);
	CHECK_EQ_I(personality_of(&im, 1), PERSONALITY_SEED);
	put_note(&im, 4, 16, NT_GNU_ABI_TAG, "GNU", hurd, 4);
	CHECK_EQ_I(personality_of(&im, 0), PERSONALITY_SEED);
	start(&im);
	put_note(&im, 4, 16, NT_GNU_ABI_TAG, "GNX", linux_abi, 4);
	CHECK_EQ_I(personality_of(&im, 0), PERSONALITY_SEED);
	start(&im);
	put_note(&im, 4, 16, 2, "GNU", linux_abi, 4);
	CHECK_EQ_I(personality_of(&im, 0), PERSONALITY_SEED);
}

TEST(malformed_notes_are_seed)
{
	struct image im;

	/* The descriptor runs past the segment. */
	start(&im);
	put_note(&im, 4, 16, NT_GNU_ABI_TAG, "GNU", linux_abi, 4);
	CHECK_EQ_I(personality_of(&im, im.len - NOTE_OFF - 4), PERSONALITY_SEED);
	/* Sizes that wrap when padded. */
	start(&im);
	put_note(&im, 0xfffffffd, 16, NT_GNU_ABI_TAG, "GNU", linux_abi, 4);
	CHECK_EQ_I(personality_of(&im, 0), PERSONALITY_SEED);
	start(&im);
	put_note(&im, 4, 0xfffffffe, NT_GNU_ABI_TAG, "GNU", linux_abi, 4);
	CHECK_EQ_I(personality_of(&im, 0), PERSONALITY_SEED);
	/* A segment past the end of the file. */
	start(&im);
	put_note(&im, 4, 16, NT_GNU_ABI_TAG, "GNU", linux_abi, 4);
	CHECK_EQ_I(personality_of(&im, 4096), PERSONALITY_SEED);
}
