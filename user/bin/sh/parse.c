/* user/bin/sh/parse.c - the shell's grammar (the comment at the top of
 * user/bin/sh.c gives it): words with quoting and $ expansions, '|'
 * between commands, '<', '>' and '>>' redirections, a trailing '&'. */
#include "sh.h"
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "ctype.h"
#include "unistd.h"

static void put(struct store *s, char c)
{
	if (s->len < sizeof(s->buf))
		s->buf[s->len++] = c;
	else
		s->overflow = true;
}

static void put_str(struct store *s, const char *str)
{
	while (*str)
		put(s, *str++);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Bytes that end an unquoted word: blanks and the operators. */
static bool special(char c)
{
	return blank(c) || c == '&' || c == '|' || c == '<' || c == '>';
}

static bool name_char(char c, bool first)
{
	return c == '_' || isalpha((unsigned char)c) || (!first && isdigit((unsigned char)c));
}

/* Expands the $ at p into s; returns what follows it. A '$' that starts
 * no expansion stays a '$'. */
static const char *expand(const char *p, struct store *s)
{
	char num[16], name[64];
	size_t n = 0;

	if (p[1] == '?' || p[1] == '$') {
		snprintf(num, sizeof(num), "%d", p[1] == '?' ? last_status : getpid());
		put_str(s, num);
		return p + 2;
	}
	if (p[1] == '{') {
		const char *close = strchr(p + 2, '}');
		if (!close || close == p + 2 || (size_t)(close - p - 2) >= sizeof(name)) {
			put(s, '$');
			return p + 1;
		}
		memcpy(name, p + 2, (size_t)(close - p - 2));
		name[close - p - 2] = '\0';
		p = close + 1;
	} else if (name_char(p[1], true)) {
		for (p++; name_char(*p, false) && n < sizeof(name) - 1; p++)
			name[n++] = *p;
		name[n] = '\0';
	} else {
		put(s, '$');
		return p + 1;
	}
	const char *value = getenv(name);
	if (value)
		put_str(s, value);
	return p;
}

static bool syntax(const char *what)
{
	fprintf(stderr, "sh: syntax error: %s\n", what);
	return false;
}

/* One word at *pp into s; *word is NULL when an unquoted expansion left
 * it empty (no word). false on a syntax error. */
static bool word(const char **pp, struct store *s, char **out)
{
	const char *p = *pp;
	size_t start = s->len;
	bool quoted = false;

	while (*p && !special(*p)) {
		if (*p == '\'') {
			const char *close = strchr(p + 1, '\'');
			if (!close)
				return syntax("no closing '");
			for (p++; p < close; p++)
				put(s, *p);
			p++;
			quoted = true;
		} else if (*p == '"') {
			for (p++; *p && *p != '"';) {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$')) {
					put(s, p[1]);
					p += 2;
				} else if (*p == '$') {
					p = expand(p, s);
				} else {
					put(s, *p++);
				}
			}
			if (!*p)
				return syntax("no closing \"");
			p++;
			quoted = true;
		} else if (*p == '\\') {
			if (p[1] && p[1] != '\n')
				put(s, p[1]);
			p += p[1] ? 2 : 1;
			quoted = true;
		} else if (*p == '$') {
			p = expand(p, s);
		} else {
			put(s, *p++);
		}
	}
	*pp = p;
	*out = NULL;
	if (s->len == start && !quoted)
		return true;            /* an empty expansion: no word */
	put(s, '\0');
	if (s->overflow) {
		fprintf(stderr, "sh: line too long after expansion\n");
		return false;
	}
	*out = s->buf + start;
	return true;
}

bool parse(const char *line, struct pipeline *pl, struct store *s)
{
	const char *p = line;
	struct command *c = &pl->cmd[0];
	char **redirect = NULL;         /* a '<' or '>' waiting for its file */

	memset(pl, 0, sizeof(*pl));
	s->len = 0;
	s->overflow = false;
	pl->n = 1;
	for (;;) {
		char *w;

		while (blank(*p))
			p++;
		if (!*p || *p == '#' || *p == '&' || *p == '|' || *p == '<' || *p == '>') {
			if (redirect)
				return syntax("a redirection needs a file name");
		}
		if (!*p || *p == '#')
			break;
		if (*p == '&') {
			for (p++; blank(*p); p++)
				;
			if ((*p && *p != '#') || c->argc == 0)
				return syntax("'&' ends a command");
			pl->background = true;
			break;
		}
		if (*p == '|') {
			if (c->argc == 0)
				return syntax("'|' needs a command on each side");
			if (pl->n == PIPE_MAX) {
				fprintf(stderr, "sh: at most %d commands in a pipeline\n", PIPE_MAX);
				return false;
			}
			c = &pl->cmd[pl->n++];
			p++;
			continue;
		}
		if (*p == '<' || *p == '>') {
			c->append = p[0] == '>' && p[1] == '>';
			redirect = *p == '<' ? &c->in : &c->out;
			p += c->append ? 2 : 1;
			continue;
		}
		if (!word(&p, s, &w))
			return false;
		if (!w)
			continue;
		if (redirect) {
			*redirect = w;
			redirect = NULL;
		} else if (c->argc == WORDS_MAX) {
			fprintf(stderr, "sh: too many words (at most %d)\n", WORDS_MAX);
			return false;
		} else {
			c->argv[c->argc++] = w;
		}
	}
	if (c->argc == 0 && (pl->n > 1 || c->in || c->out))
		return syntax(pl->n > 1 ? "'|' needs a command on each side"
				       : "a redirection needs a command");
	if (pl->n == 1 && c->argc == 0)
		pl->n = 0;              /* blank, or only a comment */
	return true;
}
