/* tests/guest/ktest_vm_ctx.c - group vm's context (vm_begin, vm_end and
 * the address spaces a test makes) and the helpers its files share;
 * tests/guest/ktest_vm.h describes them. No tests here. */
#include "tests/guest/ktest_vm.h"

void vm_begin(struct vm_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->free_frames = pmm_free_frames();
	for (struct objcache *oc = kmem_caches(); oc && c->ncaches < MAX_CACHES; oc = oc->next) {
		c->cache[c->ncaches] = oc;
		c->inuse[c->ncaches++] = oc->nr_inuse;
	}
	c->saved_active = this_cpu()->active_mm;
	if (current)
		c->saved_mm = current->mm;
}

struct mm *vm_new(struct vm_ctx *c, struct mm *mm)
{
	for (int i = 0; i < MAX_MMS; i++)
		if (!c->mms[i]) {
			c->mms[i] = mm;
			return mm;
		}
	ktest_fail(__FILE__, __LINE__, "too many mms in one test");
	return mm;
}

void vm_drop(struct vm_ctx *c, struct mm *mm)
{
	for (int i = 0; i < MAX_MMS; i++)
		if (c->mms[i] == mm)
			c->mms[i] = NULL;
	mm_put(mm);
}

void vm_enter(struct mm *mm)
{
	current->mm = mm;
	switch_mm(this_cpu()->active_mm, mm);
}

void vm_end(struct vm_ctx *c)
{
	if (current)
		current->mm = c->saved_mm;
	switch_mm(this_cpu()->active_mm, c->saved_active);
	for (int i = 0; i < MAX_MMS; i++)
		if (c->mms[i])
			mm_put(c->mms[i]);
	if (pmm_free_frames() != c->free_frames)
		ktest_fail(__FILE__, __LINE__, "free frames %u, were %u",
			   pmm_free_frames(), c->free_frames);
	for (int i = 0; i < c->ncaches; i++)
		if (c->cache[i]->nr_inuse != c->inuse[i])
			ktest_fail(__FILE__, __LINE__, "cache %s: %u in use, were %u",
				   c->cache[i]->name, c->cache[i]->nr_inuse, c->inuse[i]);
}

bool areas_match(struct mm *mm, const struct area *want, int n)
{
	const struct vma *v = mm->vmas;
	int i;

	for (i = 0; i < n && v; i++, v = v->next)
		if (v->start != want[i].start || v->end != want[i].end ||
		    v->prot != want[i].prot || v->flags != want[i].flags)
			break;
	if (i == n && !v)
		return true;
	kprintf("  areas:");
	for (v = mm->vmas; v; v = v->next)
		kprintf(" [%08x,%08x) p%u f%u", v->start, v->end, v->prot, v->flags);
	kprintf("\n");
	return false;
}

int build_busy_mm(struct mm *mm)
{
	int err = vm_add_area(mm, A, 8 * P, RW, 0);

	if (!err)
		err = vm_add_area(mm, A + 16 * P, 2 * P, PROT_READ, 0);
	if (!err)
		err = vm_add_area(mm, 0x20000000u, 4 * P, RW, 0);
	if (err)
		return err;
	vm_enter(mm);
	for (uint32_t i = 0; i < 8; i++)
		if (put32(A + i * P, i))
			return -EFAULT;
	for (uint32_t i = 0; i < 4; i += 2)
		if (put32(0x20000000u + i * P, i))
			return -EFAULT;
	return get32(A + 16 * P) == 0 ? 0 : -EFAULT;
}
