/* tests/unit/test_personality.c - kernel/personality.c's reading of the
 * GNU ABI note (abi.md section 9) on ELF images built here: the note as
 * glibc links it, other notes before it, a non-Linux OS word, and
 * malformed notes whose sizes run past the segment or wrap. Each image is
 * a heap copy of exactly its size, so ASan reports any read past it. */
#include "tests/unit/unit.h"
#include "kernel/elf.h"
#include "kernel/personality.h"

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

/* The personality of an image with one PT_NOTE over [NOTE_OFF, im->len),
 * or over filesz bytes when filesz is not 0. */
static int personality_of(struct image *im, uint32_t filesz)
{
	struct elf32_ehdr eh;
	struct elf32_phdr ph;
	unsigned char *copy;
	int p;

	memset(&eh, 0, sizeof(eh));
	memset(&ph, 0, sizeof(ph));
	eh.e_phoff = sizeof(eh);
	eh.e_phnum = 1;
	ph.p_type = PT_NOTE;
	ph.p_offset = NOTE_OFF;
	ph.p_filesz = filesz ? filesz : im->len - NOTE_OFF;
	memcpy(im->b, &eh, sizeof(eh));
	memcpy(im->b + sizeof(eh), &ph, sizeof(ph));
	copy = malloc(im->len);
	memcpy(copy, im->b, im->len);
	p = elf_personality((const struct elf32_ehdr *)copy,
			    (const struct elf32_phdr *)(copy + sizeof(eh)), im->len);
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
