/* kernel/elf_note.c - the GNU ABI note: is this program a Linux one?
 * (abi.md section 9; kernel/elf.h). execve reads each PT_NOTE segment
 * and asks: with the Linux layer such a program gets the linux
 * personality, without it (the seed kernel) execve refuses it. */
#include "kernel/elf.h"
#include "lib/string.h"

static uint32_t note_pad(uint32_t n)
{
	return (n + 3) & ~3u;
}

/* Every size is checked against what is left of the area first. */
bool elf_notes_say_linux(const uint8_t *notes, uint32_t len)
{
	uint32_t off = 0;

	while (len >= sizeof(struct elf32_note)) {
		const struct elf32_note *n = (const void *)(notes + off);
		uint32_t name = note_pad(n->n_namesz), desc = note_pad(n->n_descsz);
		uint32_t rest = len - sizeof(*n);
		uint32_t os;

		/* note_pad of a huge size wraps to a small one: check both. */
		if (name < n->n_namesz || desc < n->n_descsz || name > rest || desc > rest - name)
			return false;
		if (n->n_type == NT_GNU_ABI_TAG && n->n_namesz == 4 && n->n_descsz >= 16 &&
		    memcmp(notes + off + sizeof(*n), "GNU", 4) == 0) {
			memcpy(&os, notes + off + sizeof(*n) + name, 4);
			if (os == ELF_NOTE_OS_LINUX)
				return true;
		}
		off += (uint32_t)sizeof(*n) + name + desc;
		len = rest - name - desc;
	}
	return false;
}
