/* lib/list.h - intrusive circular doubly-linked lists (Linux's list_head).
 *
 * A struct list is both the head of a list and the link inside each
 * element; container_of() gets from the link back to the element. An
 * empty list points at itself, so insertion and removal never branch. */
#ifndef LIB_LIST_H
#define LIB_LIST_H

#include "lib/types.h"

struct list {
	struct list *next, *prev;
};

#define LIST_INIT(name) { &(name), &(name) }

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)

static inline void list_init(struct list *l)
{
	l->next = l->prev = l;
}

static inline bool list_empty(const struct list *l)
{
	return l->next == l;
}

static inline void list__insert(struct list *n, struct list *prev, struct list *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* Adds n right after head (a stack) or right before it (a queue). */
static inline void list_add(struct list *n, struct list *head)
{
	list__insert(n, head, head->next);
}

static inline void list_add_tail(struct list *n, struct list *head)
{
	list__insert(n, head->prev, head);
}

/* Unlinks n and leaves it pointing at itself (so list_empty(n) is true
 * and a second list_del is harmless). */
static inline void list_del(struct list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	list_init(n);
}

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_safe(pos, tmp, head) \
	for (pos = (head)->next, tmp = pos->next; pos != (head); \
	     pos = tmp, tmp = pos->next)

#endif
