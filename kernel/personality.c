/* kernel/personality.c - which personality a program gets (personality.h). */
#include "kernel/personality.h"
#include "kernel/elf.h"
#include "lib/string.h"

const char *personality_name(int personality)
{
	return personality == PERSONALITY_LINUX ? "linux" : "seed";
}

static uint32_t note_pad(uint32_t n)
{
	return (n + 3) & ~3u;
}

/* Does the note area [off, off+len) of the image hold the GNU ABI tag
 * with OS Linux? Every size is checked against the area first. */
static bool has_gnu_abi_tag(const uint8_t *img, uint32_t off, uint32_t len)
{
	while (len >= sizeof(struct elf32_note)) {
		const struct elf32_note *n = (const void *)(img + off);
		uint32_t name = note_pad(n->n_namesz), desc = note_pad(n->n_descsz);
		uint32_t rest = len - sizeof(*n);
		uint32_t os;

		/* note_pad of a huge size wraps to a small one: check both. */
		if (name < n->n_namesz || desc < n->n_descsz || name > rest || desc > rest - name)
			return false;
		if (n->n_type == NT_GNU_ABI_TAG && n->n_namesz == 4 && n->n_descsz >= 16 &&
		    memcmp(img + off + sizeof(*n), "GNU", 4) == 0) {
			memcpy(&os, img + off + sizeof(*n) + name, 4);
			if (os == ELF_NOTE_OS_LINUX)
				return true;
		}
		off += (uint32_t)sizeof(*n) + name + desc;
		len = rest - name - desc;
	}
	return false;
}

bool elf_notes_say_linux(const uint8_t *notes, uint32_t len)
{
	return has_gnu_abi_tag(notes, 0, len);
}

enum personality elf_personality(const struct elf32_ehdr *eh, const struct elf32_phdr *ph,
				 uint32_t size)
{
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_NOTE || ph[i].p_offset > size ||
		    ph[i].p_filesz > size - ph[i].p_offset || (ph[i].p_offset & 3))
			continue;
		if (has_gnu_abi_tag((const uint8_t *)eh, ph[i].p_offset, ph[i].p_filesz))
			return PERSONALITY_LINUX;
	}
	return PERSONALITY_SEED;
}
