/* user/lib/getenv.c - getenv over environ (start.c sets it from the
 * envp the kernel passed; abi.md section 2). */
#include "stdlib.h"
#include "string.h"
#include "unistd.h"

char *getenv(const char *name)
{
	size_t n = strlen(name);

	if (!environ || n == 0 || strchr(name, '='))
		return NULL;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}
