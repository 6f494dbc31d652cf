// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The distinct copies of one tag frame (an epoch tag or a group tag) an
 * open epoch holds, in arrival order (spec section 8.1). Someone on the
 * radio link can repeat and damage frames: a damaged copy, before or
 * after the genuine one, must not replace it, so each distinct copy is
 * kept, up to DLIB_COPIES; repeats and copies past the bound are dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Is @f one of the copies @t holds already? */
static int held(const struct dlib_tags *t, const struct diamond_frame *f)
{
	unsigned int c;

	for (c = 0; c < t->have; c++)
		if (t->n[c] == f->index && t->len[c] == f->len &&
		    !memcmp(t->p[c], f->payload, f->len))
			return 1;
	return 0;
}

int dlib_tags_hold(struct dlib_tags *t, const struct diamond_frame *f)
{
	uint8_t *p;

	if (held(t, f) || t->have == DLIB_COPIES)
		return 1;
	p = malloc(f->len ? f->len : 1);
	if (!p)
		return -ENOMEM;
	memcpy(p, f->payload, f->len);
	t->p[t->have] = p;
	t->len[t->have] = f->len;
	t->n[t->have] = f->index;
	t->have++;
	return 0;
}

size_t dlib_tags_bytes(const struct dlib_tags *t)
{
	size_t sum = 0;
	unsigned int c;

	for (c = 0; c < t->have; c++)
		sum += t->len[c];
	return sum;
}

void dlib_tags_free(struct dlib_tags *t)
{
	unsigned int c;

	for (c = 0; c < t->have; c++)
		free(t->p[c]);	/* ciphertext: nothing to wipe */
	memset(t, 0, sizeof(*t));
}
