/* user/lib/elf.h - the ELF32 headers a program may want to read about
 * itself (System V ABI, "Object Files"). */
#ifndef USER_ELF_H
#define USER_ELF_H

#include "lib/types.h"

#define EI_NIDENT  16
#define EI_CLASS   4
#define ELFCLASS32 1
#define ET_EXEC    2
#define EM_386     3
#define PT_LOAD    1
#define PT_PHDR    6

typedef struct {
	unsigned char e_ident[EI_NIDENT];
	uint16_t e_type;
	uint16_t e_machine;
	uint32_t e_version;
	uint32_t e_entry;
	uint32_t e_phoff;
	uint32_t e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize;
	uint16_t e_phentsize;
	uint16_t e_phnum;
	uint16_t e_shentsize;
	uint16_t e_shnum;
	uint16_t e_shstrndx;
} Elf32_Ehdr;

typedef struct {
	uint32_t p_type;
	uint32_t p_offset;
	uint32_t p_vaddr;
	uint32_t p_paddr;
	uint32_t p_filesz;
	uint32_t p_memsz;
	uint32_t p_flags;
	uint32_t p_align;
} Elf32_Phdr;

_Static_assert(sizeof(Elf32_Ehdr) == 52, "ELF32 header is 52 bytes");
_Static_assert(sizeof(Elf32_Phdr) == 32, "ELF32 program header is 32 bytes");

/* The linker's name for this program's own ELF header: the first bytes
 * of its first PT_LOAD segment (user/user.ld maps the headers). */
extern const Elf32_Ehdr __ehdr_start;

#endif
