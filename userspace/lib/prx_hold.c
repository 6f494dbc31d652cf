// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Packets held per undecided unit (spec 14.5, with section 8.1's copy
 * rule): up to DLIB_PRX_COPIES distinct packets per record, in arrival order,
 * never replaced, so a damaged or forged copy that came first never
 * deletes the genuine one; at most DLIB_PRX_UNITS units per device, and
 * when they are all taken the unit farthest from the cursor with nothing
 * decided in it gives way to a nearer one (the genuine position of a
 * packet is almost always its nearest candidate).
 */
#include <stdlib.h>

#include "prx.h"

/* A free slot for (@e, @u), or the farthest undecided one past it. */
static struct dlib_punit *new_unit(struct dlib_pdev *d, uint64_t e, uint32_t u)
{
	struct dlib_punit *far = NULL, *pu;
	unsigned int i;

	for (i = 0; i < DLIB_PRX_UNITS; i++) {
		pu = &d->unit[i];
		if (!pu->used)
			goto take;
		if (pu->bits.rel || pu->bits.ver)
			continue;	/* stored bitmaps stay */
		if (!far || dlib_pos_before(far->bits.e, far->bits.u,
					    pu->bits.e, pu->bits.u))
			far = pu;
	}
	if (!far || !dlib_pos_before(e, u, far->bits.e, far->bits.u))
		return NULL;
	pu = far;
	dlib_prx_unit_drop(pu);
take:
	pu->used = 1;
	pu->bits.e = e;
	pu->bits.u = u;
	return pu;
}

int dlib_prx_hold(struct diamond_prx *x, struct dlib_pdev *d,
		  const uint8_t *pkt, size_t len, uint64_t e, uint32_t u,
		  unsigned int r, struct dlib_punit **out)
{
	struct dlib_punit *pu = dlib_prx_unit(d, e, u);
	unsigned int c;
	uint8_t *copy;

	(void)x;
	if (!pu)
		pu = new_unit(d, e, u);
	*out = pu;
	if (!pu)
		return 2;
	for (c = 0; c < pu->ncopy[r]; c++)
		if (pu->len[r][c] == len && !memcmp(pu->pkt[r][c], pkt, len))
			return 1;
	if (pu->ncopy[r] == DLIB_PRX_COPIES)
		return 2;
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, pkt, len);
	pu->pkt[r][pu->ncopy[r]] = copy;
	pu->len[r][pu->ncopy[r]++] = (uint16_t)len;
	return 0;
}
