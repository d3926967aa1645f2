/* user/lib/ctype.h - character classes, "C" locale only (C11 7.4).
 *
 * c is an unsigned char value or EOF (-1); in the "C" locale the bytes
 * 128-255 belong to no class. Functions, not glibc's table macros, so
 * that a student can step into them. */
#ifndef USER_CTYPE_H
#define USER_CTYPE_H

int isalnum(int c);
int isalpha(int c);
int isblank(int c);     /* ' ' and '\t' */
int iscntrl(int c);     /* 0-31 and 127 */
int isdigit(int c);
int isgraph(int c);     /* printable, not ' ' */
int islower(int c);
int isprint(int c);     /* 32-126 */
int ispunct(int c);     /* graph, not alnum */
int isspace(int c);     /* ' ' \t \n \v \f \r */
int isupper(int c);
int isxdigit(int c);
int tolower(int c);
int toupper(int c);

#endif
