/* user/lib/ctype.c - character classes in the "C" locale (ctype.h):
 * ASCII ranges, nothing above 127. */
#include "ctype.h"

static int in(int c, int lo, int hi)
{
	return c >= lo && c <= hi;
}

int isdigit(int c) { return in(c, '0', '9'); }
int islower(int c) { return in(c, 'a', 'z'); }
int isupper(int c) { return in(c, 'A', 'Z'); }
int isalpha(int c) { return islower(c) || isupper(c); }
int isalnum(int c) { return isalpha(c) || isdigit(c); }
int isxdigit(int c) { return isdigit(c) || in(c, 'a', 'f') || in(c, 'A', 'F'); }
int isblank(int c) { return c == ' ' || c == '\t'; }
int isspace(int c) { return c == ' ' || in(c, '\t', '\r'); }   /* \t \n \v \f \r */
int iscntrl(int c) { return in(c, 0, 31) || c == 127; }
int isprint(int c) { return in(c, ' ', '~'); }
int isgraph(int c) { return in(c, '!', '~'); }
int ispunct(int c) { return isgraph(c) && !isalnum(c); }
int tolower(int c) { return isupper(c) ? c - 'A' + 'a' : c; }
int toupper(int c) { return islower(c) ? c - 'a' + 'A' : c; }
