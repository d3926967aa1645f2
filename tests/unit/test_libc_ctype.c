/* tests/unit/test_libc_ctype.c - user/lib/ctype.c against glibc's "C"
 * locale, for every argument a ctype function may take (EOF and 0-255).
 *
 * glibc's <ctype.h> makes isdigit(c) a macro that reads glibc's table:
 * that is the reference. Ours are reached through the function names,
 * by pointer (volatile, so gcc cannot fold the calls as builtins); in
 * this process they replace glibc's out-of-line functions, which glibc
 * itself does not call. */
#include "tests/unit/unit.h"
#include <ctype.h>

typedef int (*ctype_fn)(int);

#define OURS(name) ((ctype_fn volatile)(name))

static void compare(const char *name, ctype_fn ours, int (*ref)(int))
{
	for (int c = -1; c < 256; c++)
		if (!ours(c) != !ref(c)) {
			unit_fail(__FILE__, __LINE__, "%s(%d): ours %d, glibc %d", name, c,
				  ours(c), ref(c));
			return;
		}
}

/* glibc's macros, as functions of c. */
static int ref_alnum(int c) { return isalnum(c); }
static int ref_alpha(int c) { return isalpha(c); }
static int ref_blank(int c) { return isblank(c); }
static int ref_cntrl(int c) { return iscntrl(c); }
static int ref_digit(int c) { return isdigit(c); }
static int ref_graph(int c) { return isgraph(c); }
static int ref_lower(int c) { return islower(c); }
static int ref_print(int c) { return isprint(c); }
static int ref_punct(int c) { return ispunct(c); }
static int ref_space(int c) { return isspace(c); }
static int ref_upper(int c) { return isupper(c); }
static int ref_xdigit(int c) { return isxdigit(c); }

TEST(classes_match_the_c_locale)
{
	compare("isalnum", OURS(isalnum), ref_alnum);
	compare("isalpha", OURS(isalpha), ref_alpha);
	compare("isblank", OURS(isblank), ref_blank);
	compare("iscntrl", OURS(iscntrl), ref_cntrl);
	compare("isdigit", OURS(isdigit), ref_digit);
	compare("isgraph", OURS(isgraph), ref_graph);
	compare("islower", OURS(islower), ref_lower);
	compare("isprint", OURS(isprint), ref_print);
	compare("ispunct", OURS(ispunct), ref_punct);
	compare("isspace", OURS(isspace), ref_space);
	compare("isupper", OURS(isupper), ref_upper);
	compare("isxdigit", OURS(isxdigit), ref_xdigit);
}

TEST(case_mapping)
{
	ctype_fn lower = OURS(tolower), upper = OURS(toupper);

	for (int c = -1; c < 256; c++) {
		int want_l = (c >= 'A' && c <= 'Z') ? c + 32 : c;
		int want_u = (c >= 'a' && c <= 'z') ? c - 32 : c;

		if (lower(c) != want_l || upper(c) != want_u) {
			unit_fail(__FILE__, __LINE__, "tolower/toupper(%d) = %d/%d", c,
				  lower(c), upper(c));
			return;
		}
	}
}
