/* compat/linux/personality.c - the personality's name (personality.h). */
#include "compat/linux/personality.h"
