/* kernel/elf.h - the parts of ELF32 that exec reads (System V ABI,
 * "Object Files", and its Intel386 supplement). */
#ifndef KERNEL_ELF_H
#define KERNEL_ELF_H

#include "lib/types.h"

#define EI_NIDENT   16
#define ELFMAG      "\177ELF"
#define EI_CLASS    4
#define ELFCLASS32  1
#define EI_DATA     5
#define ELFDATA2LSB 1
#define EI_VERSION  6
#define ET_EXEC     2
#define EM_386      3
#define EV_CURRENT  1

#define PT_LOAD     1
#define PT_DYNAMIC  2
#define PT_INTERP   3          /* the path of a dynamic loader */
#define PT_NOTE     4          /* notes: name, type, descriptor */
#define PT_TLS      7
#define PF_X        1
#define PF_W        2
#define PF_R        4

struct elf32_ehdr {
	uint8_t e_ident[EI_NIDENT];
	uint16_t e_type, e_machine;
	uint32_t e_version, e_entry, e_phoff, e_shoff, e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};
_Static_assert(sizeof(struct elf32_ehdr) == 52, "ELF32 header is 52 bytes");

struct elf32_phdr {
	uint32_t p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align;
};
_Static_assert(sizeof(struct elf32_phdr) == 32, "ELF32 program header is 32 bytes");

/* A note's header; name and descriptor follow, each padded to 4 bytes.
 * The GNU ABI tag (.note.ABI-tag): name "GNU", type 1, descriptor of
 * four words: OS (0 = Linux), then the oldest kernel version it needs. */
struct elf32_note {
	uint32_t n_namesz, n_descsz, n_type;
};
#define NT_GNU_ABI_TAG 1
#define ELF_NOTE_OS_LINUX 0

/* Do the len bytes of one PT_NOTE segment's contents hold the GNU ABI
 * tag with OS Linux (kernel/elf_note.c)? Malformed notes say no. */
bool elf_notes_say_linux(const uint8_t *notes, uint32_t len);

#endif
